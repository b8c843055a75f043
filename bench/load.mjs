#!/usr/bin/env node
// The load generator's own overhead, against a named alternative in the same run (docs/load.md,
// "Benchmark"). For each level (default 1, 64 and 256 concurrent streams) against the fake
// continuous-batching engine (200 prompt tokens, 128 output tokens):
//   - TTFT error against the engine's own record, p50 and p99 (relative and in ms);
//   - streamed chunks per CPU-second of the generator's processes (user + system);
//   - peak RSS;
//   - achieved output throughput against the engine's capacity (every slot always occupied);
// for helm-gate (the bundled CLI, `helm-gate load`) and, when the bench venv exists
// (bash bench/load-peers-env.sh), GuideLLM and AIPerf on the same engine.
//
//   node bench/load.mjs [--levels 1,64,256] [--venv /work/venvs/load-bench] [--no-peers] [--pin]
// Needs dist/ (npm run build). Writes its working files to a temporary directory.
// --pin runs the engine on CPU 0 and the tool on CPU 1 (taskset), as when the engine has cores of
// its own: on a 2-core machine the kernel otherwise wakes a reader on its writer's core, so each
// process waits for the other's burst of writes (docs/load.md, "Where the rest of the error is").
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { loadavg, tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { exec, FAKE_ENGINE, startFakeEngine, timedUnder } from './lib/fake-engine.mjs'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const { values } = parseArgs({
  options: {
    levels: { type: 'string', default: '1,64,256' },
    venv: { type: 'string', default: process.env.LOAD_BENCH_VENV ?? '/work/venvs/load-bench' },
    'no-peers': { type: 'boolean', default: false },
    pin: { type: 'boolean', default: false }
  }
})
const LEVELS = values.levels.split(',').map(Number)
const PROMPT = 200
const OUTPUT = 128
// An 8B-class engine's order of magnitude, scaled to keep the bench short.
const ENGINE = { maxNumSeqs: 256, prefillBaseMs: 1, prefillPerTokenMs: 0.01, decodeBaseMs: 4, decodePerSeqMs: 0.05 }
const ENGINE_FLAGS = [
  ['--max-num-seqs', ENGINE.maxNumSeqs],
  ['--prefill-base-ms', ENGINE.prefillBaseMs],
  ['--prefill-per-token-ms', ENGINE.prefillPerTokenMs],
  ['--decode-base-ms', ENGINE.decodeBaseMs],
  ['--decode-per-seq-ms', ENGINE.decodePerSeqMs]
].flatMap(([flag, value]) => [flag, String(value)])
const PIN = values.pin
// With --pin: the engine on CPU 0, the tool (and its child processes) on CPU 1.
const ENGINE_CPU = PIN ? ['taskset', '-c', '0'] : []
const TOOL_CPU = PIN ? ['taskset', '-c', '1'] : []

const quantile = (values, q) => {
  const a = [...values].sort((x, y) => x - y)
  const h = (a.length - 1) * q
  const lo = Math.floor(h)
  return a[lo] + (h - lo) * (a[Math.min(lo + 1, a.length - 1)] - a[lo])
}

async function capacity() {
  const r = await exec(process.execPath, [
    FAKE_ENGINE,
    '--capacity',
    ...ENGINE_FLAGS,
    '--prompt-tokens',
    String(PROMPT),
    '--output-tokens',
    String(OUTPUT)
  ])
  return JSON.parse(r.stdout).capacity_tokens_per_second
}

async function helmGate(engine, level, dir) {
  const perBlock = Math.max(2 * level, 20)
  const gate = join(dir, `gate-${level}.yml`)
  await writeFile(
    gate,
    `version: 1
deployments:
  baseline: { api: completions, base_url: ${engine.url}, model: engine-model }
  candidate: { api: completions, base_url: ${engine.url}, model: engine-model }
runs:
  - { entry: "simple_mcqa", metric: exact_match, max_drop: 0.05 }
load:
  workload: { prompts: synthetic, input_tokens: { mean: ${PROMPT} }, output_tokens: { mean: ${OUTPUT} } }
  concurrency: [${level}]
  requests_per_level: ${3 * perBlock}
  repetitions: 3
  timeout_seconds: 600
  checks:
    - { metric: error_rate, max: 0 }
`
  )
  const out = join(dir, `helm-gate-${level}`)
  const r = await timedUnder(TOOL_CPU, process.execPath, [join(root, 'dist', 'cli.js'), 'load', '--config', gate, '--out', out, '--quiet'])
  if (r.code !== 0) throw new Error(`helm-gate load exited ${r.code}: ${r.stderr.slice(-500)}`)
  const timings = (await readFile(join(out, 'load-timings.jsonl'), 'utf8'))
    .trim()
    .split('\n')
    .map(line => JSON.parse(line))
  const report = JSON.parse(await readFile(join(out, 'report.json'), 'utf8'))
  const records = new Map((await engine.records()).map(rec => [rec.id, rec]))
  const truth = timings.map(t => records.get(t.id).ttft_ms)
  const tps = report.load.summary.map(s => (s.baseline.output_tokens_per_second + s.candidate.output_tokens_per_second) / 2)[0]
  // Where the TTFT error arises. The error of a request is the time from the generator's send to
  // the engine's stamp of its arrival (ingress) plus the time from the engine's emission of the
  // first token to the generator's reading of it (egress). The two processes' clocks differ by an
  // unknown offset: estimated, as NTP does, from the request with the smallest send-to-arrival time
  // (its ingress taken as zero, so every ingress is understated by that minimum, tens of µs).
  const offsets = timings.map(t => {
    const rec = records.get(t.id)
    return rec.time_origin + rec.arrival_ms - t.send_ms
  })
  const least = Math.min(...offsets)
  const ingress = offsets.map(o => o - least)
  const egress = timings.map((t, i) => t.ttft_ms - truth[i] - ingress[i])
  return { ttft: timings.map(t => t.ttft_ms), truth, cpu: r.cpu, rssMb: r.rssMb, throughput: tps, ingress, egress }
}

async function guideLLM(engine, level, dir) {
  const bin = join(values.venv, 'bin', 'guidellm')
  const out = join(dir, `guidellm-${level}.json`)
  const count = 3 * Math.max(2 * level, 20)
  const r = await timedUnder(TOOL_CPU, bin, [
    'run',
    '--backend',
    `kind=openai_http,target=${engine.origin},model=engine-model`,
    '--profile',
    `kind=concurrent,streams=${level}`,
    '--constraint',
    `kind=max_requests,count=${count}`,
    '--tokenizer',
    `kind=hf_auto,model=${join(values.venv, 'whitespace-tokenizer')}`,
    '--data',
    `kind=synthetic_text,prompt_tokens=${PROMPT},output_tokens=${OUTPUT}`,
    '--output',
    `kind=json,path=${out}`,
    '--disable-console-interactive'
  ])
  if (!existsSync(out)) throw new Error(`guidellm exited ${r.code}: ${r.stderr.slice(-800)}`)
  const b = JSON.parse(await readFile(out, 'utf8')).benchmarks[0]
  const ttft = b.metrics.time_to_first_token_ms.successful.percentiles
  const tokens = b.metrics.output_token_count.successful.total_sum
  return { p50: ttft.p50, p99: ttft.p99, cpu: r.cpu, rssMb: r.rssMb, throughput: tokens / b.duration }
}

async function aiperf(engine, level, dir) {
  const bin = join(values.venv, 'bin', 'aiperf')
  const artifacts = join(dir, `aiperf-${level}`)
  const count = 3 * Math.max(2 * level, 20)
  // HF_HUB_OFFLINE must be unset: AIPerf 0.13 refuses a local tokenizer path when it is set.
  const r = await timedUnder(
    TOOL_CPU,
    bin,
    [
      'profile',
      '-m',
      'engine-model',
      '--url',
      engine.origin,
      '--endpoint-type',
      'completions',
      '--streaming',
      '--concurrency',
      String(level),
      '--request-count',
      String(count),
      '--tokenizer',
      join(values.venv, 'whitespace-tokenizer'),
      '--synthetic-input-tokens-mean',
      String(PROMPT),
      '--output-tokens-mean',
      String(OUTPUT),
      '--extra-inputs',
      'ignore_eos:true',
      '--artifact-dir',
      artifacts,
      '--ui-type',
      'none'
    ],
    { HF_HUB_OFFLINE: '' }
  )
  const file = join(artifacts, 'profile_export_aiperf.json')
  if (!existsSync(file)) throw new Error(`aiperf exited ${r.code}: ${r.stderr.slice(-800)}`)
  const d = JSON.parse(await readFile(file, 'utf8'))
  return {
    p50: d.time_to_first_token.p50,
    p99: d.time_to_first_token.p99,
    cpu: r.cpu,
    rssMb: r.rssMb,
    throughput: d.output_token_throughput.avg
  }
}

const pct = (measured, truth) =>
  `${measured >= truth ? '+' : ''}${((measured / truth - 1) * 100).toFixed(1)}% (${(measured - truth).toFixed(2)} ms)`

async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'helm-gate-load-bench-'))
  const rows = []
  const cap = await capacity()
  console.log(
    `engine: ${JSON.stringify(ENGINE)}, ${PROMPT} prompt / ${OUTPUT} output tokens; capacity ${cap.toFixed(0)} output tok/s (every slot always occupied)${PIN ? '; engine on CPU 0, tool on CPU 1' : ''}`
  )
  const peers = !values['no-peers'] && existsSync(join(values.venv, 'bin', 'guidellm'))
  if (!values['no-peers'] && !peers) console.log(`peers skipped: no bench venv at ${values.venv} (bash bench/load-peers-env.sh)`)
  try {
    for (const level of LEVELS) {
      const tools = [['helm-gate', helmGate]]
      if (peers) tools.push(['GuideLLM 0.8.1', guideLLM], ['AIPerf 0.13.0', aiperf])
      for (const [name, run] of tools) {
        const engine = await startFakeEngine(ENGINE_FLAGS, ENGINE_CPU)
        const loadBefore = loadavg()[0]
        try {
          const result = await run(engine, level, dir)
          const stats = await engine.stats()
          const records = await engine.records()
          // helm-gate: matched per request; peers: the engine's record of every request of the run.
          const truth = result.truth ?? records.map(r => r.ttft_ms)
          const t50 = quantile(truth, 0.5)
          const t99 = quantile(truth, 0.99)
          const m50 = result.ttft ? quantile(result.ttft, 0.5) : result.p50
          const m99 = result.ttft ? quantile(result.ttft, 0.99) : result.p99
          const row = {
            tool: name,
            level,
            ttft_p50: pct(m50, t50),
            ttft_p99: pct(m99, t99),
            chunks_per_cpu_s: Math.round(stats.tokens / result.cpu),
            cpu_s_per_1000_chunks: ((result.cpu / stats.tokens) * 1000).toFixed(3),
            peak_rss_mb: Math.round(result.rssMb),
            throughput_vs_capacity: `${((result.throughput / cap) * 100).toFixed(1)}%`,
            // How full the client kept the engine's slots while it was stepping (timer-independent).
            slot_occupancy: `${(stats.occupancy * 100).toFixed(1)}%`,
            // Time the engine gave up because its process was starved of CPU (not the client's doing).
            engine_lost_ms: Math.round(stats.lost_ms),
            ...(result.ingress
              ? {
                  ingress_ms: `${quantile(result.ingress, 0.5).toFixed(2)} / ${quantile(result.ingress, 0.99).toFixed(2)}`,
                  egress_ms: `${quantile(result.egress, 0.5).toFixed(2)} / ${quantile(result.egress, 0.99).toFixed(2)}`,
                  // The median of the requests' own errors, beside the error of the median above.
                  error_median_ms: quantile(
                    result.ttft.map((m, i) => m - result.truth[i]),
                    0.5
                  ).toFixed(2),
                  truth_p50_ms: t50.toFixed(1)
                }
              : {}),
            // The machine's 1-minute load average before and after (2 cores: above 2 the processes queue).
            load_average: `${loadBefore.toFixed(1)}-${loadavg()[0].toFixed(1)}`
          }
          rows.push(row)
          console.log(JSON.stringify(row))
        } catch (error) {
          rows.push({
            tool: name,
            level,
            error: String(error.message ?? error)
              .split('\n')
              .slice(-3)
              .join(' ')
          })
          console.log(JSON.stringify(rows[rows.length - 1]))
        } finally {
          engine.stop()
        }
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
  console.log(
    '\n| tool | streams | TTFT p50 error | TTFT p99 error | ingress / egress p50 (ms) | chunks per CPU-s | CPU-s per 1,000 chunks | peak RSS | throughput / capacity | slot occupancy | engine lost | load average |'
  )
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|')
  for (const r of rows) {
    if (r.error) console.log(`| ${r.tool} | ${r.level} | error: ${r.error} | | | | | | | | | |`)
    else {
      const split = r.ingress_ms ? `${r.ingress_ms.split(' / ')[0]} / ${r.egress_ms.split(' / ')[0]}` : '-'
      console.log(
        `| ${r.tool} | ${r.level} | ${r.ttft_p50} | ${r.ttft_p99} | ${split} | ${r.chunks_per_cpu_s} | ${r.cpu_s_per_1000_chunks} | ${r.peak_rss_mb} MB | ${r.throughput_vs_capacity} | ${r.slot_occupancy} | ${r.engine_lost_ms} ms | ${r.load_average} |`
      )
    }
  }
}

await main()
