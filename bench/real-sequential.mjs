// Sequential verdicts on the real engine (docs/benchmarks.md "Sequential verdicts on the real
// engine"): for F16 against F16 (A/A), Q8_0, Q4_0, Q2_K and F16 served with llama.cpp's built-in
// ChatML template instead of the model's own (`--chat-template chatml`, the serving change of
// __tests__/e2e/real-engine-serving.serial.test.ts), the quality half of
// examples/real-cpu/sequential.yml run twice in the same process: the fixed design (the file
// without `sequential:`, one helm-run of the budget's 400 instances a side) and the sequential
// gate (its looks). Prints per case both verdicts, the instances and instance requests each spent,
// the wall time and the ratio of requests fixed / sequential; then whether the targets hold: every
// sequential verdict equal to the fixed one (or the fixed one inconclusive), and at least 3x fewer
// requests where the case is clear (the fixed verdict certain and the sequence decided).
// Run: `npm run build && bash scripts/real-engine/prepare.sh && node bench/real-sequential.mjs`
// (on a shared machine under `flock /work/locks/real-engine.lock`: it measures wall time).
// Knobs: BENCH_CASES (aa,q8,q4,q2k,chatml), BENCH_LOOKS (the example's looks, e.g. 50,150,250,400;
// the last is the budget), BENCH_JSON (a file for the measured rows).
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { cpus, loadavg, tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse, stringify } from 'yaml'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const cases = (process.env.BENCH_CASES ?? 'aa,q8,q4,q2k,chatml').split(',')
if (!existsSync(join(root, 'dist', 'cli.js'))) throw new Error('build first: npm run build')
if (!existsSync(join(root, '.real-engine', 'model', 'model-F16.gguf')))
  throw new Error('prepare the engine first: bash scripts/real-engine/prepare.sh')

const example = parse(readFileSync(join(root, 'examples', 'real-cpu', 'sequential.yml'), 'utf8'))
if (process.env.BENCH_LOOKS) {
  const looks = process.env.BENCH_LOOKS.split(',').map(Number)
  example.sequential = { ...example.sequential, looks, budget: looks[looks.length - 1] }
}
const work = mkdtempSync(join(tmpdir(), 'helm-gate-bench-sequential-'))
const ports = example.deployments.baseline.launch.command
  .concat(example.deployments.candidate.launch.command)
  .filter((_, i, all) => all[i - 1] === '--port')
  .map(Number)

/** The candidate's server command for a case: the example's, with its model file or flags changed. */
function candidateCommand(name, command) {
  const model = { aa: 'F16', q8: 'Q8_0', q4: 'Q4_0', q2k: 'Q2_K', chatml: 'F16' }[name]
  if (model === undefined) throw new Error(`BENCH_CASES: unknown case ${name} (aa, q8, q4, q2k, chatml)`)
  const swapped = command.map(arg => arg.replace(/model-[A-Za-z0-9_]+\.gguf$/, `model-${model}.gguf`))
  // Before --jinja, so the named template replaces the one in the GGUF.
  return name === 'chatml' ? [...swapped.slice(0, -2), '--chat-template', 'chatml', ...swapped.slice(-2)] : swapped
}

/** The gate file for a case, fixed (no `sequential:`) or sequential (the example's looks). */
function gateFor(name, design) {
  const gate = structuredClone(example)
  const candidate = gate.deployments.candidate.launch
  candidate.command = candidateCommand(name, candidate.command)
  // The same weights on both sides of an A/A pair: an environment variable tells the servers apart.
  if (name === 'aa' || name === 'chatml') candidate.env = { HELM_GATE_BENCH_SIDE: 'candidate' }
  if (design === 'fixed') delete gate.sequential
  const file = join(work, `${name}-${design}.yml`)
  writeFileSync(file, stringify(gate))
  return file
}

function listening(port) {
  return new Promise(done => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      done(true)
    })
    socket.once('error', () => done(false))
  })
}

