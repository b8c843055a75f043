/**
 * URLs of a deployment's routes below its base URL (`{base_url}/models`, `{base_url}/version`).
 * Built with URL objects, not by appending text: a base URL may carry a query string (Azure's
 * `?api-version=...`, a gateway's key), and `${base_url}/models` would put the route inside the
 * query, probing the base path instead of /models.
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
