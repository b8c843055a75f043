/**
 * The job log, folded by phase: every mode shows its phases (gate file, baseline, helm-run, each
 * side's output, compare, publish) each under its own `::group::`, so a reader opens the one
 * that failed instead of scrolling thousands of interleaved helm-run lines.
 *
 * GitHub's log groups do not nest: an inner `::endgroup::` would close the outer one. So phases
 * follow each other flat: starting one closes the one that is open.
 *
 * helm-run's own output is not streamed (both sides run at once and would interleave); it goes
 * to each side's log file, and once the sides are done each file is replayed under a group of
 * its own. Every replayed line keeps its `[side]` prefix, so no line helm-run (or a model's
 * answer it prints) writes can start with `::` and be taken for a workflow command.
 */
import { open } from 'node:fs/promises'
import type { ActionIO } from './deps.js'
import type { SideLog } from '../pipeline/run-gate.js'

export class JobLog {
  private open = false

  constructor(private readonly io: Pick<ActionIO, 'startGroup' | 'endGroup' | 'info' | 'warning'>) {}

  /** Folds what `fn` logs under `title`; a phase left open by `fn` (see `start`) is closed at the end. */
  async phase<T>(title: string, fn: () => Promise<T>): Promise<T> {
    this.start(title)
    try {
      return await fn()
    } finally {
      this.end()
    }
  }

  /** Closes the open phase, if any, and opens the next. */
  start(title: string): void {
    this.end()
    this.io.startGroup(`helm-gate: ${title}`)
    this.open = true
  }

  end(): void {
    if (!this.open) return
    this.io.endGroup()
    this.open = false
  }

  /** Each side's log file under a group of its own, one after the other. */
  async replay(logs: readonly SideLog[]): Promise<void> {
    for (const log of logs) {
      this.start(log.title)
      try {
        // readLines() closes the file when it has been read.
        const file = await open(log.file)
        for await (const line of file.readLines()) this.io.info(`${log.prefix} ${line}`)
      } catch (error) {
        // A side that never started has no log; its error is in the report. One line says so,
        // instead of an empty group a reader would open for nothing.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT')
          this.io.info(`${log.prefix} (no output: it never started; the reason is in the report)`)
        else this.io.warning(`could not show ${log.title}: ${(error as Error).message}`)
      }
    }
  }
}
