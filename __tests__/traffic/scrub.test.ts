import { describe, expect, test } from '@jest/globals'
import { noCounts, scrubText, scrubValue } from '../../src/traffic/scrub.js'
import { NOT_PHONES, PHONES } from '../../test-support/phone-corpus.js'

describe('scrubText', () => {
  test('replaces planted keys, addresses and phone numbers inside sentences and counts each kind', () => {
    const counts = noCounts()
    const text =
      'My key is sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12. Token ghp_abcdefghijklmnopqrstuvwxyz0123456789 and ' +
      'header Bearer eyJhbGciOiJIUzI1NiJ9.payload. Mail jane.doe@example.com or alex+nimbus@corp.example.net, ' +
      'call +1 415 555 0142, (415) 555-0199, +44 20 7946 0958 or +1-212-555-0941.'
    expect(scrubText(text, counts)).toBe(
      'My key is [secret]. Token [secret] and header Bearer [secret]. Mail [email] or [email], call [phone], [phone], [phone] or [phone].'
    )
    expect(counts).toEqual({ secret: 3, email: 2, phone: 4 })
  })

  test('leaves dates, versions, sizes, ids and amounts alone', () => {
    const counts = noCounts()
    const text =
      'On 2026-11-02 (or 02.11.2026) at 09:00 the app version 8.2.1 synced 1 of 3,402 files (150 GB) and failed with 413; ' +
      'ticket NIM-12345, order 1234567890, $12/month, month 2026-10, uuid 3f2b9c1e, server 10.20.30.40.'
    expect(scrubText(text, counts)).toBe(text)
    expect(counts).toEqual({ secret: 0, email: 0, phone: 0 })
  })
})

describe('scrubValue', () => {
  test('walks a request: values under credential keys, JSON held in tool-call arguments, text parts', () => {
    const counts = noCounts()
    const request = {
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'write to bob@example.org' }] },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'login', arguments: '{"user":"bob","password":"hunter2"}' } }]
        }
      ],
      api_key: 'not-a-pattern',
      max_tokens: 64
    }
    const out = scrubValue(request, counts) as typeof request
    expect(out.messages[0].content).toEqual([{ type: 'text', text: 'write to [email]' }])
    expect(JSON.parse(out.messages[1].tool_calls![0].function.arguments)).toEqual({ user: 'bob', password: '[secret]' })
    expect(out.api_key).toBe('[secret]')
    expect(out.max_tokens).toBe(64)
    expect(counts).toEqual({ secret: 2, email: 1, phone: 0 })
  })

  test('JSON text with nothing to scrub keeps its own bytes', () => {
    const counts = noCounts()
    const args = '{ "month" : "2026-10" }'
    expect(scrubValue({ arguments: args }, counts)).toEqual({ arguments: args })
  })
})

describe('phone numbers from many countries, and digits that are not phone numbers', () => {
  test.each(PHONES)('%s: %s is hidden whole', (_country, phone) => {
    const counts = noCounts()
    expect(scrubText(`call me on ${phone} after six`, counts)).toBe('call me on [phone] after six')
    expect(counts.phone).toBe(1)
  })

  test.each(NOT_PHONES)('%s survives', text => {
    const counts = noCounts()
    expect(scrubText(text, counts)).toBe(text)
    expect(counts).toEqual(noCounts())
  })
})
