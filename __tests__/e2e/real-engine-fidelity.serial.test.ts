/**
 * Fidelity against the truth on the real engine (issue 25, docs/fidelity.md "Truth"): llama.cpp's
 * own `llama-perplexity --kl-divergence` scores a reference text with F16's logits saved once;
 * helm-gate's reference mode teacher-forces the very same windows (read from llama-perplexity's
 * base file) on llama-server, F16 against F16 and against Q4_0, over the whole vocabulary so the
 * KL is the full KL. Serial: it starts llama-servers on a 2-core machine. The full comparison, on
 * more windows and every quantization, is bench/fidelity-truth.mjs.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_STATISTICS } from '../../src/config/types.js'
import { measureFidelity } from '../../src/fidelity/measure-fidelity.js'
import type { FidelityReport } from '../../src/model/fidelity-report.js'
import { probeServer } from '../../src/server/readiness.js'
import { helmAvailable, REPO_ROOT } from '../../test-support/fake-openai/harness.js'
import { freePort } from '../../test-support/launch/fixture-repo.js'
// @ts-expect-error plain JavaScript bench library without types
import { additionPrompts } from '../../bench/lib/addition-prompts.mjs'
// @ts-expect-error plain JavaScript bench library without types
import { chunkPrompts, parseKlDivergenceAt, readBaseTokens, runPerplexity } from '../../bench/lib/perplexity-output.mjs'
import { run } from '../support/spawn.js'

const describeHelm = helmAvailable() ? describe : describe.skip
const BIN = join(REPO_ROOT, '.real-engine', 'engine', 'bin')
const MODELS = join(REPO_ROOT, '.real-engine', 'model')
/** Windows compared: few enough to keep the serial suite short (about 20 s on one core). */
const WINDOWS = 6

type Window = { id: string; text: string; ids: number[]; reference: number[] }
interface Scored {
  nCtx: number
  nVocab: number
  nChunk: number
  tokens: number[]
}

