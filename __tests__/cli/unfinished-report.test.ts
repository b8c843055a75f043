/** The output folder of a run that ended on an error says so, once the run has put anything there. */
import { describe, expect, it } from '@jest/globals'
import { mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { reportFailure } from '../../src/cli/unfinished-report.js'
import type { CliIo } from '../../src/cli/io.js'
import { DEFAULT_STATISTICS } from '../../src/config/types.js'
import { LaunchError } from '../../src/errors.js'
import type { Report } from '../../src/model/report.js'

function quietIo(): CliIo & { printed: string } {
  const io = { printed: '', env: {}, cwd: '/', stdout: (s: string) => (io.printed += s), stderr: (s: string) => (io.printed += s) }
  return io
}

const refused = new LaunchError('launch.address_in_use', 'something already answers at http://127.0.0.1:1/v1', {
  field: 'deployments.candidate.base_url'
})

describe('reportFailure', () => {
  it('writes the error into a folder the run has started to fill, without printing it (the top level does)', async () => {
    const out = await mkdtemp(join(tmpdir(), 'helm-gate-failure-'))
    await mkdir(join(out, 'logs'))
    await writeFile(join(out, 'logs', 'baseline-server.log'), 'listening\n')
    const io = quietIo()
    await reportFailure(out, refused, DEFAULT_STATISTICS, io, true)
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report
    expect(report.verdict).toBe('error')
    expect(report.errors).toEqual([
      {
        code: 'launch.address_in_use',
        message: 'something already answers at http://127.0.0.1:1/v1',
        field: 'deployments.candidate.base_url'
      }
    ])
    expect(report.headline).toBe('Error: the gate stopped before comparing: something already answers at http://127.0.0.1:1/v1')
    expect(await readFile(join(out, 'report.md'), 'utf8')).toContain('already answers at')
    expect(await readFile(join(out, 'report.html'), 'utf8')).toContain('launch.address_in_use')
    expect(io.printed).toBe('')
  })

  it('leaves an empty or missing folder alone: nothing of the run is there to explain', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'helm-gate-failure-'))
    await reportFailure(empty, refused, DEFAULT_STATISTICS, quietIo(), true)
    expect(await readdir(empty)).toEqual([])
    const missing = join(empty, 'never-created')
    await reportFailure(missing, refused, DEFAULT_STATISTICS, quietIo(), false)
    expect(await readdir(empty)).toEqual([])
  })

  it('never replaces a report already written (a finished run whose --json copy failed)', async () => {
    const out = await mkdtemp(join(tmpdir(), 'helm-gate-failure-'))
    await writeFile(join(out, 'report.json'), '{"verdict":"pass"}')
    await reportFailure(out, refused, DEFAULT_STATISTICS, quietIo(), true)
    expect(await readFile(join(out, 'report.json'), 'utf8')).toBe('{"verdict":"pass"}')
    expect(await readdir(out)).toEqual(['report.json'])
  })

  it('without html (load), writes report.json and report.md only', async () => {
    const out = await mkdtemp(join(tmpdir(), 'helm-gate-failure-'))
    await writeFile(join(out, 'load-timings.jsonl'), '')
    await reportFailure(out, new Error('socket hang up'), DEFAULT_STATISTICS, quietIo(), false)
    expect((await readdir(out)).sort()).toEqual(['load-timings.jsonl', 'report.json', 'report.md'])
    const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8')) as Report
    expect(report.errors).toEqual([{ code: 'internal', message: 'socket hang up' }])
  })
})
