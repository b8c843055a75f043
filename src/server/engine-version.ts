/**
 * `GET {base_url}/version` (vLLM answers `{"version": "0.6.3"}` at its root, so the origin's
 * /version is tried too), asked once a server is ready (src/server/readiness.ts). Information
 * only: a server that does not answer /version is not an error.
 */
import { request } from 'undici'
import { rootRouteUrl, routeUrl } from './endpoint.js'

const VERSION_TIMEOUT_MS = 3_000
const MAX_VERSION_LENGTH = 100

/** The engine version a server reports, or null when it does not say (never throws). */
export async function probeEngineVersion(baseUrl: string, apiKey: string | null): Promise<string | null> {
  const urls: string[] = []
  try {
    urls.push(routeUrl(baseUrl, 'version'))
    const root = rootRouteUrl(baseUrl, 'version')
    if (!urls.includes(root)) urls.push(root)
  } catch {
    return null
  }
  for (const url of urls) {
    try {
      const response = await request(url, {
        method: 'GET',
        headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
        headersTimeout: VERSION_TIMEOUT_MS,
        bodyTimeout: VERSION_TIMEOUT_MS
      })
      const text = await response.body.text()
      if (response.statusCode !== 200) continue
      const version = (JSON.parse(text) as { version?: unknown } | null)?.version
      if (typeof version === 'string' && version.length > 0) return version.slice(0, MAX_VERSION_LENGTH)
    } catch {
      // Not every server has /version; the next URL, or none.
    }
  }
  return null
}
