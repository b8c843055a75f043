// Reproducibility of the real-engine load half as a measured property (docs/real-engine.md): the
// load half of examples/real-cpu/gate.yml (llama.cpp, launched one side at a time on one port and
// swapped between blocks A B B A) rerun N times for an A/A pair (F16 against F16, gated by a
// no-regression check, min_ratio 0.9) and for F16 against Q4_0 (the example's own claim, min_ratio
// 1.2 at concurrency 4). Prints, per pair and level, each rerun's output tokens/s ratio with its
// interval and the verdict, then the spread of the ratios (min, median, max, max/min), how many
// intervals cover the median ratio and how many verdicts agree. The alternative it is measured
// against: the same runs measured in two periods (BENCH_PERIODS=1 sets load.swap_budget_seconds: 0,
// the fallback), the way every sequential run measured before the sides were swapped.
// Run: `npm run build && bash scripts/real-engine/prepare.sh && node bench/real-engine-reruns.mjs`
// (on a shared machine under `flock /work/locks/real-engine.lock`: it measures speed).
// Knobs: BENCH_RERUNS (5), BENCH_PAIRS (aa,q4), BENCH_PERIODS (0).
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse, stringify } from 'yaml'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const reruns = Number(process.env.BENCH_RERUNS ?? 5)
const pairs = (process.env.BENCH_PAIRS ?? 'aa,q4').split(',')
const periods = process.env.BENCH_PERIODS === '1'
if (!existsSync(join(root, 'dist', 'cli.js'))) throw new Error('build first: npm run build')
if (!existsSync(join(root, '.real-engine', 'model', 'model-F16.gguf')))
  throw new Error('prepare the engine first: bash scripts/real-engine/prepare.sh')

const example = parse(readFileSync(join(root, 'examples', 'real-cpu', 'gate.yml'), 'utf8'))
const work = mkdtempSync(join(tmpdir(), 'helm-gate-bench-reruns-'))

/** The example's gate file for one pair: A/A runs the F16 file on both sides (told apart by an env). */
function gateFor(pair) {
  const gate = structuredClone(example)
  if (pair === 'aa') {
    const candidate = gate.deployments.candidate.launch
    candidate.command = candidate.command.map(arg => arg.replace('model-Q4_0.gguf', 'model-F16.gguf'))
    candidate.env = { HELM_GATE_BENCH_SIDE: 'candidate' }
    gate.load.checks = [
      { metric: 'output_tokens_per_second', concurrency: 4, min_ratio: 0.9 },
      { metric: 'error_rate', max: 0 }
    ]
  }
  if (periods) gate.load.swap_budget_seconds = 0
  const file = join(work, `${pair}.yml`)
  writeFileSync(file, stringify(gate))
  return file
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b)
  const m = Math.floor(s.length / 2)
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

const f = x => x.toFixed(3)
console.log(
  `# ${reruns} reruns per pair, ${periods ? 'two periods (load.swap_budget_seconds: 0)' : 'swapped between blocks A B B A'}; ` +
    `${cpus().length} cores, load average at start ${loadavg()
      .map(x => x.toFixed(2))
      .join(' ')}`
)
for (const pair of pairs) {
  const gate = gateFor(pair)
  const runs = []
  for (let i = 0; i < reruns; i++) {
    const out = join(work, `${pair}-${i}`)
    const started = Date.now()
    try {
      // Through the example's relative paths: run from the repository root, as demo:real does.
      execFileSync(process.execPath, [join(root, 'dist', 'cli.js'), 'load', '--config', gate, '--out', out, '--quiet'], {
        cwd: root,
        stdio: ['ignore', 'ignore', 'inherit']
      })
    } catch {
      // a fail or inconclusive verdict exits non-zero: the report says which
    }
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'))
    const load = report.load
    const ratios = load.ratios.filter(r => r.metric === 'output_tokens_per_second')
    const claim = load.checks.find(c => c.metric === 'output_tokens_per_second')
    runs.push({ ratios, verdict: claim?.verdict ?? load.verdict, errors: load.errors, seconds: (Date.now() - started) / 1000, load })
    const perLevel = ratios
      .map(r => `c=${r.level} ${r.ratio ? `${f(r.ratio.estimate)} [${f(r.ratio.low)}, ${f(r.ratio.high)}]` : '-'}`)
      .join('  ')
    const sizes = load.prompt_tokens ? `, prompts ${load.prompt_tokens.sized_by} ${load.prompt_tokens.realized_mean?.toFixed(1)}` : ''
    const cpu = Math.max(...load.blocks.map(b => b.client_cpu_share ?? 0))
    console.log(
      `${pair} #${i + 1}: ${perLevel}  verdict ${runs[i].verdict}  (${runs[i].seconds.toFixed(0)} s, ${load.timeline?.schedule ?? '?'}, ` +
        `swap ${((load.timeline?.swap_cost_ms ?? 0) / 1000).toFixed(2)} s${sizes}, client CPU at most ${(cpu * 100).toFixed(0)} % of the host` +
        `${load.errors.length ? `, error ${load.errors[0].code}` : ''})`
    )
  }
  const levels = [...new Set(runs.flatMap(r => r.ratios.map(x => x.level)))]
  for (const level of levels) {
    const at = runs.map(r => r.ratios.find(x => x.level === level)?.ratio).filter(Boolean)
    if (at.length === 0) continue
    const estimates = at.map(r => r.estimate)
    const mid = median(estimates)
    const covering = at.filter(r => r.low <= mid && mid <= r.high).length
    console.log(
      `${pair} c=${level}: ratios min ${f(Math.min(...estimates))}, median ${f(mid)}, max ${f(Math.max(...estimates))} ` +
        `(max/min ${f(Math.max(...estimates) / Math.min(...estimates))}); ${covering}/${at.length} intervals cover the median`
    )
  }
  const verdicts = runs.map(r => r.verdict)
  const modal = [...new Set(verdicts)].map(v => [v, verdicts.filter(x => x === v).length]).sort((a, b) => b[1] - a[1])[0]
  console.log(`${pair} verdicts: ${verdicts.join(' ')}: ${modal[1]}/${verdicts.length} agree (${modal[0]})`)
}
console.log(
  `# load average at end ${loadavg()
    .map(x => x.toFixed(2))
    .join(' ')}`
)
rmSync(work, { recursive: true, force: true })
