/**
 * The fake OpenAI server's tokenizer endpoints and token-id prompts, as lm-evaluation-harness's
 * local-completions (tokenizer_backend=remote) uses them for log-likelihood tasks.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
// @ts-expect-error: a plain ESM module of the test support, without types
import { createFakeServer } from '../../test-support/fake-openai/server.mjs'

const dir = mkdtempSync(join(tmpdir(), 'helm-gate-fake-tokenizer-'))
let server: Server
let base = ''

beforeAll(async () => {
  const key = join(dir, 'key.json')
  writeFileSync(
    key,
    JSON.stringify({
      scenarios: [
        {
          entry: 'mc',
          method: 'generation',
          instructions: '',
          input_prefix: 'Question: ',
          instances: [{ input: 'Which is 2 and 2 added?', references: ['4', '5'], correct: 0, split: 'test' }]
        }
      ]
    })
  )
  const options = {
    answerKeys: [key],
    models: ['m'],
    streamEngine: {},
    apiKey: null,
    flavor: 'vllm',
    behaviour: { accuracy: 1, perturbedAccuracy: 1, seed: 0, noise: 0, latencyMs: 0, errorRate: 0, hangAfter: -1, dieAfter: -1 }
  }
  server = (createFakeServer(options) as { server: Server }).server
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.closeAllConnections()
  await new Promise(resolve => server.close(resolve))
  rmSync(dir, { recursive: true, force: true })
})

const post = async (path: string, body: unknown): Promise<Record<string, unknown>> =>
  (await (await fetch(`${base}${path}`, { method: 'POST', body: JSON.stringify(body) })).json()) as Record<string, unknown>

describe('fake OpenAI server: tokenizer for lm-eval log-likelihood requests', () => {
  it('serves tokenizer_info and a tokenizer whose tokens decode to the text', async () => {
    const info = (await (await fetch(`${base}/tokenizer_info`)).json()) as Record<string, unknown>
    expect(info.eos_token).toBe('</s>')
    const text = 'Question: Which is 2 and 2 added?\nAnswer:  '
    const { tokens } = (await post('/tokenize', { prompt: text, add_special_tokens: false })) as { tokens: number[] }
    expect(tokens.length).toBeGreaterThan(3)
    expect(await post('/detokenize', { tokens })).toEqual({ prompt: text })
  })

  it('gives the chosen answer the higher log-likelihood, echoing every token with one generated after', async () => {
    const context = (await post('/tokenize', { prompt: 'Question: Which is 2 and 2 added?\nAnswer:' })).tokens as number[]
    const right = (await post('/tokenize', { prompt: ' 4' })).tokens as number[]
    const wrong = (await post('/tokenize', { prompt: ' 5' })).tokens as number[]
    const answer = (await post('/v1/completions', {
      model: 'm',
      prompt: [
        [...context, ...right],
        [...context, ...wrong]
      ],
      echo: true,
      max_tokens: 1,
      logprobs: 1,
      temperature: 0
    })) as { choices: { index: number; logprobs: { token_logprobs: number[]; top_logprobs: Record<string, number>[] } }[] }
    expect(answer.choices).toHaveLength(2)
    const continuation = (i: number): number =>
      answer.choices[i].logprobs.token_logprobs.slice(context.length, -1).reduce((a, b) => a + b, 0)
    expect(continuation(0)).toBeGreaterThan(continuation(1))
    expect(answer.choices[0].logprobs.token_logprobs).toHaveLength(context.length + 2)
    expect(answer.choices[0].logprobs.top_logprobs).toHaveLength(context.length + 2)
  })
})
