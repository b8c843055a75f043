/**
 * The real-engine example's sequential gate end to end (examples/real-cpu/sequential.yml,
 * docs/real-engine.md "A sequential gate"): the bundled CLI launches llama.cpp's llama-server
 * twice, F16 and Q8_0 side by side on two ports, runs real helm-run in stages at the file's looks
 * and stops when the confidence sequence decides the one check. Q8_0 changes a handful of the 400
 * answers (the fixed design's interval is about [-0.02, +0.01] against a tolerated drop of 0.05),
 * so the sequence passes it before the budget, spending at most the fixed design's requests;
 * afterwards nothing of the run is left: no server, no port listening, no helm-run. The engine and the model are built on first use (the set-up here,
 * as in the other real-engine tests) and cached per machine. Serial: the ports are fixed.
 */
import { beforeAll, describe, expect, it } from '@jest/globals'
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse } from 'yaml'
import type { Manifest } from '../../src/model/manifest.js'
import type { Report } from '../../src/model/report.js'
import { helmAvailable, REPO_ROOT } from '../../test-support/fake-openai/harness.js'
import { listening } from '../support/listening.js'
import { run } from '../support/spawn.js'

const describeHelm = helmAvailable() ? describe : describe.skip
const GATE = 'examples/real-cpu/sequential.yml'

interface GateFile {
  deployments: Record<'baseline' | 'candidate', { launch: { command: string[] } }>
  sequential: { looks: number[]; budget: number }
}

const gateFile = parse(readFileSync(join(REPO_ROOT, GATE), 'utf8')) as GateFile
const ports = (['baseline', 'candidate'] as const).map(side => {
  const command = gateFile.deployments[side].launch.command
  return Number(command[command.indexOf('--port') + 1])
})

/** Command lines of the processes still running that `matches` (from /proc). */
function processesWith(matches: (cmdline: string) => boolean): string[] {
  const found: string[] = []
  for (const pid of readdirSync('/proc').filter(name => /^\d+$/.test(name))) {
    let cmdline: string
    try {
      cmdline = readFileSync(join('/proc', pid, 'cmdline'), 'utf8')
        .split('\0')
        .join(' ')
    } catch {
      continue // gone while listed
    }
    if (matches(cmdline) && Number(pid) !== process.pid) found.push(`${pid}: ${cmdline}`)
  }
  return found
}

describeHelm('a sequential gate on the real engine (llama.cpp)', () => {
  beforeAll(async () => {
    const prepared = await run('bash', [join(REPO_ROOT, 'scripts', 'real-engine', 'prepare.sh')], {
      cwd: REPO_ROOT,
      timeoutMs: 3_600_000
    })
    expect([prepared.code, prepared.stderr.slice(-3000)]).toEqual([0, prepared.stderr.slice(-3000)])
  }, 3_600_000)

  it('F16 against Q8_0: passes before the budget, spends less than the fixed design, and leaves nothing running', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'helm-gate-real-sequential-')), 'out')
    const markdown = `${out}.md`
    for (const port of ports) expect({ port, before: await listening(port) }).toEqual({ port, before: false })
    const finished = await run(
      process.execPath,
      [join(REPO_ROOT, 'dist', 'cli.js'), 'run', '--config', GATE, '--out', out, '--markdown', markdown],
      { cwd: REPO_ROOT, timeoutMs: 900_000 }
    )
    const context = `exit ${finished.code}\n--- stdout\n${finished.stdout.slice(-4000)}\n--- stderr\n${finished.stderr.slice(-4000)}`
    expect([existsSync(join(out, 'report.json')), context]).toEqual([true, context])
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report

    // Nothing of the run is left: both ports closed, no llama-server started for either of them,
    // and no process (a stage's helm-run) working in the run's output folder.
    for (const port of ports) expect({ port, after: await listening(port) }).toEqual({ port, after: false })
    expect(processesWith(c => c.includes('llama-server') && ports.some(port => c.includes(` --port ${port} `)))).toEqual([])
    expect(processesWith(c => c.includes(out))).toEqual([])

    expect([report.verdict, context]).toEqual(['pass', context])
    expect(finished.code).toBe(0)
    const [row] = report.comparisons
    const seq = row.sequential
    expect(seq).toBeDefined()
    if (!seq) return
    const { looks, budget } = gateFile.sequential
    // The row's verdict is the sequence's decision, certain, at one of the file's looks before
    // the budget: a change this small does not need the fixed design's 400.
    expect(seq).toMatchObject({ decision: 'pass', certain: true, budget })
    expect(row.verdict).toBe(seq.decision)
    expect(looks).toContain(seq.stopped_at)
    expect(seq.stopped_at).toBeLessThan(budget)
    expect(row.n).toBe(seq.stopped_at)
    // The trace: one entry per look run, up to the stop, each interval inside [-1, 1]; the last
    // one wholly above the tolerated drop, every earlier one not.
    expect(seq.looks.map(l => l.n)).toEqual(looks.filter(n => n <= seq.stopped_at))
    const last = seq.looks[seq.looks.length - 1]
    expect(last).toMatchObject({ n: seq.stopped_at, decision: 'pass' })
    expect(last.low).toBeGreaterThan(-row.max_drop)
    for (const look of seq.looks.slice(0, -1)) expect(look.decision).toBe('continue')
    for (const look of seq.looks) expect([look.low >= -1, look.low <= look.high, look.high <= 1]).toEqual([true, true, true])
    // Requests: every stage run asks its first instances again on both sides.
    const ran = looks.filter(n => n <= seq.stopped_at)
    expect(seq.requests_spent).toBe(2 * ran.reduce((a, b) => a + b, 0))
    expect(seq.requests_fixed).toBe(2 * budget)
    expect(seq.requests_spent).toBeLessThanOrEqual(seq.requests_fixed)
    // Each stage is a helm-run suite of its own on each side, one per look run.
    for (const side of ['baseline', 'candidate']) expect(readdirSync(join(out, 'stages', side, 'runs')).sort()).toHaveLength(ran.length)
    // Both servers were up at once (each stage runs both sides), named by what llama-server reports.
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest
    expect(manifest.schedule).toBe('concurrent')
    expect(report.baseline.identity?.engine?.details).toMatch(/^F16 · /)
    expect(report.candidate.identity?.engine?.details).toMatch(/^Q8_0 · /)
    // What the reviewer reads.
    expect(readFileSync(markdown, 'utf8')).toContain(`stopped early at n = ${seq.stopped_at} of ${budget} (certain)`)
  }, 900_000)
})