describeHelm('fidelity against llama-perplexity on the same tokens', () => {
  const servers: ChildProcess[] = []
  const work = mkdtempSync(join(tmpdir(), 'helm-gate-fidelity-truth-'))
  let scored: Scored
  let windows: Window[]

  function perplexity(args: string[]): string {
    return (runPerplexity(join(BIN, 'llama-perplexity'), [...args, '--threads', '1', '--ctx-size', '128']) as { out: string }).out
  }

  async function serve(ftype: string): Promise<string> {
    const port = await freePort()
    const args = ['--model', join(MODELS, `model-${ftype}.gguf`), '--alias', 'addition', '--host', '127.0.0.1', '--port', String(port)]
    args.push('--threads', '1', '--ctx-size', '2048', '--parallel', '1', '--no-webui')
    servers.push(spawn(join(BIN, 'llama-server'), args, { stdio: 'ignore' }))
    const baseUrl = `http://127.0.0.1:${port}/v1`
    await probeServer({ side: ftype, baseUrl, model: 'addition', apiKey: null, timeoutMs: 120_000 })
    return baseUrl
  }

  async function compare(baselineUrl: string, candidateUrl: string, prompts: Window[], topK: number): Promise<FidelityReport> {
    const side = (name: 'baseline' | 'candidate', baseUrl: string) => ({
      side: name,
      baseUrl,
      model: 'addition',
      apiKey: null,
      api: 'completions' as const
    })
    return measureFidelity({
      sides: { baseline: side('baseline', baselineUrl), candidate: side('candidate', candidateUrl) },
      prompts,
      answers: 'reference',
      settings: { instances: prompts.length, maxAnswerTokens: 1, topK, baselineReruns: 1, checks: [], requestTimeoutSeconds: 120 },
      statistics: DEFAULT_STATISTICS
    })
  }

  const figure = (report: FidelityReport, metric: string) => report.figures.find(f => f.metric === metric)

  beforeAll(async () => {
    const prepared = await run('bash', [join(REPO_ROOT, 'scripts', 'real-engine', 'prepare.sh')], { cwd: REPO_ROOT, timeoutMs: 3_600_000 })
    expect([prepared.code, prepared.stderr.slice(-3000)]).toEqual([0, prepared.stderr.slice(-3000)])
    const text = join(work, 'reference.txt')
    const prompts = (additionPrompts(join(MODELS, 'addition.jsonl'), true) as { text: string }[]).slice(0, 40)
    writeFileSync(text, prompts.map(p => p.text).join('\n'))
    perplexity(['--model', join(MODELS, 'model-F16.gguf'), '--file', text, '--kl-divergence-base', join(work, 'f16.kld')])
    scored = readBaseTokens(join(work, 'f16.kld')) as Scored
    windows = (chunkPrompts(scored, scored.tokens[0]) as Window[]).slice(0, WINDOWS)
  }, 3_600_000)

  afterAll(() => {
    for (const server of servers) server.kill('SIGTERM')
  })

  it("scores exactly llama-perplexity's positions: F16 against F16 agrees, Q4_0's KL divergence matches llama.cpp's", async () => {
    expect(scored.nChunk).toBeGreaterThanOrEqual(WINDOWS)
    const f16 = await serve('F16')
    const again = await serve('F16')
    const q4 = await serve('Q4_0')

    // F16 against a second F16 server: the A/A case agrees at every position.
    const aa = await compare(f16, again, windows, scored.nVocab)
    expect(aa.positions).toBe(WINDOWS * (scored.nCtx - 1 - scored.nCtx / 2))
    expect(figure(aa, 'top1_agreement')?.candidate).toBeGreaterThanOrEqual(0.999)
    expect(figure(aa, 'kld_mean')?.candidate).toBeLessThan(1e-6)
    expect(aa.notes.join(' ')).toMatch(/reference answer/)

    // Q4_0 over the whole vocabulary (the bucket is empty): the full KL, on llama-perplexity's
    // tokens. llama.cpp's running mean after the same windows, with its ±, must be inside a factor 2
    // of helm-gate's (the two evaluate in different batches, and llama.cpp stores F16's
    // log-probabilities rounded to 16 bits).
    const q4Out = perplexity(['--model', join(MODELS, 'model-Q4_0.gguf'), '--kl-divergence-base', join(work, 'f16.kld'), '--kl-divergence'])
    const llama = parseKlDivergenceAt(q4Out, WINDOWS) as { kld: { value: number }; top1: { value: number } }
    const full = await compare(f16, q4, windows, scored.nVocab)
    const kld = figure(full, 'kld_mean')?.candidate ?? NaN
    expect(llama.kld.value).toBeGreaterThan(0)
    expect(kld / llama.kld.value).toBeGreaterThan(0.5)
    expect(kld / llama.kld.value).toBeLessThan(2)
    expect(Math.abs((figure(full, 'top1_agreement')?.candidate ?? NaN) - llama.top1.value)).toBeLessThan(0.02)
    expect(figure(full, 'top1_agreement')?.candidate).toBeLessThan(1)

    // Top-20 as servers usually allow: the bucketed KL is a lower bound of the full one, up to the
    // rounding of the reported probabilities: with the model trained under the AVX2 pin it came out
    // 1.005 times the full KL (0.11793 against 0.11734), with the model before 0.86 to 0.87 times
    // (docs/fidelity.md "The KL is a lower bound": where the candidate's rest mass is at the
    // rounding level, the floor that keeps the figure finite can overstate a position's term).
    const bounded = await compare(f16, q4, windows, 20)
    expect(figure(bounded, 'kld_mean')?.candidate).toBeLessThanOrEqual(kld * 1.02)
    expect(figure(bounded, 'kld_mean')?.candidate).toBeGreaterThan(0)
  }, 600_000)
})
