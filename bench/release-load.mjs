// This checkout's `helm-gate load` at 1 stream against the previous release's bundled dist/ on
// the same fake engine, in one run (docs/benchmarks.md "Against the previous release"): the same
// gate file (the engine of bench/load.mjs, 200 prompt / 128 output tokens, 3 blocks of 20
// requests per side), each process run alternately A B A B so a busy neighbour slows both alike.
// Prints, per dist, the medians of the whole process's wall and CPU time (GNU time, user + system)
// and of the TTFT error against the engine's own record (p50 over each run's requests), and the
// ratios this / release.
// Run: `npm run build && node bench/release-load.mjs [RELEASE_COMMIT]` (default below).
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startFakeEngine, timedUnder } from './lib/fake-engine.mjs'

const RELEASE = process.argv[2] ?? '9bb43d8'
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const runs = Number(process.env.BENCH_RUNS ?? 3)
if (!existsSync(join(root, 'dist', 'cli.js'))) throw new Error('build first: npm run build')
const ENGINE_FLAGS = ['--max-num-seqs', '256', '--prefill-base-ms', '1', '--prefill-per-token-ms', '0.01', '--decode-base-ms', '4']
const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

const work = mkdtempSync(join(tmpdir(), 'helm-gate-release-load-'))
const engine = await startFakeEngine([...ENGINE_FLAGS, '--decode-per-seq-ms', '0.05'])
try {
  const release = join(work, 'release')
  mkdirSync(release)
  // The release's committed bundle, read from git: no checkout, no install (dist/ is self-contained).
  const archive = spawnSync('bash', ['-c', 'git -C "$1" archive "$2" dist | tar -x -C "$3"', 'archive', root, RELEASE, release], {
    encoding: 'utf8'
  })
  if (archive.status !== 0) throw new Error(`cannot read dist/ of ${RELEASE}: ${archive.stderr.trim()}`)
  const gate = join(work, 'gate.yml')
  writeFileSync(
    gate,
    `version: 1
deployments:
  baseline: { api: completions, base_url: ${engine.url}, model: engine-model }
  candidate: { api: completions, base_url: ${engine.url}, model: engine-model }
runs:
  - { entry: "simple_mcqa", metric: exact_match, max_drop: 0.05 }
load:
  workload: { prompts: synthetic, input_tokens: { mean: 200 }, output_tokens: { mean: 128 } }
  concurrency: [1]
  requests_per_level: 60
  repetitions: 3
  timeout_seconds: 600
  checks:
    - { metric: error_rate, max: 0 }
`
  )

  let k = 0
  const once = async cli => {
    const out = join(work, `out-${k++}`)
    const r = await timedUnder([], process.execPath, [cli, 'load', '--config', gate, '--out', out, '--quiet'])
    if (r.code !== 0) throw new Error(`${cli} load exited ${r.code}: ${r.stderr.slice(-500)}`)
    const records = new Map((await engine.records()).map(rec => [rec.id, rec]))
    const errors = readFileSync(join(out, 'load-timings.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map(line => JSON.parse(line))
      .map(t => t.ttft_ms - records.get(t.id).ttft_ms)
    await engine.reset()
    return { wall: r.wallMs, cpu: r.cpu * 1000, ttftError: median(errors) }
  }
  const sides = { this: join(root, 'dist', 'cli.js'), [RELEASE]: join(release, 'dist', 'cli.js') }
  const results = { this: [], [RELEASE]: [] }
  for (let i = 0; i < runs; i++) for (const [name, cli] of Object.entries(sides)) results[name].push(await once(cli))
  const figure = (name, field) => median(results[name].map(r => r[field]))
  console.log(`load at 1 stream on the fake engine: 2 sides x 3 blocks x 20 requests, ${runs} alternating runs each, medians`)
  console.log(`${'dist'.padEnd(22)} ${'wall ms'.padStart(9)} ${'CPU ms'.padStart(9)} ${'TTFT error p50 ms'.padStart(18)}`)
  for (const name of Object.keys(sides))
    console.log(
      `${(name === 'this' ? 'this checkout' : `release ${RELEASE}`).padEnd(22)} ${figure(name, 'wall').toFixed(0).padStart(9)} ${figure(name, 'cpu').toFixed(0).padStart(9)} ${figure(name, 'ttftError').toFixed(3).padStart(18)}`
    )
  const ratio = field => figure('this', field) / figure(RELEASE, field)
  console.log(
    `this / ${RELEASE}: ${ratio('wall').toFixed(2)}x wall, ${ratio('cpu').toFixed(2)}x CPU, ${ratio('ttftError').toFixed(2)}x TTFT error (target <= 1.00x)`
  )
} finally {
  engine.stop()
  rmSync(work, { recursive: true, force: true })
}
