/**
 * Masks secrets in log lines before they are written (helm-run's output, a launched server's, the
 * replayed traffic's stored states): a server that prints its configuration (vLLM does, with
 * --api-key) must not put the key into the evidence artifact. The known secrets (the deployments'
 * API keys and the values of environment variables whose names say they are secret: HF_TOKEN,
 * OPENAI_API_KEY, ..., inherited or set by the gate file) are masked by value first, whatever
 * their shape; then the one redactor (redact.ts) hides any other credential the line holds.
 */
import { redactText } from './redact.js'
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
  const known = secrets.filter(value => value.length >= MIN_SECRET_LENGTH)
  return line => redactText(known.reduce((text, secret) => text.split(secret).join('***'), line))
}
