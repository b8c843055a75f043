/**
 * Masks secrets in the server's log lines before they are written: a server that prints its
 * configuration (vLLM does, with --api-key) must not put the key into the evidence artifact.
 * Secrets are the deployments' API keys and the values of environment variables whose names
 * say they are secret (HF_TOKEN, OPENAI_API_KEY, ...), whether inherited or set by the gate file.
 */
const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH)/i
/** Shorter values would mask ordinary words. */
const MIN_SECRET_LENGTH = 4

export function secretValues(env: NodeJS.ProcessEnv, extra: Array<string | null | undefined> = []): string[] {
  const values = Object.entries(env)
    .filter(([name, value]) => SECRET_NAME.test(name) && typeof value === 'string')
    .map(([, value]) => value as string)
  return [...new Set([...values, ...extra.filter((v): v is string => typeof v === 'string')])]
    .filter(value => value.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length) // a longer secret containing a shorter one is masked whole
}

export function masker(secrets: string[]): (line: string) => string {
  if (secrets.length === 0) return line => line
  return line => secrets.reduce((text, secret) => text.split(secret).join('***'), line)
}
