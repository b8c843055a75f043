/**
 * The weights file a launched server was started with, by content: llama.cpp's server (and other
 * single-file engines) take `--model FILE` / `-m FILE`, and two quantizations of one model are
 * told apart by the file, not by the served name. When that argument names a regular file (read
 * from the launch directory), its size and sha256 are recorded in the launch manifest and shown
 * in the report's Weights row. A directory or a hub id (vLLM's `--model`) records nothing.
 * Information only: a file that cannot be read is recorded with its error, never a gate error.
 */
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { WeightsIdentity } from '../model/launch-record.js'

export type { WeightsIdentity }

/** Above this, hashing would hold the gate up for minutes; the size alone is recorded. */
export const MAX_HASHED_BYTES = 32 * 1024 ** 3

/** The value of `--model`, `--model=` or `-m` in a launch command, or null. */
export function modelArgument(command: string[]): string | null {
  for (let i = 1; i < command.length; i++) {
    const arg = command[i]
    if ((arg === '--model' || arg === '-m') && i + 1 < command.length) return command[i + 1]
    if (arg.startsWith('--model=')) return arg.slice('--model='.length)
  }
  return null
}

export async function weightsIdentity(command: string[], cwd: string, maxBytes = MAX_HASHED_BYTES): Promise<WeightsIdentity | null> {
  const file = modelArgument(command)
  if (!file) return null
  const path = resolve(cwd, file)
  let info
  try {
    info = await stat(path)
  } catch {
    return null // a hub id or a path inside a container: nothing on this machine to hash
  }
  if (!info.isFile()) return null
  if (info.size > maxBytes) return { file, bytes: info.size, sha256: null, error: `larger than ${maxBytes} bytes: not hashed` }
  try {
    const hash = createHash('sha256')
    for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer)
    return { file, bytes: info.size, sha256: hash.digest('hex'), error: null }
  } catch (error) {
    return { file, bytes: info.size, sha256: null, error: (error as Error).message }
  }
}
