import { describe, expect, test } from '@jest/globals'
import { noCounts, scrubText, scrubValue } from '../../src/traffic/scrub.js'

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

// Phone numbers as docs/traffic.md promises them: `+` and 7-15 digits, or digit groups joined by
// spaces, dots, dashes or parentheses, 7-15 digits in all; written the way each country does.
const PHONES: Array<[string, string]> = [
  ['US', '(415) 555-0132'],
  ['US', '415-555-0132'],
  ['US', '415.555.0132'],
  ['US', '+1 415 555 0132'],
  ['US', '1-800-555-0199'],
  ['US, local', '555-0123'],
  ['US, compact', '+14155550132'],
  ['UK', '+44 20 7946 0958'],
  ['UK', '020 7946 0958'],
  ['UK', '07700 900123'],
  ['UK', '+44 (0)20 7946 0958'],
  ['France', '06 12 34 56 78'],
  ['France', '+33 6 12 34 56 78'],
  ['France', '01.23.45.67.89'],
  ['Germany', '0049 30 12345678'],
  ['Germany', '+49 30 12345678'],
  ['Germany', '030 12345678'],
  ['Germany', '(030) 1234-5678'],
  ['India', '98765 43210'],
  ['India', '+91 98765 43210'],
  ['Japan', '03-1234-5678'],
  ['Japan', '+81 3-1234-5678'],
  ['Japan', '090-1234-5678'],
  ['Brazil', '(11) 91234-5678'],
  ['Brazil', '+55 11 91234 5678'],
  ['China', '138 0013 8000'],
  ['China', '+86 138 0013 8000'],
  ['Australia', '(02) 9876 5432'],
  ['Australia', '0412 345 678'],
  ['Australia', '+61 412 345 678'],
  ['Spain', '612 34 56 78'],
  ['Italy', '+39 06 1234 5678'],
  ['Netherlands', '06-12345678'],
  ['Russia', '+7 (495) 123-45-67'],
  ['Russia', '8 (495) 123-45-67'],
  ['Mexico', '55 1234 5678'],
  ['South Africa', '+27 21 123 4567'],
  ['South Korea', '010-1234-5678'],
  ['Nigeria', '0803 123 4567']
]

// Digits that are not phone numbers: they must survive.
const NOT_PHONES = [
  'on 2024-05-01',
  'on 01.05.2024',
  'at 2026-11-02 09:00:00',
  'at 2026-11-02T09:00:00Z',
  'on 05/01/2024',
  'version 1.2.3',
  'build 10.0.19041.1234',
  'v2.14.0',
  'Python 3.11.4',
  'ticket NIM-12345',
  'order 1234567890',
  'uuid 550e8400-e29b-41d4-a716-446655440000',
  'ISBN 978-3-16-148410-0',
  'price $1,299.99',
  'price €1.234,56',
  'total 1.234.567 €',
  'epoch 1717171717',
  'at 12:30:45',
  'host 10.20.30.40',
  'host 192.168.1.10',
  'listening on 127.0.0.1:8000',
  'from 1990-2020',
  'in 2019 2020 2021',
  'pi is 3.14159265',
  'at 48.8566, 2.3522',
  'grew 12.5% to 150 GB'
]

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
