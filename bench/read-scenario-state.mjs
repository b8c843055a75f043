#!/usr/bin/env node
// Memory bench for the streaming scenario_state.json reader.
//
//   node bench/read-scenario-state.mjs [--gb 2] [--keep]
//
// Compiles src/helm/read into .tmp/read-bench (bench/read-tsconfig.json), writes a synthetic
// scenario_state.json of about --gb GB to .tmp/ with streamed writes, then reads it in a child
// process (so the writer's memory does not count) through readRequestStates(), and prints
// elapsed time, throughput and the reader's peak RSS. The file is deleted afterwards unless
// --keep is given. Fails (exit 1) when peak RSS reaches 300 MB.
//
// One element carries a 16 MB token list, larger than any real one: tokens are a skipped
// subtree, so it must not raise the peak.
import { spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import { mkdir, rm, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const buildDir = join(root, '.tmp', 'read-bench')
const RSS_LIMIT_MB = 300

function argument(name, fallback) {
  const i = process.argv.indexOf(name)
  return i >= 0 ? process.argv[i + 1] : fallback
}

/** One request state shaped like HELM 0.5.16 output (indent=2, ASCII with \u escapes). */
function requestState(i, tokenCount) {
  const question = `Question ${i}: is ${i % 97} even or odd? caf\u00e9 \ud83d\ude00 "quoted"`
  const prompt = `Answer the following questions with a single letter only.\n${'Question: Is 16 even or odd?\nA. Even\nB. Odd\nAnswer: A\n\n'.repeat(20)}${question}\nAnswer:`
  const tokens = Array.from({ length: tokenCount }, (_, t) => ({ text: ` tok${t}`, logprob: t % 50 === 0 ? -Infinity : -0.25 * t }))
  const state = {
    instance: {
      input: { text: question },
      references: [
        { output: { text: 'Even' }, tags: ['correct'] },
        { output: { text: 'Odd' }, tags: [] }
      ],
      split: 'test',
      id: `id${i}`
    },
    train_trial_index: i % 3,
    output_mapping: { A: 'Even', B: 'Odd' },
    request: {
      model_deployment: 'ci/baseline',
      model: 'ci/baseline',
      embedding: false,
      prompt,
      temperature: 0.0,
      num_completions: 1,
      top_k_per_token: 5,
      max_tokens: 5,
      stop_sequences: [],
      echo_prompt: false,
      top_p: 1,
      presence_penalty: 0,
      frequency_penalty: 0
    },
    result: {
      success: true,
      embedding: [],
      completions: [{ text: ' A', logprob: -0.25, tokens }],
      cached: false,
      request_time: 0.3 + (i % 10) / 100,
      request_datetime: 1795934915 + i
    },
    num_train_instances: 5,
    prompt_truncated: false,
    num_conditioning_tokens: 0
  }
  // Python's json.dumps: ensure_ascii and bare -Infinity.
  const text = JSON.stringify(state, (key, value) => (value === -Infinity ? '__NEG_INF__' : value), 2)
    .replace(/"__NEG_INF__"/g, '-Infinity')
    .replace(/[\u007f-\uffff]/g, c => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  return text.replace(/\n/g, '\n    ')
}

async function generate(file, targetBytes) {
  await mkdir(dirname(file), { recursive: true })
  const out = createWriteStream(file)
  const write = async text => {
    if (!out.write(text)) await once(out, 'drain')
  }
  await write('{\n  "adapter_spec": {"method": "multiple_choice_joint", "model": "ci/baseline"},\n  "request_states": [\n    ')
  let written = 0
  let count = 0
  let batch = ''
  while (written < targetBytes) {
    const element = requestState(count, count === 1000 ? 400_000 : 40)
    const piece = (count === 0 ? '' : ',\n    ') + element
    batch += piece
    written += piece.length
    count++
    if (batch.length > 1 << 20) {
      await write(batch)
      batch = ''
    }
  }
  await write(`${batch}\n  ]\n}\n`)
  out.end()
  await once(out, 'finish')
  return count
}

async function readChild(file) {
  const { readRequestStates } = await import(pathToFileURL(join(buildDir, 'helm', 'read', 'request-states.js')).href)
  const start = process.hrtime.bigint()
  let cachedCount = 0
  let lastId = ''
  const info = await readRequestStates(file, summary => {
    if (summary.cached) cachedCount++
    lastId = summary.instanceId
  })
  const seconds = Number(process.hrtime.bigint() - start) / 1e9
  const peakRssMb = process.resourceUsage().maxRSS / 1024
  process.stdout.write(JSON.stringify({ requestStates: info.requestStates, cachedCount, lastId, seconds, peakRssMb }) + '\n')
}

async function main() {
  if (process.argv[2] === '--read') return readChild(process.argv[3])

  const gb = Number(argument('--gb', '2'))
  const tsc = spawnSync(
    process.execPath,
    [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(root, 'bench', 'read-tsconfig.json')],
    {
      stdio: 'inherit'
    }
  )
  if (tsc.status !== 0) throw new Error('tsc failed')

  const file = join(root, '.tmp', 'bench-scenario_state.json')
  try {
    const t0 = Date.now()
    const count = await generate(file, gb * 1024 ** 3)
    const size = (await stat(file)).size
    console.log(`generated ${(size / 1024 ** 3).toFixed(2)} GiB, ${count} request states in ${((Date.now() - t0) / 1000).toFixed(1)} s`)

    const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--read', file], { encoding: 'utf8', maxBuffer: 1 << 20 })
    if (child.status !== 0) throw new Error(`reader failed: ${child.stderr}`)
    const result = JSON.parse(child.stdout.trim().split('\n').pop())
    if (result.requestStates !== count) throw new Error(`read ${result.requestStates} request states, wrote ${count}`)
    const mbPerSecond = size / 1024 ** 2 / result.seconds
    console.log(`read ${result.requestStates} request states in ${result.seconds.toFixed(1)} s`)
    console.log(`throughput ${mbPerSecond.toFixed(0)} MiB/s`)
    console.log(`peak RSS ${result.peakRssMb.toFixed(0)} MB (limit ${RSS_LIMIT_MB} MB)`)
    if (result.peakRssMb >= RSS_LIMIT_MB) {
      console.error('FAIL: peak RSS over the limit')
      process.exitCode = 1
    }
  } finally {
    if (!process.argv.includes('--keep')) await rm(file, { force: true })
  }
}

await main()
