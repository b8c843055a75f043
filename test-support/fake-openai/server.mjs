#!/usr/bin/env node
// A fake OpenAI-compatible inference server for helm-gate's tests, benchmark and demo. It speaks
// exactly what crfm-helm 0.5.16's OpenAI clients send and read (docs/helm.md "What the server sees") and
// answers HELM's offline scenarios from an answer key with a controlled accuracy.
//
//   node test-support/fake-openai/server.mjs --answer-key key.json --model gate-model \
//        [--port 0] [--accuracy 0.9] [--perturbed-accuracy 0.8] [--seed 0] [--noise 0] [--noise-seed N]
//        [--latency-ms 0] [--error-rate 0] [--hang-after N] [--die-after N] [--api-key KEY]
//        [--config serving.json] [--start-delay-ms 0] [--fail-start MESSAGE] [--pid-file FILE]
//        [--stream-engine '{"decodeSpeedup": 1.6}'] [--flavor llama.cpp] [--ftype Q4_0] [--traffic 1]
//        [--chat-template TEXT] [--default-temperature 0.8]
//        [--enable-sleep-mode] [--log-requests] [--token-chars N]
//
// --traffic 1 answers chat requests the answer key does not know (a traffic set's replay)
// deterministically from a hash of the messages, with JSON mode and tool calls, and controls to
// break them (traffic-answers.mjs; set with --config or POST /control).
//
// --chat-template is the template /props reports (llama.cpp flavor; a short default otherwise) or
// /tokenizer_info serves (vLLM flavor, only when given); --default-temperature is /props'
// default_generation_settings.params.temperature.
//
// With the control `fidelity` set to 1 (--config or POST /control, with `fidelityShift`), chat
// requests asking for `logprobs` are answered from known next-token distributions
// (token-distribution.mjs), so fidelity's statistics can be checked exactly. The control
// `answerLogprob` (default -0.1) is every generated completions token's log-probability, so HELM's
// `max_prob` of a one-token answer is exp(answerLogprob): a side's confidence is set exactly.
//
// --enable-sleep-mode serves vLLM's sleep mode: POST /sleep?level=1 and POST /wake_up at the root
// (GET /is_sleeping says which); asleep, every POST below /v1 is answered 503. --log-requests prints
// a line with the time of each streamed request and each sleep and wake, to the server's output.
// --token-chars N cuts the tokenizer's words into pieces of N characters (several tokens a word).
//
// --flavor llama.cpp answers as llama.cpp's llama-server does where it differs from vLLM: no
// /version but GET /props with `build_info`; /models entries with `meta` (`ftype` from --ftype,
// parameters, size) and no `root`/`max_model_len`; `system_fingerprint` on every answer; and
// completions logprobs in the Chat Completions shape (`logprobs.content[]`), which HELM's
// completions client cannot read (the plugin converts them).
//
// The tokenizer endpoints of vLLM's server (`GET /tokenizer_info`, `POST /tokenize`, `POST
// /detokenize`, at the root) serve a whitespace tokenizer, so lm-evaluation-harness's
// `local-completions` (tokenizer_backend=remote) can run log-likelihood tasks: it sends token-id
// prompts with `echo: true, max_tokens: 1, logprobs: 1` and sums the continuation's logprobs, so a
// prompt that ends with the chosen answer gets -0.1 per token and any other -3. HELM never sends
// token ids, so its answers keep their shape.
//
// Streaming requests (`stream: true`, the load half's) are served by the continuous-batching fake
// engine of test-support/fake-engine, with the engine options given by --stream-engine.
//
// --config names a JSON file of behaviour keys (camelCase, as for POST /control) plus
// `startDelayMs` and `failStart`; its values override the flags. It lets a launched server read
// its behaviour from the checked-out tree, so a pull request's base and head serve differently.
// --start-delay-ms waits before listening (a model loading); --fail-start prints the message and
// exits 1 after that delay, never listening (a server that dies before it is ready).
//
// Prints `fake-openai listening on http://127.0.0.1:<port>/v1` once ready. Behaviour can be
// changed while running with `POST /control` (same keys, camelCase JSON); `GET /control` returns
// the behaviour and request counters.
import { readFileSync, realpathSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { loadAnswerKeys, AnswerKey } from './answer-key.mjs'
import { answerFor } from './answers.mjs'
import { trafficAnswer } from './traffic-answers.mjs'
import { fidelityChatBody } from './token-distribution.mjs'
import { createEngineHandler } from '../fake-engine/server.mjs'

// Behaviour keys of the traffic answers (set with --config or POST /control; all default 0).
const TRAFFIC_CONTROLS = ['trafficDiffer', 'trafficNoise', 'trafficBreakJson', 'trafficTruncate', 'trafficBadTools', 'trafficRefuse']

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost'])

/** What a GGUF without a template of its own gets from the fake llama-server: a short Jinja template. */
const DEFAULT_CHAT_TEMPLATE = "{% for m in messages %}{{ m['role'] }}: {{ m['content'] }}\n{% endfor %}assistant:"

function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '0' },
      model: { type: 'string', multiple: true },
      'answer-key': { type: 'string', multiple: true },
      accuracy: { type: 'string', default: '1' },
      'perturbed-accuracy': { type: 'string' },
      seed: { type: 'string', default: '0' },
      noise: { type: 'string', default: '0' },
      'noise-seed': { type: 'string' },
      'latency-ms': { type: 'string', default: '0' },
      'error-rate': { type: 'string', default: '0' },
      'hang-after': { type: 'string', default: '-1' },
      'die-after': { type: 'string', default: '-1' },
      traffic: { type: 'string', default: '0' },
      'answer-pad': { type: 'string', default: '0' },
      'api-key': { type: 'string' },
      'stream-engine': { type: 'string' },
      config: { type: 'string' },
      'start-delay-ms': { type: 'string', default: '0' },
      'fail-start': { type: 'string' },
      'pid-file': { type: 'string' },
      flavor: { type: 'string', default: 'vllm' },
      ftype: { type: 'string', default: 'F16' },
      'chat-template': { type: 'string' },
      'default-temperature': { type: 'string', default: '0.8' },
      'enable-sleep-mode': { type: 'boolean', default: false },
      'log-requests': { type: 'boolean', default: false },
      'token-chars': { type: 'string', default: '0' },
      verbose: { type: 'boolean', default: false }
    }
  })
  if (!['vllm', 'llama.cpp'].includes(values.flavor)) throw new Error(`--flavor must be vllm or llama.cpp, got ${values.flavor}`)
  if (!LOOPBACK.has(values.host)) throw new Error(`--host must be a loopback address, got ${values.host}`)
  const file = values.config ? JSON.parse(readFileSync(values.config, 'utf8')) : {}
  const fromFile = (name, flag) => (file[name] !== undefined ? String(file[name]) : values[flag])
  const accuracy = numberOption('accuracy', fromFile('accuracy', 'accuracy'))
  return {
    startDelayMs: numberOption('start-delay-ms', fromFile('startDelayMs', 'start-delay-ms')),
    failStart: file.failStart ?? values['fail-start'] ?? null,
    pidFile: values['pid-file'] ?? null,
    flavor: values.flavor,
    ftype: values.ftype,
    chatTemplate: values['chat-template'] ?? null,
    defaultTemperature: numberOption('default-temperature', values['default-temperature']),
    host: values.host,
    port: numberOption('port', values.port),
    models: values.model?.length ? values.model : ['gate-model'],
    answerKeys: values['answer-key'] ?? [],
    apiKey: values['api-key'] ?? null,
    // Streaming requests (the load half) go to a continuous-batching fake engine
    // (test-support/fake-engine) with these options, as JSON: {"decodeSpeedup": 1.6}.
    streamEngine: values['stream-engine'] ? JSON.parse(values['stream-engine']) : {},
    verbose: values.verbose,
    sleepMode: values['enable-sleep-mode'],
    logRequests: values['log-requests'],
    tokenChars: numberOption('token-chars', values['token-chars']),
    behaviour: {
      accuracy,
      perturbedAccuracy:
        fromFile('perturbedAccuracy', 'perturbed-accuracy') === undefined
          ? accuracy
          : numberOption('perturbed-accuracy', fromFile('perturbedAccuracy', 'perturbed-accuracy')),
      seed: numberOption('seed', fromFile('seed', 'seed')),
      noise: numberOption('noise', fromFile('noise', 'noise')),
      // Without it the noise is Math.random (differs run to run); with it a rerun repeats the
      // same noisy answers (the demo's verdict must not depend on luck).
      noiseSeed: fromFile('noiseSeed', 'noise-seed') === undefined ? null : numberOption('noise-seed', fromFile('noiseSeed', 'noise-seed')),
      latencyMs: numberOption('latency-ms', fromFile('latencyMs', 'latency-ms')),
      errorRate: numberOption('error-rate', fromFile('errorRate', 'error-rate')),
      hangAfter: numberOption('hang-after', fromFile('hangAfter', 'hang-after')),
      dieAfter: numberOption('die-after', fromFile('dieAfter', 'die-after')),
      // Chat requests the answer key does not know are answered as traffic (traffic-answers.mjs).
      traffic: numberOption('traffic', fromFile('traffic', 'traffic')),
      // Words appended to every generated answer (a chat template or end-of-sequence change that
      // lets the model run on): the answer-length check must see it.
      answerPad: numberOption('answer-pad', fromFile('answerPad', 'answer-pad')),
      // Chat requests with `logprobs: true` are answered from known distributions (token-distribution.mjs).
      fidelity: numberOption('fidelity', file.fidelity ?? 0),
      fidelityShift: numberOption('fidelityShift', file.fidelityShift ?? 0),
      // The log-probability of every generated completions token: HELM's max_prob of a one-token
      // answer is exp of it, so a side's confidence is known exactly (-0.01: over-confident).
      answerLogprob: numberOption('answerLogprob', file.answerLogprob ?? -0.1),
      ...Object.fromEntries(TRAFFIC_CONTROLS.map(name => [name, numberOption(name, file[name] ?? 0)]))
    }
  }
}

