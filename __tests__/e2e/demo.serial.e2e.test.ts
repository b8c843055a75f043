/**
 * The README's first command, as a new user runs it: `npm run demo` (scripts/demo.sh) starts the
 * two demo servers, runs the bundled CLI on examples/demo/gate.yml with the real pinned helm-run,
 * and stops the servers. Serial: its load half measures a 1.2x throughput claim, and the demo's
 * ports (18431, 18432) are fixed.
 */
import { describe, expect, it } from '@jest/globals'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Report } from '../../src/model/report.js'
import { helmAvailable, REPO_ROOT } from '../../test-support/fake-openai/harness.js'
import { run } from '../support/spawn.js'
import { listening } from '../support/listening.js'

const describeHelm = helmAvailable() ? describe : describe.skip

describeHelm('npm run demo', () => {
  it('passes both halves, leaves the evidence in HELM_GATE_DEMO_OUT and stops its servers', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'helm-gate-demo-test-')), 'out')
    const finished = await run('bash', [join(REPO_ROOT, 'scripts', 'demo.sh')], {
      cwd: REPO_ROOT,
      env: { ...process.env, HELM_GATE_DEMO_OUT: out },
      timeoutMs: 300_000
    })
    const context = `exit ${finished.code}\n--- stdout\n${finished.stdout.slice(-3000)}\n--- stderr\n${finished.stderr.slice(-3000)}`
    expect([finished.code, context]).toEqual([0, context])
    expect(finished.stdout).toMatch(/Overall: PASS: quality \d+\/\d+ passed; performance \d+\/\d+ checks passed/)
    expect(finished.stdout).toContain(`evidence in ${out}`)

    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report
    expect(report.verdict).toBe('pass')
    expect(report.comparisons.length).toBeGreaterThanOrEqual(2)
    expect(report.load?.verdict).toBe('pass')
    expect(report.load?.checks.length).toBeGreaterThan(0)
    for (const file of ['report.md', 'report.html', 'manifest.json', 'load-timings.jsonl', 'baseline', 'candidate', 'logs']) {
      expect([file, existsSync(join(out, file))]).toEqual([file, true])
    }
    // The servers are stopped when the demo ends, pass or fail.
    expect(await listening(18431)).toBe(false)
    expect(await listening(18432)).toBe(false)
  }, 320_000)
})
