/**
 * The launched server's weights file by content: the `--model FILE` argument of the launch
 * command, hashed when it names a regular file on this machine.
 */
import { describe, expect, it } from '@jest/globals'
import { createHash } from 'node:crypto'
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { modelArgument, weightsIdentity } from '../../src/launch/weights.js'

describe('the launched weights file', () => {
  it('finds --model, --model= and -m, and nothing else', () => {
    expect(modelArgument(['llama-server', '--model', 'm.gguf', '--port', '1'])).toBe('m.gguf')
    expect(modelArgument(['llama-server', '-m', './m.gguf'])).toBe('./m.gguf')
    expect(modelArgument(['vllm', 'serve', 'org/model', '--model=/w/x'])).toBe('/w/x')
    expect(modelArgument(['vllm', 'serve', 'org/model'])).toBeNull()
    // The program itself is never the argument, and a trailing flag has no value.
    expect(modelArgument(['-m', '--model'])).toBeNull()
  })

  it('hashes a file named relative to the launch directory; a directory or a hub id records nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'helm-gate-weights-'))
    const content = Buffer.from('GGUF fake weights')
    await writeFile(join(dir, 'model-Q4_0.gguf'), content)
    await mkdir(join(dir, 'hf-folder'))
    const sha256 = createHash('sha256').update(content).digest('hex')
    expect(await weightsIdentity(['llama-server', '--model', './model-Q4_0.gguf'], dir)).toEqual({
      file: './model-Q4_0.gguf',
      bytes: content.length,
      sha256,
      error: null
    })
    expect(await weightsIdentity(['vllm', 'serve', '--model', 'hf-folder'], dir)).toBeNull()
    expect(await weightsIdentity(['vllm', 'serve', '--model', 'meta-llama/Llama-3.1-8B'], dir)).toBeNull()
    expect(await weightsIdentity(['docker', 'run', 'image'], dir)).toBeNull()
    // Too large to hash in the gate's time: the size alone, and why.
    expect(await weightsIdentity(['llama-server', '-m', 'model-Q4_0.gguf'], dir, 4)).toEqual({
      file: 'model-Q4_0.gguf',
      bytes: content.length,
      sha256: null,
      error: 'larger than 4 bytes: not hashed'
    })
  })
})
