// The whole `helm-gate compare` process against two alternatives computing the same paired
// percentile bootstrap on the same data, side by side in one run:
//   (a) plain Python: json.load, then random.choice per draw;
//   (b) scipy.stats.bootstrap (vectorised NumPy), percentile method.
// Data: 5,000 paired continuous scores in [0, 1], 10,000 resamples.
// Run: `npm run build && node bench/compare.mjs` (needs the venv from scripts/python-env.sh).
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { mulberry32, writeSyntheticRun } from './lib/synthetic-run.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const python = join(root, '.venv', 'bin', 'python')
const n = Number(process.env.BENCH_N ?? 5000)
const resamples = Number(process.env.BENCH_RESAMPLES ?? 10000)
const rounds = Number(process.env.BENCH_ROUNDS ?? 3)
if (!existsSync(join(root, 'dist', 'cli.js'))) throw new Error('build first: npm run build')
if (!existsSync(python)) throw new Error('create the venv first: bash scripts/python-env.sh')

const work = mkdtempSync(join(tmpdir(), 'helm-gate-bench-'))
const rand = mulberry32(42)
const baseline = Array.from({ length: n }, () => Math.round(rand() * 1000) / 1000)
const candidate = baseline.map(v => Math.min(1, Math.max(0, Math.round((v + (rand() - 0.52) * 0.2) * 1000) / 1000)))
const bDir = writeSyntheticRun(join(work, 'baseline'), { model: 'bench/baseline', values: baseline })
const cDir = writeSyntheticRun(join(work, 'candidate'), { model: 'bench/candidate', values: candidate })

const plainPython = `
import json, random, sys
b = json.load(open(sys.argv[1])); c = json.load(open(sys.argv[2]))
val = lambda rows: {r["instance_id"]: r["stats"][0]["sum"] / r["stats"][0]["count"] for r in rows}
vb, vc = val(b), val(c)
d = [vc[k] - vb[k] for k in vb if k in vc]
random.seed(0)
n = len(d); means = []
for _ in range(int(sys.argv[3])):
    s = 0.0
    for _ in range(n):
        s += random.choice(d)
    means.append(s / n)
means.sort()
print(means[int(0.025 * len(means))], means[int(0.975 * len(means)) - 1])
`
const scipyBootstrap = `
import json, sys
import numpy as np
from scipy import stats
b = json.load(open(sys.argv[1])); c = json.load(open(sys.argv[2]))
val = lambda rows: {r["instance_id"]: r["stats"][0]["sum"] / r["stats"][0]["count"] for r in rows}
vb, vc = val(b), val(c)
d = np.array([vc[k] - vb[k] for k in vb if k in vc])
res = stats.bootstrap((d,), np.mean, n_resamples=int(sys.argv[3]), method="percentile", random_state=0, vectorized=True)
print(res.confidence_interval.low, res.confidence_interval.high)
`

function time(label, cmd, args, times_ = rounds) {
  const times = []
  let out = ''
  for (let i = 0; i < times_; i++) {
    const start = process.hrtime.bigint()
    const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 26 })
    const ms = Number(process.hrtime.bigint() - start) / 1e6
    if (r.status !== 0 && !(label.startsWith('helm-gate') && r.status === 1)) {
      throw new Error(`${label} failed (${r.status}): ${r.stderr}`)
    }
    times.push(ms)
    out = r.stdout.trim().split('\n').slice(-1)[0]
  }
  times.sort((a, b) => a - b)
  return { label, ms: times[0], out }
}

const pis = dir => join(dir, 'per_instance_stats.json')
const results = [
  time('helm-gate compare (node dist/cli.js)', process.execPath, [
    join(root, 'dist', 'cli.js'),
    'compare',
    bDir,
    cDir,
    '--metric',
    'f1_score',
    '--max-drop',
    '0.05',
    '--resamples',
    String(resamples),
    '--quiet',
    '--json',
    join(work, 'report.json')
  ]),
  time('scipy.stats.bootstrap (b)', python, ['-c', scipyBootstrap, pis(bDir), pis(cDir), String(resamples)])
]
// Plain Python takes tens of seconds: one round is enough to see the ratio.
results.push(time('plain Python random.choice (a)', python, ['-c', plainPython, pis(bDir), pis(cDir), String(resamples)], 1))

const gate = results[0]
console.log(`paired continuous scores: n=${n}, resamples=${resamples}, best of ${rounds} rounds (wall time of the whole process)`)
for (const r of results) {
  console.log(
    `${r.label.padEnd(42)} ${r.ms.toFixed(0).padStart(8)} ms  ${r.label === gate.label ? '' : `helm-gate is ${(r.ms / gate.ms).toFixed(1)}x faster`}`
  )
}
const ratioA = results[2].ms / gate.ms
const ratioB = results[1].ms / gate.ms
console.log(`ratio vs plain Python: ${ratioA.toFixed(1)}x (target >= 20x)  ratio vs scipy: ${ratioB.toFixed(1)}x (target >= 2x)`)
rmSync(work, { recursive: true, force: true })
if (ratioA < 20 || ratioB < 2) process.exitCode = 1
