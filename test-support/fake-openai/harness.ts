/**
 * Test helpers around the fake OpenAI server: build (and cache) answer keys with the pinned
 * HELM's own scenario code, and start/stop real server processes on loopback.
 */
import { spawnListening } from '../spawn-listening.js'
import { execFile, type ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir, rename } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const VENV = process.env.HELM_GATE_VENV ?? join(REPO_ROOT, '.venv')
export const HELM_RUN = join(VENV, 'bin', 'helm-run')
export const VENV_PYTHON = join(VENV, 'bin', 'python')
export const SERVER_SCRIPT = join(REPO_ROOT, 'test-support', 'fake-openai', 'server.mjs')
const KEY_BUILDER = join(REPO_ROOT, 'test-support', 'fake-openai', 'build-answer-key.py')

export function helmAvailable(): boolean {
  return existsSync(HELM_RUN) && existsSync(VENV_PYTHON)
}

/** The answer key for these entries, built once per machine (HELM's scenario code takes ~10 s). */
export async function buildAnswerKey(entries: string[]): Promise<string> {
  const dir = join(tmpdir(), 'helm-gate-answer-keys')
  await mkdir(dir, { recursive: true })
  const file = join(dir, `${createHash('sha256').update(JSON.stringify(entries)).digest('hex').slice(0, 16)}.json`)
  if (existsSync(file)) return file
  const partial = `${file}.${process.pid}.tmp`
  await new Promise<void>((resolvePromise, reject) => {
    execFile(VENV_PYTHON, [KEY_BUILDER, partial, ...entries], { timeout: 300_000 }, (error, _stdout, stderr) =>
      error ? reject(new Error(`build-answer-key failed: ${stderr.slice(-2000)}`)) : resolvePromise()
    )
  })
  await rename(partial, file)
  return file
}

export interface FakeServerOptions {
  answerKeys: string[]
  models?: string[]
  accuracy?: number
  perturbedAccuracy?: number
  seed?: number
  noise?: number
  latencyMs?: number
  errorRate?: number
  hangAfter?: number
  dieAfter?: number
  apiKey?: string
  /** Options of the fake engine that serves streaming requests (the load half): {decodeSpeedup: 0.5}. */
  streamEngine?: Record<string, number>
  /**
   * Answer chat requests the answer key does not know as traffic (traffic-answers.mjs), with these
   * controls (trafficDiffer, trafficNoise, trafficBreakJson, trafficTruncate, trafficBadTools,
   * trafficRefuse): a traffic gate's replay.
   */
  traffic?: Record<string, number>
  /** Answer as llama.cpp's llama-server where it differs (server.mjs --flavor), with this file type. */
  llamaCpp?: { ftype: string; defaultTemperature?: number }
  /** The chat template /props (llama.cpp) or /tokenizer_info (vLLM) reports: a Jinja text or a built-in name. */
  chatTemplate?: string
  /** The /tokenize endpoint cuts words into pieces of this many characters (server.mjs --token-chars). */
  tokenChars?: number
  /** Words appended to every generated answer (server.mjs --answer-pad): a candidate that answers longer. */
  answerPad?: number
}

export interface FakeServer {
  /** e.g. http://127.0.0.1:41234/v1 */
  baseUrl: string
  process: ChildProcess
  control(update: Partial<Record<string, number>>): Promise<FakeServerState>
  state(): Promise<FakeServerState>
  stop(): Promise<void>
}

export interface FakeServerState {
  behaviour: Record<string, number>
  counters: {
    models: number
    completions: number
    chat: number
    matched: number
    unmatched: number
    correct: number
    wrong: number
    errors: number
    traffic: number
  }
}

export async function startFakeServer(options: FakeServerOptions): Promise<FakeServer> {
  const args = [SERVER_SCRIPT, '--port', '0']
  for (const key of options.answerKeys) args.push('--answer-key', key)
  for (const model of options.models ?? ['gate-model']) args.push('--model', model)
  const numeric: Array<[string, number | undefined]> = [
    ['--accuracy', options.accuracy],
    ['--perturbed-accuracy', options.perturbedAccuracy],
    ['--seed', options.seed],
    ['--noise', options.noise],
    ['--latency-ms', options.latencyMs],
    ['--error-rate', options.errorRate],
    ['--hang-after', options.hangAfter],
    ['--die-after', options.dieAfter],
    ['--traffic', options.traffic ? 1 : undefined],
    ['--token-chars', options.tokenChars],
    ['--answer-pad', options.answerPad]
  ]
  for (const [flag, value] of numeric) if (value !== undefined) args.push(flag, String(value))
  if (options.apiKey) args.push('--api-key', options.apiKey)
  if (options.streamEngine) args.push('--stream-engine', JSON.stringify(options.streamEngine))
  if (options.llamaCpp) args.push('--flavor', 'llama.cpp', '--ftype', options.llamaCpp.ftype)
  if (options.llamaCpp?.defaultTemperature !== undefined) args.push('--default-temperature', String(options.llamaCpp.defaultTemperature))
  if (options.chatTemplate !== undefined) args.push('--chat-template', options.chatTemplate)

  const { child, baseUrl } = await spawnListening(args, 'fake server')
  const root = baseUrl.replace(/\/v1$/, '')
  const call = async (body?: unknown): Promise<FakeServerState> => {
    const response = await fetch(`${root}/control`, body ? { method: 'POST', body: JSON.stringify(body) } : undefined)
    return (await response.json()) as FakeServerState
  }
  if (options.traffic && Object.keys(options.traffic).length > 0) await call(options.traffic)
  return {
    baseUrl,
    process: child,
    control: update => call(update),
    state: () => call(),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return
      await new Promise<void>(resolvePromise => {
        child.once('exit', () => resolvePromise())
        child.kill('SIGTERM')
      })
    }
  }
}
