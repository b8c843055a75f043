import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { createServer, type Server } from 'node:http'
import { addressAnswers } from '../../src/launch/ready.js'
import { rootRouteUrl, routeUrl } from '../../src/server/endpoint.js'
import { probeEngineVersion } from '../../src/server/engine-version.js'
import { probeServer } from '../../src/server/readiness.js'

describe('routeUrl', () => {
  it.each([
    ['http://127.0.0.1:8000/v1', 'http://127.0.0.1:8000/v1/models'],
    ['http://127.0.0.1:8000/v1/', 'http://127.0.0.1:8000/v1/models'],
    ['https://gw.example/openai/v1?api-version=2024-06-01', 'https://gw.example/openai/v1/models?api-version=2024-06-01'],
    ['https://gw.example/v1/?key=abc&x=1#frag', 'https://gw.example/v1/models?key=abc&x=1'],
    ['http://u:p@h:9/v1', 'http://u:p@h:9/v1/models']
  ])('%s -> %s', (base, expected) => {
    expect(routeUrl(base, 'models')).toBe(expected)
  })

  it('puts root routes at the origin, keeping the query', () => {
    expect(rootRouteUrl('http://h:8000/v1?api-version=1', 'version')).toBe('http://h:8000/version?api-version=1')
  })
})

/** A loopback server that records every request path (with its query) and lists one model. */
describe('the probes against a base URL with a query string', () => {
  const seen: string[] = []
  let server: Server
  let base: string
  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push(request.url ?? '')
      const url = new URL(request.url ?? '/', 'http://x')
      response.setHeader('content-type', 'application/json')
      if (url.pathname === '/v1/models') response.end(JSON.stringify({ data: [{ id: 'm' }] }))
      else if (url.pathname === '/version') response.end(JSON.stringify({ version: '9.9.9' }))
      else {
        response.statusCode = 404
        response.end('{}')
      }
    })
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}/v1?api-version=2024-06-01`
  })
  afterAll(async () => {
    await new Promise(resolve => server.close(resolve))
  })

  it('readiness asks /v1/models with the query, not /v1 with the route in the query', async () => {
    seen.length = 0
    const result = await probeServer({ side: 'baseline', baseUrl: base, model: 'm', apiKey: null, timeoutMs: 2_000 })
    expect(result.models).toEqual(['m'])
    expect(seen[0]).toBe('/v1/models?api-version=2024-06-01')
    expect(result.url).toBe(`${base.replace('/v1?', '/v1/models?').replace('2024-06-01', '***')}`)
    expect(result.engine_version).toBe('9.9.9')
  })

  it('the launch address check and the version probe use the same routes', async () => {
    seen.length = 0
    expect(await addressAnswers(base)).toBe(200)
    expect(await probeEngineVersion(base, null)).toBe('9.9.9')
    expect(seen).toEqual(['/v1/models?api-version=2024-06-01', '/v1/version?api-version=2024-06-01', '/version?api-version=2024-06-01'])
  })
})
