/** Start and stop fake streaming engines (server.mjs) as real processes on loopback. */
import { spawnListening } from '../spawn-listening.js'
import type { ChildProcess } from 'node:child_process'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const ENGINE_SCRIPT = join(resolve(dirname(fileURLToPath(import.meta.url))), 'server.mjs')

export interface EngineOptions {
  model?: string
  maxNumSeqs?: number
  prefillBaseMs?: number
  prefillPerTokenMs?: number
  decodeBaseMs?: number
  decodePerSeqMs?: number
  decodeSpeedup?: number
  eosAfter?: number
  errorRate?: number
  stallRate?: number
  seed?: number
  noStream?: boolean
  noUsage?: boolean
  rejectUnknown?: boolean
}

export interface EngineRecord {
  id: string
  prompt_tokens: number
  output_tokens: number
  arrival_ms: number
  token_ms: number[]
  ttft_ms: number
  /** What the request asked for: `messages` (chat) or `prompt` (completions), as sent. */
  request: unknown
}

export interface FakeEngine {
  baseUrl: string
  process: ChildProcess
  records(): Promise<EngineRecord[]>
  reset(): Promise<void>
  stop(): Promise<void>
}

const FLAGS: Record<string, string> = {
  model: '--model',
  maxNumSeqs: '--max-num-seqs',
  prefillBaseMs: '--prefill-base-ms',
  prefillPerTokenMs: '--prefill-per-token-ms',
  decodeBaseMs: '--decode-base-ms',
  decodePerSeqMs: '--decode-per-seq-ms',
  decodeSpeedup: '--decode-speedup',
  eosAfter: '--eos-after',
  errorRate: '--error-rate',
  stallRate: '--stall-rate',
  seed: '--seed'
}

export async function startEngine(options: EngineOptions = {}): Promise<FakeEngine> {
  const args = [ENGINE_SCRIPT, '--port', '0']
  for (const [key, flag] of Object.entries(FLAGS)) {
    const value = options[key as keyof EngineOptions]
    if (value !== undefined) args.push(flag, String(value))
  }
  if (options.noStream) args.push('--no-stream')
  if (options.noUsage) args.push('--no-usage')
  if (options.rejectUnknown) args.push('--reject-unknown')
  const { child, baseUrl } = await spawnListening(args, 'fake engine')
  const root = baseUrl.replace(/\/v1$/, '')
  return {
    baseUrl,
    process: child,
    records: async () => (await (await fetch(`${root}/engine/records`)).json()) as EngineRecord[],
    reset: async () => {
      await fetch(`${root}/engine/reset`, { method: 'POST' })
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return
      await new Promise<void>(resolvePromise => {
        child.once('exit', () => resolvePromise())
        child.kill('SIGTERM')
      })
    }
  }
}
