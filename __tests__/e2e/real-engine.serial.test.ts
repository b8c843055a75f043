/**
 * The real-engine example end to end: llama.cpp's llama-server (built from the pinned PyPI sdist
 * by scripts/real-engine/) launched by helm-gate on both sides, the F16 model against its Q4_0
 * quantization (examples/real-cpu/gate.yml, chat API) and against Q8_0 (q8.yml, completions API),
 * real helm-run and the streaming load half, as `npm run demo:real` runs them. The engine and the
 * model are built on first use (`npm test`'s pretest does it; the set-up here too, when run
 * alone) and cached per machine. Serial: the load half measures a speed ratio on a 2-core machine
 * and the gates' port (18451) is fixed. The load half runs interleaved under the sequential
 * schedule (the sides swapped between blocks), checked from the manifest. Both example gates
 * carry a fidelity section with one bound on the mean KL divergence: Q8_0 passes it, Q4_0 fails
 * it, while the quality half cannot tell them apart (neither fails it).
 */
import { beforeAll, describe, expect, it } from '@jest/globals'
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Manifest } from '../../src/model/manifest.js'
import type { Report } from '../../src/model/report.js'
import { helmAvailable, REPO_ROOT } from '../../test-support/fake-openai/harness.js'
import { listening } from '../support/listening.js'
import { run } from '../support/spawn.js'

const describeHelm = helmAvailable() ? describe : describe.skip
const PORT = 18451

/** A B B A A B ... for `repetitions` blocks per side. */
function abba(repetitions: number): string[] {
  return Array.from({ length: repetitions }, (_, i) => (i % 2 === 0 ? ['baseline', 'candidate'] : ['candidate', 'baseline'])).flat()
}

async function gate(file: string, extra: string[] = []): Promise<{ report: Report; out: string; stdout: string }> {
  const out = join(mkdtempSync(join(tmpdir(), 'helm-gate-real-')), 'out')
  const finished = await run(process.execPath, [join(REPO_ROOT, 'dist', 'cli.js'), 'run', '--config', file, '--out', out, ...extra], {
    cwd: REPO_ROOT,
    timeoutMs: 900_000
  })
  const context = `exit ${finished.code}\n--- stdout\n${finished.stdout.slice(-4000)}\n--- stderr\n${finished.stderr.slice(-4000)}`
  expect([existsSync(join(out, 'report.json')), context]).toEqual([true, context])
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as Report
  // The launched servers are stopped whatever the verdict.
  expect(await listening(PORT)).toBe(false)
  return { report, out, stdout: finished.stdout }
}