function numberOption(name, text) {
  const value = Number(text)
  if (!Number.isFinite(value)) throw new Error(`--${name} must be a number, got ${text}`)
  return value
}

export function createFakeServer(options) {
  const key = options.answerKeys.length ? loadAnswerKeys(options.answerKeys) : new AnswerKey([])
  const behaviour = { ...options.behaviour }
  const counters = { models: 0, completions: 0, chat: 0, traffic: 0, matched: 0, unmatched: 0, correct: 0, wrong: 0, errors: 0 }
  const log = options.verbose ? line => process.stderr.write(`fake-openai: ${line}\n`) : () => {}
  const streaming = createEngineHandler({ engine: options.streamEngine ?? {}, model: options.models })
  const tokenizer = new WhitespaceTokenizer(options.tokenChars ?? 0)
  // vLLM's sleep mode (--enable-sleep-mode): asleep, the server stays up but serves nothing.
  let asleep = false
  const say = line => options.logRequests && process.stdout.write(`${line}\n`)

  const server = createServer((request, response) => {
    const arrival = performance.now()
    readBody(request)
      .then(body => route(request, response, body, arrival))
      .catch(error => sendJson(response, 500, { error: { message: String(error), type: 'server_error' } }))
  })

  async function route(request, response, body, arrival) {
    const path = new URL(request.url ?? '/', 'http://fake').pathname
    if (path === '/control') return control(request, response, body)
    if (options.apiKey && request.headers.authorization !== `Bearer ${options.apiKey}`) {
      return sendJson(response, 401, { error: { message: 'Invalid API key', type: 'invalid_request_error' } })
    }
    const llamaCpp = options.flavor === 'llama.cpp'
    if (request.method === 'GET' && path === '/v1/models' && llamaCpp) {
      counters.models += 1
      return sendJson(response, 200, {
        object: 'list',
        data: options.models.map(id => ({
          id,
          object: 'model',
          created: 0,
          owned_by: 'llamacpp',
          meta: {
            vocab_type: 1,
            n_vocab: 768,
            n_ctx: 8192,
            n_ctx_train: 2048,
            n_embd: 128,
            n_params: 1250000,
            size: 2500000,
            ftype: options.ftype
          }
        }))
      })
    }
    if (request.method === 'GET' && path === '/props' && llamaCpp) {
      // llama.cpp's shape: the template as loaded (or the built-in name given with --chat-template)
      // and the default generation settings under `params`, float32 values as it prints them.
      return sendJson(response, 200, {
        build_info: LLAMA_CPP_BUILD,
        model_alias: options.models[0],
        total_slots: 4,
        chat_template: options.chatTemplate ?? DEFAULT_CHAT_TEMPLATE,
        default_generation_settings: {
          n_ctx: 2048,
          params: {
            temperature: Math.fround(options.defaultTemperature),
            top_k: 40,
            top_p: Math.fround(0.95),
            min_p: Math.fround(0.05),
            seed: 4294967295,
            samplers: ['penalties', 'dry', 'top_k', 'typ_p', 'top_p', 'min_p', 'xtc', 'temperature']
          }
        }
      })
    }
    // vLLM's tokenizer config with the chat template it applies (--enable-tokenizer-info-endpoint).
    if (request.method === 'GET' && path === '/tokenizer_info' && !llamaCpp && options.chatTemplate) {
      return sendJson(response, 200, { tokenizer_class: 'PreTrainedTokenizerFast', chat_template: options.chatTemplate })
    }
    if (request.method === 'GET' && path === '/v1/models') {
      counters.models += 1
      return sendJson(response, 200, {
        object: 'list',
        // The fields vLLM adds to each entry: the weights behind the name and the context length.
        data: options.models.map(id => ({
          id,
          object: 'model',
          created: 0,
          owned_by: 'fake-openai',
          root: `fake/${id}`,
          max_model_len: 4096
        }))
      })
    }
    // vLLM's engine version (it serves /version at the root; answered under /v1 too).
    if (request.method === 'GET' && (path === '/version' || path === '/v1/version') && !llamaCpp) {
      return sendJson(response, 200, { version: 'fake-openai-1.0' })
    }
    if (options.sleepMode && request.method === 'POST' && (path === '/sleep' || path === '/wake_up')) {
      asleep = path === '/sleep'
      say(`${asleep ? 'sleeping' : 'awake'} at ${new Date().toISOString()}`)
      response.writeHead(200)
      return response.end()
    }
    if (options.sleepMode && request.method === 'GET' && path === '/is_sleeping') return sendJson(response, 200, { is_sleeping: asleep })
    if (asleep && request.method === 'POST') {
      return sendJson(response, 503, { error: { message: 'the engine is asleep (POST /wake_up)', type: 'server_error' } })
    }
    if (request.method === 'GET' && path === '/tokenizer_info') {
      return sendJson(response, 200, { eos_token: '</s>', bos_token: null, pad_token: null, model_max_length: 4096 })
    }
    if (request.method === 'POST' && path === '/tokenize') {
      const tokens = tokenizer.encode(String(JSON.parse(body || '{}').prompt ?? ''))
      return sendJson(response, 200, { tokens, count: tokens.length, max_model_len: 4096 })
    }
    if (request.method === 'POST' && path === '/detokenize') {
      const ids = JSON.parse(body || '{}').tokens
      if (!Array.isArray(ids))
        return sendJson(response, 400, { error: { message: 'tokens must be a list', type: 'invalid_request_error' } })
      return sendJson(response, 200, { prompt: tokenizer.decode(ids) })
    }
    const isCompletions = request.method === 'POST' && path === '/v1/completions'
    const isChat = request.method === 'POST' && path === '/v1/chat/completions'
    if (!isCompletions && !isChat) {
      return sendJson(response, 404, { error: { message: `No route ${request.method} ${path}`, type: 'not_found' } })
    }
    if (wantsStream(body)) {
      // Each streamed request with its time: the server's own record of which side served when.
      say(`stream request at ${new Date().toISOString()}`)
      return streaming.handle(request, response, body, arrival)
    }
    counters[isChat ? 'chat' : 'completions'] += 1
    const served = counters.completions + counters.chat
    if (behaviour.dieAfter >= 0 && served > behaviour.dieAfter) {
      log(`dying after ${behaviour.dieAfter} requests`)
      process.exit(3)
    }
    if (behaviour.hangAfter >= 0 && served > behaviour.hangAfter) return // never answer
    if (behaviour.latencyMs > 0) await sleep(behaviour.latencyMs)
    if (behaviour.errorRate > 0 && Math.random() < behaviour.errorRate) {
      counters.errors += 1
      return sendJson(response, 500, { error: { message: 'injected failure', type: 'server_error' } })
    }
    const payload = JSON.parse(body || '{}')
    if (!options.models.includes(payload.model)) {
      return sendJson(response, 404, {
        error: { message: `The model ${payload.model} does not exist`, type: 'invalid_request_error' }
      })
    }
    if (isCompletions && isTokenPrompt(payload.prompt)) return sendJson(response, 200, tokenLogprobsBody(payload))
    const prompt = isChat ? chatPrompt(payload.messages) : String(payload.prompt ?? '')
    if (isChat && behaviour.fidelity > 0 && payload.logprobs === true) {
      const answerBody = fidelityChatBody(payload, prompt, behaviour.fidelityShift)
      return sendJson(response, 200, llamaCpp ? asLlamaCpp(answerBody) : answerBody)
    }
    const match = key.match(prompt)
    if (isChat && !match && behaviour.traffic > 0) {
      counters.traffic += 1
      const answer = trafficAnswer(payload, behaviour)
      const answerBody = chatBody(payload, padded(answer.content, behaviour), 1)
      answerBody.choices[0].message.tool_calls = answer.tool_calls
      answerBody.choices[0].finish_reason = answer.finish_reason
      return sendJson(response, 200, llamaCpp ? asLlamaCpp(answerBody) : answerBody)
    }
    const answer = answerFor(match, behaviour)
    counters[match ? 'matched' : 'unmatched'] += 1
    if (answer.correct !== null) counters[answer.correct ? 'correct' : 'wrong'] += 1
    log(`${isChat ? 'chat' : 'completions'} -> ${JSON.stringify(answer.text)} (${answer.correct})`)
    const n = Math.max(1, Number(payload.n ?? 1))
    const text = padded(answer.text, behaviour)
    const answerBody = isChat ? chatBody(payload, text, n) : completionBody(payload, prompt, text, n, behaviour.answerLogprob)
    return sendJson(response, 200, llamaCpp ? asLlamaCpp(answerBody) : answerBody)
  }

  // Log-likelihood requests as lm-eval sends them: one or more token-id prompts, each echoed with
  // its logprobs and one generated token (lm-eval drops the last one).
  function tokenLogprobsBody(payload) {
    const prompts = Array.isArray(payload.prompt[0]) ? payload.prompt : [payload.prompt]
    const choices = prompts.map((ids, index) => {
      const tokens = ids.map(id => tokenizer.token(id))
      const text = tokens.join('')
      const match = key.match(text)
      const answer = answerFor(match, behaviour)
      counters[match ? 'matched' : 'unmatched'] += 1
      const chosen = match !== null && text.endsWith(` ${answer.text}`)
      if (chosen && answer.correct !== null) counters[answer.correct ? 'correct' : 'wrong'] += 1
      const logprob = chosen ? -0.1 : -3
      const all = [...tokens, ' x']
      const logprobs = all.map(() => logprob)
      return {
        index,
        text: `${text} x`,
        logprobs: { tokens: all, token_logprobs: logprobs, top_logprobs: all.map(t => ({ [t]: logprob })), text_offset: null },
        finish_reason: 'length'
      }
    })
    return {
      id: `cmpl-fake-${Date.now()}`,
      object: 'text_completion',
      created: Math.floor(Date.now() / 1000),
      model: payload.model,
      choices,
      usage: { prompt_tokens: 0, completion_tokens: choices.length, total_tokens: choices.length }
    }
  }

  function control(request, response, body) {
    if (request.method === 'POST') {
      const update = JSON.parse(body || '{}')
      for (const [name, value] of Object.entries(update)) {
        if (!(name in behaviour) || typeof value !== 'number') {
          return sendJson(response, 400, { error: { message: `unknown or non-numeric control ${name}` } })
        }
        behaviour[name] = value
      }
    }
    return sendJson(response, 200, { behaviour, counters, answerKeyInstances: key.size })
  }

  return { server, counters, behaviour }
}

