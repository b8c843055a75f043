/**
 * `npm run demo:traffic` (scripts/demo-traffic.sh) as a user runs it: two fake servers, the real
 * pinned helm-run for the tripwire scenario, the traffic set replayed on both sides, the bundled
 * CLI's report, and the servers stopped. The gate file is examples/traffic/gate.yml with the set
 * pointed at a generated one (test-support/traffic/make-set.mjs), so the test does not depend on
 * the example log's size. Serial: the demo's ports (18441, 18442) are fixed.
 */
import { describe, expect, it } from '@jest/globals'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Report } from '../../src/model/report.js'
import { helmAvailable, REPO_ROOT } from '../../test-support/fake-openai/harness.js'
// @ts-expect-error: a plain ESM module of the test support, without types
import { makeSet } from '../../test-support/traffic/make-set.mjs'
import { run } from '../support/spawn.js'
import { listening } from '../support/listening.js'

const describeHelm = helmAvailable() ? describe : describe.skip

function demoGate(dir: string): string {
  const set = join(dir, 'traffic.jsonl')
  writeFileSync(set, (makeSet(500) as unknown[]).map(line => JSON.stringify(line)).join('\n') + '\n')
  const gate = readFileSync(join(REPO_ROOT, 'examples', 'traffic', 'gate.yml'), 'utf8').replace(
    /^ {2}set: .*$/m,
    `  set: ${JSON.stringify(set)}`
  )
  const file = join(dir, 'gate.yml')
  writeFileSync(file, gate)
  return file
}

async function demo(candidate: string): Promise<{ code: number | null; stdout: string; out: string; context: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'helm-gate-demo-traffic-test-'))
  const out = join(dir, 'out')
  const finished = await run('bash', [join(REPO_ROOT, 'scripts', 'demo-traffic.sh')], {
    cwd: REPO_ROOT,
    env: { ...process.env, HELM_GATE_DEMO_OUT: out, HELM_GATE_DEMO_CONFIG: demoGate(dir), DEMO_CANDIDATE: candidate },
    timeoutMs: 300_000
  })
  const context = `exit ${finished.code}\n--- stdout\n${finished.stdout.slice(-3000)}\n--- stderr\n${finished.stderr.slice(-3000)}`
  return { code: finished.code, stdout: finished.stdout, out, context }
}

describeHelm('npm run demo:traffic', () => {
  it('an equivalent candidate passes against the noise floor; the evidence holds every replayed request', async () => {
    const { code, stdout, out, context } = await demo('equivalent')
    expect([code, context]).toEqual([0, context])
    expect(stdout).toMatch(/Overall: PASS/)
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report
    expect(report.verdict).toBe('pass')
    expect(report.comparisons.find(c => c.metric === 'disagreement')).toMatchObject({ gated: true, verdict: 'pass', n: 500 })
    for (const name of ['baseline-1', 'baseline-2', 'candidate']) {
      expect([name, existsSync(join(out, 'traffic', name, 'scenario_state.json'))]).toEqual([name, true])
    }
    expect(await listening(18441)).toBe(false)
    expect(await listening(18442)).toBe(false)
  }, 320_000)

  it('a candidate whose JSON mode breaks fails on the invalid_json row', async () => {
    const { code, out, context } = await demo('break-json')
    expect([code, context]).toEqual([1, context])
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report
    expect(report.verdict).toBe('fail')
    expect(report.comparisons.find(c => c.metric === 'invalid_json')?.verdict).toBe('fail')
    expect(await listening(18441)).toBe(false)
    expect(await listening(18442)).toBe(false)
  }, 320_000)
})
