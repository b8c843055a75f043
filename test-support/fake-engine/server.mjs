#!/usr/bin/env node
// The fake streaming engine behind an OpenAI-compatible HTTP API (chat and completions, SSE in
// the exact OpenAI chunk formats with `usage` at the end), for the load half's tests, bench and
// demo. The engine model is in engine.mjs. One whitespace-separated word is one token.
//
//   node test-support/fake-engine/server.mjs [--port 0] [--model engine-model]
//        [--max-num-seqs 256] [--prefill-base-ms 1] [--prefill-per-token-ms 0.002]
//        [--decode-base-ms 4] [--decode-per-seq-ms 0.01] [--decode-speedup 1]
//        [--eos-after 0] [--error-rate 0] [--stall-rate 0] [--seed 0]
//        [--no-stream] [--no-usage] [--reject-unknown]
//
// Prints `fake-engine listening on http://127.0.0.1:<port>/v1` once ready.
// GET /engine/records: the engine's own record of every finished request (arrival, the real
// emission time of each token, in this process's performance.now() milliseconds, and the
// `prompt` or `messages` it was sent). POST /engine/reset clears it. GET /engine/stats: tokens
// emitted, steps, slot occupancy and the time the engine gave up when it was starved (`lost_ms`).
// `--capacity` prints the model's capacity (output tokens per second, every slot always occupied).
import { createServer } from 'node:http'
import { parseArgs } from 'node:util'
import { Engine, modelCapacity } from './engine.mjs'
import { mulberry32 } from '../mulberry32.mjs'

const NUMERIC = {
  'max-num-seqs': 'maxNumSeqs',
  'prefill-base-ms': 'prefillBaseMs',
  'prefill-per-token-ms': 'prefillPerTokenMs',
  'decode-base-ms': 'decodeBaseMs',
  'decode-per-seq-ms': 'decodePerSeqMs',
  'decode-speedup': 'decodeSpeedup',
  'eos-after': 'eosAfter'
}

const WORDS = ['the', 'of', 'and', 'to', 'in', 'is', 'it', 'that', 'for', 'on', 'was', 'with', 'as', 'at', 'be', 'by']
const KNOWN_KEYS = new Set([
  'model',
  'messages',
  'prompt',
  'max_tokens',
  'max_completion_tokens',
  'stream',
  'stream_options',
  'temperature',
  'n'
])

/**
 * The engine's request handler, also mounted by the fake OpenAI server for its streaming requests:
 * `handle(req, res, bodyText, arrival)`. `options.model` is a served name or a list of them.
 */
export function createEngineHandler(options) {
  const engine = new Engine(options.engine)
  const random = mulberry32(options.seed ?? 0)
  const models = [].concat(options.model)
  let counter = 0
  function handle(req, res, text, arrival) {
    const url = new URL(req.url, 'http://x')
    if (req.method === 'GET' && url.pathname === '/v1/models') {
      return json(res, 200, { object: 'list', data: models.map(id => ({ id, object: 'model', owned_by: 'fake-engine' })) })
    }
    // vLLM's liveness route; GuideLLM checks it before a benchmark.
    if (req.method === 'GET' && url.pathname === '/health') return json(res, 200, {})
    if (req.method === 'GET' && url.pathname === '/engine/records') return json(res, 200, engine.records())
    if (req.method === 'GET' && url.pathname === '/engine/stats')
      return json(res, 200, {
        tokens: engine.tokensEmitted,
        steps: engine.steps,
        busy_ms: engine.busyMs,
        occupancy: engine.busyMs > 0 ? engine.slotMs / (engine.busyMs * engine.o.maxNumSeqs) : 0,
        lost_ms: engine.lostMs
      })
    if (req.method === 'POST' && url.pathname === '/engine/reset') {
      engine.reset()
      return json(res, 200, { ok: true })
    }
    const chat = url.pathname === '/v1/chat/completions'
    if (req.method !== 'POST' || (!chat && url.pathname !== '/v1/completions')) {
      return json(res, 404, { error: { message: `no route ${req.method} ${url.pathname}`, type: 'not_found' } })
    }
    const body = JSON.parse(text)
    if (!models.includes(body.model)) return json(res, 404, { error: { message: `model ${body.model} not found`, type: 'not_found' } })
    if (options.rejectUnknown) {
      const unknown = Object.keys(body).filter(k => !KNOWN_KEYS.has(k))
      if (unknown.length)
        return json(res, 400, { error: { message: `unrecognized request argument: ${unknown[0]}`, type: 'invalid_request_error' } })
    }
    const prompt = chat ? body.messages.map(m => (typeof m.content === 'string' ? m.content : '')).join(' ') : String(body.prompt)
    const promptTokens = prompt.split(/\s+/).filter(Boolean).length
    const maxTokens = Math.max(1, Number(body.max_tokens ?? body.max_completion_tokens ?? 16))
    const id = `${chat ? 'chatcmpl' : 'cmpl'}-${++counter}`
    const created = Math.floor(Date.now() / 1000)
    if (options.errorRate > 0 && random() < options.errorRate) {
      return json(res, 500, { error: { message: 'injected engine error', type: 'server_error' } })
    }
    const stream = body.stream === true && !options.noStream
    const usageWanted = stream ? body.stream_options?.include_usage === true && !options.noUsage : true
    const seq = { id, arrival, promptTokens, maxTokens, ignoreEos: body.ignore_eos === true, request: chat ? body.messages : body.prompt }
    if (options.stallRate > 0 && random() < options.stallRate) seq.stallAt = Math.max(1, Math.floor(maxTokens / 2))
    const words = []
    let closed = false
    res.on('close', () => {
      closed = true
    })
    if (stream) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    }
    const frame = (delta, finish) =>
      chat
        ? {
            id,
            object: 'chat.completion.chunk',
            created,
            model: body.model,
            choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }]
          }
        : {
            id,
            object: 'text_completion',
            created,
            model: body.model,
            choices: [{ index: 0, text: delta.content ?? '', logprobs: null, finish_reason: finish }]
          }
    if (stream && chat) res.write(`data: ${JSON.stringify(frame({ role: 'assistant', content: '' }, null))}\n\n`)
    seq.sink = {
      closed: () => closed,
      token: i => {
        const word = `${i === 0 ? '' : ' '}${WORDS[i % WORDS.length]}`
        words.push(word)
        if (stream) {
          res.write(`data: ${JSON.stringify(frame({ content: word }, null))}\n\n`)
          // Node's response corks its socket at a write and uncorks it on the next tick, so a
          // step's chunks left only after its last write (one writev per socket, in order), while
          // the record says each token was emitted at its own time (engine.mjs stamps it just
          // before this write): at 64 streams a first token left 1.4 ms (median) after its
          // recorded emission. Flushed here, the bytes reach the kernel when the record says, as
          // with a server that writes each chunk to its socket as it is produced.
          if (res.socket?.writableCorked) res.socket.uncork()
        }
      },
      finish: () => {
        const usage = { prompt_tokens: promptTokens, completion_tokens: seq.emitted, total_tokens: promptTokens + seq.emitted }
        const reason = seq.emitted >= maxTokens ? 'length' : 'stop'
        if (!stream) {
          const choice = chat
            ? { index: 0, message: { role: 'assistant', content: words.join('') }, logprobs: null, finish_reason: reason }
            : { index: 0, text: words.join(''), logprobs: null, finish_reason: reason }
          return json(res, 200, {
            id,
            object: chat ? 'chat.completion' : 'text_completion',
            created,
            model: body.model,
            choices: [choice],
            usage
          })
        }
        res.write(`data: ${JSON.stringify(frame({}, reason))}\n\n`)
        if (usageWanted)
          res.write(
            `data: ${JSON.stringify({ id, object: chat ? 'chat.completion.chunk' : 'text_completion', created, model: body.model, choices: [], usage })}\n\n`
          )
        res.end('data: [DONE]\n\n')
      }
    }
    engine.submit(seq)
  }
  return { handle, engine }
}

