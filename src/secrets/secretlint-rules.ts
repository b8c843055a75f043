/**
 * secretlint's recommended rule set (@secretlint/secretlint-rule-preset-recommend), run in-line:
 * the vendor formats (AWS, GitHub, Slack, npm, OpenAI, Anthropic, Hugging Face, GitLab, Stripe,
 * private keys, database connection strings, basic auth in URLs, GCP service-account JSON...) come
 * from a maintained rule set instead of hand-written patterns.
 *
 * Why the rules are called directly and not through @secretlint/core's `lintSource`: that call is
 * async (it loads the config, sorts and translates messages), while the redactor is called
 * synchronously wherever text is printed or stored (an error's `describe()`, every log line of
 * helm-run and the servers, the scrubber's walk over a request). Each rule's `file` handler is
 * synchronous for a text source (only GCP's `.p12` check awaits, and no source here has that
 * extension), so the rules run against a small context that collects what they report. Making
 * the 20-odd printing and storing paths async for a library call that needs no I/O would have
 * spread `await` through the error classes and the log streams for nothing.
 */
import { rules as presetRules } from '@secretlint/secretlint-rule-preset-recommend'
import type {
  SecretLintRuleContext,
  SecretLintRuleCreator,
  SecretLintRuleReportDescriptor,
  SecretLintRuleReportHandler,
  SecretLintSourceCode
} from '@secretlint/types'

/** One credential a rule reported: where it is and the rule that found it. */
export interface RuleFinding {
  start: number
  end: number
  rule: string
}

// Message props that name a file or a token's type, not the credential.
const NOT_SECRET_PROPS = new Set(['FILE_NAME', 'typeName'])
// secretlint scans repositories and keeps AWS key ids off by default (an id alone is not a
// credential); in a log or a prompt an AWS key id is still not to be published.
const RULE_OPTIONS: Record<string, Record<string, unknown>> = { '@secretlint/secretlint-rule-aws': { enableIDScanRule: true } }

interface Collected {
  range: readonly [number, number]
  values: string[]
}

let sink: Collected[] = []
let handlers: Array<{ id: string; handler: SecretLintRuleReportHandler }> | null = null

function loadRules(): Array<{ id: string; handler: SecretLintRuleReportHandler }> {
  const context = {
    sharedOptions: {},
    createTranslator: () => (messageId: string, props?: Record<string, unknown>) => ({ message: messageId, messageId, data: props }),
    report: (descriptor: SecretLintRuleReportDescriptor) => {
      const data = (descriptor.message.data ?? {}) as Record<string, unknown>
      const values = Object.entries(data)
        .filter(([name, value]) => !NOT_SECRET_PROPS.has(name) && typeof value === 'string' && value.length > 0)
        .map(([, value]) => value as string)
      sink.push({ range: descriptor.range, values })
    },
    ignore: () => {}
  } as unknown as SecretLintRuleContext
  return (presetRules as unknown as SecretLintRuleCreator[])
    .filter(rule => rule.meta.type === 'scanner')
    .map(rule => ({ id: rule.meta.id, handler: rule.create(context, (RULE_OPTIONS[rule.meta.id] ?? {}) as never) }))
}

function sourceOf(content: string): SecretLintSourceCode {
  const trimmed = content.trimStart()
  // A JSON document is given the `.json` extension so GCP's service-account check looks at it.
  const ext = trimmed.startsWith('{') ? '.json' : '.txt'
  const position = (index: number): { line: number; column: number } => {
    const before = content.slice(0, index).split('\n')
    return { line: before.length, column: before[before.length - 1].length }
  }
  return {
    hasBOM: false,
    content,
    filePath: undefined,
    physicalFilePath: undefined,
    contentType: 'text',
    ext,
    getFilePath: () => undefined,
    getPhysicalFilePath: () => undefined,
    indexToPosition: position,
    positionToIndex: () => 0,
    locationToRange: () => [0, content.length],
    rangeToLocation: () => ({ start: position(0), end: position(content.length) })
  } as unknown as SecretLintSourceCode
}

/**
 * Every credential secretlint's recommended rules find in `text`. A rule reports its finding as
 * a range and as the credential itself (the message's value); both are kept, since a rule's range
 * may start at the key name rather than at the value (AWS secret access keys do).
 */
export function secretlintFindings(text: string): RuleFinding[] {
  handlers ??= loadRules()
  const source = sourceOf(text)
  const findings: RuleFinding[] = []
  for (const { id, handler } of handlers) {
    sink = []
    try {
      // Synchronous for text sources (see the comment at the top); a promise would only come
      // from GCP's `.p12` check, which no source here reaches.
      void handler.file?.(source)
    } catch {
      // A rule that cannot read this text must not let it through: all of it is hidden.
      sink.push({ range: [0, text.length], values: [] })
    }
    for (const { range, values } of sink) {
      const located = values.flatMap(value => occurrences(text, value)).map(([start, end]) => ({ start, end, rule: id }))
      findings.push(...(located.length > 0 ? located : [{ start: range[0], end: range[1], rule: id }]))
    }
  }
  sink = []
  return findings
}

function occurrences(text: string, value: string): Array<[number, number]> {
  const out: Array<[number, number]> = []
  for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + value.length)) out.push([at, at + value.length])
  return out
}