/** One gate run through the bundled CLI, from the repository root (the example's relative paths). */
async function measure(name, design) {
  const out = join(work, `${name}-${design}`)
  const started = Date.now()
  const finished = spawnSync(
    process.execPath,
    [join(root, 'dist', 'cli.js'), 'run', '--config', gateFor(name, design), '--out', out, '--quiet'],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'pipe'],
      encoding: 'utf8'
    }
  )
  const seconds = (Date.now() - started) / 1000
  const left = []
  for (const port of ports) if (await listening(port)) left.push(port)
  if (!existsSync(join(out, 'report.json'))) {
    return { design, verdict: 'no report', seconds, left, exit: finished.status, stderr: finished.stderr.slice(-2000) }
  }
  const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'))
  const row = report.comparisons?.[0]
  const seq = row?.sequential
  return {
    design,
    exit: finished.status,
    verdict: row?.verdict ?? report.verdict,
    means: row ? [row.baseline_mean, row.candidate_mean] : null,
    delta: row?.delta,
    ci: row?.ci ? [row.ci.low, row.ci.high] : null,
    instances: seq ? seq.stopped_at : (row?.n ?? 0),
    // Each side asks each instance once in the fixed design.
    requests: seq ? seq.requests_spent : 2 * (row?.n ?? 0),
    requests_fixed: seq?.requests_fixed ?? null,
    certain: seq ? seq.certain : row?.verdict !== 'inconclusive',
    looks: seq?.looks ?? null,
    seconds,
    left,
    errors: (report.errors ?? []).map(e => e.code ?? e.message)
  }
}

const f = (x, d = 3) => (typeof x === 'number' ? x.toFixed(d) : '-')
const load = () =>
  loadavg()
    .map(x => x.toFixed(2))
    .join(' ')
console.log(
  `# ${cpus().length} cores, load average at start ${load()}; looks ${example.sequential.looks.join(', ')} (budget ${example.sequential.budget})`
)
const rows = []
for (const [i, name] of cases.entries()) {
  // Which design runs first alternates, so a drift in the machine's load does not favour one.
  const order = i % 2 === 0 ? ['fixed', 'sequential'] : ['sequential', 'fixed']
  const measured = {}
  for (const design of order) measured[design] = await measure(name, design)
  const { fixed, sequential } = measured
  const ratio = sequential.requests > 0 ? fixed.requests / sequential.requests : null
  rows.push({ name, fixed, sequential, ratio })
  for (const m of [fixed, sequential]) {
    const looks = m.looks ? `  looks ${m.looks.map(l => `${l.n}:[${f(l.low)}, ${f(l.high)}] ${l.decision}`).join('  ')}` : ''
    const trouble = m.left.length ? `  STILL LISTENING on ${m.left.join(', ')}` : ''
    const error = m.stderr ? `  exit ${m.exit}: ${m.stderr.trim().split('\n').slice(-3).join(' | ')}` : ''
    console.log(
      `${name} ${m.design}: ${m.verdict}${m.certain ? '' : ' (undecided)'}, accuracy ${f(m.means?.[0])} -> ${f(m.means?.[1])}, delta ${f(m.delta)} [${f(m.ci?.[0])}, ${f(m.ci?.[1])}], ` +
        `${m.instances} instances, ${m.requests} requests, ${f(m.seconds, 0)} s${looks}${trouble}${error}`
    )
  }
  console.log(
    `${name}: requests fixed / sequential ${f(ratio, 2)}, wall time fixed / sequential ${f(fixed.seconds / sequential.seconds, 2)}`
  )
}
console.log('\n| case | fixed verdict | sequential verdict | instances fixed / seq | requests fixed / seq | ratio | wall s fixed / seq |')
console.log('|---|---|---|--:|--:|--:|--:|')
for (const { name, fixed, sequential, ratio } of rows)
  console.log(
    `| ${name} | ${fixed.verdict} | ${sequential.verdict} | ${fixed.instances} / ${sequential.instances} | ${fixed.requests} / ${sequential.requests} | ` +
      `${f(ratio, 2)} | ${f(fixed.seconds, 0)} / ${f(sequential.seconds, 0)} |`
  )
const agree = rows.filter(r => r.sequential.verdict === r.fixed.verdict || r.fixed.verdict === 'inconclusive')
const clear = rows.filter(r => r.fixed.certain && r.sequential.certain)
const saving = clear.filter(r => r.ratio !== null && r.ratio >= 3)
console.log(`# verdicts equal to the fixed gate's (or the fixed inconclusive): ${agree.length}/${rows.length}`)
console.log(
  `# clear cases (both decided) with >= 3x fewer requests: ${saving.length}/${clear.length} (${clear.map(r => `${r.name} ${f(r.ratio, 2)}x`).join(', ')})`
)
console.log(`# load average at end ${load()}`)
if (process.env.BENCH_JSON) writeFileSync(process.env.BENCH_JSON, JSON.stringify(rows, null, 2))
rmSync(work, { recursive: true, force: true })
