#!/usr/bin/env node
// helm-gate's fidelity figures against llama.cpp's own `llama-perplexity --kl-divergence` on the
// real-engine model (docs/fidelity.md "Truth"), side by side in one run. For each candidate
// quantization (Q8_0, Q4_0, Q2_K; and F16 itself, the A/A case) against F16:
//   llama.cpp   llama-perplexity: F16's logits over a reference text saved once
//               (--kl-divergence-base), then each candidate's mean KL divergence, "same top p"
//               (top-1 agreement) and mean delta-p over the same text (full vocabulary, the second
//               half of each context window)
//   helm-gate   measureFidelity (src/fidelity/) with llama-server on both sides: the candidate
//               teacher-forced on F16's greedy answers to the gate set's prompts, top-k = the
//               whole vocabulary unless --top-k says otherwise (then the KL is the bucketed lower bound)
// Reference text: the task's prompts with their correct answers (bench/lib/addition-prompts.mjs).
//
//   npx tsc -p bench/fidelity-tsconfig.json && \
//   flock /work/locks/real-engine.lock node bench/fidelity-truth.mjs [--instances 100] [--top-k 0] \
//     [--max-tokens 24] [--ctx 128] [--port 18640]
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { measureFidelity } from '../.tmp/fidelity-bench/fidelity/measure-fidelity.js'
import { additionPrompts } from './lib/addition-prompts.mjs'
import { startLlamaServer } from './lib/llama-server.mjs'

const { values } = parseArgs({
  options: {
    instances: { type: 'string', default: '100' },
    'top-k': { type: 'string', default: '0' },
    'max-tokens': { type: 'string', default: '24' },
    ctx: { type: 'string', default: '128' },
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

function perplexity(args) {
  const started = performance.now()
  const r = spawnSync(join(values.bin, 'llama-perplexity'), [...args, '--threads', '1', '--ctx-size', values.ctx], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024
  })
  const out = `${r.stdout}\n${r.stderr}`
  if (r.status !== 0) throw new Error(`llama-perplexity ${args.join(' ')} exited ${r.status}: ${out.slice(-2000)}`)
  return { out, seconds: (performance.now() - started) / 1000 }
}

function figure(out, pattern) {
  const m = pattern.exec(out)
  return m ? Number(m[1]) : NaN
}

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
  console.log(`reference text: ${text}; F16 logits saved in ${baseRun.seconds.toFixed(1)} s`)
  let topK = Number(values['top-k'])
  const prompts = additionPrompts(join(modelDir, 'addition.jsonl'))
  const rows = []
  for (const q of quants) {
    const ref = perplexity(['--model', join(modelDir, `model-${q}.gguf`), '--kl-divergence-base', base, '--kl-divergence'])
    const llama = {
      kld: figure(ref.out, /Mean\s+KLD:\s+(-?[0-9.]+)/),
      top1: figure(ref.out, /Same top p:\s+([0-9.]+)/) / 100,
      dp: figure(ref.out, /Mean\s+Δp:\s+(-?[0-9.]+)/) / 100
    }
    const servers = [
      await startLlamaServer({ engine: join(values.bin, 'llama-server'), modelDir, ftype: 'F16', port }),
      await startLlamaServer({ engine: join(values.bin, 'llama-server'), modelDir, ftype: q, port: port + 1 })
    ]
    if (!topK) {
      // The whole vocabulary (llama-server's /v1/models meta), so the bucket is empty and the KL is the full KL.
      const models = await (await fetch(`http://127.0.0.1:${port}/v1/models`)).json()
      topK = models.data[0].meta.n_vocab
      console.log(`helm-gate top-k ${topK} (the whole vocabulary)`)
    }
    let report
    const started = performance.now()
    try {
      const side = (name, p) => ({ side: name, baseUrl: `http://127.0.0.1:${p}/v1`, model: 'addition', apiKey: null, api: 'completions' })
      report = await measureFidelity({
        sides: { baseline: side('baseline', port), candidate: side('candidate', port + 1) },
        prompts,
        settings: {
          instances: Number(values.instances),
          maxAnswerTokens: Number(values['max-tokens']),
          topK,
          baselineReruns: 1,
          checks: [],
          requestTimeoutSeconds: 120
        },
        statistics: { confidence: 0.95, resamples: 2000, seed: 0, minOverlap: 0.95, interval: 'auto', flipTolerance: 1e-9 }
      })
    } finally {
      for (const s of servers) s.kill('SIGTERM')
      await new Promise(r => setTimeout(r, 300))
    }
    const fig = m => report.figures.find(f => f.metric === m)
    rows.push({ q, llama, ref, report, fig, seconds: (performance.now() - started) / 1000 })
  }
  console.log('')
  console.log(
    'candidate | llama.cpp KLD | helm-gate KLD [95% CI]        | ratio | llama.cpp top-1 | helm-gate top-1 [95% CI]    | llama.cpp dp | helm-gate dp | tokens | helm-gate s'
  )
  for (const r of rows) {
    const k = r.fig('kld_mean')
    const t = r.fig('top1_agreement')
    const d = r.fig('delta_p_mean')
    const ratio = r.llama.kld > 0 ? (k.candidate / r.llama.kld).toFixed(2) : '-'
    console.log(
      `${r.q.padEnd(9)} | ${r.llama.kld.toFixed(6).padStart(13)} | ${k.candidate.toFixed(6)} [${k.ci.low.toFixed(6)}, ${k.ci.high.toFixed(6)}] | ${ratio.padStart(5)} | ${r.llama.top1.toFixed(4).padStart(15)} | ${t.candidate.toFixed(4)} [${t.ci.low.toFixed(4)}, ${t.ci.high.toFixed(4)}] | ${r.llama.dp.toFixed(4).padStart(12)} | ${d.candidate.toFixed(4).padStart(12)} | ${String(r.report.positions).padStart(6)} | ${r.seconds.toFixed(1)}`
    )
  }
  const rank = key =>
    rows
      .filter(r => r.q !== 'F16')
      .sort((a, b) => key(a) - key(b))
      .map(r => r.q)
      .join(' < ')
  console.log('')
  console.log(`ranking by KLD, llama.cpp: ${rank(r => r.llama.kld)}; helm-gate: ${rank(r => r.fig('kld_mean').candidate)}`)
  console.log(
    `ranking by top-1 (descending), llama.cpp: ${rank(r => -r.llama.top1)}; helm-gate: ${rank(r => -r.fig('top1_agreement').candidate)}`
  )
} finally {
  rmSync(work, { recursive: true, force: true })
}
