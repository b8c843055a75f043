#!/usr/bin/env node
/**
 * Writes examples/traffic/support-log.jsonl: a made-up but realistic request log of a support chat
 * (docs/traffic.md), in the logged-pair shape `{id, timestamp, tag, request, response, reference}`.
 * It has what real logs have and the traffic set must cope with: one system prompt, single and
 * multi-turn conversations, JSON-mode requests (json_object and json_schema), tool-call requests
 * with tool results, three tags, timestamps in bursts, retried (duplicate) and re-spaced
 * (near-duplicate) requests, and planted credentials, e-mail addresses and phone numbers for the
 * scrubber. Seeded: the same seed writes the same bytes.
 *
 *   node scripts/make-traffic-example.mjs [--seed 17] [--lines 260] [--out examples/traffic/support-log.jsonl]
 * then
 *   node dist/cli.js traffic build examples/traffic/support-log.jsonl --out examples/traffic/traffic.jsonl --count 60 --seed 17
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import seedrandom from 'seedrandom'

const args = Object.fromEntries(
  process.argv
    .slice(2)
    .join(' ')
    .split('--')
    .filter(Boolean)
    .map(s => s.trim().split(/\s+/))
)
const seed = Number(args.seed ?? 17)
const total = Number(args.lines ?? 260)
const out = args.out ?? 'examples/traffic/support-log.jsonl'
const random = seedrandom(`traffic-example:${seed}`)
const pick = list => list[Math.floor(random() * list.length)]
const chance = p => random() < p

const SYSTEM =
  'You are the support assistant of Nimbus Drive, a cloud storage service. Answer briefly and politely. ' +
  'Plans: Free (5 GB), Plus (200 GB, $4/month), Pro (2 TB, $12/month). Refunds are possible within 14 days of a charge. ' +
  'Never ask for a password. If you cannot help, offer to open a ticket.'

const QUESTIONS = {
  billing: [
    'I was charged twice for my Plus plan this month. Can you refund one of the charges?',
    'How do I switch from Pro to Plus? Will I get money back for the rest of the month?',
    'Where can I download my invoices for last year?',
    'My card expired and now my account says payment failed. What happens to my files?',
    'Do you offer a discount for students or non-profits?',
    'Why is my invoice in euros when I live in the US?',
    'I cancelled my subscription but was still charged on the 3rd. Please help.',
    'Can I pay yearly instead of monthly, and is it cheaper?'
  ],
  technical: [
    'The desktop app is stuck on "Syncing 1 of 3,402 files" since yesterday. How do I fix it?',
    'Uploads over 2 GB fail with error 413. Is there a size limit?',
    'The API returns 429 Too Many Requests after about 50 calls. What are the rate limits?',
    'Shared links open a blank page in Safari but work in Chrome.',
    'How do I restore a folder I deleted last week?',
    'The Linux client crashes on start with "segmentation fault" after the last update.',
    'Can I mount my drive as a network disk on Windows?',
    'Files I upload from my phone show up with the wrong date.'
  ],
  account: [
    'I forgot my password and the reset e-mail never arrives.',
    'How do I turn on two-factor authentication?',
    'I want to delete my account and all my data. How?',
    'Can I change the e-mail address of my account?',
    'Someone logged in to my account from another country. What should I do?',
    'How do I add my colleague to our team workspace?',
    'My account is locked after too many login attempts.',
    'Can I merge two accounts I created by mistake?'
  ]
}

// Real users open and close the same question in many ways: the log is not a list of FAQs.
const OPENERS = ['', '', 'Hi, ', 'Hello. ', 'Hey there! ', 'Good morning, ', 'Quick question: ', 'Hi team, ', 'Urgent: ']
const CONTEXTS = [
  '',
  '',
  ' I am on the Plus plan.',
  ' I am on the Pro plan since 2023.',
  ' This is for our team of 12 people.',
  ' I use the Windows app.',
  ' I use the iPhone app, version 8.2.',
  ' This started after the update on Friday.',
  ' I have about 150 GB stored.',
  ' Thanks in advance!',
  ' I already contacted you last week about this.'
]

const FOLLOW_UPS = [
  'Thanks. And how long does that take?',
  'I tried that already and it did not work.',
  'OK, can you open a ticket for me then?',
  'Is there a way to do it from the mobile app?',
  'Great, that worked. One more thing: does this affect my shared links?'
]

const ANSWERS = {
  billing:
    'I am sorry about the trouble with your billing. You can see every charge under Settings > Billing; refunds are possible within 14 days of a charge, and I can open a ticket for the duplicate charge.',
  technical:
    'Let us fix this. Please update the app to the latest version, sign out and back in, and try again; if it still fails, send me the error text and I will open a ticket.',
  account:
    'For your security I cannot change account settings from this chat, but you can do it under Settings > Account, or I can open a ticket with our account team.'
}

// Planted for the scrubber: made-up keys (marked FAKE, and too short for the real formats, so
// no secret scanner takes them for real ones), addresses and numbers in the users' own words.
const PLANTED = [
  () => ` My API key is sk-proj-FAKE${token(24)} if you need it.`,
  () => ` The token in my script is ghp_FAKE${token(20)}.`,
  () =>
    ` You can reach me at ${pick(['jane.doe', 'm.rossi', 'k.tanaka', 'alex+nimbus'])}@${pick(['example.com', 'mail.example.org', 'corp.example.net'])}.`,
  () => ` Call me on ${pick(['+1 415 555 0142', '(415) 555-0199', '+44 20 7946 0958', '+49 30 901820'])} please.`,
  () =>
    ` My account e-mail is ${pick(['sam', 'lee', 'ola'])}${Math.floor(random() * 90 + 10)}@example.com and my phone is +1-212-555-0${Math.floor(random() * 900 + 100)}.`
]

function token(n) {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
  let s = ''
  for (let i = 0; i < n; i++) s += chars[Math.floor(random() * chars.length)]
  return s
}

const TOOLS = [
  {
    type: 'function',
    function: {
      name: 'lookup_invoice',
      description: 'Find an invoice of the signed-in customer by month.',
      parameters: {
        type: 'object',
        properties: { month: { type: 'string', description: 'YYYY-MM' } },
        required: ['month']
      }
    }
  },
  {
    type: 'function',
    function: {
      name: 'open_ticket',
      description: 'Open a support ticket for the signed-in customer.',
      parameters: {
        type: 'object',
        properties: {
          category: { type: 'string', enum: ['billing', 'technical', 'account'] },
          summary: { type: 'string' }
        },
        required: ['category', 'summary']
      }
    }
  }
]

const TRIAGE_SCHEMA = {
  name: 'triage',
  strict: true,
  schema: {
    type: 'object',
    properties: {
      category: { type: 'string', enum: ['billing', 'technical', 'account'] },
      urgency: { type: 'string', enum: ['low', 'normal', 'high'] },
      needs_human: { type: 'boolean' }
    },
    required: ['category', 'urgency', 'needs_human'],
    additionalProperties: false
  }
}

function completion(message, finish = 'stop') {
  return { object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }] }
}

function entry(tag) {
  let question = `${pick(OPENERS)}${pick(QUESTIONS[tag])}${pick(CONTEXTS)}`
  if (chance(0.12)) question += pick(PLANTED)()
  const kind = random()
  const request = { model: 'support-bot', messages: [{ role: 'system', content: SYSTEM }] }
  let response
  let reference = null
  if (kind < 0.45) {
    request.messages.push({ role: 'user', content: question })
    request.max_tokens = pick([128, 256, 256, 512])
    response = completion({ content: ANSWERS[tag] })
    // A few questions have an approved answer from the help centre: the reference.
    if (chance(0.15)) reference = ANSWERS[tag]
  } else if (kind < 0.7) {
    request.messages.push(
      { role: 'user', content: question },
      { role: 'assistant', content: ANSWERS[tag] },
      { role: 'user', content: pick(FOLLOW_UPS) }
    )
    if (chance(0.4))
      request.messages.push(
        { role: 'assistant', content: 'Of course. Anything else I can help with?' },
        { role: 'user', content: pick(FOLLOW_UPS) }
      )
    request.max_tokens = pick([256, 512])
    response = completion({ content: 'Usually within one business day. I have noted it on your ticket.' })
  } else if (kind < 0.8) {
    request.messages = [
      {
        role: 'system',
        content:
          'Classify the support message. Reply with a JSON object with keys category (billing, technical or account) and urgency (low, normal or high).'
      },
      { role: 'user', content: question }
    ]
    request.response_format = { type: 'json_object' }
    request.max_tokens = 64
    response = completion({ content: JSON.stringify({ category: tag, urgency: pick(['low', 'normal', 'high']) }) })
    reference = null
  } else if (kind < 0.87) {
    request.messages = [
      { role: 'system', content: 'Triage the support message for the queue.' },
      { role: 'user', content: question }
    ]
    request.response_format = { type: 'json_schema', json_schema: TRIAGE_SCHEMA }
    request.max_tokens = 64
    response = completion({ content: JSON.stringify({ category: tag, urgency: 'normal', needs_human: chance(0.5) }) })
  } else {
    request.messages.push({ role: 'user', content: question })
    request.tools = TOOLS
    request.tool_choice = 'auto'
    request.max_tokens = 256
    const args =
      tag === 'billing' && chance(0.5)
        ? { name: 'lookup_invoice', arguments: JSON.stringify({ month: '2026-10' }) }
        : { name: 'open_ticket', arguments: JSON.stringify({ category: tag, summary: question.slice(0, 60) }) }
    const call = { id: `call_${token(12)}`, type: 'function', function: args }
    if (chance(0.5)) {
      // The turn after the tool ran: the conversation holds the call and its result.
      request.messages.push(
        { role: 'assistant', content: null, tool_calls: [call] },
        {
          role: 'tool',
          tool_call_id: call.id,
          content: JSON.stringify({ ok: true, ticket: `NIM-${Math.floor(random() * 90000 + 10000)}` })
        }
      )
      response = completion({ content: 'I have opened a ticket for you; our team will reply by e-mail within one business day.' })
    } else {
      response = completion({ content: null, tool_calls: [call] }, 'tool_calls')
    }
  }
  if (chance(0.5)) request.user = `cust-${Math.floor(random() * 900000 + 100000)}`
  if (chance(0.05)) response.choices[0].finish_reason = 'length'
  return { request, response, reference }
}

const lines = []
let at = Date.parse('2026-11-02T09:00:00Z')
for (let i = 0; lines.length < total; i++) {
  // Bursts: most gaps are short, some are long (a quiet spell between busy minutes).
  at += Math.round(chance(0.1) ? 20_000 + random() * 60_000 : -Math.log(random()) * 2_500)
  const tag = pick(['billing', 'billing', 'technical', 'technical', 'technical', 'account'])
  const { request, response, reference } = entry(tag)
  const line = { id: `req-${String(i + 1).padStart(4, '0')}`, timestamp: new Date(at).toISOString(), tag, request, response, reference }
  lines.push(line)
  if (chance(0.04) && lines.length < total) {
    // A client retry: the same request again a second later.
    lines.push({ ...line, id: `req-${String(i + 1).padStart(4, '0')}-retry`, timestamp: new Date(at + 1000).toISOString() })
  } else if (chance(0.03) && lines.length < total) {
    // The same conversation sent again with different spacing (a re-typed or re-wrapped prompt).
    const respaced = structuredClone(line)
    const last = respaced.request.messages.at(-1)
    if (typeof last.content === 'string') last.content = `  ${last.content.replace(/ /g, '  ')}\n`
    lines.push({ ...respaced, id: `req-${String(i + 1).padStart(4, '0')}-again`, timestamp: new Date(at + 4000).toISOString() })
  }
}
mkdirSync(dirname(out), { recursive: true })
writeFileSync(out, lines.map(l => `${JSON.stringify(l)}\n`).join(''))
process.stdout.write(`wrote ${lines.length} lines to ${out} (seed ${seed})\n`)
