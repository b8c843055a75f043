#!/usr/bin/env node
// What the one redactor hides that it should not, and what it finds, against named alternatives.
//
//   node bench/redaction.mjs [--lines 2000]
//
// Compiles src/secrets, src/traffic/scrub.ts and the test corpora into .tmp/redaction-bench
// (bench/redaction-tsconfig.json), then prints:
//
// 1. False positives on ordinary text: the share of lines the redactor changes, per kind of text,
//    in a corpus this script builds (log lines of helm-run, vLLM, llama.cpp and uvicorn; prose;
//    this repository's own TypeScript and Python lines outside src/secrets; ids: UUIDs, git SHAs,
//    sha256, completion, call and message ids, pod names, base64 ids without a prefix; numbers and
//    timestamps), beside secretlint's recommended rules alone. The same corpus through the
//    traffic scrubber (credentials, e-mail addresses, phone numbers).
// 2. Recall on every credential kind (test-support/credentials.ts, 200 random examples each):
//    the redactor against secretlint's rules alone.
// 3. Phone numbers: the scrubber's layout rule against libphonenumber-js's text matcher
//    (findPhoneNumbersInText) without a region, with `US`, and with each number's own region (the
//    best case: the country is known), on test-support/phone-corpus.ts: numbers found whole, and
//    non-numbers (dates, versions, ids, prices, timestamps) left alone.
// 4. Time per call of the redactor on a log line, against secretlint's rules alone.
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { mulberry32 } from '../test-support/mulberry32.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const out = join(root, '.tmp', 'redaction-bench')
const argument = (name, fallback) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback)
const LINES = Number(argument('--lines', 2000))

const tsc = spawnSync(
  process.execPath,
  [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'bench/redaction-tsconfig.json')],
  {
    stdio: 'inherit'
  }
)
if (tsc.status !== 0) process.exit(1)
const load = path => import(pathToFileURL(join(out, path)).href)
const { redactText } = await load('src/secrets/redact.js')
const { secretlintFindings } = await load('src/secrets/secretlint-rules.js')
const { scrubText, noCounts } = await load('src/traffic/scrub.js')
const { credentialKinds } = await load('test-support/credentials.js')
const { PHONES, NOT_PHONES } = await load('test-support/phone-corpus.js')
const fc = (await import('fast-check')).default
const { findPhoneNumbersInText } = await import('libphonenumber-js')

// --- the ordinary-text corpus ------------------------------------------------------------------
const random = mulberry32(28)
const pick = list => list[Math.floor(random() * list.length)]
const int = (lo, hi) => lo + Math.floor(random() * (hi - lo + 1))
const chars = (alphabet, n) => Array.from({ length: n }, () => pick(alphabet)).join('')
const HEX = '0123456789abcdef'
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const uuid = () => `${chars(HEX, 8)}-${chars(HEX, 4)}-4${chars(HEX, 3)}-${pick('89ab')}${chars(HEX, 3)}-${chars(HEX, 12)}`
const time = () =>
  `2026-${String(int(1, 12)).padStart(2, '0')}-${String(int(1, 28)).padStart(2, '0')} ${String(int(0, 23)).padStart(2, '0')}:${String(int(0, 59)).padStart(2, '0')}:${String(int(0, 59)).padStart(2, '0')}`
const WORDS = (
  'the model answered every question about the refund policy but the latency rose after the update so we ' +
  'rolled back the deployment and compared the two runs with paired statistics on the same instances while ' +
  'the candidate server used a different chat template and a smaller batch size which changed the accuracy ' +
  'of the summaries our customers read each morning before the meeting'
).split(' ')
const sentence = () => {
  const text = Array.from({ length: int(6, 22) }, () => pick(WORDS)).join(' ')
  return `${text[0].toUpperCase()}${text.slice(1)}${pick(['.', '.', '?', '!', ', thanks.', ' (see the report).'])}`
}

