/**
 * The structural checks of one replayed answer (docs/traffic.md "Replay and judging"): the ones
 * that break first under a serving change (a chat template, a grammar backend, a quantised
 * model): JSON mode, tool calls, truncation at max_tokens, refusals. Pure functions.
 */
import { Ajv, type ValidateFunction } from 'ajv'
import type { TrafficRequest } from '../config/traffic-set.js'

/** What a side answered to one request (the first choice). */
export interface Answer {
  content: string | null
  tool_calls: unknown[] | null
  finish_reason: string | null
}

/** Per check: null when it does not apply to this request, else true when the answer failed it. */
export interface StructuralOutcome {
  invalid_json: boolean | null
  invalid_tool_calls: boolean | null
  truncation: boolean
  refusals: boolean
  /** Why the answer failed a check, for the report's examples. */
  why: string[]
}

/** JSON mode: `json_object`, or `json_schema` with the schema to validate against. */
export function jsonModeOf(request: TrafficRequest): { schema: unknown } | null {
  const format = request.response_format as { type?: unknown; json_schema?: { schema?: unknown } } | undefined
  if (!format || typeof format !== 'object') return null
  if (format.type === 'json_object') return { schema: null }
  if (format.type === 'json_schema') return { schema: format.json_schema?.schema ?? null }
  return null
}

interface ToolSpec {
  name: string
  parameters: unknown
}

/** The function tools offered, unless the request forbids calling them (`tool_choice: none`). */
export function toolsOf(request: TrafficRequest): ToolSpec[] | null {
  if (!Array.isArray(request.tools) || request.tools.length === 0 || request.tool_choice === 'none') return null
  return request.tools.flatMap(tool => {
    const fn = (tool as { function?: { name?: unknown; parameters?: unknown } } | null)?.function
    return fn && typeof fn.name === 'string' ? [{ name: fn.name, parameters: fn.parameters ?? null }] : []
  })
}

/**
 * Compiles schemas once per judge (a set repeats the same few schemas on every request). Schemas
 * come from the team's own logs: one that does not compile is reported as such, never as a
 * failure of the answer.
 */
export class SchemaCache {
  private readonly ajv = new Ajv({ strict: false, allErrors: false })
  private readonly compiled = new Map<string, ValidateFunction | string>()

  validator(schema: unknown): ValidateFunction | string {
    const key = JSON.stringify(schema)
    let found = this.compiled.get(key)
    if (found === undefined) {
      try {
        found = this.ajv.compile(schema as object)
      } catch (error) {
        found = `the schema does not compile: ${(error as Error).message}`
      }
      this.compiled.set(key, found)
    }
    return found
  }
}

export function structuralChecks(request: TrafficRequest, answer: Answer, refusal: RegExp[], schemas: SchemaCache): StructuralOutcome {
  const why: string[] = []
  let invalidJson: boolean | null = null
  const jsonMode = jsonModeOf(request)
  if (jsonMode) {
    const problem = jsonProblem(answer.content, jsonMode.schema, schemas)
    invalidJson = problem !== null
    if (problem) why.push(`invalid JSON: ${problem}`)
  }
  let invalidTools: boolean | null = null
  const tools = toolsOf(request)
  if (tools) {
    const problem = toolCallProblem(answer.tool_calls, tools, toolCallRequired(request), schemas)
    invalidTools = problem !== null
    if (problem) why.push(`invalid tool call: ${problem}`)
  }
  const truncation = answer.finish_reason === 'length'
  if (truncation) why.push('truncated (finish_reason: length)')
  const refusals = answer.content !== null && refusal.some(pattern => pattern.test(answer.content as string))
  if (refusals) why.push('refusal pattern matched')
  return { invalid_json: invalidJson, invalid_tool_calls: invalidTools, truncation, refusals, why }
}

function jsonProblem(content: string | null, schema: unknown, schemas: SchemaCache): string | null {
  if (content === null || content.trim() === '') return 'no content'
  let value: unknown
  try {
    value = JSON.parse(content)
  } catch (error) {
    return `does not parse (${(error as Error).message})`
  }
  if (schema === null) return value !== null && typeof value === 'object' && !Array.isArray(value) ? null : 'not a JSON object'
  return schemaProblem(value, schema, schemas)
}

function schemaProblem(value: unknown, schema: unknown, schemas: SchemaCache): string | null {
  const validate = schemas.validator(schema)
  if (typeof validate === 'string') return null
  if (validate(value)) return null
  const first = validate.errors?.[0]
  return `does not match the schema (${first?.instancePath || '/'} ${first?.message ?? ''})`.trim()
}

/**
 * Tool calls are judged only when the answer made some: an answer in plain text where a tool was
 * optional is not a broken call (a `required` tool_choice without a call is).
 */
function toolCallProblem(calls: unknown[] | null, tools: ToolSpec[], required: boolean, schemas: SchemaCache): string | null {
  if (!calls || calls.length === 0) return required ? 'tool_choice requires a call and none was made' : null
  for (const call of calls) {
    const fn = (call as { function?: { name?: unknown; arguments?: unknown } } | null)?.function
    const name = fn?.name
    const tool = tools.find(t => t.name === name)
    if (!tool) return `unknown tool ${JSON.stringify(name)}`
    if (typeof fn?.arguments !== 'string') return `${tool.name}: arguments are not a string`
    let args: unknown
    try {
      args = JSON.parse(fn.arguments)
    } catch (error) {
      return `${tool.name}: arguments do not parse (${(error as Error).message})`
    }
    if (tool.parameters) {
      const problem = schemaProblem(args, tool.parameters, schemas)
      if (problem) return `${tool.name}: arguments ${problem}`
    }
  }
  return null
}

/** A tool_choice that names a function or says `required` demands a call. */
function toolCallRequired(request: TrafficRequest): boolean {
  return request.tool_choice === 'required' || (typeof request.tool_choice === 'object' && request.tool_choice !== null)
}
