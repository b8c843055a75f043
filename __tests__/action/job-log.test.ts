import { describe, expect, it } from '@jest/globals'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { JobLog } from '../../src/action/job-log.js'

/** The lines @actions/core would write, as the runner reads them. */
function recorder() {
  const lines: string[] = []
  const io = {
    startGroup: (title: string) => lines.push(`::group::${title}`),
    endGroup: () => lines.push('::endgroup::'),
    info: (message: string) => lines.push(message),
    warning: (message: string) => lines.push(`::warning::${message}`)
  }
  return { lines, log: new JobLog(io) }
}

describe('JobLog', () => {
  it('keeps phases flat: starting one closes the open one, since GitHub log groups do not nest', async () => {
    const { lines, log } = recorder()
    await log.phase('helm-run', async () => {
      lines.push('progress')
      log.start('compare')
      lines.push('comparing')
    })
    await log.phase('publish', async () => undefined)
    expect(lines).toEqual([
      '::group::helm-gate: helm-run',
      'progress',
      '::endgroup::',
      '::group::helm-gate: compare',
      'comparing',
      '::endgroup::',
      '::group::helm-gate: publish',
      '::endgroup::'
    ])
  })

  it('closes the group when the phase throws', async () => {
    const { lines, log } = recorder()
    await expect(log.phase('gate file', async () => Promise.reject(new Error('no')))).rejects.toThrow('no')
    expect(lines).toEqual(['::group::helm-gate: gate file', '::endgroup::'])
  })

  it("replays each side's log under its own group, every line prefixed so none can be a workflow command", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'helm-gate-joblog-'))
    await writeFile(path.join(dir, 'baseline.log'), 'b1\n::endgroup::\nb3\n')
    await writeFile(path.join(dir, 'candidate.log'), 'c1\r\nc2')
    const { lines, log } = recorder()
    await log.replay([
      { title: 'baseline helm-run output', prefix: '[baseline]', file: path.join(dir, 'baseline.log') },
      { title: 'candidate helm-run output', prefix: '[candidate]', file: path.join(dir, 'candidate.log') },
      { title: 'baseline server output', prefix: '[baseline server]', file: path.join(dir, 'missing.log') }
    ])
    log.end()
    expect(lines).toEqual([
      '::group::helm-gate: baseline helm-run output',
      '[baseline] b1',
      '[baseline] ::endgroup::',
      '[baseline] b3',
      '::endgroup::',
      '::group::helm-gate: candidate helm-run output',
      '[candidate] c1',
      '[candidate] c2',
      '::endgroup::',
      // A side that never started has no log: one line says so, no warning.
      '::group::helm-gate: baseline server output',
      '[baseline server] (no output: it never started; the reason is in the report)',
      '::endgroup::'
    ])
  })
})
