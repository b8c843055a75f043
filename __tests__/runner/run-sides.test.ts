/**
 * runSides with the real pinned helm-run against fake servers: isolation, manifest, failure
 * reporting. (Verdicts through the CLI are in __tests__/e2e.)
 */
import { describe, expect, it } from '@jest/globals'
import { readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { loadGateConfig } from '../../src/config/load.js'
import { HelmRunError, ServerNotReadyError } from '../../src/errors.js'
import { runSides } from '../../src/runner/run-sides.js'
import { helmAvailable } from '../../test-support/fake-openai/harness.js'
import { freshDir, useFakeServers, writeGateFile } from '../e2e/gate-fixture.js'

const ENTRIES = ['simple_mcqa']
const describeHelm = helmAvailable() ? describe : describe.skip

describeHelm('runSides with real helm-run', () => {
  const server = useFakeServers(ENTRIES)

  it("runs both sides at once into separate output paths and returns each side's manifest record", async () => {
    const baseline = await server({ accuracy: 1 })
    const candidate = await server({ accuracy: 0.5, models: ['gate-model', 'other'] })
    const dir = await freshDir('sides')
    const config = await loadGateConfig(
      await writeGateFile(dir, {
        baseline: { baseUrl: baseline.baseUrl, api: 'chat' },
        candidate: { baseUrl: candidate.baseUrl, api: 'completions' },
        runs: [{ entry: 'simple_mcqa', metric: 'exact_match' }],
        maxEvalInstances: 20
      })
    )
    const lines: string[] = []
    const outcome = await runSides(config, { outDir: join(dir, 'out'), sides: ['baseline', 'candidate'], log: line => lines.push(line) })

    expect(outcome.errors.map(error => error.message)).toEqual([])
    expect(outcome.completed.sort()).toEqual(['baseline', 'candidate'])
    expect(outcome.paths.baseline).toBe(join(dir, 'out', 'baseline'))
    expect(outcome.paths.candidate).toBe(join(dir, 'out', 'candidate'))
    // Each server answered its own side: 20 requests each (chat vs completions).
    expect((await baseline.state()).counters.chat).toBe(20)
    expect((await candidate.state()).counters.completions).toBe(20)
    expect(lines.some(line => line.startsWith('[baseline] '))).toBe(true)
    expect(lines.some(line => line.startsWith('[candidate] '))).toBe(true)

    expect(outcome.helmVersion).toBe('0.5.16')
    expect(outcome.fingerprint).toMatch(/^[0-9a-f]{64}$/)
    // What runGate writes into manifest.json for each side.
    const manifest = { sides: outcome.records as Required<typeof outcome.records> }
    expect(manifest.sides.baseline.output_path).toBe('baseline')
    expect((manifest.sides.baseline.server as { models: string[] }).models).toEqual(['gate-model'])
    expect((manifest.sides.candidate.server as { models: string[] }).models).toEqual(['gate-model', 'other'])
    expect(manifest.sides.baseline.command).toContain('--disable-cache')
    expect(manifest.sides.baseline.suite).not.toBe(manifest.sides.candidate.suite)
    const baselineLog = await readFile(join(dir, 'out', 'logs', 'baseline.log'), 'utf8')
    expect(baselineLog).toContain('Processed 20 requests')
  }, 180_000)

  it("reads llama.cpp's completions answers, whose logprobs come in the chat shape", async () => {
    // Before the plugin converted them, HELM's completions client failed every request with
    // "'NoneType' object is not iterable" (it zips logprobs.tokens and token_logprobs).
    const baseline = await server({ accuracy: 1, llamaCpp: { ftype: 'F16' } })
    const candidate = await server({ accuracy: 1, llamaCpp: { ftype: 'Q4_0' } })
    const dir = await freshDir('llamacpp')
    const config = await loadGateConfig(
      await writeGateFile(dir, {
        baseline: { baseUrl: baseline.baseUrl, api: 'completions' },
        candidate: { baseUrl: candidate.baseUrl, api: 'completions' },
        runs: [{ entry: 'simple_mcqa', metric: 'exact_match' }],
        maxEvalInstances: 10
      })
    )
    const outcome = await runSides(config, { outDir: join(dir, 'out'), sides: ['baseline', 'candidate'] })
    expect(outcome.errors.map(error => error.message)).toEqual([])
    expect((await candidate.state()).counters.completions).toBe(10)
    expect(outcome.records.candidate?.server).toMatchObject({ engine_version: 'b1-fake0000' })
  }, 180_000)

  it('refuses to start when a server is down, naming the side, without running helm-run', async () => {
    const baseline = await server()
    const dir = await freshDir('down')
    const config = await loadGateConfig(
      await writeGateFile(dir, {
        baseline: { baseUrl: baseline.baseUrl },
        candidate: { baseUrl: 'http://127.0.0.1:9/v1' },
        runs: [{ entry: 'simple_mcqa', metric: 'exact_match' }],
        maxEvalInstances: 10
      })
    )
    const outcome = await runSides(config, { outDir: join(dir, 'out'), sides: ['baseline', 'candidate'], readinessTimeoutMs: 1500 })
    expect(outcome.completed).toEqual([])
    expect(outcome.errors).toHaveLength(1)
    expect(outcome.errors[0]).toBeInstanceOf(ServerNotReadyError)
    expect(outcome.errors[0].message).toContain('candidate server')
    expect((await baseline.state()).counters.chat).toBe(0)
  }, 60_000)

  it('reports a server that dies mid-run as a helm-run failure of that side and keeps its log', async () => {
    const baseline = await server()
    const candidate = await server({ dieAfter: 5 })
    const dir = await freshDir('dies')
    const config = await loadGateConfig(
      await writeGateFile(dir, {
        baseline: { baseUrl: baseline.baseUrl },
        candidate: { baseUrl: candidate.baseUrl, requestTimeoutSeconds: 3 },
        runs: [{ entry: 'simple_mcqa', metric: 'exact_match' }],
        maxEvalInstances: 30
      })
    )
    const outcome = await runSides(config, { outDir: join(dir, 'out'), sides: ['baseline', 'candidate'] })
    expect(outcome.completed).toEqual(['baseline'])
    const candidateErrors = outcome.errors.filter(error => error.message.startsWith('candidate:'))
    expect(candidateErrors.length).toBeGreaterThan(0)
    expect(candidateErrors[0]).toBeInstanceOf(HelmRunError)
    expect(candidateErrors.map(error => error.message).join('\n')).toContain('simple_mcqa')
    expect(outcome.sides.candidate?.exitCode).toBe(1)
    const log = await readFile(join(dir, 'out', 'logs', 'candidate.log'), 'utf8')
    expect(log).toContain('Failed runs')
  }, 180_000)

  it('kills a hung helm-run at the timeout and says which side hung', async () => {
    const baseline = await server()
    const candidate = await server({ hangAfter: 2 })
    const dir = await freshDir('hang')
    const config = await loadGateConfig(
      await writeGateFile(dir, {
        baseline: { baseUrl: baseline.baseUrl },
        // The request timeout is longer than the run timeout, so only the run timeout can end it.
        candidate: { baseUrl: candidate.baseUrl, requestTimeoutSeconds: 600 },
        runs: [{ entry: 'simple_mcqa', metric: 'exact_match' }],
        maxEvalInstances: 10,
        // Long enough for the healthy baseline to finish on a loaded 2-core machine (24 s was not).
        timeoutMinutes: 1
      })
    )
    const outcome = await runSides(config, { outDir: join(dir, 'out'), sides: ['baseline', 'candidate'] })
    expect(outcome.completed).toEqual(['baseline'])
    expect(outcome.sides.candidate?.timedOut).toBe(true)
    expect(outcome.errors.find(error => error.code === 'runner.timeout')?.message).toMatch(/^candidate: helm-run hung/)
    // The evidence stays: the candidate's output folder and log exist.
    expect(await readdir(join(dir, 'out', 'candidate'))).toContain('runs')
  }, 180_000)
})
