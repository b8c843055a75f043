/** The structural checks of one answer: JSON mode (with and without a schema), tool calls, truncation, refusals. */
import { describe, expect, it } from '@jest/globals'
import { DEFAULT_REFUSAL_PATTERNS } from '../../src/config/traffic.js'
import { SchemaCache, structuralChecks, type Answer } from '../../src/replay/answer-checks.js'
import type { TrafficRequest } from '../../src/config/traffic-set.js'

const refusal = DEFAULT_REFUSAL_PATTERNS.map(p => new RegExp(p, 'i'))
const messages = [{ role: 'user' as const, content: 'hi' }]
const SCHEMA = { type: 'object', properties: { category: { enum: ['billing', 'other'] } }, required: ['category'] }
const TOOLS = [
  {
    type: 'function',
    function: { name: 'lookup_order', parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] } }
  }
]
const answer = (content: string | null, extra: Partial<Answer> = {}): Answer => ({
  content,
  tool_calls: null,
  finish_reason: 'stop',
  ...extra
})
const call = (name: string, args: string): unknown => ({ id: 'c1', type: 'function', function: { name, arguments: args } })
const check = (request: Partial<TrafficRequest>, a: Answer) => structuralChecks({ messages, ...request }, a, refusal, new SchemaCache())

describe('structural checks', () => {
  it('JSON mode: parses, and is an object for json_object', () => {
    const json = { response_format: { type: 'json_object' } }
    expect(check(json, answer('{"a": 1}')).invalid_json).toBe(false)
    expect(check(json, answer('Sure: {"a": 1}')).invalid_json).toBe(true)
    expect(check(json, answer('[1, 2]')).invalid_json).toBe(true)
    expect(check(json, answer(null)).invalid_json).toBe(true)
    expect(check({}, answer('not json')).invalid_json).toBeNull()
  })

  it('JSON mode with a schema: validated with ajv', () => {
    const json = { response_format: { type: 'json_schema', json_schema: { name: 's', schema: SCHEMA } } }
    expect(check(json, answer('{"category": "billing"}')).invalid_json).toBe(false)
    const bad = check(json, answer('{"category": "shipping"}'))
    expect(bad.invalid_json).toBe(true)
    expect(bad.why[0]).toMatch(/does not match the schema \(\/category/)
  })

  it('tool calls: a known name with arguments that parse and match the parameters', () => {
    const tools = { tools: TOOLS }
    expect(check(tools, answer(null, { tool_calls: [call('lookup_order', '{"order_id": "A1"}')] })).invalid_tool_calls).toBe(false)
    expect(check(tools, answer(null, { tool_calls: [call('lookup', '{"order_id": "A1"}')] })).invalid_tool_calls).toBe(true)
    expect(check(tools, answer(null, { tool_calls: [call('lookup_order', '{"order_id": ')] })).invalid_tool_calls).toBe(true)
    expect(check(tools, answer(null, { tool_calls: [call('lookup_order', '{"order": 1}')] })).invalid_tool_calls).toBe(true)
    // Text where a tool was optional is no broken call; where one was required it is.
    expect(check(tools, answer('Let me check.')).invalid_tool_calls).toBe(false)
    expect(check({ ...tools, tool_choice: 'required' }, answer('Let me check.')).invalid_tool_calls).toBe(true)
    expect(check({ ...tools, tool_choice: 'none' }, answer('ok')).invalid_tool_calls).toBeNull()
  })

  it('truncation and refusals', () => {
    expect(check({}, answer('Your order', { finish_reason: 'length' })).truncation).toBe(true)
    expect(check({}, answer("I'm sorry, I can't help with that.")).refusals).toBe(true)
    expect(check({}, answer('I cannot assist with that request.')).refusals).toBe(true)
    expect(check({}, answer('Your order ships tomorrow.')).refusals).toBe(false)
  })
})
