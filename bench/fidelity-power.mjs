#!/usr/bin/env node
// How many instances each measure needs to tell Q4_0 from F16 (issue 25 item 7), on the real engine
// in one run (docs/benchmarks.md "Fidelity power"). F16 and Q4_0 llama-servers up side by side; on
// the gate set's prompts:
//   accuracy     each side's greedy answer letter against the correct one (the quality half's
//                exact match); the paired accuracy difference, Tango's interval (src/stats)
//   flips        instances whose correctness differs between the sides
//   top-1, KLD   the fidelity measurement as a gate runs it (teacher-forced on F16's greedy answers,
//                top-k --top-k, A/A floor from F16's second pass): the floor-corrected figures and
//                their intervals exactly as the gate computes them (fidelityFigure)
// Definition: for n instances, --subsamples draws of n instances (with replacement) from this
// run's per-instance values; a measure tells the two apart at n when its 95% interval excludes the
// A/A floor (accuracy: excludes a zero difference; top-1 and KLD: the floor-corrected interval
// excludes the perfect value; flips: at least one flip, since the A/A floor has none and one flip
// already puts a 95% Clopper-Pearson interval above zero) in at least 80% of the draws. The
// smallest such n of the grid is printed; "> N" when none is.
//
//   npx tsc -p bench/fidelity-tsconfig.json && \
//   flock /work/locks/real-engine.lock node bench/fidelity-power.mjs [--instances 400] [--candidate Q4_0] \
//     [--top-k 20] [--subsamples 200] [--port 18660]
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { readFileSync } from 'node:fs'
import { fidelityFigure } from '../.tmp/fidelity-bench/fidelity/fidelity-stats.js'
import { FidelityMeasurement } from '../.tmp/fidelity-bench/fidelity/measure-fidelity.js'
import { createRandom, estimatePaired } from '../.tmp/fidelity-bench/stats/index.js'
import { additionPrompts } from './lib/addition-prompts.mjs'
import { startLlamaServer } from './lib/llama-server.mjs'

const { values } = parseArgs({
  options: {
    instances: { type: 'string', default: '400' },
    candidate: { type: 'string', default: 'Q4_0' },
    'top-k': { type: 'string', default: '20' },
    'max-tokens': { type: 'string', default: '24' },
    subsamples: { type: 'string', default: '200' },
    resamples: { type: 'string', default: '1000' },
    port: { type: 'string', default: '18660' },
    bin: { type: 'string', default: '.real-engine/engine/bin' },
    'model-dir': { type: 'string', default: '.real-engine/model' }
  }
})
const modelDir = values['model-dir']
const port = Number(values.port)
const STATISTICS = {
  confidence: 0.95,
  resamples: Number(values.resamples),
  seed: 0,
  minOverlap: 0.95,
  interval: 'auto',
  flipTolerance: 1e-9
}
const GRID = [5, 10, 20, 40, 80, 160, 320, 640]

const prompts = additionPrompts(join(modelDir, 'addition.jsonl')).slice(0, Number(values.instances))
const correct = new Map(
  readFileSync(join(modelDir, 'addition.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map(l => JSON.parse(l))
    .map(q => [q.id, 'ABCD'[q.references.findIndex(r => r.tags.includes('correct'))]])
)

/** The side's greedy answer letter (HELM's multiple_choice_joint reads the first token after "Answer:"). */
async function letter(p, prompt) {
  const r = await fetch(`http://127.0.0.1:${p}/completion`, {
    method: 'POST',
    body: JSON.stringify({ prompt: prompt.text, n_predict: 3, temperature: 0 })
  })
  return ((await r.json()).content ?? '').trim().charAt(0)
}

const servers = [
  await startLlamaServer({ engine: join(values.bin, 'llama-server'), modelDir, ftype: 'F16', port }),
  await startLlamaServer({ engine: join(values.bin, 'llama-server'), modelDir, ftype: values.candidate, port: port + 1 })
]
let rows
let accuracy
try {
  const side = (name, p) => ({ side: name, baseUrl: `http://127.0.0.1:${p}/v1`, model: 'addition', apiKey: null, api: 'completions' })
  const m = new FidelityMeasurement({
    sides: { baseline: side('baseline', port), candidate: side('candidate', port + 1) },
    prompts,
    settings: {
      instances: prompts.length,
      maxAnswerTokens: Number(values['max-tokens']),
      topK: Number(values['top-k']),
      baselineReruns: 1,
      checks: [],
      requestTimeoutSeconds: 120
    },
    statistics: STATISTICS
  })
  await m.hold(['baseline', 'candidate'])
  rows = [...m.instances()]
  accuracy = new Map()
  for (const p of prompts) {
    const [b, c] = [await letter(port, p), await letter(port + 1, p)]
    accuracy.set(p.id, { b: b === correct.get(p.id) ? 1 : 0, c: c === correct.get(p.id) ? 1 : 0 })
  }
} finally {
  for (const s of servers) s.kill('SIGTERM')
}

const acc = rows.map(r => accuracy.get(r.id))
const mean = xs => xs.reduce((s, x) => s + x, 0) / xs.length
console.log(
  `F16 -> ${values.candidate}, ${rows.length} instances: accuracy ${mean(acc.map(a => a.b)).toFixed(4)} -> ${mean(acc.map(a => a.c)).toFixed(4)}, flips ${acc.filter(a => a.b !== a.c).length}; top-1 agreement ${mean(rows.map(r => r.candidate.top1Agreement)).toFixed(5)} (floor ${mean(rows.map(r => r.floor.top1Agreement)).toFixed(5)}); mean KLD ${mean(rows.map(r => r.candidate.klMean)).toExponential(3)} (floor ${mean(rows.map(r => r.floor.klMean)).toExponential(3)}); top-k ${values['top-k']}`
)

const tells = {
  accuracy: idx => {
    const est = estimatePaired(
      idx.map(i => ({ baseline: [acc[i].b], candidate: [acc[i].c] })),
      { ...STATISTICS, interval: 'auto' }
    )
    return est.ci.low > 0 || est.ci.high < 0
  },
  flips: idx => idx.some(i => acc[i].b !== acc[i].c),
  top1_agreement: idx => {
    const f = fidelityFigure(
      'top1_agreement',
      idx.map(i => rows[i]),
      STATISTICS
    )
    return f.ci.high < 1
  },
  kld_mean: idx => {
    const f = fidelityFigure(
      'kld_mean',
      idx.map(i => rows[i]),
      STATISTICS
    )
    return f.ci.low > 0
  }
}
const random = createRandom(1)
const draws = Number(values.subsamples)
console.log('')
console.log(`Share of ${draws} subsamples of n instances whose 95% interval excludes the A/A floor`)
console.log(`measure         | ${GRID.map(n => `n=${n}`.padStart(6)).join(' | ')} | smallest n with >= 80%`)
for (const [name, tell] of Object.entries(tells)) {
  const shares = GRID.map(n => {
    let hit = 0
    for (let d = 0; d < draws; d++) {
      const idx = Array.from({ length: n }, () => random.below(rows.length))
      if (tell(idx)) hit++
    }
    return hit / draws
  })
  const first = GRID.find((n, i) => shares[i] >= 0.8)
  console.log(`${name.padEnd(15).slice(0, 22)} | ${shares.map(s => s.toFixed(2).padStart(6)).join(' | ')} | ${first ?? `> ${GRID.at(-1)}`}`)
}
