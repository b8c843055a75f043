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
    [`["😀[[[", ${nest(MAX_JSON_DEPTH - 1)}]`, false]
  ])('textExceedsDepth(case %#) = %s, on the text and on its UTF-8 bytes', (text, expected) => {
    expect(textExceedsDepth(text)).toBe(expected)
    expect(textExceedsDepth(Buffer.from(text, 'utf8'))).toBe(expected)
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
