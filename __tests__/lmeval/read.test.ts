/** The lm-eval reader on real lm-eval 0.4.13 output (__tests__/fixtures/lm-eval-0.4.13). */
import { afterAll, describe, expect, it } from '@jest/globals'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { InputError } from '../../src/errors.js'
import { looksLikeLmEvalOutput, readLmEvalOutput, readSamples } from '../../src/lmeval/read.js'
import { LM_EVAL, LM_EVAL_MC } from './fixtures.js'

const HELM_BASELINE = fileURLToPath(new URL('../fixtures/helm-0.5.16/baseline', import.meta.url))

const made: string[] = []
const tmp = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'helm-gate-lmeval-'))
  made.push(dir)
  return dir
}
afterAll(() => made.forEach(dir => rmSync(dir, { recursive: true, force: true })))

describe('readLmEvalOutput', () => {
  it('reads the results file and every task of a real run, from OUT or OUT/<model>', async () => {
    for (const path of [join(LM_EVAL, 'baseline'), join(LM_EVAL, 'baseline', 'gate-model')]) {
      const out = await readLmEvalOutput(path)
      expect(out.lmEvalVersion).toBe('0.4.13')
      expect(out.modelType).toBe('local-chat-completions')
      expect(out.model).toBe('gate-model')
      expect(out.runConfig['use_cache']).toBeNull()
      expect(out.tasks.map(t => t.name)).toEqual(['gate_arith', 'gate_arith_zeroshot'])
      const arith = out.tasks[0]
      expect(arith.version).toBe(1)
      expect(arith.nShot).toBe(2)
      expect(arith.effectiveSamples).toBe(120)
      // One line per document per filter.
      expect(arith.samples).toHaveLength(240)
      expect(new Set(arith.samples.map(s => s.filter))).toEqual(new Set(['strict-match', 'flexible-extract']))
      expect(arith.samples.every(s => s.failure === null)).toBe(true)
    }
  })

  it('keeps per-sample 0/1 values, the question of the chat prompt and both responses', async () => {
    const out = await readLmEvalOutput(join(LM_EVAL, 'degraded'))
    const wrong = out.tasks[0].samples.find(s => s.filter === 'flexible-extract' && s.metrics.get('exact_match') === 0)!
    expect(wrong.inputExcerpt).toMatch(/^Question: What is \d+ plus \d+\?\nAnswer:$/)
    expect(wrong.referenceExcerpt).toMatch(/^\d+$/)
    expect(wrong.outputExcerpt).toBe('none of these → [invalid]')
    const values = new Set(out.tasks[0].samples.map(s => s.metrics.get('exact_match')))
    expect(values).toEqual(new Set([0, 1]))
  })

  it('gives one prompt hash per document whatever the filter, and the same on both sides', async () => {
    const [b, c] = await Promise.all([readLmEvalOutput(join(LM_EVAL, 'baseline')), readLmEvalOutput(join(LM_EVAL, 'degraded'))])
    const hashes = (samples: (typeof b.tasks)[0]['samples']) => new Map(samples.map(s => [`${s.filter}/${s.docId}`, s.promptHash]))
    expect(hashes(c.tasks[0].samples)).toEqual(hashes(b.tasks[0].samples))
    const doc0 = b.tasks[0].samples.filter(s => s.docId === 0)
    expect(doc0).toHaveLength(2)
    expect(doc0[0].promptHash).toBe(doc0[1].promptHash)
    // Few-shot and zero-shot prompts differ.
    expect(b.tasks[1].samples[0].promptHash).not.toBe(b.tasks[0].samples[0].promptHash)
  })

  it('reads a multiple-choice (log-likelihood) task: one request per choice, the chosen and the target choice shown', async () => {
    const out = await readLmEvalOutput(join(LM_EVAL_MC, 'degraded'))
    expect(out.modelType).toBe('local-completions')
    const [task] = out.tasks
    expect(task.name).toBe('gate_arith_mc')
    expect(task.samples).toHaveLength(120)
    expect(task.samples.every(s => s.filter === 'none' && s.genKwargsHash === null && s.failure === null)).toBe(true)
    const wrong = task.samples.find(s => s.metrics.get('acc') === 0)!
    expect(wrong.inputExcerpt).toMatch(/Question: Which number is \d+ and \d+ added\?\nAnswer:$/)
    expect(wrong.referenceExcerpt).toMatch(/^\d+$/)
    expect(wrong.outputExcerpt).toMatch(/^\d+$/)
    expect(wrong.outputExcerpt).not.toBe(wrong.referenceExcerpt)
    const right = task.samples.find(s => s.metrics.get('acc') === 1)!
    expect(right.outputExcerpt).toBe(right.referenceExcerpt)
  })

  it('takes a log-likelihood answer that is not a number for a failed request', async () => {
    const file = join(tmp(), 'samples_t_2026-01-01T00-00-00.000000.jsonl')
    const line = (lp: string) =>
      JSON.stringify({
        doc_id: 0,
        filter: 'none',
        target: '0',
        arguments: { gen_args_0: { arg_0: 'Q', arg_1: ' a' }, gen_args_1: { arg_0: 'Q', arg_1: ' b' } },
        resps: [[[lp, 'True']], [['-3', 'True']]],
        filtered_resps: [
          [lp, 'True'],
          ['-3', 'True']
        ],
        metrics: ['acc'],
        acc: 1
      })
    writeFileSync(file, `${line('-0.1')}\n`)
    expect((await readSamples(file)).samples[0].failure).toBeNull()
    writeFileSync(file, `${line('None')}\n`)
    expect((await readSamples(file)).samples[0].failure).toMatch(/log-likelihood/)
  })

  it('recognises lm-eval output by its files, and HELM output as not lm-eval', async () => {
    expect(await looksLikeLmEvalOutput(join(LM_EVAL, 'baseline'))).toBe(true)
    expect(await looksLikeLmEvalOutput(HELM_BASELINE)).toBe(false)
    expect(await looksLikeLmEvalOutput(join(LM_EVAL, 'no-such-folder'))).toBe(false)
  })

  it('names the file, line and value of a malformed sample', async () => {
    const dir = tmp()
    const file = join(dir, 'samples_t_2026-01-01T00-00-00.000000.jsonl')
    writeFileSync(
      file,
      '{"doc_id": 0, "filter": "none", "arguments": {"gen_args_0": {"arg_0": "Q", "arg_1": {}}}, "resps": [["a"]], "metrics": []}\n{"doc_id": "x"}\n'
    )
    const error = await readSamples(file).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(InputError)
    expect((error as InputError).code).toBe('input.wrong_type')
    expect((error as InputError).location).toMatchObject({ file, field: 'line 2: doc_id', value: 'x' })
  })

  it('refuses samples whose results file is missing, naming the folder', async () => {
    const dir = tmp()
    mkdirSync(join(dir, 'model'))
    writeFileSync(join(dir, 'model', 'samples_t_2026-01-01T00-00-00.000000.jsonl'), '')
    await expect(readLmEvalOutput(dir)).rejects.toMatchObject({ code: 'input.lmeval_no_results', location: { file: join(dir, 'model') } })
  })
})
