#!/usr/bin/env node
// helm-gate's fidelity figures against llama.cpp's own `llama-perplexity --kl-divergence` on the
// real-engine model (docs/fidelity.md "Truth"), side by side in one run. For each candidate
// quantization (Q8_0, Q4_0, Q2_K; and F16 itself, the A/A case) against F16:
//   llama.cpp        llama-perplexity: F16's logits over a reference text saved once
//                    (--kl-divergence-base), then each candidate's mean KL divergence, "same top p"
//                    (top-1 agreement) and mean delta-p, each with the ± it prints (full
//                    vocabulary; the second half of each --ctx window of the text)
//   same tokens      measureFidelity in reference mode with llama-server on both sides: the very
//                    windows llama-perplexity scored (read from its base file), each as a prompt
//                    (BOS and the window's first half) and a teacher-forced answer (the rest), top-k
//                    = the whole vocabulary, so the KL is the full KL over the same positions
//   same, top-k N    the same with top-k --top-k (20, the servers' usual limit): the bucketed lower bound
//   greedy answers   measureFidelity as a gate runs it: the candidate teacher-forced on F16's own
//                    greedy answers to the gate set's prompts (whole vocabulary)
// Reference text: the task's prompts with their correct answers (bench/lib/addition-prompts.mjs).
//
//   npx tsc -p bench/fidelity-tsconfig.json && \
//   flock /work/locks/real-engine.lock node bench/fidelity-truth.mjs [--instances 400] [--top-k 20] \
//     [--max-tokens 24] [--ctx 128] [--chunks 0] [--port 18640]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { measureFidelity } from '../.tmp/fidelity-bench/fidelity/measure-fidelity.js'
import { additionPrompts } from './lib/addition-prompts.mjs'
import { startLlamaServer } from './lib/llama-server.mjs'
import { chunkPrompts, parseKlDivergence, parseKlDivergenceAt, readBaseTokens, runPerplexity } from './lib/perplexity-output.mjs'

const { values } = parseArgs({
  options: {
    instances: { type: 'string', default: '400' },
    'top-k': { type: 'string', default: '20' },
    'max-tokens': { type: 'string', default: '24' },
    ctx: { type: 'string', default: '128' },
    chunks: { type: 'string', default: '0' },
    port: { type: 'string', default: '18640' },
    quants: { type: 'string', default: 'F16,Q8_0,Q4_0,Q2_K' },
    bin: { type: 'string', default: '.real-engine/engine/bin' },
    'model-dir': { type: 'string', default: '.real-engine/model' }
  }
})
const modelDir = values['model-dir']
const port = Number(values.port)
const quants = values.quants.split(',')
const work = mkdtempSync(join(tmpdir(), 'helm-gate-fidelity-truth-'))
const STATISTICS = { confidence: 0.95, resamples: 2000, seed: 0, minOverlap: 0.95, interval: 'auto', flipTolerance: 1e-9 }

function perplexity(args) {
  const started = performance.now()
  // The summary is on stdout; progress and logs on stderr (never mixed into what is parsed).
  const { out, attempts } = runPerplexity(join(values.bin, 'llama-perplexity'), [...args, '--threads', '1', '--ctx-size', values.ctx])
  return { out, attempts, seconds: (performance.now() - started) / 1000 }
}

async function measure(sides, prompts, topK, answers, reruns = 1) {
  const started = performance.now()
  const report = await measureFidelity({
    sides,
    prompts,
    answers,
    settings: {
      instances: prompts.length,
      maxAnswerTokens: Number(values['max-tokens']),
      topK,
      baselineReruns: reruns,
      checks: [],
      requestTimeoutSeconds: 300
    },
    statistics: STATISTICS
  })
  const fig = m => report.figures.find(f => f.metric === m)
  return { report, fig, seconds: (performance.now() - started) / 1000 }
}

