/**
 * Credentials of every kind the redactor promises to hide (docs/traffic.md, docs/trust-model.md),
 * as fast-check arbitraries and as one fixed example each: the text as it is written (with the key
 * name where the format needs one, as `aws_secret_access_key = ...` does) and the parts that must
 * never appear in any output.
 */
import fc from 'fast-check'

export interface Planted {
  kind: string
  /** The credential as written, with its context. */
  text: string
  /** Substrings that must not survive (the secret parts; every line of a private key). */
  secrets: string[]
  /** A multi-line credential cannot sit inside a URL. */
  multiLine: boolean
}

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
const LOWER = 'abcdefghijklmnopqrstuvwxyz'
const DIGITS = '0123456789'
const ALNUM = UPPER + LOWER + DIGITS
const BASE64 = `${ALNUM}+/`
const BASE64URL = `${ALNUM}_-`
// Characters a password may hold in a URL's userinfo without breaking it: `!` is the case.
const PASSWORD = `${ALNUM}!$*()_+=~.-`

function chars(alphabet: string, length: number, maxLength = length): fc.Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...alphabet.split('')), minLength: length, maxLength })
}

function base64url(text: string): string {
  return Buffer.from(text).toString('base64url')
}

function one(kind: string, text: string, secrets: string[], multiLine = false): Planted {
  return { kind, text, secrets, multiLine }
}

const pemBody = fc
  .tuple(fc.integer({ min: 4, max: 12 }), chars(BASE64, 64 * 12 + 40))
  .map(([lines, body]) =>
    ['MII' + body.slice(0, 61), ...Array.from({ length: lines }, (_, i) => body.slice(64 * i, 64 * i + 64))].concat(body.slice(-32))
  )

