import { describe, expect, test } from '@jest/globals'
import { InputError } from '../../src/errors.js'
import { buildTrafficSet, type BuildOptions, type LogFile } from '../../src/traffic/build.js'

const OPTIONS: BuildOptions = { count: 100, seed: 0, tagField: 'tag', dropFields: [], skipNonChat: false }
const jsonl = (lines: unknown[]): string => lines.map(l => `${JSON.stringify(l)}\n`).join('')
const user = (content: string) => ({ messages: [{ role: 'user', content }] })
const answer = (content: string | null, extra: Record<string, unknown> = {}) => ({
  id: 'chatcmpl-1',
  choices: [{ index: 0, message: { role: 'assistant', content, ...extra }, finish_reason: 'stop' }]
})

function build(files: LogFile[], options: Partial<BuildOptions> = {}) {
  return buildTrafficSet(files, { ...OPTIONS, ...options })
}

function failure(files: LogFile[], options: Partial<BuildOptions> = {}): InputError {
  try {
    build(files, options)
  } catch (error) {
    expect(error).toBeInstanceOf(InputError)
    return error as InputError
  }
  throw new Error('expected the build to fail')
}

describe('the log formats', () => {
  test('chat-completions bodies: model and stream are set per side; tag, reference and timestamp beside the body are not sent', () => {
    const text = jsonl([
      { model: 'gpt-x', stream: true, ...user('a'), max_tokens: 16, tag: 'billing', reference: 'A', timestamp: '2026-11-02T09:00:00Z' },
      { ...user('b'), response_format: { type: 'json_object' }, metadata: { tag: 'account' }, timestamp: 1793610001.5 }
    ])
    const { instances } = build([{ name: 'log.jsonl', text }])
    expect(instances).toEqual([
      {
        id: 't-1',
        stratum: expect.stringMatching(/^billing\//),
        tag: 'billing',
        request: { ...user('a'), max_tokens: 16 },
        reference: 'A',
        logged_response: null,
        arrival_ms: 0
      },
      {
        id: 't-2',
        stratum: expect.stringMatching(/^account\//),
        tag: 'account',
        request: { ...user('b'), response_format: { type: 'json_object' } },
        reference: null,
        logged_response: null,
        arrival_ms: 1793610001500 - Date.parse('2026-11-02T09:00:00Z')
      }
    ])
  })

  test('Batch API input and output files are joined by custom_id; a failed batch request has no logged answer', () => {
    const input = jsonl([
      { custom_id: 'r1', method: 'POST', url: '/v1/chat/completions', body: { model: 'm', ...user('one'), max_tokens: 8 } },
      { custom_id: 'r2', method: 'POST', url: '/v1/chat/completions', body: { model: 'm', ...user('two') } }
    ])
    const output = jsonl([
      { id: 'b1', custom_id: 'r2', response: null, error: { code: 'server_error', message: 'x' } },
      { id: 'b2', custom_id: 'r1', response: { status_code: 200, body: answer('ONE') }, error: null }
    ])
    const { instances, summary } = build([
      { name: 'in.jsonl', text: input },
      { name: 'out.jsonl', text: output }
    ])
    expect(instances.map(i => [i.id, i.logged_response])).toEqual([
      ['r1', { content: 'ONE', finish_reason: 'stop' }],
      ['r2', null]
    ])
    expect(summary.inputs).toEqual([
      { file: 'in.jsonl', requests: 2, responses: 0, skipped_not_chat: 0 },
      { file: 'out.jsonl', requests: 0, responses: 2, skipped_not_chat: 0 }
    ])
  })

  test('logged pairs keep the answer, its tool calls and finish reason', () => {
    const call = { id: 'c1', type: 'function', function: { name: 'open_ticket', arguments: '{"category":"billing"}' } }
    const text = jsonl([
      { id: 'x-1', tag: 'billing', request: user('refund'), response: answer(null, { tool_calls: [call] }), reference: null }
    ])
    const [instance] = build([{ name: 'pairs.jsonl', text }]).instances
    expect(instance.id).toBe('x-1')
    expect(instance.logged_response).toEqual({ content: null, tool_calls: [call], finish_reason: 'stop' })
  })

  test('a logged pair may carry a custom_id and an answer wrapped as in Batch output', () => {
    const text = jsonl([
      { custom_id: 'c-1', request: user('one'), response: { status_code: 200, body: answer('ONE') } },
      { custom_id: 'c-2', request: user('two'), response: { status_code: 500, body: { error: 'x' } } }
    ])
    const { instances } = build([{ name: 'pairs.jsonl', text }])
    expect(instances.map(i => [i.id, i.logged_response])).toEqual([
      ['c-1', { content: 'ONE', finish_reason: 'stop' }],
      ['c-2', null]
    ])
  })

  test('a Batch line for another endpoint is an error naming it, or a counted skip when asked', () => {
    const text = jsonl([
      { custom_id: 'r1', method: 'POST', url: '/v1/chat/completions', body: user('one') },
      { custom_id: 'e1', method: 'POST', url: '/v1/embeddings', body: { input: 'x' } }
    ])
    const error = failure([{ name: 'batch.jsonl', text }])
    expect(error.code).toBe('traffic.not_chat')
    expect(error.location).toEqual({ file: 'batch.jsonl', field: 'line 2: url', value: '/v1/embeddings' })
    const { instances, summary } = build([{ name: 'batch.jsonl', text }], { skipNonChat: true })
    expect(instances).toHaveLength(1)
    expect(summary.skipped_not_chat).toBe(1)
  })
})

describe('bad logs give named errors', () => {
  const cases: Array<[string, unknown, string, string]> = [
    ['not JSON', '{"messages": [', 'line 2', 'not JSON'],
    ['not an object', '[1, 2]', 'line 2', 'must be a JSON object'],
    ['no chat request', { prompt: 'hi' }, 'line 2', 'is not a chat request'],
    ['empty messages', { messages: [] }, 'line 2: messages', 'non-empty list'],
    ['bad role', { messages: [{ role: 'bot', content: 'x' }] }, 'line 2: messages[0].role', 'role must be one of'],
    ['bad content', { messages: [{ role: 'user', content: 5 }] }, 'line 2: messages[0].content', 'content must be a string'],
    ['bad max_tokens', { ...user('x'), max_tokens: 0 }, 'line 2: max_tokens', 'positive integer'],
    ['bad timestamp', { ...user('x'), timestamp: 'yesterday' }, 'line 2: timestamp', 'ISO 8601'],
    ['bad tag', { ...user('x'), tag: 'a/b' }, 'line 2: tag', 'without "/"'],
    ['tag with a terminal escape', { ...user('x'), tag: 'a\u001b[2J' }, 'line 2: tag', 'control characters'],
    ['tag in metadata', { ...user('x'), metadata: { tag: 7 } }, 'line 2: metadata.tag', 'the tag must be'],
    ['pair without a request body', { request: 'hi' }, 'line 2: request', 'request body'],
    [
      'pair with a malformed response',
      { request: user('x'), response: { choices: [] } },
      'line 2: response.choices',
      'at least one choice'
    ],
    ['batch body messages', { custom_id: 'a', url: '/v1/chat/completions', body: { messages: 'x' } }, 'line 2: body.messages', 'non-empty']
  ]
  test.each(cases)('%s', (_name, line, field, message) => {
    const text = `${JSON.stringify(user('fine'))}\n${typeof line === 'string' ? line : JSON.stringify(line)}\n`
    const error = failure([{ name: 'logs/bad.jsonl', text }])
    expect(error.code).toBe('traffic.bad_line')
    expect(error.location.file).toBe('logs/bad.jsonl')
    expect(error.location.field).toBe(field)
    expect(error.message).toContain(message)
  })

  test('logs with no chat request are an error, not an empty set', () => {
    const error = failure([{ name: 'empty.jsonl', text: '\n\n' }])
    expect(error.code).toBe('traffic.empty')
    expect(error.location.file).toBe('empty.jsonl')
  })

  test('an output line without its input, and a custom_id used twice, are errors', () => {
    const input = jsonl([{ custom_id: 'r1', url: '/v1/chat/completions', body: user('one') }])
    const orphan = jsonl([{ custom_id: 'r9', response: { status_code: 200, body: answer('x') }, error: null }])
    const error = failure([
      { name: 'in.jsonl', text: input },
      { name: 'out.jsonl', text: orphan }
    ])
    expect(error.code).toBe('traffic.unmatched_response')
    expect(error.location).toEqual({ file: 'out.jsonl', field: 'line 1: custom_id', value: 'r9' })
    expect(failure([{ name: 'in.jsonl', text: input + input }]).code).toBe('traffic.duplicate_id')
  })
})

describe('dedupe, scrubbing and fields kept out', () => {
  test('exact and whitespace-only duplicates are removed and counted; the first is kept', () => {
    const text = jsonl([
      user('How do I   reset my password?'),
      user('How do I   reset my password?'),
      user(' How do I reset\nmy password? '),
      user('other')
    ])
    const { instances, summary } = build([{ name: 'l.jsonl', text }])
    expect(instances.map(i => i.request.messages[0].content)).toEqual(['How do I   reset my password?', 'other'])
    expect(summary.duplicates_removed).toEqual({ exact: 1, near: 1 })
    expect(summary.distinct_requests).toBe(2)
  })

  test('planted secrets, e-mail addresses and phone numbers are gone from the set and counted; user and named fields are dropped', () => {
    const text = jsonl([
      {
        id: 'p1',
        request: { ...user('key sk-live-A1b2C3d4E5f6G7h8 mail me at ann@example.com or +1 415 555 0142'), user: 'cust-1', seed: 3 },
        response: answer('Noted ann@example.com'),
        reference: 'call (415) 555-0199'
      }
    ])
    const { instances, summary } = build([{ name: 'l.jsonl', text }], { dropFields: ['seed'] })
    const written = JSON.stringify(instances)
    for (const planted of ['sk-live', 'ann@example.com', '555 0142', '555-0199', 'cust-1']) expect(written).not.toContain(planted)
    expect(instances[0].request).toEqual(user('key [secret] mail me at [email] or [phone]'))
    expect(instances[0].reference).toBe('call [phone]')
    expect(summary.replacements).toEqual({ secret: 1, email: 2, phone: 2 })
    expect(summary.fields_removed).toEqual({ seed: 1, user: 1 })
  })
})

describe('stratified, seeded sampling', () => {
  const lines = Array.from({ length: 300 }, (_, i) => ({
    ...user(`question ${i} ${'word '.repeat(i % 37)}`),
    tag: i % 10 === 0 ? 'rare' : i % 3 === 0 ? 'billing' : 'technical',
    timestamp: 1_800_000_000 + i * 2
  }))
  const files = [{ name: 'l.jsonl', text: jsonl(lines) }]

  test('the same logs and seed give the same bytes; another seed another sample', () => {
    const a = build(files, { count: 40, seed: 5 })
    const b = build(files, { count: 40, seed: 5 })
    expect(JSON.stringify(b)).toBe(JSON.stringify(a))
    const c = build(files, { count: 40, seed: 6 })
    expect(c.instances.map(i => i.id)).not.toEqual(a.instances.map(i => i.id))
    expect(a.instances[0].id).toMatch(/^t-\d+$/)
  })

  test('proportional with every stratum represented; the summary counts them', () => {
    const { instances, summary } = build(files, { count: 40, seed: 1 })
    expect(instances).toHaveLength(40)
    expect(summary.strata).toHaveLength(9)
    for (const s of summary.strata) {
      expect(s.sampled).toBeGreaterThanOrEqual(1)
      expect(instances.filter(i => i.stratum === s.stratum)).toHaveLength(s.sampled)
      expect(Math.abs(s.sampled - (40 * s.available) / 300)).toBeLessThan(1.5)
    }
    expect(summary.prompt_chars!.min).toBeLessThanOrEqual(summary.prompt_chars!.p50)
  })

  test('arrival times are kept relative to the first sampled request, only when every one has a timestamp', () => {
    const { instances } = build(files, { count: 40, seed: 1 })
    expect(instances[0].arrival_ms).toBe(0)
    expect(instances.every(i => Number.isInteger(i.arrival_ms))).toBe(true)
    const partial = build([{ name: 'l.jsonl', text: jsonl([...lines.slice(0, 3), user('no time')]) }])
    expect(partial.instances.every(i => i.arrival_ms === null)).toBe(true)
    expect(partial.summary.notes[0]).toContain('3 of 4 sampled requests had a timestamp')
  })
})