function isTokenPrompt(prompt) {
  const isIds = list => Array.isArray(list) && list.length > 0 && list.every(id => Number.isInteger(id))
  return isIds(prompt) || (Array.isArray(prompt) && prompt.length > 0 && prompt.every(isIds))
}

// Tokens are runs of whitespace with the word after them (and trailing whitespace), so decoding
// the tokens of any text gives the text back; ids are handed out as tokens are first seen.
class WhitespaceTokenizer {
  // chars > 0: words are cut into pieces of at most that many characters (a small vocabulary, as
  // the real-engine example's, where one word is several tokens).
  constructor(chars = 0) {
    this.ids = new Map()
    this.tokens = []
    this.chars = chars
  }

  encode(text) {
    const words = text.match(/\s*\S+|\s+$/g) ?? []
    const pieces = this.chars > 0 ? words.flatMap(word => word.match(new RegExp(`\\s*.{1,${this.chars}}`, 'gs')) ?? []) : words
    return pieces.map(token => {
      let id = this.ids.get(token)
      if (id === undefined) {
        id = this.tokens.length
        this.tokens.push(token)
        this.ids.set(token, id)
      }
      return id
    })
  }

  token(id) {
    return this.tokens[id] ?? ''
  }

  decode(ids) {
    return ids.map(id => this.token(id)).join('')
  }
}

