#!/usr/bin/env node
// Downloading a large artifact (an archived baseline of several hundred MB) from the fake GitHub's
// artifact service, through the project's download code, against the named alternative it
// replaced, in the same run:
//   helm-gate  src/github/artifacts.ts: @actions/artifact's downloadArtifact with findBy (REST 302,
//              then the blob), unzipped as it streams to disk, digest and extracted tree checked;
//   in-memory  the hand-written code it replaced: the whole zip fetched into one Buffer, digest
//              checked, every entry inflated with inflateRawSync (test-support's zip reader).
// Each download runs in a fresh child process; its peak RSS is process.resourceUsage().maxRSS.
// The fake GitHub runs in a process of its own (it holds the zip in memory).
//
//   node bench/artifact-download.mjs [--mb 640] [--rounds 2] [--keep]
//
// Data: HELM-shaped run directories (run_spec.json, scenario.json, scenario_state.json,
// per_instance_stats.json, stats.json) whose completions and token log-probabilities are random,
// so the zip stays large: 640 MB of files make a zip of about 400 MB (a real run compresses
// better; this is the hard case for memory). Written to a temporary directory and zipped with
// the `zip` CLI at level 6 (what @actions/artifact uses). Figures: best wall time, throughput
// (zip bytes / s), highest peak RSS.
import { spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { copyFileSync, createWriteStream, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const buildDir = join(root, '.tmp', 'artifact-bench')

function argument(name, fallback) {
  const i = process.argv.indexOf(name)
  return i >= 0 ? process.argv[i + 1] : fallback
}
const targetMb = Number(argument('--mb', process.env.BENCH_ARTIFACT_MB ?? 640))
const rounds = Number(argument('--rounds', process.env.BENCH_ROUNDS ?? 2))
const keep = process.argv.includes('--keep')
const RUNS = 8

if (spawnSync('zip', ['-v'], { stdio: 'ignore' }).status !== 0) throw new Error('the zip CLI is needed to build the artifact')

// 1. Compile the download code and the fake GitHub.
const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'bench/artifact-tsconfig.json')], {
  stdio: 'inherit'
})
if (tsc.status !== 0) throw new Error('tsc failed')
copyFileSync(join(root, 'test-support/fake-github/openapi-subset.json'), join(buildDir, 'test-support/fake-github/openapi-subset.json'))

// 2. The artifact: HELM-shaped run directories, named as uploaded (`:` percent-encoded).
const work = mkdtempSync(join(tmpdir(), 'helm-gate-artifact-bench-'))
const data = join(work, 'data')
const perRunBytes = (targetMb * 1024 * 1024) / RUNS

async function write(stream, text) {
  if (!stream.write(text)) await once(stream, 'drain')
}

async function writeRun(dir, index) {
  mkdirSync(dir, { recursive: true })
  const model = `bench/model-${index}`
  writeFileSync(join(dir, 'run_spec.json'), JSON.stringify({ name: `bench_${index}:model=${model}`, adapter_spec: { model } }, null, 2))
  writeFileSync(join(dir, 'scenario.json'), JSON.stringify({ name: `bench_${index}`, description: 'artifact download bench' }, null, 2))
  const states = createWriteStream(join(dir, 'scenario_state.json'))
  const stats = createWriteStream(join(dir, 'per_instance_stats.json'))
  await write(states, `{\n  "adapter_spec": {"model": "${model}"},\n  "request_states": [\n`)
  await write(stats, '[\n')
  const prompt = 'Answer with one word.\\n'.repeat(40)
  let written = 0
  for (let i = 0; written < perRunBytes; i++) {
    const completion = randomBytes(6000).toString('base64')
    const tokens = Array.from({ length: 16 }, (_, t) => `{"text": " t${t}", "logprob": ${-Math.random().toFixed(12)}}`).join(', ')
    const state =
      `${i ? ',\n' : ''}    {"instance": {"input": {"text": "Question ${i}"}, "references": [{"output": {"text": "yes"}, "tags": ["correct"]}], "split": "test", "id": "id${i}"}, ` +
      `"train_trial_index": 0, "request": {"model": "${model}", "prompt": "${prompt}Question ${i}"}, ` +
      `"result": {"success": true, "completions": [{"text": "${completion}", "logprob": ${-Math.random()}, "tokens": [${tokens}]}], "request_time": ${Math.random()}}}`
    const stat = `${i ? ',\n' : ''}  {"instance_id": "id${i}", "train_trial_index": 0, "stats": [{"name": {"name": "exact_match", "split": "test"}, "count": 1, "sum": ${Math.random()}}, {"name": {"name": "inference_runtime", "split": "test"}, "count": 1, "sum": ${Math.random()}}]}`
    await write(states, state)
    await write(stats, stat)
    written += state.length + stat.length
  }
  await write(states, '\n  ]\n}\n')
  await write(stats, '\n]\n')
  await Promise.all([new Promise(resolve => states.end(resolve)), new Promise(resolve => stats.end(resolve))])
  writeFileSync(join(dir, 'stats.json'), JSON.stringify([{ name: { name: 'exact_match', split: 'test' }, count: 1, sum: 0.5 }], null, 2))
}

