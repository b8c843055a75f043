/**
 * URLs of a deployment's routes below its base URL (`{base_url}/models`, `{base_url}/version`).
 * Built with URL objects, not by appending text. The gate file refuses a base_url with a query
 * (HELM's OpenAI client appends the route after it: `/v1?api-version=1/chat/completions`), so
 * keeping one here only matters for callers that pass other URLs.
 */

/** `route` appended to the base URL's path; query, credentials and port kept. Throws on a bad URL. */
export function routeUrl(baseUrl: string, route: string): string {
  const url = new URL(baseUrl)
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/${route.replace(/^\/+/, '')}`
  url.hash = ''
  return url.href
}

/** `route` at the server's root (vLLM serves /version there, not below /v1); the query kept. */
export function rootRouteUrl(baseUrl: string, route: string): string {
  const url = new URL(baseUrl)
  url.pathname = `/${route.replace(/^\/+/, '')}`
  url.hash = ''
  return url.href
}
