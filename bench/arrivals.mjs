#!/usr/bin/env node
// How closely the open-loop load keeps its arrival schedule on this machine, against named
// alternatives in the same run (docs/benchmarks.md, "Arrival schedule"). The tests assert only
// what a busy machine cannot change (the schedule itself, counts, no request before it is due);
// these are the figures that depend on the machine:
//   - lateness: send time minus due time per request (helm-gate's `send_ms - scheduled_ms` in
//     load-timings.jsonl), p50 / p99 / max, and the requests sent more than 1 ms early;
//   - achieved rate: each block's requests over its first-to-last send span, against the same
//     over its due times (a Poisson block's own schedule is not exactly at the rate);
//   - with `duration_seconds`, each block's length against its share of the duration.
// helm-gate (the bundled CLI, `helm-gate load`) against, on the same engine and the same due
// times: the previous release's sender (absolute due times, one timer per request, no second look
// at the clock) and a naive sender (a `setTimeout` of each gap after the previous send, so
// lateness adds up). The alternatives stamp the send before the HTTP call, helm-gate when the
// request's headers are written on the connection: the comparison favours the alternatives.
//
//   node bench/arrivals.mjs [--rate 40] [--requests 120]
// Needs dist/ (npm run build). Writes its working files to a temporary directory.
import { execFile, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const CLI = join(root, 'dist', 'cli.js')
if (!existsSync(CLI)) throw new Error('build first: npm run build')
const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '40' },
    requests: { type: 'string', default: '120' }
  }
})
const RATE = Number(values.rate)
// Requests per block; three blocks a side.
const PER_BLOCK = Number(values.requests)
// Requests of a few steps of 2 ms: far shorter than the gaps between arrivals (as in the tests).
const SERVER = join(root, 'test-support', 'fake-engine', 'server.mjs')
const ENGINE_FLAGS = [
  '--max-num-seqs',
  '64',
  '--prefill-base-ms',
  '0.5',
  '--prefill-per-token-ms',
  '0',
  '--decode-base-ms',
  '2',
  '--decode-per-seq-ms',
  '0'
]

function startEngine() {
  const child = spawn(process.execPath, [SERVER, '--port', '0', ...ENGINE_FLAGS], { stdio: ['ignore', 'pipe', 'inherit'] })
  return new Promise((resolvePromise, reject) => {
    child.on('error', reject)
    createInterface({ input: child.stdout }).on('line', line => {
      const m = /listening on (\S+)/.exec(line)
      if (m) resolvePromise({ child, baseUrl: m[1] })
    })
  })
}

const quantile = (xs, q) => {
  const a = [...xs].sort((x, y) => x - y)
  const h = (a.length - 1) * q
  const lo = Math.floor(h)
  return a[lo] + (h - lo) * ((a[Math.ceil(h)] ?? a[lo]) - a[lo])
}
const ms = x => `${x.toFixed(2)} ms`

/** `rates`: [achieved, scheduled] per block (a Poisson block's own schedule is not exactly at the rate). */
function summary(name, lateness, rates) {
  const early = lateness.filter(l => l < -1).length
  const worstRate = Math.max(...rates.map(([achieved, scheduled]) => Math.abs(achieved / scheduled - 1)))
  console.log(
    `  ${name.padEnd(34)} lateness p50 ${ms(quantile(lateness, 0.5)).padStart(9)}, p99 ${ms(quantile(lateness, 0.99)).padStart(9)}, ` +
      `max ${ms(Math.max(...lateness)).padStart(9)}; early > 1 ms: ${String(early).padStart(3)} of ${lateness.length} ` +
      `(min lateness ${ms(Math.min(...lateness))}); block rate off its schedule's by up to ${(worstRate * 100).toFixed(2)} %`
  )
}

const gate = (b, c, load) => `version: 1
deployments:
  baseline: { api: chat, base_url: ${b}, model: engine-model }
  candidate: { api: chat, base_url: ${c}, model: engine-model }
runs:
  - { entry: "simple_mcqa", metric: exact_match, max_drop: 0.05 }
load:
${load.map(line => `  ${line}`).join('\n')}
`

