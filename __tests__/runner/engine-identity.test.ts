/**
 * The engine identity probe against real loopback servers (the fake OpenAI server answers
 * /version and vLLM's /models fields; a plain server answers neither), and the report's sides
 * named from a manifest.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { hostOf } from '../../src/model/side-identity.js'
import type { Manifest } from '../../src/model/manifest.js'
import { probeServer } from '../../src/server/readiness.js'
import { attachIdentity, llamaCppMeta, modelEntry } from '../../src/runner/engine-identity.js'
import { probeEngineVersion } from '../../src/server/engine-version.js'
import { startFakeServer, type FakeServer } from '../../test-support/fake-openai/harness.js'
import { makeReport } from '../report/make-report.js'

describe('probeEngineVersion and the readiness record', () => {
  let fake: FakeServer
  let plain: Server
  let plainUrl: string
  beforeAll(async () => {
    fake = await startFakeServer({ answerKeys: [], models: ['m1'] })
    plain = createServer((request, response) => {
      if (request.url === '/v1/models') {
        response.setHeader('content-type', 'application/json')
        response.end(JSON.stringify({ data: [{ id: 'm1' }] }))
      } else {
        response.statusCode = 404
        response.end('not found')
      }
    })
    await new Promise<void>(resolve => plain.listen(0, '127.0.0.1', resolve))
    plainUrl = `http://127.0.0.1:${(plain.address() as AddressInfo).port}/v1`
  }, 60_000)
  afterAll(async () => {
    await fake?.stop()
    await new Promise(resolve => plain?.close(resolve))
  })

  test('a server that reports its version and model fields has them recorded', async () => {
    expect(await probeEngineVersion(fake.baseUrl, null)).toBe('fake-openai-1.0')
    const probe = await probeServer({ side: 'baseline', baseUrl: fake.baseUrl, model: 'm1', apiKey: null, timeoutMs: 5_000 })
    expect(probe.engine_version).toBe('fake-openai-1.0')
    expect(modelEntry(probe.response, 'm1')).toEqual({ root: 'fake/m1', max_model_len: 4096, owned_by: 'fake-openai' })
  })

  test("llama.cpp's server: the build from /props, the file type, parameters and size from the /models meta", async () => {
    const llama = await startFakeServer({ answerKeys: [], models: ['m1'], llamaCpp: { ftype: 'Q4_0' } })
    try {
      expect(await probeEngineVersion(llama.baseUrl, null)).toBe('b1-fake0000')
      const probe = await probeServer({ side: 'candidate', baseUrl: llama.baseUrl, model: 'm1', apiKey: null, timeoutMs: 5_000 })
      expect(modelEntry(probe.response, 'm1')).toEqual({
        root: null,
        max_model_len: null,
        owned_by: 'llamacpp',
        details: 'Q4_0 · 1.25 M parameters · 2.50 MB'
      })
    } finally {
      await llama.stop()
    }
  })

  test('the meta line takes only what is there and well-formed', () => {
    expect(llamaCppMeta({ ftype: 'Q2_K - Medium', n_params: 3_400_000_000, size: 1_234 })).toBe(
      'Q2_K - Medium · 3.40 B parameters · 1.23 kB'
    )
    expect(llamaCppMeta({ n_params: -1, size: 'big' })).toBeNull()
    expect(llamaCppMeta(null)).toBeNull()
    expect(llamaCppMeta({ ftype: 'F16', size: 812 })).toBe('F16 · 812 B')
  })

  test('a server without /version or fields is no error: the identity is just unknown', async () => {
    expect(await probeEngineVersion(plainUrl, null)).toBeNull()
    const probe = await probeServer({ side: 'candidate', baseUrl: plainUrl, model: 'm1', apiKey: null, timeoutMs: 5_000 })
    expect(probe.engine_version).toBeNull()
    expect(modelEntry(probe.response, 'm1')).toEqual({ root: null, max_model_len: null, owned_by: null })
    expect(await probeEngineVersion('not a url', null)).toBeNull()
  })
})

describe('attachIdentity', () => {
  const manifest = (baselineSource: 'run' | 'archived'): Manifest =>
    ({
      fingerprint: 'f'.repeat(64),
      helm_version: '0.5.16',
      schedule: 'concurrent',
      baseline_origin: baselineSource === 'archived' ? { kind: 'archived', workflow_run_id: 7, age_hours: 30 } : null,
      sides: {
        baseline: {
          source: baselineSource,
          output_path: 'baseline',
          complete: true,
          deployment: { kind: 'server', api: 'chat', base_url: 'http://10.0.0.5:8000/v1', model: 'm1' },
          server: {
            response: { data: [{ id: 'm1', root: 'org/weights', max_model_len: 8192, owned_by: 'vllm' }] },
            engine_version: '0.6.3'
          }
        },
        candidate: {
          source: 'run',
          output_path: 'candidate',
          complete: true,
          deployment: { kind: 'server', api: 'completions', base_url: 'http://10.0.0.6:9000/v1', model: 'm2' },
          server: { response: { data: [{ id: 'm2' }] }, engine_version: null }
        }
      }
    }) as unknown as Manifest

  test('each side by deployment, host (no credentials or path), API, engine and origin', () => {
    const report = makeReport()
    attachIdentity(report, manifest('archived'))
    expect(report.baseline.identity).toEqual({
      model: 'm1',
      host: '10.0.0.5:8000',
      api: 'chat',
      engine: { version: '0.6.3', root: 'org/weights', max_model_len: 8192, owned_by: 'vllm' },
      origin: { kind: 'archived', workflow_run_id: 7, age_hours: 30 }
    })
    expect(report.candidate.identity).toMatchObject({
      model: 'm2',
      host: '10.0.0.6:9000',
      api: 'completions',
      engine: null,
      origin: { kind: 'run' }
    })
    // An archived baseline did not run at the same time as the candidate.
    expect(report.context).toEqual({ fingerprint: 'f'.repeat(64), concurrent: false })
  })

  test('the host never carries credentials, the path or the query', () => {
    expect(hostOf('http://user:secret@10.0.0.5:8000/v1?key=abc')).toBe('10.0.0.5:8000')
    expect(hostOf('no url')).toBeNull()
  })

  test('both sides run concurrently are flagged', () => {
    const report = makeReport()
    attachIdentity(report, manifest('run'))
    expect(report.context?.concurrent).toBe(true)
  })
})
