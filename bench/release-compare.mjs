// This checkout's `helm-gate compare` against the previous release's bundled dist/ on the same
// inputs, in one run (docs/benchmarks.md "Against the previous release"): the real-shaped pair of
// bench/compare.mjs (5,000 instances, 10,000 resamples, efficiency and answer-length rows), each
// process run alternately A B A B so a busy neighbour slows both alike. Prints the median wall and
// CPU time (user + sys, from bash's `times`) of each and their ratio.
// Run: `npm run build && node bench/release-compare.mjs [RELEASE_COMMIT]` (default below).
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { writeBenchPair } from './lib/synthetic-run.mjs'

/** The release this one must not be slower than (the issue's measured 1.42 s on its machine). */
const RELEASE = process.argv[2] ?? '9bb43d8'
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const n = Number(process.env.BENCH_N ?? 5000)
const resamples = Number(process.env.BENCH_RESAMPLES ?? 10000)
const runs = Number(process.env.BENCH_RUNS ?? 5)
if (!existsSync(join(root, 'dist', 'cli.js'))) throw new Error('build first: npm run build')

const work = mkdtempSync(join(tmpdir(), 'helm-gate-release-'))
try {
  const release = join(work, 'release')
  mkdirSync(release)
  // The release's committed bundle, read from git: no checkout, no install (dist/ is self-contained).
  const archive = spawnSync('bash', ['-c', 'git -C "$1" archive "$2" dist | tar -x -C "$3"', 'archive', root, RELEASE, release], {
    encoding: 'utf8'
  })
  if (archive.status !== 0) throw new Error(`cannot read dist/ of ${RELEASE}: ${archive.stderr.trim()}`)

  const { bDir, cDir } = writeBenchPair(work, n)

  const once = cli => {
    const args = [cli, 'compare', bDir, cDir, '--metric', 'f1_score', '--max-drop', '0.05', '--resamples', String(resamples), '--quiet']
    const script = `"$@" >/dev/null; status=$?; times; exit $status`
    const start = process.hrtime.bigint()
    const r = spawnSync('bash', ['-c', script, 'bench', process.execPath, ...args], { encoding: 'utf8' })
    const wall = Number(process.hrtime.bigint() - start) / 1e6
    // helm-gate exits 1 for fail or inconclusive: a verdict, not a crash.
    if (r.status !== 0 && r.status !== 1) throw new Error(`${cli} exited ${r.status}: ${r.stderr}`)
    const lines = r.stdout.trim().split('\n')
    const seconds = lines[lines.length - 1].split(/\s+/).map(t => {
      const m = /^(\d+)m([\d.]+)s$/.exec(t)
      if (!m) throw new Error(`cannot read the CPU time from: ${lines.join(' | ')}`)
      return Number(m[1]) * 60 + Number(m[2])
    })
    return { wall, cpu: (seconds[0] + seconds[1]) * 1000 }
  }
  const sides = { this: join(root, 'dist', 'cli.js'), [RELEASE]: join(release, 'dist', 'cli.js') }
  const results = { this: [], [RELEASE]: [] }
  for (let i = 0; i < runs; i++) for (const [name, cli] of Object.entries(sides)) results[name].push(once(cli))
  const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
  const figure = (name, field) => median(results[name].map(r => r[field]))
  console.log(`compare on the real-shaped pair: n=${n}, resamples=${resamples}, ${runs} alternating runs each, medians`)
  console.log(`${'dist'.padEnd(22)} ${'wall ms'.padStart(9)} ${'CPU ms'.padStart(9)}`)
  for (const name of Object.keys(sides))
    console.log(
      `${(name === 'this' ? 'this checkout' : `release ${RELEASE}`).padEnd(22)} ${figure(name, 'wall').toFixed(0).padStart(9)} ${figure(name, 'cpu').toFixed(0).padStart(9)}`
    )
  const ratio = field => figure('this', field) / figure(RELEASE, field)
  console.log(`this / ${RELEASE}: ${ratio('wall').toFixed(2)}x wall, ${ratio('cpu').toFixed(2)}x CPU (target <= 1.00x wall)`)
} finally {
  rmSync(work, { recursive: true, force: true })
}
