// Wall time of the whole gate (`helm-gate run`, real helm-run) with both sides at the same time
// against one side after the other (`--sequential`), with fake servers that add latency the way
// a real inference server does. Target: concurrent <= 0.6 x sequential.
// Run: `npm run build && node bench/concurrency.mjs` (needs the venv from scripts/python-env.sh).
// Knobs: BENCH_LATENCY_MS (300), BENCH_INSTANCES (80), BENCH_THREADS (2), BENCH_ROUNDS (2).
import { execFileSync, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const python = join(root, '.venv', 'bin', 'python')
const helmRun = join(root, '.venv', 'bin', 'helm-run')
const latency = Number(process.env.BENCH_LATENCY_MS ?? 300)
const instances = Number(process.env.BENCH_INSTANCES ?? 80)
const threads = Number(process.env.BENCH_THREADS ?? 2)
const rounds = Number(process.env.BENCH_ROUNDS ?? 2)
if (!existsSync(join(root, 'dist', 'cli.js'))) throw new Error('build first: npm run build')
if (!existsSync(helmRun)) throw new Error('create the venv first: bash scripts/python-env.sh')

const entry = 'dyck_language:num_parenthesis_pairs=3'
const work = mkdtempSync(join(tmpdir(), 'helm-gate-bench-concurrency-'))
const key = join(work, 'key.json')
execFileSync(python, [join(root, 'test-support', 'fake-openai', 'build-answer-key.py'), key, entry], { stdio: 'ignore' })

function startServer() {
  const child = spawn(
    process.execPath,
    [
      join(root, 'test-support', 'fake-openai', 'server.mjs'),
      '--port',
      '0',
      '--answer-key',
      key,
      '--latency-ms',
      String(latency),
      '--accuracy',
      '0.9'
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] }
  )
  return new Promise(resolvePromise => {
    createInterface({ input: child.stdout }).on('line', line => {
      const match = /listening on (\S+)/.exec(line)
      if (match) resolvePromise({ child, baseUrl: match[1] })
    })
  })
}

const servers = [await startServer(), await startServer()]
const gate = join(work, 'gate.yml')
const side = baseUrl =>
  `{ api: chat, base_url: "${baseUrl}", model: gate-model, tokenizer: simple/tokenizer1, max_sequence_length: 100000 }`
writeFileSync(
  gate,
  `version: 1
helm: { version: "0.5.16", max_eval_instances: ${instances}, num_train_trials: 1, num_threads: ${threads}, timeout_minutes: 20, command: "${helmRun}" }
deployments:
  baseline: ${side(servers[0].baseUrl)}
  candidate: ${side(servers[1].baseUrl)}
runs:
  - { entry: "${entry}", metric: exact_match_indicator, max_drop: 0.1 }
`
)

function timeGate(extra, label, round) {
  const started = process.hrtime.bigint()
  try {
    execFileSync(
      process.execPath,
      [join(root, 'dist', 'cli.js'), 'run', '--config', gate, '--out', join(work, `${label}-${round}`), '--quiet', ...extra],
      {
        stdio: 'ignore'
      }
    )
  } catch (error) {
    // Exit 1 (inconclusive/fail) is a verdict, not a failed benchmark; 2 is an error.
    if (error.status !== 1) throw error
  }
  return Number(process.hrtime.bigint() - started) / 1e9
}

const results = { concurrent: [], sequential: [] }
try {
  for (let round = 0; round < rounds; round++) {
    results.sequential.push(timeGate(['--sequential'], 'sequential', round))
    results.concurrent.push(timeGate([], 'concurrent', round))
  }
} finally {
  for (const { child } of servers) child.kill('SIGTERM')
  rmSync(work, { recursive: true, force: true })
}

const median = values => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const concurrent = median(results.concurrent)
const sequential = median(results.sequential)
const ratio = concurrent / sequential
console.log(`helm-gate run, ${instances} instances per side, ${latency} ms server latency, ${threads} threads, ${rounds} rounds (median)`)
console.log(`  sequential: ${sequential.toFixed(1)} s  (${results.sequential.map(t => t.toFixed(1)).join(', ')})`)
console.log(`  concurrent: ${concurrent.toFixed(1)} s  (${results.concurrent.map(t => t.toFixed(1)).join(', ')})`)
console.log(`  ratio concurrent/sequential: ${ratio.toFixed(2)} (target <= 0.60) ${ratio <= 0.6 ? 'OK' : 'ABOVE TARGET'}`)
process.exitCode = ratio <= 0.6 ? 0 : 1
