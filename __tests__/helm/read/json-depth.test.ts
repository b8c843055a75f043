/** The nesting limit: deep documents are a named error on both parse paths, brackets in strings never count. */
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MAX_JSON_DEPTH, streamJsonArray, textExceedsDepth } from '../../../src/helm/read/json-stream.js'

const nest = (n: number): string => `${'['.repeat(n)}${']'.repeat(n)}`

describe('JSON nesting limit', () => {
  it.each([
    [nest(MAX_JSON_DEPTH), false],
    [nest(MAX_JSON_DEPTH + 1), true],
    [nest(100_000), true],
    [`["${'['.repeat(10_000)}"]`, false],
    [`["\\"${'{'.repeat(10_000)}"]`, false],
    [`[{"a": ${nest(300)}}]`, true],
    [`["é\\\\", ${nest(MAX_JSON_DEPTH)}]`, true],
    [`["😀[[[", ${nest(MAX_JSON_DEPTH - 1)}]`, false],
    // Runs of backslashes before a quote: odd escapes it, even closes the string.
    [`["\\\\", ${nest(MAX_JSON_DEPTH)}]`, true],
    [`["\\\\\\"${'['.repeat(300)}"]`, false],
    [`["\\\\\\\\", ${nest(MAX_JSON_DEPTH)}]`, true],
    [`["abc`, false],
    [`["${'['.repeat(300)}`, false]
  ])('textExceedsDepth(case %#) = %s, on the text and on its UTF-8 bytes', (text, expected) => {
    expect(textExceedsDepth(text)).toBe(expected)
    expect(textExceedsDepth(Buffer.from(text, 'utf8'))).toBe(expected)
  })

  it('the byte path agrees with the text path on random bracket, quote and backslash soup', () => {
    let state = 7
    const next = (): number => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32
    const alphabet = ['[', ']', '{', '}', '"', '\\', 'a', ',', 'é']
    for (let round = 0; round < 2000; round++) {
      let text = ''
      const length = 1 + Math.floor(next() * 60)
      for (let k = 0; k < length; k++) text += alphabet[Math.floor(next() * alphabet.length)]
      const limit = 1 + Math.floor(next() * 4)
      expect([text, textExceedsDepth(Buffer.from(text, 'utf8'), limit)]).toEqual([text, textExceedsDepth(text, limit)])
    }
  })

  it.each([
    ['native parse', undefined],
    ['streaming parse', 4096]
  ])('%s: a 100,000-deep element is input.too_deep naming the file', async (_label, chunkSize) => {
    const file = join(mkdtempSync(join(tmpdir(), 'helm-gate-depth-')), 'per_instance_stats.json')
    writeFileSync(file, `[{"a": 1}, ${nest(100_000)}]`)
    const read = async (): Promise<void> => {
      for await (const _ of streamJsonArray(file, { chunkSize })) void _
    }
    await expect(read()).rejects.toMatchObject({ code: 'input.too_deep', location: { file } })
  })

  it('a string holding 10,000 brackets is read, not refused', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'helm-gate-depth-')), 'stats.json')
    writeFileSync(file, `[{"text": "${'['.repeat(10_000)}"}]`)
    const values: unknown[] = []
    for await (const { value } of streamJsonArray(file)) values.push(value)
    expect(values).toHaveLength(1)
  })
})
