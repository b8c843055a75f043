import { describe, expect, it } from '@jest/globals'
import { writeFileSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { streamJson, type JsonPathSegment, type JsonStreamEvent } from '../../../src/helm/read/json-stream.js'
import { BASELINE_SUITE, LEGACY_SUITE, MCQA_RUN } from './fixtures.js'

async function events(
  file: string,
  chunkSize?: number,
  plan?: (p: readonly JsonPathSegment[]) => 'descend' | 'emit' | 'skip'
): Promise<JsonStreamEvent[]> {
  const out: JsonStreamEvent[] = []
  for await (const e of streamJson(file, { chunkSize, plan })) out.push(e)
  return out
}

const scenarioPlan = (p: readonly JsonPathSegment[]) =>
  p.length === 0 || (p.length === 1 && p[0] === 'request_states') ? 'descend' : 'emit'

describe('native fast path of streamJson', () => {
  it.each([
    ['per_instance_stats.json', join(BASELINE_SUITE, MCQA_RUN, 'per_instance_stats.json'), undefined],
    ['scenario_state.json', join(BASELINE_SUITE, MCQA_RUN, 'scenario_state.json'), scenarioPlan]
  ])('yields the same events as the streaming parser for %s', async (_name, file, plan) => {
    const native = await events(file, undefined, plan)
    const streamed = await events(file, 4096, plan)
    expect(native.length).toBeGreaterThan(5)
    expect(native).toEqual(streamed)
  })

  it('falls back to the lenient parser for NaN and Infinity tokens', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'native-')), 'x.json')
    writeFileSync(file, '[{"sum": NaN}, {"sum": -Infinity}, {"sum": 1}]')
    const values = (await events(file)).filter(e => e.kind === 'value').map(e => (e as { value: { sum: number } }).value.sum)
    expect(values[0]).toBeNaN()
    expect(values.slice(1)).toEqual([-Infinity, 1])
  })

  it('still reports truncated files with the byte offset', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'native-')), 'x.json')
    writeFileSync(file, '[{"a": 1}, {"b": ')
    await expect(events(file)).rejects.toMatchObject({ code: 'input.malformed_json' })
  })

  it('reads the legacy fixture the same both ways', async () => {
    const file = join(LEGACY_SUITE, 'mmlu_subject=abstract_algebra,model=huggingface_opt-1.3b', 'per_instance_stats.json')
    expect(await events(file)).toEqual(await events(file, 512))
  })
})
