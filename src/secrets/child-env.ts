/**
 * What a third-party child process gets from helm-gate's environment: helm-run, a launched
 * server, a runner command. Here, below runner/ and launch/, because both start such processes.
 */

/**
 * The runner's own credentials, which no child needs: the action inputs (INPUT_GITHUB-TOKEN), the
 * artifact service's runtime token and the OIDC request token. The child runs third-party code;
 * it gets no more than it needs.
 */
const RUNNER_SECRETS =
  /^(INPUT_.*|ACTIONS_RUNTIME_TOKEN|ACTIONS_ID_TOKEN_REQUEST_TOKEN|ACTIONS_ID_TOKEN_REQUEST_URL|GITHUB_TOKEN|GH_TOKEN)$/

/** The environment (PATH, the API key variables, HF and NLTK settings) without the runner's credentials. */
export function childProcessEnv(env: NodeJS.ProcessEnv, apiKeyNames: string[] = []): NodeJS.ProcessEnv {
  // A variable the gate file names as an API key stays, whatever its name.
  return Object.fromEntries(Object.entries(env).filter(([name]) => apiKeyNames.includes(name) || !RUNNER_SECRETS.test(name)))
}

/** Userinfo and query values of a base URL: masked in a child's log like API keys. */
export function urlSecrets(baseUrl: string): string[] {
  try {
    const url = new URL(baseUrl)
    return [url.username, url.password, ...url.searchParams.values()].filter(value => value.length >= 4)
  } catch {
    return []
  }
}
