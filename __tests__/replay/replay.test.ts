/** The body the replay sends, and reading a chat answer (the HTTP side is in run-traffic.test.ts). */
import { describe, expect, it } from '@jest/globals'
import { readAnswer, replayBody } from '../../src/replay/replay.js'

const messages = [{ role: 'user' as const, content: 'hi' }]

describe('the replayed body', () => {
  it('is the logged request with the side model, no stream, and the gate temperature unless logged is asked', () => {
    const logged = {
      messages,
      max_tokens: 64,
      temperature: 0.7,
      stop: ['\n'],
      response_format: { type: 'json_object' },
      stream_options: { include_usage: true }
    }
    expect(replayBody(logged, 'm', 0)).toEqual({
      messages,
      max_tokens: 64,
      temperature: 0,
      stop: ['\n'],
      response_format: { type: 'json_object' },
      model: 'm',
      stream: false
    })
    expect(replayBody(logged, 'm', null).temperature).toBe(0.7)
  })
})

describe('reading an answer', () => {
  it('takes the first choice, and names what is wrong with an unreadable one', () => {
    expect(readAnswer('{"choices":[{"message":{"content":"ok","tool_calls":[]},"finish_reason":"stop"}]}')).toEqual({
      content: 'ok',
      tool_calls: null,
      finish_reason: 'stop'
    })
    expect(readAnswer('not json')).toBe('the answer is not JSON')
    expect(readAnswer('{"choices":[]}')).toBe('the answer has no choices[0].message')
    expect(readAnswer('{"choices":[{"message":{"content":[1]}}]}')).toBe('choices[0].message.content is not a string')
  })
})
