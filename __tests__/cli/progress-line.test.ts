/**
 * src/cli/progress-line.ts: on a terminal a counted progress line replaces the one before it (one
 * updating line), and every other line, or any line in a log, is written as it comes.
 */
import { describe, expect, it } from '@jest/globals'
import { progressSink } from '../../src/cli/progress-line.js'
import type { CliIo } from '../../src/cli/io.js'

function sinkOn(terminal: boolean): { say: (line: string) => void; written: () => string } {
  let out = ''
  const io: CliIo = { stdout: () => {}, stderr: s => (out += s), env: {}, cwd: '/', stderrIsTerminal: terminal }
  return { say: progressSink(io), written: () => out }
}

const LINES = [
  'helm-gate: baseline vs candidate',
  'helm-gate: fidelity: baseline, 15 of 150 instances (10%)',
  'helm-gate: fidelity: baseline, 30 of 150 instances (20%)',
  'helm-gate: fidelity: candidate, 15 of 150 instances (10%)',
  'helm-gate: fidelity: candidate, 150 of 150 instances (100%)',
  'helm-gate: quality: done'
]

describe('progressSink', () => {
  it('writes every line as it comes where standard error is not a terminal', () => {
    const { say, written } = sinkOn(false)
    for (const line of LINES) say(line)
    expect(written()).toBe(LINES.map(l => `${l}\n`).join(''))
  })

  it('on a terminal, rewrites a count in place and ends it at its last count or the next other line', () => {
    const { say, written } = sinkOn(true)
    for (const line of LINES) say(line)
    expect(written()).toBe(
      [
        'helm-gate: baseline vs candidate\n',
        'helm-gate: fidelity: baseline, 15 of 150 instances (10%)',
        '\r\x1b[2Khelm-gate: fidelity: baseline, 30 of 150 instances (20%)',
        // Another count starts on a line of its own; the unfinished one stays as it was.
        '\nhelm-gate: fidelity: candidate, 15 of 150 instances (10%)',
        '\r\x1b[2Khelm-gate: fidelity: candidate, 150 of 150 instances (100%)\n',
        'helm-gate: quality: done\n'
      ].join('')
    )
  })

  it('ends an unfinished count before an error line', () => {
    const { say, written } = sinkOn(true)
    say('helm-gate: fidelity: baseline, 15 of 150 instances (10%)')
    say('helm-gate: fidelity: the candidate gave an empty answer')
    expect(written()).toBe(
      'helm-gate: fidelity: baseline, 15 of 150 instances (10%)\nhelm-gate: fidelity: the candidate gave an empty answer\n'
    )
  })
})