const f6 = x => x.toFixed(6)
const ci = (f, d) => `${f.candidate.toFixed(d)} [${f.ci.low.toFixed(d)}, ${f.ci.high.toFixed(d)}]`
const ratio = (a, b) => (b > 0 ? (a / b).toFixed(3) : '-')

try {
  const text = join(work, 'reference.txt')
  writeFileSync(
    text,
    additionPrompts(join(modelDir, 'addition.jsonl'), true)
      .map(p => p.text)
      .join('\n')
  )
  const base = join(work, 'f16.kld')
  const baseRun = perplexity(['--model', join(modelDir, 'model-F16.gguf'), '--file', text, '--kl-divergence-base', base])
  const scored = readBaseTokens(base)
  // llama-perplexity tokenized the text with BOS first; each window gets BOS in its first slot.
  let windows = chunkPrompts(scored, scored.tokens[0])
  if (Number(values.chunks) > 0) windows = windows.slice(0, Number(values.chunks))
  console.log(
    `reference text: ${scored.tokens.length} tokens in ${scored.nChunk} windows of ${scored.nCtx}; ${windows.length} windows x ${windows[0].reference.length} positions scored by helm-gate; F16 logits saved in ${baseRun.seconds.toFixed(1)} s`
  )
  const prompts = additionPrompts(join(modelDir, 'addition.jsonl')).slice(0, Number(values.instances))
  const rows = []
  for (const q of quants) {
    const ref = perplexity(['--model', join(modelDir, `model-${q}.gguf`), '--kl-divergence-base', base, '--kl-divergence'])
    // Over the same windows helm-gate scores: the whole text, or its table's running row after the first ones.
    const llama =
      windows.length === scored.nChunk
        ? parseKlDivergence(ref.out)
        : { ...parseKlDivergence(ref.out), ...parseKlDivergenceAt(ref.out, windows.length) }
    const servers = [
      await startLlamaServer({ engine: join(values.bin, 'llama-server'), modelDir, ftype: 'F16', port }),
      await startLlamaServer({ engine: join(values.bin, 'llama-server'), modelDir, ftype: q, port: port + 1 })
    ]
    try {
      const side = (name, p) => ({ side: name, baseUrl: `http://127.0.0.1:${p}/v1`, model: 'addition', apiKey: null, api: 'completions' })
      const sides = { baseline: side('baseline', port), candidate: side('candidate', port + 1) }
      let same
      try {
        same = await measure(sides, windows, scored.nVocab, 'reference')
      } catch (error) {
        for (const s of servers) console.error(`llama-server exit ${s.exitCode} signal ${s.signalCode}: ${s.log().slice(-1500)}`)
        throw error
      }
      const bound = await measure(sides, windows, Number(values['top-k']), 'reference', 0)
      const greedy = await measure(sides, prompts, scored.nVocab, 'greedy')
      rows.push({ q, llama, same, bound, greedy })
      // Each candidate's figures as soon as they are in (a later failure does not lose them).
      const brief = r => Object.fromEntries(r.report.figures.map(f => [f.metric, [f.candidate, f.ci.low, f.ci.high]]))
      console.log(
        JSON.stringify({
          q,
          llama,
          same: brief(same),
          bound: brief(bound),
          greedy: brief(greedy),
          positions: [same.report.positions, greedy.report.positions]
        })
      )
      console.log(
        `${q}: llama-perplexity ${ref.seconds.toFixed(1)} s in ${ref.attempts} run(s); helm-gate same tokens ${same.seconds.toFixed(1)} s, top-k ${values['top-k']} ${bound.seconds.toFixed(1)} s, greedy ${greedy.seconds.toFixed(1)} s`
      )
    } finally {
      for (const s of servers) s.kill('SIGTERM')
      await new Promise(r => setTimeout(r, 300))
    }
  }
  console.log('')
  console.log('Mean KLD (nats) against F16; helm-gate figures with their 95% cluster-bootstrap interval, ratio = helm-gate / llama.cpp')
  console.log(
    `candidate | llama.cpp ± se          | same tokens [95% CI]              | ratio | same, top-k ${values['top-k']}         | ratio | greedy answers                    | ratio`
  )
  for (const r of rows) {
    const [s, b, g] = [r.same.fig('kld_mean'), r.bound.fig('kld_mean'), r.greedy.fig('kld_mean')]
    console.log(
      `${r.q.padEnd(9)} | ${f6(r.llama.kld.value)} ± ${f6(r.llama.kld.se ?? NaN)} | ${ci(s, 6)} | ${ratio(s.candidate, r.llama.kld.value)} | ${f6(b.candidate)} | ${ratio(b.candidate, r.llama.kld.value)} | ${ci(g, 6)} | ${ratio(g.candidate, r.llama.kld.value)}`
    )
  }
  console.log('')
  console.log('Top-1 agreement ("same top p") and mean delta-p of the scored token')
  console.log(
    'candidate | llama.cpp top-1 ± se | same tokens top-1 [95% CI]  | greedy top-1 [95% CI]     | llama.cpp dp ± se    | same tokens dp | greedy dp | positions same / greedy'
  )
  for (const r of rows) {
    const [s, g] = [r.same.fig('top1_agreement'), r.greedy.fig('top1_agreement')]
    console.log(
      `${r.q.padEnd(9)} | ${r.llama.top1.value.toFixed(5)} ± ${(r.llama.top1.se ?? NaN).toFixed(5)} | ${ci(s, 5)} | ${ci(g, 4)} | ${r.llama.dp.value.toFixed(5)} ± ${(r.llama.dp.se ?? NaN).toFixed(5)} | ${r.same.fig('delta_p_mean').candidate.toFixed(5)} | ${r.greedy.fig('delta_p_mean').candidate.toFixed(5)} | ${r.same.report.positions} / ${r.greedy.report.positions}`
    )
  }
  // The ranking: two candidates are ordered by llama.cpp only when their difference is more than
  // twice its standard error (sqrt of the sum of the squared ± it prints), else they are tied.
  const cands = rows.filter(r => r.q !== 'F16')
  console.log('')
  for (let i = 0; i < cands.length; i++) {
    for (let j = i + 1; j < cands.length; j++) {
      const [a, b] = [cands[i], cands[j]]
      const d = b.llama.kld.value - a.llama.kld.value
      const se = Math.hypot(a.llama.kld.se ?? 0, b.llama.kld.se ?? 0)
      const llamaOrder = Math.abs(d) > 2 * se ? (d > 0 ? `${a.q} < ${b.q}` : `${b.q} < ${a.q}`) : 'tied'
      const order = key => (key(a) < key(b) ? `${a.q} < ${b.q}` : `${b.q} < ${a.q}`)
      const sa = a.same.fig('kld_mean')
      const sb = b.same.fig('kld_mean')
      const overlap = sa.ci.low <= sb.ci.high && sb.ci.low <= sa.ci.high
      console.log(
        `${a.q} vs ${b.q}: llama.cpp difference ${d.toFixed(6)} ± ${se.toFixed(6)} (${llamaOrder}); helm-gate same tokens ${order(r => r.same.fig('kld_mean').candidate)}${overlap ? ' (intervals overlap)' : ''}, top-k ${values['top-k']} ${order(r => r.bound.fig('kld_mean').candidate)}, greedy ${order(r => r.greedy.fig('kld_mean').candidate)}`
      )
    }
  }
  const aa = rows.find(r => r.q === 'F16')
  if (aa) {
    console.log(
      `F16 against F16: top-1 agreement same tokens ${aa.same.fig('top1_agreement').candidate.toFixed(5)}, greedy ${aa.greedy.fig('top1_agreement').candidate.toFixed(5)}; mean KLD ${aa.same.fig('kld_mean').candidate.toExponential(2)}`
    )
  }
} finally {
  rmSync(work, { recursive: true, force: true })
}
