import { describe, expect, it } from '@jest/globals'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { InputError } from '../../../src/errors.js'
import {
  formatJsonPath,
  JsonStreamParser,
  parseLenientJson,
  streamJson,
  streamJsonArray,
  type JsonStreamEvent,
  type JsonStreamOptions
} from '../../../src/helm/read/json-stream.js'

/** Deterministic pseudo-random generator so failures are reproducible. */
function lcg(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

function feed(bytes: Buffer, sizes: () => number, options: JsonStreamOptions = {}): JsonStreamEvent[] {
  const parser = new JsonStreamParser('test.json', options)
  const events: JsonStreamEvent[] = []
  for (let i = 0; i < bytes.length;) {
    const size = Math.max(1, sizes())
    parser.write(bytes.subarray(i, i + size))
    events.push(...parser.drain())
    i += size
  }
  parser.end()
  events.push(...parser.drain())
  return events
}

function parseWhole(bytes: Buffer, sizes: () => number): unknown {
  const events = feed(bytes, sizes, { plan: () => 'emit' })
  expect(events).toHaveLength(1)
  return (events[0] as { value: unknown }).value
}

const SAMPLE = {
  adapter_spec: { method: 'multiple_choice_joint', temperature: 0.0, stop_sequences: ['\n'], max_eval_instances: 10 },
  request_states: [
    {
      instance: { input: { text: 'Is 70 even or odd? “quoted” – ünïcødé 😀 \\ / \t' }, references: [], id: 'id60' },
      output_mapping: { A: 'Even', B: 'Odd' },
      result: { success: true, completions: [{ text: ' A', logprob: -0.25, tokens: [{ text: ' A', logprob: -1.5e-7 }] }] },
      empty: {},
      none: [],
      nested: [[[1, -2, 3.5e10, 0, -0]], { a: null, b: false, c: true }]
    },
    { instance: { id: 'id\u0001\u001f' }, n: 123456789012, e: 1e-300, big: 1e300 }
  ],
  '': 'empty key',
  'key with "quotes"': 'x'
}

function samples(): Buffer[] {
  const pretty = JSON.stringify(SAMPLE, null, 2)
  // Python's json.dumps(ensure_ascii=True) form: every non-ASCII code unit as \uXXXX.
  const asciiEscaped = pretty.replace(/[\u007f-\uffff]/g, c => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  return [Buffer.from(pretty), Buffer.from(JSON.stringify(SAMPLE)), Buffer.from(asciiEscaped)]
}

describe('JsonStreamParser against JSON.parse', () => {
  it('gives the same value with 1-byte chunks', () => {
    for (const bytes of samples()) {
      expect(parseWhole(bytes, () => 1)).toEqual(JSON.parse(bytes.toString('utf8')))
    }
  })

  it('gives the same value with random chunk sizes', () => {
    const random = lcg(42)
    for (const bytes of samples()) {
      const expected = JSON.parse(bytes.toString('utf8'))
      for (let round = 0; round < 50; round++) {
        const max = 1 + Math.floor(random() * 40)
        expect(parseWhole(bytes, () => 1 + Math.floor(random() * max))).toEqual(expected)
      }
    }
  })

  it('handles a surrogate pair escaped as two \\u escapes split at every byte', () => {
    const text = '["a\\ud83d\\ude00b", "\\u00e9\\u20AC"]'
    const bytes = Buffer.from(text)
    for (let cut = 1; cut < bytes.length; cut++) {
      const parser = new JsonStreamParser('t.json', { plan: () => 'emit' })
      parser.write(bytes.subarray(0, cut))
      parser.write(bytes.subarray(cut))
      parser.end()
      expect(parser.drain()).toEqual([{ kind: 'value', path: [], value: ['a😀b', 'é€'] }])
    }
  })

  it('handles multi-byte UTF-8 split inside a character', () => {
    const bytes = Buffer.from(JSON.stringify(['😀ü€', 'x😀']))
    for (let cut = 1; cut < bytes.length; cut++) {
      const parser = new JsonStreamParser('t.json', { plan: () => 'emit' })
      parser.write(bytes.subarray(0, cut))
      parser.write(bytes.subarray(cut))
      parser.end()
      expect(parser.drain()[0]).toEqual({ kind: 'value', path: [], value: ['😀ü€', 'x😀'] })
    }
  })

  it('keeps lone surrogates like JSON.parse does', () => {
    const text = '["\\ud800", "\\udc00x"]'
    expect(parseLenientJson(text, 't.json')).toEqual(JSON.parse(text))
  })

  it('makes __proto__ an own property, not the prototype', () => {
    const value = parseLenientJson('{"__proto__": {"polluted": true}}', 't.json') as Record<string, unknown>
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype)
    expect(Object.keys(value)).toEqual(['__proto__'])
    expect((value as { polluted?: boolean }).polluted).toBeUndefined()
  })
})

describe('non-JSON number tokens', () => {
  it('maps NaN, Infinity and -Infinity to numbers', () => {
    const value = parseLenientJson('[NaN, Infinity, -Infinity, {"sum": NaN}]', 'x.json') as unknown[]
    expect(value[0]).toBeNaN()
    expect(value[1]).toBe(Number.POSITIVE_INFINITY)
    expect(value[2]).toBe(Number.NEGATIVE_INFINITY)
    expect((value[3] as { sum: number }).sum).toBeNaN()
  })

  it('reads them split across chunks and at the very end of the input', () => {
    const bytes = Buffer.from('[-Infinity,NaN]')
    const events = feed(bytes, () => 1, { plan: () => 'emit' })
    expect(events).toEqual([{ kind: 'value', path: [], value: [Number.NEGATIVE_INFINITY, Number.NaN] }])
    expect(parseLenientJson('Infinity', 'x.json')).toBe(Number.POSITIVE_INFINITY)
  })

  it('rejects other spellings', () => {
    for (const text of ['[nan]', '[01]', '[1.]', '[-]', '[tru]', '[Infinityx]', '[-NaN]']) {
      expect(() => parseLenientJson(text, 'x.json')).toThrow(/invalid token/)
    }
    for (const text of ['[inf]', '[+1]', '[.5]', "['a']"]) {
      expect(() => parseLenientJson(text, 'x.json')).toThrow(/where a value was expected/)
    }
  })
})

describe('errors', () => {
  function errorOf(text: string, options: JsonStreamOptions = {}): InputError {
    const parser = new JsonStreamParser('f.json', options)
    try {
      parser.write(Buffer.from(text))
      parser.end()
    } catch (error) {
      return error as InputError
    }
    throw new Error(`no error for ${text}`)
  }

  it('reports truncation at the end offset with the key path', () => {
    const text = '{"request_states": [{"a": 1}, {"instance": {"id": "x'
    const error = errorOf(text)
    expect(error).toBeInstanceOf(InputError)
    expect(error.code).toBe('input.malformed_json')
    expect(error.location).toEqual({ file: 'f.json', field: 'request_states[1].instance.id', value: text.length })
    expect(error.message).toMatch(/truncated/)
  })

  it('reports the byte offset of an unexpected character', () => {
    const error = errorOf('[1, 2 3]')
    expect(error.location.value).toBe(6)
    expect(error.location.field).toBe('[1]')
    expect(error.message).toMatch(/expected ',' or ']'/)
  })

  it('counts offsets across chunks', () => {
    const parser = new JsonStreamParser('f.json')
    parser.write(Buffer.from('[1, 2, '))
    expect(() => parser.write(Buffer.from('  }'))).toThrow(/at byte 9/)
  })

  it('rejects trailing commas, raw control characters, bad escapes and trailing data', () => {
    expect(errorOf('[1,]').message).toMatch(/where a value was expected/)
    expect(errorOf('{"a":1,}').message).toMatch(/expected a string key/)
    expect(errorOf('["a\nb"]').message).toMatch(/control character/)
    expect(errorOf('["\\x"]').message).toMatch(/invalid escape/)
    expect(errorOf('["\\u12G4"]').message).toMatch(/invalid \\u escape/)
    expect(errorOf('[1] [2]').message).toMatch(/after the end/)
    expect(errorOf('[1}').message).toMatch(/unexpected '}'/)
    expect(errorOf('').message).toMatch(/empty input/)
    expect(errorOf('{"a" 1}').message).toMatch(/expected ':'/)
  })
})

describe('plans and skipping', () => {
  const doc = {
    adapter_spec: { model: 'm' },
    request_states: [
      {
        id: 'a',
        result: {
          completions: [
            { text: 'x', tokens: [{ t: 1 }] },
            { text: 'y', tokens: [] }
          ]
        },
        list: [1, 2, 3]
      },
      { id: 'b', result: { completions: [] } }
    ],
    annotator_specs: null
  }
  const plan = (path: readonly (string | number)[]) =>
    path.length === 0 || (path.length === 1 && path[0] === 'request_states') ? 'descend' : 'emit'

  it('emits members of descended containers with their paths', () => {
    const events = feed(Buffer.from(JSON.stringify(doc, null, 1)), () => 7, { plan })
    expect(events).toEqual([
      { kind: 'open', path: [], type: 'object' },
      { kind: 'value', path: ['adapter_spec'], value: doc.adapter_spec },
      { kind: 'open', path: ['request_states'], type: 'array' },
      { kind: 'value', path: ['request_states', 0], value: doc.request_states[0] },
      { kind: 'value', path: ['request_states', 1], value: doc.request_states[1] },
      { kind: 'value', path: ['annotator_specs'], value: null }
    ])
  })

  it('leaves out skipped subtrees: members omitted, array elements null', () => {
    const events = feed(Buffer.from(JSON.stringify(doc)), () => 3, {
      plan,
      skip: [['result', 'completions', '*', 'tokens'], ['list', '1'], ['adapter_spec']]
    })
    const first = events.find(e => e.kind === 'value' && e.path[1] === 0) as { value: unknown }
    expect(first.value).toEqual({
      id: 'a',
      result: { completions: [{ text: 'x' }, { text: 'y' }] },
      list: [1, null, 3]
    })
  })

  it('skips whole top-level members without validating their contents', () => {
    const text = '{"big": [1, "a\\"]", {"x": nan, "y": 01}], "keep": 1}'
    const events = feed(Buffer.from(text), () => 2, { plan: p => (p.length === 0 ? 'descend' : p[0] === 'big' ? 'skip' : 'emit') })
    expect(events.filter(e => e.kind === 'value')).toEqual([{ kind: 'value', path: ['keep'], value: 1 }])
  })
})

describe('file streaming', () => {
  it('streams array elements from a file in small chunks and rejects a non-array top level', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'json-stream-'))
    try {
      const file = join(dir, 'a.json')
      const elements = Array.from({ length: 200 }, (_, i) => ({ i, text: `élément ${i} 😀`, v: i % 7 === 0 ? 'NaN' : i }))
      await writeFile(file, JSON.stringify(elements, null, 2).replace(/"NaN"/g, 'NaN'))
      const seen: unknown[] = []
      for await (const { index, value } of streamJsonArray(file, { chunkSize: 13 })) {
        expect(index).toBe(seen.length)
        seen.push(value)
      }
      expect(seen).toHaveLength(200)
      expect(seen[5]).toEqual({ i: 5, text: 'élément 5 😀', v: 5 })
      expect((seen[7] as { v: number }).v).toBeNaN()

      const object = join(dir, 'o.json')
      await writeFile(object, '{"a": 1}')
      await expect(async () => {
        for await (const _ of streamJsonArray(object)) void _
      }).rejects.toThrow(/Expected a JSON array at the top of .*o\.json, found an object/)

      await expect(async () => {
        for await (const _ of streamJson(join(dir, 'missing.json'))) void _
      }).rejects.toThrow(InputError)
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  })
})

describe('formatJsonPath', () => {
  it('formats keys and indices', () => {
    expect(formatJsonPath(['request_states', 14, 'result', 'cached'])).toBe('request_states[14].result.cached')
    expect(formatJsonPath([12, 'stats', 3, 'count'])).toBe('[12].stats[3].count')
    expect(formatJsonPath(['a b', 'exact_match@5'])).toBe('["a b"].exact_match@5')
  })
})