describeHelm('the real engine (llama.cpp) on both sides', () => {
  beforeAll(async () => {
    const prepared = await run('bash', [join(REPO_ROOT, 'scripts', 'real-engine', 'prepare.sh')], {
      cwd: REPO_ROOT,
      timeoutMs: 3_600_000
    })
    expect([prepared.code, prepared.stderr.slice(-3000)]).toEqual([0, prepared.stderr.slice(-3000)])
  }, 3_600_000)

  it('F16 against Q4_0 (chat): one verdict over both halves, each side named by what llama-server reports', async () => {
    const { report, stdout, out } = await gate('examples/real-cpu/gate.yml')
    // Whatever the quantization really does, the gate decides: never an error.
    expect(['pass', 'fail', 'inconclusive']).toContain(report.verdict)
    expect(stdout).toMatch(/Overall: (PASS|FAIL|INCONCLUSIVE)/)
    const [comparison] = report.comparisons
    expect(['pass', 'fail', 'inconclusive']).toContain(comparison.verdict)
    // The model is at least twice chance (25 %) on the addition task, and well above it quantized.
    expect(comparison.baseline_mean).toBeGreaterThanOrEqual(0.5)
    expect(comparison.candidate_mean).toBeGreaterThanOrEqual(0.4)
    expect(comparison.n).toBe(400)
    // Fidelity sees what accuracy does not: the quality half does not fail Q4_0, the KL bound Q8_0
    // passes (below) fails it, teacher-forced by llama-server's grammar route on F16's answers.
    expect(comparison.verdict).not.toBe('fail')
    expect(report.fidelity?.route).toBe('llamacpp-forced-grammar')
    expect(report.fidelity?.instances).toBe(100)
    expect(report.fidelity?.checks.map(c => [c.metric, c.verdict])).toEqual([['kld_mean', 'fail']])
    expect(report.verdict).toBe('fail')
    for (const side of ['baseline', 'candidate'] as const) {
      const engine = report[side].identity?.engine
      expect(engine?.owned_by).toBe('llamacpp')
      expect(engine?.version).toMatch(/^b\d+-[0-9a-f]+$/)
    }
    expect(report.baseline.identity?.engine?.details).toMatch(/^F16 · /)
    expect(report.candidate.identity?.engine?.details).toMatch(/^Q4_0 · /)
    // The weights each server was started with, by content: the hashes make-model.sh recorded.
    const made = JSON.parse(readFileSync(join(REPO_ROOT, '.real-engine', 'model', 'manifest.json'), 'utf8')) as {
      files: Record<string, { sha256: string }>
    }
    expect(report.baseline.identity?.weights?.sha256).toBe(made.files['model-F16.gguf'].sha256)
    expect(report.candidate.identity?.weights?.sha256).toBe(made.files['model-Q4_0.gguf'].sha256)
    // The load half streamed from both servers without a failed request at any level (before the
    // load client resent a request lost to a connection llama-server had closed, some failed).
    const errorChecks = report.load?.checks.filter(c => c.metric === 'error_rate') ?? []
    expect(errorChecks.map(c => c.verdict)).toEqual(['pass', 'pass'])
    const throughput = report.load?.checks.find(c => c.metric === 'output_tokens_per_second')
    expect(throughput?.ratio?.estimate).toBeGreaterThan(0)
    // The load half ran interleaved under the sequential schedule: one server up at a time, the
    // sides swapped between blocks (docs/launch.md). From the manifest: the blocks alternated A B B
    // A at each level, and each block started and ended inside a period when its side was up.
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest
    const timeline = manifest.load_timeline
    expect(manifest.schedule).toBe('sequential')
    expect(timeline?.schedule).toBe('swapped')
    const t = (iso: string | null): number => Date.parse(iso ?? '')
    for (const level of [1, 4]) {
      const order = (timeline?.blocks ?? []).filter(b => b.level === level).sort((a, b) => a.position - b.position)
      expect(order.map(b => b.side)).toEqual(abba(8))
      for (const block of order) {
        const up = timeline?.up[block.side].some(p => t(p.ready) <= t(block.started_at) && t(block.ended_at) <= t(p.to))
        expect({ level, position: block.position, up }).toEqual({ level, position: block.position, up: true })
      }
    }
    // Never both up: the up periods, in time, alternate sides and do not overlap.
    const periods = (['baseline', 'candidate'] as const)
      .flatMap(side => (timeline?.up[side] ?? []).map(p => ({ side, ...p })))
      .sort((a, b) => t(a.from) - t(b.from))
    for (let i = 1; i < periods.length; i++) {
      expect(periods[i].side).not.toBe(periods[i - 1].side)
      expect(t(periods[i - 1].to)).toBeLessThanOrEqual(t(periods[i].from))
    }
    // Prompts sized with llama-server's own /tokenize: realized as asked, give or take the one
    // leading-space token SentencePiece puts before a re-tokenized text (by words: four times as many).
    const sized = report.load?.prompt_tokens
    expect(sized?.sized_by).toBe('server')
    expect(Math.abs((sized?.realized_mean ?? NaN) - (sized?.requested_mean ?? NaN))).toBeLessThanOrEqual(1)
  }, 900_000)

  it('F16 against Q8_0 (completions): the quality half and the fidelity bound Q4_0 fails pass', async () => {
    const { report, out } = await gate('examples/real-cpu/q8.yml', ['--only', 'quality'])
    expect(report.verdict).toBe('pass')
    // Paired calibration on the real engine: each side's ECE is HELM's own ece_10_bin of that run
    // (stats.json, computed by HELM from the same max_prob), and Q8_0 keeps F16's calibration.
    const [calibration] = report.calibrations ?? []
    expect(calibration).toMatchObject({ metric: 'ece', verdict: 'pass', n: 400 })
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')) as Manifest
    for (const side of ['baseline', 'candidate'] as const) {
      const record = manifest.sides[side]!
      const suite = join(out, record.output_path ?? '', 'runs', record.suite ?? '')
      // The report names the run without the host's path; the one custom_mcqa run directory is it.
      const runs = readdirSync(suite).filter(name => name.startsWith('custom_mcqa'))
      expect(runs).toHaveLength(1)
      const stats = JSON.parse(readFileSync(join(suite, runs[0], 'stats.json'), 'utf8')) as {
        name: { name: string; split?: string; perturbation?: unknown }
        mean: number
      }[]
      const helmEce = stats.find(s => s.name.name === 'ece_10_bin' && s.name.split === 'test' && !s.name.perturbation)
      expect(Math.abs(calibration[side] - (helmEce?.mean ?? NaN))).toBeLessThan(1e-9)
    }
    expect(report.fidelity?.checks.map(c => [c.metric, c.verdict])).toEqual([['kld_mean', 'pass']])
    expect(report.fidelity?.figures.find(f => f.metric === 'kld_mean')?.ci.high).toBeLessThan(0.0002)
    expect(report.candidate.identity?.engine?.details).toMatch(/^Q8_0 · /)
  }, 900_000)
})