const generators = {
  'log lines': () =>
    pick([
      () => `INFO ${time()},${int(100, 999)} Processed ${int(1, 64)} requests`,
      () =>
        `INFO ${int(1, 12)}-${int(10, 28)} ${time().slice(11)} metrics.py:${int(100, 500)}] Avg prompt throughput: ${(random() * 900).toFixed(1)} tokens/s, Running: ${int(0, 64)} reqs, GPU KV cache usage: ${(random() * 100).toFixed(1)}%`,
      () => `INFO:     127.0.0.1:${int(30000, 65000)} - "POST /v1/chat/completions HTTP/1.1" 200 OK`,
      () => `slot launch_slot_: id  ${int(0, 7)} | task ${int(0, 9999)} | processing task, n_ctx = ${pick([2048, 4096, 8192])}`,
      () =>
        `prompt eval time = ${(random() * 900).toFixed(2)} ms / ${int(5, 900)} tokens (${(random() * 9).toFixed(2)} ms per token, ${(random() * 5000).toFixed(2)} tokens per second)`,
      () =>
        `  File "/home/runner/work/helm-gate/.venv/lib/python3.11/site-packages/helm/benchmark/runner.py", line ${int(10, 900)}, in run_one`,
      () => `Running ${pick(['mmlu:subject=anatomy', 'boolq', 'gsm', 'simple_mcqa'])},model=${pick(['openai/gpt2', 'meta/llama-3-8b'])} {`,
      () => `request ${uuid()} finished in ${int(5, 9000)} ms (status 200, ${int(1, 4000)} bytes)`,
      () => `npm warn deprecated inflight@1.0.6: This module is not supported, and leaks memory.`,
      () =>
        `Downloading https://huggingface.co/TheBloke/TinyLlama-1.1B-Chat-v1.0-GGUF/resolve/main/tinyllama-1.1b-chat-v1.0.Q4_K_M.gguf (${int(100, 900)} MB)`,
      () => `[${time()}] pod helm-gate-${chars(HEX, 9)}-${chars('bcdfghjklmnpqrstvwxz2456789', 5)} restarted (exit code ${int(0, 137)})`,
      () => `commit ${chars(HEX, 40)} merged into main by ${pick(['alice', 'bob', 'carol'])} at ${time()}`
    ])(),
  prose: sentence,
  ids: () =>
    pick([
      uuid,
      () => chars(HEX, 40), // git SHA
      () => chars(HEX, 7), // short SHA
      () => `sha256:${chars(HEX, 64)}`,
      () => chars(HEX, 32), // md5
      () => `chatcmpl-${chars(ALNUM, 29)}`,
      () => `call_${chars(ALNUM, 24)}`,
      () => `msg_01${chars(ALNUM, 22)}`,
      () => `req_${chars(ALNUM, 24)}`,
      () => `helm-gate-${chars(HEX, 10)}-${chars('bcdfghjklmnpqrstvwxz2456789', 5)}`,
      () => Buffer.from(Array.from({ length: 16 }, () => int(0, 255))).toString('base64url'), // a base64 id, no prefix
      () => `${pick(['id', 'session', 'cursor'])}=${Buffer.from(Array.from({ length: 24 }, () => int(0, 255))).toString('base64')}`, // 32 characters, no prefix: a key's shape
      () => `ord_${int(100000, 999999)}`,
      () => `${pick(['llama-3-8b-instruct', 'Qwen2.5-7B-Instruct-GGUF', 'mistral-7b-v0.3'])}.Q${int(2, 8)}_K_M.gguf`
    ])(),
  'numbers and timestamps': () =>
    pick([
      time,
      () => `${int(1_600_000_000, 1_800_000_000)}`,
      () => `${(random() * 1000).toFixed(4)} ± ${(random() * 10).toFixed(4)}`,
      () => `v${int(0, 3)}.${int(0, 30)}.${int(0, 20)}`,
      () => `$${int(1, 9)},${int(100, 999)}.${int(10, 99)}`,
      () => `${int(1, 255)}.${int(0, 255)}.${int(0, 255)}.${int(1, 254)}:${int(1024, 65535)}`
    ])()
}

// Real code: this repository's own lines, outside src/secrets (which holds the patterns).
function codeLines() {
  const lines = []
  for (const dir of ['src/stats', 'src/report', 'src/load', 'src/gate', 'src/config', 'python/helm_gate_plugins']) {
    for (const file of readdirSync(join(root, dir)).filter(f => /\.(ts|py)$/.test(f))) {
      lines.push(
        ...readFileSync(join(root, dir, file), 'utf8')
          .split('\n')
          .filter(line => line.trim().length > 0)
      )
    }
  }
  return lines
}

const corpus = Object.fromEntries(Object.entries(generators).map(([kind, make]) => [kind, Array.from({ length: LINES }, make)]))
corpus.code = codeLines()

const secretlintOnly = text => (secretlintFindings(text).length > 0 ? '*' : text)
const pct = (n, d) => `${((100 * n) / d).toFixed(2)}%`