console.log(`writing ${RUNS} HELM-shaped run directories, about ${targetMb} MB, to ${work}`)
for (let r = 0; r < RUNS; r++) await writeRun(join(data, 'baseline', 'runs', 'bench', `bench_${r}%3Amodel=bench_model-${r}`), r)
writeFileSync(join(data, 'manifest.json'), JSON.stringify({ schema: 'helm-gate-manifest/1', complete: true }))
const zipFile = join(work, 'artifact.zip')
const zipped = spawnSync('zip', ['-q', '-r', '-6', zipFile, '.'], { cwd: data, stdio: 'inherit' })
if (zipped.status !== 0) throw new Error('zip failed')
const rawBytes = Number(spawnSync('du', ['-sb', data], { encoding: 'utf8' }).stdout.split('\t')[0])
rmSync(data, { recursive: true, force: true })
const zipBytes = statSync(zipFile).size
console.log(`artifact: ${(zipBytes / 1048576).toFixed(0)} MB zip, ${(rawBytes / 1048576).toFixed(0)} MB unpacked`)

// 3. The fake GitHub, in its own process.
const fake = spawn(
  process.execPath,
  [join(root, 'bench/lib/artifact-fake.mjs'), join(buildDir, 'test-support/fake-github/server.js'), zipFile],
  {
    stdio: ['pipe', 'pipe', 'inherit']
  }
)
const [line] = await once(createInterface({ input: fake.stdout }), 'line')
const artifact = JSON.parse(line)

function measure(mode, round) {
  const destination = join(work, `${mode}-${round}`)
  const child = spawnSync(
    process.execPath,
    [join(root, 'bench/lib/artifact-download-child.mjs'), mode, buildDir, JSON.stringify(artifact), destination],
    {
      encoding: 'utf8',
      env: { ...process.env, GITHUB_API_URL: artifact.url, GITHUB_SERVER_URL: 'https://github.com', NO_PROXY: '127.0.0.1,localhost' },
      maxBuffer: 64 * 1024 * 1024
    }
  )
  rmSync(destination, { recursive: true, force: true })
  if (child.status !== 0) throw new Error(`${mode} failed:\n${child.stdout}\n${child.stderr}`)
  const result = JSON.parse(child.stdout.trim().split('\n').at(-1))
  // du counts directories too: the extracted files must account for all but those.
  if (Math.abs(result.bytes - rawBytes) > 1_000_000) {
    throw new Error(`${mode} extracted ${result.bytes} bytes, expected about ${rawBytes}`)
  }
  return result
}

// spawnSync blocks this process only; the fake answers from its own.
const results = { 'helm-gate': [], 'in-memory': [] }
for (let round = 0; round < rounds; round++) {
  for (const mode of round % 2 === 0 ? ['helm-gate', 'in-memory'] : ['in-memory', 'helm-gate']) results[mode].push(measure(mode, round))
}
fake.stdin.end()
await once(fake, 'exit')
if (!keep) rmSync(work, { recursive: true, force: true })

const summary = mode => {
  const best = Math.min(...results[mode].map(r => r.ms))
  const rss = Math.max(...results[mode].map(r => r.maxRssMb))
  return { best, rss, throughput: zipBytes / 1048576 / (best / 1000) }
}
const ours = summary('helm-gate')
const theirs = summary('in-memory')
console.log(
  `\n${(zipBytes / 1048576).toFixed(0)} MB artifact, ${results['helm-gate'][0].files} files; best of ${rounds} (wall), highest peak RSS`
)
for (const [name, s] of [
  ['helm-gate (@actions/artifact, streamed)', ours],
  ['in-memory (one Buffer, inflateRawSync)', theirs]
]) {
  console.log(
    `  ${name.padEnd(42)} ${(s.best / 1000).toFixed(1).padStart(6)} s  ${s.throughput.toFixed(0).padStart(4)} MB/s  peak RSS ${s.rss.toFixed(0).padStart(5)} MB`
  )
}
console.log(
  `  peak RSS, in-memory / helm-gate: ${(theirs.rss / ours.rss).toFixed(1)}x; wall time, helm-gate / in-memory: ${(ours.best / theirs.best).toFixed(2)}x`
)
