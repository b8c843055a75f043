/**
 * `GET {base_url}/version` (vLLM answers `{"version": "0.6.3"}` at its root, so the origin's
 * /version is tried too), asked once a server is ready (src/server/readiness.ts). llama.cpp's
 * llama-server has no /version: its `GET /props` says `build_info` (`b1234-<commit>`, also each
 * response's `system_fingerprint`). Information only: a server that does not answer is not an
 * error.
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
    urls.push(rootRouteUrl(baseUrl, 'props'))
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
      const body = JSON.parse(text) as { version?: unknown; build_info?: unknown } | null
      const version = url.endsWith('/props') ? body?.build_info : body?.version
      if (typeof version === 'string' && version.length > 0) return version.slice(0, MAX_VERSION_LENGTH)
    } catch {
      // Not every server has /version or /props; the next URL, or none.
    }
  }
  return null
}