console.log('1. false positives on ordinary text: lines changed')
console.log('   kind                      lines   redactor   secretlint alone   scrubber (+ e-mail, phone)')
let total = 0
const changed = { redactor: 0, secretlint: 0, scrubber: 0 }
const examples = []
for (const [kind, lines] of Object.entries(corpus)) {
  const n = { redactor: 0, secretlint: 0, scrubber: 0 }
  for (const line of lines) {
    if (redactText(line) !== line) {
      n.redactor++
      if (examples.length < 12) examples.push(`${kind}: ${line.trim().slice(0, 110)}`)
    }
    if (secretlintOnly(line) !== line) n.secretlint++
    if (scrubText(line, noCounts()) !== line) n.scrubber++
  }
  total += lines.length
  for (const k of Object.keys(changed)) changed[k] += n[k]
  console.log(
    `   ${kind.padEnd(24)} ${String(lines.length).padStart(6)}   ${pct(n.redactor, lines.length).padStart(8)}   ${pct(n.secretlint, lines.length).padStart(16)}   ${pct(n.scrubber, lines.length).padStart(10)}`
  )
}
console.log(
  `   ${'all'.padEnd(24)} ${String(total).padStart(6)}   ${pct(changed.redactor, total).padStart(8)}   ${pct(changed.secretlint, total).padStart(16)}   ${pct(changed.scrubber, total).padStart(10)}`
)
if (examples.length > 0) console.log(`   lines the redactor changed (first ${examples.length}):\n     ${examples.join('\n     ')}`)

console.log('\n2. recall on every credential kind (200 random examples each, the secret parts gone)')
console.log('   kind                         redactor   secretlint alone')
const hidden = (out, planted) => planted.secrets.every(secret => !out.includes(secret))
for (const [kind, arbitrary] of Object.entries(credentialKinds)) {
  const samples = fc.sample(arbitrary, { seed: 5, numRuns: 200 })
  const ours = samples.filter(p => hidden(redactText(p.text), p)).length
  const theirs = samples.filter(p => {
    let text = p.text
    for (const f of secretlintFindings(text).sort((a, b) => b.start - a.start))
      text = text.slice(0, f.start) + '*'.repeat(f.end - f.start) + text.slice(f.end)
    return hidden(text, p)
  }).length
  console.log(`   ${kind.padEnd(28)} ${pct(ours, 200).padStart(8)}   ${pct(theirs, 200).padStart(16)}`)
}

console.log('\n3. phone numbers: found whole, and non-numbers left alone')
const layoutFinds = phone => scrubText(`call ${phone} now`, noCounts()) === 'call [phone] now'
const libFinds = (phone, region) => {
  const found = findPhoneNumbersInText(`call ${phone} now`, region ? { defaultCountry: region } : undefined)
  return found.some(f => f.startsAt === 5 && f.endsAt === 5 + phone.length)
}
const libAny = (text, region) => findPhoneNumbersInText(text, region ? { defaultCountry: region } : undefined).length > 0
const rows = [
  ['layout rule (the scrubber)', p => layoutFinds(p[1]), t => scrubText(t, noCounts()) !== t],
  ['libphonenumber-js, no region', p => libFinds(p[1]), t => libAny(t)],
  ['libphonenumber-js, region US', p => libFinds(p[1], 'US'), t => libAny(t, 'US')],
  ['libphonenumber-js, own region', p => libFinds(p[1], p[0]), t => ['US', 'GB', 'FR', 'DE', 'IN'].some(r => libAny(t, r))]
]
console.log(`   matcher                          found (of ${PHONES.length})   non-numbers touched (of ${NOT_PHONES.length})`)
for (const [name, finds, touches] of rows) {
  const found = PHONES.filter(finds)
  const missed = PHONES.filter(p => !finds(p)).map(p => p[1])
  console.log(
    `   ${name.padEnd(32)} ${String(found.length).padStart(6)} ${pct(found.length, PHONES.length).padStart(8)}   ${String(NOT_PHONES.filter(touches).length).padStart(10)}${missed.length > 0 && missed.length <= 12 ? `   missed: ${missed.join(', ')}` : ''}`
  )
}

console.log(
  '   (own region: each number with its country; a non-number counts as touched when any of US, GB, FR, DE, IN finds a number in it)'
)
console.log('\n4. time per log line (median of 5 passes over the log-line corpus)')
const timeIt = fn => {
  const passes = []
  for (let pass = 0; pass < 5; pass++) {
    const start = process.hrtime.bigint()
    for (const line of corpus['log lines']) fn(line)
    passes.push(Number(process.hrtime.bigint() - start) / 1e3 / corpus['log lines'].length)
  }
  return passes.sort((a, b) => a - b)[2]
}
const ours = timeIt(line => redactText(line))
const theirs = timeIt(line => secretlintFindings(line))
console.log(`   redactor (structural rules + secretlint + value rules)   ${ours.toFixed(1)} µs`)
console.log(`   secretlint's recommended rules alone                    ${theirs.toFixed(1)} µs`)
console.log(`   ratio                                                   ${(ours / theirs).toFixed(2)}x`)
