/** The raw per-request timings as JSONL in the output folder (and so in the evidence artifact). */
import { createWriteStream } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { InputError } from '../errors.js'
import type { RequestTiming } from './types.js'

export const TIMINGS_FILE = 'load-timings.jsonl'

const round = (x: number | null): number | null => (x === null ? null : Math.round(x * 1000) / 1000)

export async function writeTimings(file: string, timings: readonly RequestTiming[]): Promise<void> {
  try {
    await mkdir(dirname(file), { recursive: true })
    const out = createWriteStream(file)
    for (const t of timings) {
      const line = JSON.stringify({
        side: t.side,
        level: t.level,
        block: t.block,
        repetition: t.repetition,
        index: t.index,
        send_ms: round(t.send_ms),
        scheduled_ms: round(t.scheduled_ms ?? null),
        ttft_ms: round(t.ttft_ms),
        itl_ms: t.itl_ms.map(x => round(x)),
        latency_ms: round(t.latency_ms),
        output_tokens: t.output_tokens,
        tokens_from: t.tokens_from,
        prompt_tokens: t.prompt_tokens,
        status: t.status,
        error: t.error,
        id: t.id
      })
      if (!out.write(`${line}\n`)) await new Promise<void>(r => out.once('drain', () => r()))
    }
    await new Promise<void>((resolvePromise, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolvePromise())))
  } catch (error) {
    throw new InputError('output.unwritable', `cannot write ${file}: ${(error as Error).message}`, { file })
  }
}