async function helmGateLoad(dir, name, b, c, load) {
  const file = join(dir, `${name}.yml`)
  const out = join(dir, name)
  await writeFile(file, gate(b, c, load))
  await new Promise((resolvePromise, reject) =>
    execFile(process.execPath, [CLI, 'load', '--config', file, '--out', out], { maxBuffer: 1 << 26 }, (error, _stdout, stderr) =>
      error && error.code !== 1 ? reject(new Error(`helm-gate load failed: ${stderr}`)) : resolvePromise()
    )
  )
  const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8'))
  const timings = (await readFile(join(out, 'load-timings.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map(line => JSON.parse(line))
  const blocks = new Map()
  for (const t of timings) blocks.set(`${t.side}:${t.repetition}`, [...(blocks.get(`${t.side}:${t.repetition}`) ?? []), t])
  return { report, blocks: [...blocks.values()].map(b => b.sort((x, y) => x.index - y.index)) }
}

const rateOf = sends => (sends.length - 1) / ((sends[sends.length - 1] - sends[0]) / 1000)

/** Sends one streamed request per due time (ms from now) with `wait`; returns send minus due per request. */
async function altSender(baseUrl, due, wait) {
  const body = JSON.stringify({
    model: 'engine-model',
    messages: [{ role: 'user', content: 'one two three four five six seven eight nine ten' }],
    max_tokens: 4,
    stream: true
  })
  const pending = []
  const sends = []
  const start = performance.now()
  for (let i = 0; i < due.length; i++) {
    await wait(start, due, i)
    sends.push(performance.now() - start)
    pending.push(
      fetch(`${baseUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }).then(r => r.text())
    )
  }
  await Promise.all(pending)
  return { lateness: sends.map((s, i) => s - due[i]), rate: [rateOf(sends), rateOf(due)] }
}

const sleep = ms => new Promise(r => setTimeout(r, ms))
// The previous release: the absolute due time, one timer, sent when it fires.
const previousRelease = async (start, due, i) => {
  const wait = start + due[i] - performance.now()
  if (wait > 1) await sleep(wait)
}
// Naive: wait each gap after the previous send.
const naive = async (_start, due, i) => {
  if (i > 0) await sleep(due[i] - due[i - 1])
}

const dir = await mkdtemp(join(tmpdir(), 'helm-gate-bench-arrivals-'))
const engines = [await startEngine(), await startEngine()]
try {
  console.log(
    `open loop at ${RATE} requests/s, ${PER_BLOCK} requests a block, load average ${loadavg()[0].toFixed(2)} on ${availableParallelism()} cores`
  )
  for (const arrival of ['constant', 'poisson']) {
    const { blocks } = await helmGateLoad(dir, arrival, engines[0].baseUrl, engines[1].baseUrl, [
      'workload: { prompts: synthetic, input_tokens: { mean: 20 }, output_tokens: { mean: 4 } }',
      `rate: [${RATE}]`,
      `arrival: ${arrival}`,
      `requests_per_level: ${PER_BLOCK * 3}`,
      'repetitions: 3',
      'warmup_requests: 0'
    ])
    console.log(`${arrival} arrivals (${blocks.length} blocks)`)
    summary(
      'helm-gate load',
      blocks.flatMap(b => b.map(t => t.send_ms - t.scheduled_ms)),
      blocks.map(b => [rateOf(b.map(t => t.send_ms)), rateOf(b.map(t => t.scheduled_ms))])
    )
    // The same due times for the alternatives: each block's own, from its first.
    for (const [name, wait] of [
      ['previous release (one timer)', previousRelease],
      ['naive (setTimeout of each gap)', naive]
    ]) {
      const lateness = []
      const rates = []
      for (const b of blocks) {
        const due = b.map(t => t.scheduled_ms - b[0].scheduled_ms)
        const r = await altSender(engines[0].baseUrl, due, wait)
        lateness.push(...r.lateness)
        rates.push(r.rate)
      }
      summary(name, lateness, rates)
    }
  }
  const { report } = await helmGateLoad(dir, 'duration', engines[0].baseUrl, engines[1].baseUrl, [
    'workload: { prompts: synthetic, input_tokens: { mean: 20 }, output_tokens: { mean: 4 } }',
    'concurrency: [2]',
    'duration_seconds: 6',
    'repetitions: 3'
  ])
  const lengths = report.load.blocks.map(b => b.duration_s)
  const share = report.load.settings.seconds_per_block
  console.log(
    `duration_seconds 6, 3 repetitions, concurrency 2: block lengths ${Math.min(...lengths).toFixed(3)} to ${Math.max(...lengths).toFixed(3)} s for a share of ${share} s ` +
      `(first send to last answer, ${lengths.length} blocks)`
  )
} finally {
  for (const e of engines) e.child.kill()
  await rm(dir, { recursive: true, force: true })
}
