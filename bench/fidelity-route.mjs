#!/usr/bin/env node
// Which teacher-forcing route is exact on llama.cpp's llama-server, and what each costs
// (docs/fidelity.md "Routes"). Two servers (baseline and candidate model files) on loopback; on
// each prompt the baseline's greedy answer with its top-k, then the candidate scored on that
// answer three ways, through helm-gate's own client (src/fidelity/fidelity-llama-cpp.ts):
//   grammar  one /completion per instance, a grammar of the answer's token ids, n_probs read
//            before the grammar (post_sampling_probs: false)  <- the route helm-gate uses
//   prefix   one /completion per position: the prompt and the answer's first t tokens, cache_prompt
//   fresh    the same with cache_prompt: false (every request evaluates the whole prefix): the
//            reference, a fresh request with prompt + prefix
// Prints, per route against `fresh`: positions whose top-k token ids differ, the largest
// |logprob| difference over the shared top-k and over the forced token, requests and seconds.
//
//   npx tsc -p bench/fidelity-tsconfig.json && \
//   flock /work/locks/real-engine.lock node bench/fidelity-route.mjs [--baseline F16] [--candidate Q4_0] \
//     [--instances 20] [--top-k 20] [--max-tokens 24] [--port 18620]
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { LlamaCppClient } from '../.tmp/fidelity-bench/fidelity/fidelity-llama-cpp.js'
import { additionPrompts } from './lib/addition-prompts.mjs'
import { startLlamaServer } from './lib/llama-server.mjs'

const { values } = parseArgs({
  options: {
    baseline: { type: 'string', default: 'F16' },
    candidate: { type: 'string', default: 'Q4_0' },
    instances: { type: 'string', default: '20' },
    'top-k': { type: 'string', default: '20' },
    'max-tokens': { type: 'string', default: '24' },
    port: { type: 'string', default: '18620' },
    engine: { type: 'string', default: '.real-engine/engine/bin/llama-server' },
    'model-dir': { type: 'string', default: '.real-engine/model' }
  }
})
const instances = Number(values.instances)
const topK = Number(values['top-k'])
const maxTokens = Number(values['max-tokens'])
const port = Number(values.port)

function startServer(ftype, p) {
  return startLlamaServer({ engine: values.engine, modelDir: values['model-dir'], ftype, port: p })
}

/** The addition task's prompts, as helm-run sends them (the custom_mcqa file the gate set uses). */
function prompts() {
  return additionPrompts(join(values['model-dir'], 'addition.jsonl')).slice(0, instances)
}

function compare(reference, other) {
  let differentTopK = 0
  let maxTop = 0
  let maxForced = 0
  let positions = 0
  for (let i = 0; i < reference.length; i++) {
    for (let t = 0; t < reference[i].length; t++) {
      const a = reference[i][t]
      const b = other[i][t]
      positions++
      const ids = x => x.top.map(e => e.token).join(',')
      if (ids(a) !== ids(b)) differentTopK++
      const bMap = new Map(b.top.map(e => [e.token, e.logprob]))
      for (const e of a.top) if (bMap.has(e.token)) maxTop = Math.max(maxTop, Math.abs(e.logprob - bMap.get(e.token)))
      maxForced = Math.max(maxForced, Math.abs(a.logprob - b.logprob))
    }
  }
  return { positions, differentTopK, maxTop, maxForced }
}

const servers = []
try {
  servers.push(await startServer(values.baseline, port), await startServer(values.candidate, port + 1))
  const side = (name, p) => ({ side: name, baseUrl: `http://127.0.0.1:${p}/v1`, model: 'addition', apiKey: null, api: 'completions' })
  const baseline = new LlamaCppClient(side('baseline', port), 120_000)
  const list = prompts()
  const answers = []
  let t0 = performance.now()
  for (const p of list) answers.push(await baseline.generate(p, maxTokens, topK))
  const baselineSeconds = (performance.now() - t0) / 1000
  const tokens = answers.reduce((s, a) => s + a.length, 0)
  console.log(
    `baseline ${values.baseline}: ${list.length} answers, ${tokens} tokens, ${baseline.requests} requests, ${baselineSeconds.toFixed(2)} s`
  )
  const results = {}
  for (const mode of ['fresh', 'prefix', 'grammar']) {
    const client = new LlamaCppClient(side('candidate', port + 1), 120_000, mode)
    t0 = performance.now()
    const scored = []
    for (const [i, p] of list.entries()) scored.push(await client.score(p, answers[i], topK))
    results[mode] = { scored, requests: client.requests, seconds: (performance.now() - t0) / 1000 }
  }
  console.log(`candidate ${values.candidate} scored on the baseline's answers, top-k ${topK}, against fresh requests:`)
  console.log('route    requests  seconds  positions  top-k ids differ  max |dlogprob| top-k  max |dlogprob| forced')
  for (const mode of ['fresh', 'prefix', 'grammar']) {
    const r = results[mode]
    const c = compare(results.fresh.scored, r.scored)
    console.log(
      `${mode.padEnd(8)} ${String(r.requests).padStart(8)} ${r.seconds.toFixed(2).padStart(8)} ${String(c.positions).padStart(10)} ${String(c.differentTopK).padStart(17)} ${c.maxTop.toExponential(2).padStart(21)} ${c.maxForced.toExponential(2).padStart(22)}`
    )
  }
  // The baseline forced on its own answer against its own greedy pass: the A/A floor's exactness.
  const self = new LlamaCppClient(side('baseline', port), 120_000, 'grammar')
  const again = []
  for (const [i, p] of list.entries()) again.push(await self.score(p, answers[i], topK))
  const c = compare(
    answers.map(a => a.positions),
    again
  )
  console.log(
    `baseline forced on its own answer vs its greedy pass: ${c.differentTopK} of ${c.positions} positions with other top-k ids, max |dlogprob| ${c.maxTop.toExponential(2)}`
  )
} finally {
  for (const s of servers) s.kill('SIGTERM')
}