export const credentialKinds: Record<string, fc.Arbitrary<Planted>> = {
  'aws-access-key-id': chars(UPPER + DIGITS, 16).map(s => one('aws-access-key-id', `AKIA${s}`, [`AKIA${s}`])),
  'aws-secret-access-key': fc
    .tuple(
      chars(BASE64, 18),
      chars(BASE64, 19),
      fc.constantFrom('aws_secret_access_key = ', 'AWS_SECRET_ACCESS_KEY=', '"SecretAccessKey": ')
    )
    .map(([a, b, lead]) => {
      const key = `${a}/${b}+A`.slice(0, 40).padEnd(40, 'Q')
      return one('aws-secret-access-key', lead.startsWith('"') ? `${lead}"${key}"` : `${lead}${key}`, [key])
    }),
  'gcp-api-key': chars(BASE64URL, 35).map(s => one('gcp-api-key', `AIza${s}`, [`AIza${s}`])),
  'gcp-service-account': fc.tuple(pemBody, chars(LOWER + DIGITS, 8)).map(([lines, project]) => {
    const pem = `-----BEGIN PRIVATE KEY-----\n${lines.join('\n')}\n-----END PRIVATE KEY-----\n`
    const json = JSON.stringify(
      {
        type: 'service_account',
        project_id: `p-${project}`,
        private_key_id: 'a'.repeat(40),
        private_key: pem,
        client_email: `x@p-${project}.iam.gserviceaccount.com`
      },
      null,
      2
    )
    return one('gcp-service-account', json, lines, true)
  }),
  github: fc
    .tuple(fc.constantFrom('ghp_', 'gho_', 'ghs_', 'ghu_'), chars(ALNUM, 36), chars(ALNUM + '_', 82), fc.boolean())
    .map(([prefix, s, pat, fine]) => {
      const token = fine ? `github_pat_${pat}` : `${prefix}${s}`
      return one('github', token, [token])
    }),
  slack: fc
    .tuple(chars(DIGITS, 11), chars(DIGITS, 12), chars(ALNUM, 24), chars(UPPER + DIGITS, 9), fc.boolean())
    .map(([a, b, c, t, hook]) => {
      const token = hook ? `https://hooks.slack.com/services/T${t}/B${t}/${c}` : `xoxb-${a}-${b}-${c}`
      return one('slack', token, hook ? [c] : [token])
    }),
  npm: chars(ALNUM, 36).map(s => one('npm', `npm_${s}`, [`npm_${s}`])),
  openai: fc.tuple(chars(ALNUM, 20), chars(ALNUM, 20), chars(BASE64URL, 48)).map(([a, b, c]) => {
    const token = c.length % 2 === 0 ? `sk-${a}T3BlbkFJ${b}` : `sk-proj-${c}`
    return one('openai', token, [token])
  }),
  anthropic: chars(BASE64URL, 93).map(s => one('anthropic', `sk-ant-api03-${s}AA`, [`sk-ant-api03-${s}AA`])),
  'private-key': fc
    .tuple(pemBody, fc.constantFrom('RSA PRIVATE KEY', 'EC PRIVATE KEY', 'OPENSSH PRIVATE KEY', 'PRIVATE KEY', 'ENCRYPTED PRIVATE KEY'))
    .map(([lines, label]) => one('private-key', `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----`, lines, true)),
  'basic-auth-url': fc
    .tuple(chars(LOWER, 3, 10), chars(PASSWORD, 10, 24), chars(LOWER, 3, 12))
    .map(([user, pass, host]) => one('basic-auth-url', `https://${user}:${pass}@${host}.example.com/api/v1/items`, [`:${pass}@`, pass])),
  'database-connection-string': fc
    .tuple(
      fc.constantFrom('postgres', 'postgresql', 'mysql', 'mongodb', 'mongodb+srv', 'redis', 'amqp'),
      chars(LOWER, 3, 10),
      chars(ALNUM + '!$*_-', 10, 24),
      fc.boolean()
    )
    .map(([scheme, user, pass, ado]) =>
      ado
        ? one('database-connection-string', `Server=db.internal;Database=app;User Id=${user};Password=${pass};`, [pass])
        : one('database-connection-string', `${scheme}://${user}:${pass}@db.internal:5432/app?sslmode=require`, [pass])
    ),
  jwt: fc.tuple(chars(ALNUM, 8, 20), fc.integer({ min: 1e9, max: 2e9 }), chars(BASE64URL, 43)).map(([sub, iat, sig]) => {
    const token = `${base64url('{"alg":"HS256","typ":"JWT"}')}.${base64url(JSON.stringify({ sub, iat }))}.${sig}`
    return one('jwt', token, [token, sig])
  }),
  'bearer-header': chars(`${ALNUM}._-`, 24, 48).map(s => one('bearer-header', `Authorization: Bearer ${s}`, [s])),
  'named-value': fc
    .tuple(chars(`${ALNUM}!$*_`, 10, 24), fc.constantFrom('password: ', 'HF_TOKEN=', '"api_key": ', '--api-key ', 'client_secret='))
    .map(([value, lead]) => one('named-value', lead.startsWith('"') ? `${lead}"${value}"` : `${lead}${value}`, [value]))
}

export interface Embedding {
  name: string
  wrap: (text: string) => string
  /** The forms a secret takes in the wrapped text. */
  forms: (secret: string) => string[]
  singleLineOnly?: boolean
}

export const embeddings: Embedding[] = [
  { name: 'prose', wrap: t => `Hi team, I pasted ${t} into the ticket by mistake. Can you rotate it?`, forms: s => [s] },
  { name: 'JSON', wrap: t => JSON.stringify({ note: t, id: 7 }), forms: s => [s, JSON.stringify(s).slice(1, -1)] },
  {
    name: 'URL',
    wrap: t => `GET https://example.com/callback?state=ok&data=${encodeURIComponent(t)} 200`,
    forms: s => [s, encodeURIComponent(s)],
    singleLineOnly: true
  },
  { name: 'multi-line block', wrap: t => `INFO starting worker\nDEBUG config:\n${t}\nINFO ready on :8000`, forms: s => [s] },
  { name: 'code', wrap: t => `const config = \`\n${t}\n\`\nclient.connect(config) // see README`, forms: s => [s] }
]

/** One fixed example of each kind (the first value of each arbitrary for a fixed seed). */
export function fixedExamples(seed = 28): Planted[] {
  return Object.values(credentialKinds).map(arbitrary => fc.sample(arbitrary, { seed, numRuns: 1 })[0])
}