function chatPrompt(messages) {
  if (!Array.isArray(messages)) return ''
  const last = [...messages].reverse().find(message => message.role === 'user') ?? messages[messages.length - 1]
  const content = last?.content
  if (typeof content === 'string') return content
  if (Array.isArray(content)) return content.map(part => (typeof part?.text === 'string' ? part.text : '')).join('')
  return ''
}

// Chat: `logprobs` must be null (HELM reads the misspelled key `contents` otherwise) and
// `message.content` a string.
/** The answer with `answerPad` words appended (null content, a tool call's, stays as it is). */
function padded(text, behaviour) {
  if (typeof text !== 'string' || !(behaviour.answerPad > 0)) return text
  return `${text}${' and so on'
    .repeat(Math.ceil(behaviour.answerPad / 3))
    .split(' ')
    .slice(0, behaviour.answerPad + 1)
    .join(' ')}`
}

function chatBody(payload, text, n) {
  // Whitespace-separated words as the token count, as the completions body counts them.
  const tokens = typeof text === 'string' ? (text.match(/\S+/g) ?? []).length : 0
  return {
    id: `chatcmpl-fake-${Date.now()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: payload.model,
    choices: Array.from({ length: n }, (_, index) => ({
      index,
      message: { role: 'assistant', content: text },
      logprobs: null,
      finish_reason: 'stop'
    })),
    usage: { prompt_tokens: 0, completion_tokens: tokens * n, total_tokens: tokens * n }
  }
}

// Completions: `logprobs` must be an object with `tokens` and `token_logprobs` (HELM zips them);
// it is requested on every call. The leading space mimics real tokenizers; HELM's metrics strip it.
function completionBody(payload, prompt, answer, n, answerLogprob = -0.1) {
  const generated = ` ${answer}`
  const tokens = generated.match(/\s*\S+/g) ?? [generated]
  const echoed = payload.echo ? (prompt.match(/\s*\S+/g) ?? []) : []
  return {
    id: `cmpl-fake-${Date.now()}`,
    object: 'text_completion',
    created: Math.floor(Date.now() / 1000),
    model: payload.model,
    choices: Array.from({ length: n }, (_, index) => ({
      index,
      text: (payload.echo ? prompt : '') + generated,
      logprobs: {
        tokens: [...echoed, ...tokens],
        token_logprobs: [...echoed.map(() => -1), ...tokens.map(() => answerLogprob)],
        top_logprobs: null,
        text_offset: null
      },
      finish_reason: 'stop'
    })),
    usage: { prompt_tokens: 0, completion_tokens: tokens.length, total_tokens: tokens.length }
  }
}

const LLAMA_CPP_BUILD = 'b1-fake0000'

// llama-server's answers: `system_fingerprint` on each, and completions logprobs in the chat
// shape (`content[{token, logprob, bytes, top_logprobs}]`) instead of `tokens`/`token_logprobs`.
function asLlamaCpp(body) {
  for (const choice of body.choices) {
    const legacy = choice.logprobs
    if (legacy && Array.isArray(legacy.tokens)) {
      choice.logprobs = {
        content: legacy.tokens.map((token, i) => ({
          token,
          logprob: legacy.token_logprobs[i],
          bytes: [...Buffer.from(token, 'utf8')],
          top_logprobs: [{ token, logprob: legacy.token_logprobs[i], bytes: [...Buffer.from(token, 'utf8')] }]
        }))
      }
    }
  }
  return { ...body, system_fingerprint: LLAMA_CPP_BUILD }
}

function wantsStream(body) {
  try {
    return JSON.parse(body || '{}').stream === true
  } catch {
    return false
  }
}

function readBody(request) {
  return new Promise((resolve, reject) => {
    const chunks = []
    request.on('data', chunk => chunks.push(chunk))
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    request.on('error', reject)
  })
}

function sendJson(response, status, body) {
  const text = JSON.stringify(body)
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
  response.end(text)
}

function sleep(ms) {
  return new Promise(resolve => setTimeout(resolve, ms))
}

async function main() {
  const options = parseOptions(process.argv.slice(2))
  if (options.pidFile) writeFileSync(options.pidFile, `${process.pid}\n`)
  process.stdout.write(`fake-openai starting (pid ${process.pid}, start delay ${options.startDelayMs} ms)\n`)
  // Until it listens, a signal ends it like any process (no handler yet).
  if (options.startDelayMs > 0) await sleep(options.startDelayMs)
  if (options.failStart) {
    process.stderr.write(`fake-openai: ${options.failStart}\n`)
    process.exit(1)
  }
  const { server } = createFakeServer(options)
  server.listen(options.port, options.host, () => {
    const address = server.address()
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
    process.stdout.write(`fake-openai listening on http://${host}:${address.port}/v1 (models: ${options.models.join(', ')})\n`)
  })
  const stop = () => {
    // Hung requests keep their sockets open; close them or close() would wait forever.
    server.closeAllConnections()
    server.close(() => process.exit(0))
  }
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
}

if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) main()