export function createEngineServer(options) {
  const { handle, engine } = createEngineHandler(options)
  const server = createServer((req, res) => {
    // Arrival is when the request's headers have been read, as a real server's log would say.
    const arrival = performance.now()
    const chunks = []
    req.on('data', c => chunks.push(c))
    req.on('end', () => {
      // Handled after the current batch of socket reads (setImmediate), so that when many
      // requests arrive at once each one's arrival is stamped before the others' parsing and
      // admission work, not after it: that work is the engine's, not time on the wire.
      setImmediate(() => {
        try {
          handle(req, res, Buffer.concat(chunks).toString('utf8'), arrival)
        } catch (error) {
          json(res, 500, { error: { message: String(error), type: 'server_error' } })
        }
      })
    })
  })
  server.keepAliveTimeout = 120_000
  return { server, engine }
}

function json(res, status, value) {
  const text = JSON.stringify(value)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
  res.end(text)
}

function parseOptions(argv) {
  const spec = {
    host: { type: 'string', default: '127.0.0.1' },
    port: { type: 'string', default: '0' },
    model: { type: 'string', default: 'engine-model' },
    'error-rate': { type: 'string', default: '0' },
    'stall-rate': { type: 'string', default: '0' },
    seed: { type: 'string', default: '0' },
    'no-stream': { type: 'boolean', default: false },
    'no-usage': { type: 'boolean', default: false },
    'reject-unknown': { type: 'boolean', default: false },
    capacity: { type: 'boolean', default: false },
    'prompt-tokens': { type: 'string', default: '200' },
    'output-tokens': { type: 'string', default: '128' },
    // Accepted as llama-server's --threads and ignored: gate files can split a host's cores.
    threads: { type: 'string' }
  }
  for (const name of Object.keys(NUMERIC)) spec[name] = { type: 'string' }
  const { values } = parseArgs({ args: argv, options: spec })
  const num = name => {
    const v = Number(values[name])
    if (!Number.isFinite(v)) throw new Error(`--${name} must be a number, got ${values[name]}`)
    return v
  }
  const engine = {}
  for (const [flag, key] of Object.entries(NUMERIC)) if (values[flag] !== undefined) engine[key] = num(flag)
  return {
    host: values.host,
    port: num('port'),
    model: values.model,
    engine,
    errorRate: num('error-rate'),
    stallRate: num('stall-rate'),
    seed: num('seed'),
    noStream: values['no-stream'],
    noUsage: values['no-usage'],
    rejectUnknown: values['reject-unknown'],
    capacity: values.capacity ? { promptTokens: num('prompt-tokens'), outputTokens: num('output-tokens') } : null
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const options = parseOptions(process.argv.slice(2))
  if (options.capacity) {
    const tokensPerSecond = modelCapacity(options.engine, options.capacity)
    process.stdout.write(`${JSON.stringify({ capacity_tokens_per_second: tokensPerSecond })}\n`)
  } else {
    const { server } = createEngineServer(options)
    server.listen(options.port, options.host, () => {
      process.stdout.write(`fake-engine listening on http://${options.host}:${server.address().port}/v1\n`)
    })
    const stop = () => {
      server.close(() => process.exit(0))
      server.closeAllConnections()
    }
    process.on('SIGTERM', stop)
    process.on('SIGINT', stop)
  }
}
