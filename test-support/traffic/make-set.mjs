#!/usr/bin/env node
// A small, deterministic traffic set for the traffic gate's tests and demo (the format of
// docs/traffic.md): support chat with a system prompt, multi-turn conversations, JSON-mode
// requests (json_object and json_schema), tool calls and a few records with a reference answer.
//
//   node test-support/traffic/make-set.mjs <out.jsonl> [count]
import { realpathSync, writeFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'

const SYSTEM = 'You are the support assistant of Acme Parcel. Answer briefly and politely.'
const QUESTIONS = [
  'Where is my order?',
  'How do I return a damaged item?',
  'Can I change the delivery address after checkout?',
  'Why was I charged twice?',
  'Do you ship to Norway?',
  'How long does a refund take?',
  'My package says delivered but I cannot find it.',
  'Can I get an invoice for my company?'
]
const TOOLS = [
  {
    type: 'function',
    function: {
      name: 'lookup_order',
      description: 'Find an order by its number',
      parameters: {
        type: 'object',
        properties: { order_id: { type: 'string' }, include_items: { type: 'boolean' } },
        required: ['order_id', 'include_items'],
        additionalProperties: false
      }
    }
  }
]
const SCHEMA = {
  type: 'object',
  properties: { category: { type: 'string', enum: ['billing', 'shipping', 'returns', 'other'] }, urgent: { type: 'boolean' } },
  required: ['category', 'urgent'],
  additionalProperties: false
}

export function makeSet(count) {
  const lines = []
  for (let i = 0; i < count; i += 1) {
    const question = `${QUESTIONS[i % QUESTIONS.length]} (ticket ${1000 + i})`
    const kind = ['chat', 'multi', 'json', 'schema', 'tools'][i % 5]
    const messages = [{ role: 'system', content: SYSTEM }]
    const request = { messages, max_tokens: 128 }
    let tag = 'support'
    if (kind === 'multi') {
      messages.push({ role: 'user', content: 'Hello' }, { role: 'assistant', content: 'Hello! How can I help?' })
    }
    messages.push({ role: 'user', content: question })
    if (kind === 'json') {
      request.response_format = { type: 'json_object' }
      tag = 'triage'
    }
    if (kind === 'schema') {
      request.response_format = { type: 'json_schema', json_schema: { name: 'triage', schema: SCHEMA, strict: true } }
      tag = 'triage'
    }
    if (kind === 'tools') {
      request.tools = TOOLS
      request.tool_choice = 'auto'
      tag = 'orders'
    }
    if (i % 7 === 3) request.stop = ['\n\n']
    lines.push({
      id: `t-${i + 1}`,
      stratum: `${tag}/${question.length > 40 ? 'medium' : 'short'}`,
      tag,
      request,
      reference: i % 11 === 0 ? 'Your order ships within two business days.' : null,
      logged_response: null,
      arrival_ms: i * 250
    })
  }
  return lines
}

// Only when run as a script: tests import makeSet, and their own argv must not name a file here.
if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  const count = Number(process.argv[3] ?? 120)
  writeFileSync(
    process.argv[2],
    makeSet(count)
      .map(line => JSON.stringify(line))
      .join('\n') + '\n'
  )
}
