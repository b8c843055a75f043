/**
 * The CLI's progress sink (standard error). A counted line ("helm-gate: fidelity: baseline, 15 of
 * 150 instances (10%)") replaces the counted line before it on a terminal, so a long measurement is
 * one updating line; in a CI log or a file every line stays, and measurements only report a count
 * every 10 % (docs/cli.md "Progress").
 */
import type { CliIo } from './io.js'

const COUNTED = /^(.*), (\d+) of (\d+) /

export function progressSink(io: CliIo): (line: string) => void {
  /** What the counted line on screen counts (the text before the count), while it is unfinished. */
  let shown: string | null = null
  return line => {
    const counted = io.stderrIsTerminal ? COUNTED.exec(line) : null
    if (counted === null) {
      io.stderr(`${shown !== null ? '\n' : ''}${line}\n`)
      shown = null
      return
    }
    const finished = counted[2] === counted[3]
    const start = shown === null ? '' : shown === counted[1] ? '\r\x1b[2K' : '\n'
    io.stderr(`${start}${line}${finished ? '\n' : ''}`)
    shown = finished ? null : counted[1]
  }
}
