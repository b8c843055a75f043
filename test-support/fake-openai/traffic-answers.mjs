// Answers to arbitrary chat requests (the traffic gate's replay, docs/traffic.md), deterministic
// from a hash of the request's messages, so two fake servers with the same behaviour answer every
// request alike and a rerun gives the same answers. Controls (shares in [0, 1], each drawn per
// request from its own salted hash, so the same requests are affected on every run):
//   trafficDiffer     answer differently (another wording) on this share of requests
//   trafficNoise      answer differently at random (Math.random, or fixed by --noise-seed): the
//                     noise floor of a real GPU
//   trafficBreakJson  in JSON mode, answer with text that is not JSON
//   trafficTruncate   stop at max_tokens: half the answer, finish_reason "length"
//   trafficBadTools   call a tool that was not offered
//   trafficRefuse     refuse ("I'm sorry, I can't help with that.")
import { noiseDraw, unitHash } from './answers.mjs'

const WORDS = (
  'your order ships within two business days and you can track it from the account page ' +
  'the refund reaches the original payment method after we receive the item please keep the ' +
  'receipt our team can help with billing questions at any time thank you for your patience'
).split(' ')

/** @returns {{ content: string | null, tool_calls?: object[], finish_reason: string }} */
export function trafficAnswer(payload, behaviour) {
  const key = JSON.stringify(payload.messages ?? [])
  const share = (name, value) => value > 0 && unitHash(`${behaviour.seed}:${name}`, key) < value
  const differ =
    share('differ', behaviour.trafficDiffer) ||
    (behaviour.trafficNoise > 0 && noiseDraw(behaviour.noiseSeed, 'traffic', key) < behaviour.trafficNoise)
  const variant = differ ? 'other' : 'base'
  if (share('refuse', behaviour.trafficRefuse)) return { content: "I'm sorry, I can't help with that.", finish_reason: 'stop' }

  const tools = Array.isArray(payload.tools) && payload.tools.length > 0 && payload.tool_choice !== 'none' ? payload.tools : null
  const last = Array.isArray(payload.messages) ? payload.messages[payload.messages.length - 1] : null
  if (tools && last?.role !== 'tool') {
    const bad = share('badtools', behaviour.trafficBadTools)
    const tool = tools[Math.floor(unitHash(variant, key) * tools.length)]?.function ?? { name: 'none' }
    const args = valueFor(tool.parameters ?? { type: 'object' }, `${variant}:${key}`)
    return {
      content: null,
      tool_calls: [
        {
          id: `call_${Math.floor(unitHash('id', key) * 1e9)}`,
          type: 'function',
          function: { name: bad ? `${tool.name}_v2` : tool.name, arguments: JSON.stringify(args) }
        }
      ],
      finish_reason: 'tool_calls'
    }
  }

  const format = payload.response_format
  let content
  if (format?.type === 'json_object' || format?.type === 'json_schema') {
    const schema = format.type === 'json_schema' ? (format.json_schema?.schema ?? { type: 'object' }) : null
    const value = schema ? valueFor(schema, `${variant}:${key}`) : { answer: sentence(`${variant}:${key}`) }
    content = JSON.stringify(value)
    if (share('breakjson', behaviour.trafficBreakJson)) content = `Sure! Here is the JSON: ${content.slice(0, -1)}`
  } else {
    content = sentence(`${variant}:${key}`)
  }
  if (share('truncate', behaviour.trafficTruncate)) {
    return { content: content.slice(0, Math.max(1, Math.floor(content.length / 2))), finish_reason: 'length' }
  }
  return { content, finish_reason: 'stop' }
}

function sentence(seed) {
  const length = 8 + Math.floor(unitHash('length', seed) * 12)
  const words = Array.from({ length }, (_, i) => WORDS[Math.floor(unitHash(i, seed) * WORDS.length)])
  return `${words.join(' ').replace(/^./, c => c.toUpperCase())}.`
}

/** A value of a JSON schema's shape (the subset tool parameters and response formats use). */
function valueFor(schema, seed, depth = 0) {
  if (!schema || typeof schema !== 'object' || depth > 4) return null
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[Math.floor(unitHash('enum', seed) * schema.enum.length)]
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  switch (type) {
    case 'string':
      return WORDS[Math.floor(unitHash('word', seed) * WORDS.length)]
    case 'integer':
      return Math.floor(unitHash('int', seed) * 100)
    case 'number':
      return Math.round(unitHash('num', seed) * 10000) / 100
    case 'boolean':
      return unitHash('bool', seed) < 0.5
    case 'array':
      return [valueFor(schema.items ?? { type: 'string' }, `${seed}:0`, depth + 1)]
    default: {
      const out = {}
      for (const [name, property] of Object.entries(schema.properties ?? {})) out[name] = valueFor(property, `${seed}:${name}`, depth + 1)
      return out
    }
  }
}
