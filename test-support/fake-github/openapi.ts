/**
 * Checks requests the fake receives against GitHub's OpenAPI description (the subset extracted
 * by scripts/extract-openapi.mjs from @octokit/openapi), so the fake cannot silently accept a
 * request the real API would refuse: unknown routes, unknown or ill-typed query parameters and
 * request bodies that do not match the operation's schema.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Ajv, type ValidateFunction } from 'ajv'
import addFormatsModule from 'ajv-formats'

type Json = Record<string, any>

const here = path.dirname(fileURLToPath(import.meta.url))
const SPEC: Json = JSON.parse(readFileSync(path.join(here, 'openapi-subset.json'), 'utf8'))

interface Operation {
  method: string
  template: string
  regex: RegExp
  params: string[]
  operationId: string
}

export interface RouteMatch {
  operationId: string
  template: string
  params: Record<string, string>
}

// ajv-formats is CommonJS; under ESM its default export may arrive wrapped.
const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as (ajv: Ajv) => Ajv

export class OpenApiValidator {
  private readonly ajv: Ajv
  private readonly operations: Operation[] = []
  private readonly cache = new Map<string, ValidateFunction>()

  constructor() {
    this.ajv = new Ajv({ strict: false, validateSchema: false, allErrors: true })
    addFormats(this.ajv)
    this.ajv.addSchema(SPEC, 'gh')
    for (const [template, item] of Object.entries(SPEC.paths as Json)) {
      for (const method of ['get', 'post', 'patch', 'put', 'delete']) {
        if (!item[method]) continue
        const params: string[] = []
        const multiSegment = this.multiSegmentParameters(item[method])
        const pattern = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{([^}]+)\\?\}/g, (_m, name: string) => {
          params.push(name)
          // A parameter the description marks `x-multi-segment` (the contents API's {path}) spans
          // slashes, as GitHub accepts `a/b.yml` and the `a%2Fb.yml` octokit sends alike; every
          // other parameter is one segment (an encoded slash there decodes into a value that
          // names nothing, and GitHub answers 404).
          return multiSegment.has(name) ? '(.+)' : '([^/]+)'
        })
        this.operations.push({
          method: method.toUpperCase(),
          template,
          regex: new RegExp(`^${pattern}$`),
          params,
          operationId: item[method].operationId
        })
      }
    }
    // Prefer the most specific template when several match (fewest parameters).
    this.operations.sort((a, b) => a.params.length - b.params.length)
  }

  private multiSegmentParameters(operation: Json): Set<string> {
    const names = new Set<string>()
    for (const parameter of (operation.parameters ?? []).map((p: Json) => this.resolve(p))) {
      if (parameter.in === 'path' && parameter['x-multi-segment'] === true) names.add(parameter.name)
    }
    return names
  }

  match(method: string, pathname: string): RouteMatch | null {
    for (const op of this.operations) {
      if (op.method !== method) continue
      const m = op.regex.exec(pathname)
      if (!m) continue
      const params: Record<string, string> = {}
      op.params.forEach((name, i) => (params[name] = decodeURIComponent(m[i + 1])))
      return { operationId: op.operationId, template: op.template, params }
    }
    return null
  }

  /** Problems with the request, empty when it is valid. */
  validate(method: string, pathname: string, query: URLSearchParams, body: unknown): string[] {
    const route = this.match(method, pathname)
    if (!route) return [`${method} ${pathname} is not a GitHub REST operation helm-gate may use`]
    const lower = method.toLowerCase()
    const operation = SPEC.paths[route.template][lower] as Json
    const problems: string[] = []

    const parameters = (operation.parameters ?? []).map((p: Json) => this.resolve(p))
    const known = new Set<string>()
    for (const parameter of parameters) {
      if (parameter.in === 'path') {
        const value = route.params[parameter.name]
        problems.push(...this.check(`path ${parameter.name}`, parameter.schema, coerce(value, parameter.schema)))
      }
      if (parameter.in !== 'query') continue
      known.add(parameter.name)
      const value = query.get(parameter.name)
      if (value === null) {
        if (parameter.required) problems.push(`query parameter ${parameter.name} is required`)
        continue
      }
      problems.push(...this.check(`query ${parameter.name}`, parameter.schema, coerce(value, parameter.schema)))
    }
    for (const name of query.keys()) {
      if (!known.has(name)) problems.push(`query parameter ${name} is not defined for ${operation.operationId}`)
    }

    const bodySchema = operation.requestBody?.content?.['application/json']?.schema
    if (bodySchema) {
      if (operation.requestBody.required && body === undefined) problems.push('a JSON request body is required')
      else if (body !== undefined) {
        const pointer = ['paths', route.template, lower, 'requestBody', 'content', 'application/json', 'schema']
        problems.push(...this.checkRef('body', pointer, body))
      }
    } else if (body !== undefined && method !== 'GET') {
      problems.push(`${operation.operationId} takes no request body`)
    }
    return problems
  }

  private resolve(node: Json): Json {
    let current = node
    while (current && typeof current.$ref === 'string') {
      current = current.$ref
        .slice(2)
        .split('/')
        .map((part: string) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce((n: Json, part: string) => n?.[part], SPEC)
    }
    return current
  }

  private check(what: string, schema: Json | undefined, value: unknown): string[] {
    if (!schema) return []
    const key = JSON.stringify(schema)
    let validate = this.cache.get(key)
    if (!validate) {
      validate = this.ajv.compile({ ...this.resolve(schema), $id: undefined } as Json)
      this.cache.set(key, validate)
    }
    return validate(value) ? [] : (validate.errors ?? []).map(e => `${what}${e.instancePath} ${e.message}`)
  }

  private checkRef(what: string, pointer: string[], value: unknown): string[] {
    const ref = `gh#/${pointer.map(p => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/')}`
    let validate = this.cache.get(ref)
    if (!validate) {
      validate = this.ajv.compile({ $ref: ref })
      this.cache.set(ref, validate)
    }
    return validate(value) ? [] : (validate.errors ?? []).map(e => `${what}${e.instancePath} ${e.message}`)
  }
}

function coerce(value: string | undefined, schema: Json | undefined): unknown {
  if (value === undefined) return value
  if (schema?.type === 'integer' || schema?.type === 'number') return /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value
  if (schema?.type === 'boolean') return value === 'true' ? true : value === 'false' ? false : value
  return value
}
