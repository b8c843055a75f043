/**
 * One cause, one error. When a side fails, the runner finds several symptoms of the same cause
 * (helm-run exited 1, its run directory is incomplete, the gate's entry has no complete run), and
 * none of them says why: that is only in the side's log, among thousands of lines. This folds the
 * symptoms of a side into its root cause and quotes the decisive line of the log (the client
 * error: a refused connection, a timeout, a 401) in the error itself.
 */
import { open } from 'node:fs/promises'
import { relative } from 'node:path'
import { GateError } from '../errors.js'
import { counted } from '../words.js'

/** Errors that say why a side failed. */
const ROOT_CAUSES = /^(server\.|runner\.(spawn|timeout|stalled|exit)$)/
/** Errors that only say what is missing because of it (an lm-eval side's unreadable output too). */
const SYMPTOMS = new Set(['runner.incomplete_run', 'runner.run_missing', 'runner.nothing_ran', 'runner.lmeval_output'])

/**
 * What to quote from a helm-run log, most telling first. HELM logs each failed request's
 * exception with its chained causes; the lowest-level cause names the real problem ("Connection
 * refused"), where the OpenAI SDK only says "Connection error.".
 */
const DECISIVE: RegExp[] = [
  // helm-gate's client plugin: an exception of the client itself (a missing API key variable).
  /helm-gate client error: .+/,
  // The transport under the OpenAI SDK: refused, reset, timed out, DNS.
  /\b(?:httpx|httpcore|urllib3|requests|aiohttp)\.\w+: .+/,
  /\[Errno -?\d+\] .+/,
  // The SDK's own classification: 401, 404, 429, 5xx, timeouts.
  /\bopenai\.\w+: .+/,
  // HELM's summary of a failed request.
  /\bOpenAI error: .+/,
  // Any other exception that ended the run (not HELM's final "Failed runs" summary).
  /^(?!.*RunnerError)(?:[\w.]+\.)?\w+(?:Error|Exception): .+/
]

const MAX_LOG_BYTES = 8 * 1024 * 1024
const MAX_QUOTE = 300

export interface LogQuote {
  line: number
  text: string
}

/** The decisive line of a helm-run log, or null when it holds nothing telling. */
export function decisiveLine(log: string, patterns = DECISIVE.length): LogQuote | null {
  const lines = log.split('\n')
  for (const pattern of DECISIVE.slice(0, patterns)) {
    for (let i = 0; i < lines.length; i++) {
      const match = pattern.exec(lines[i])
      if (match) {
        const text = match[0].trim()
        return { line: i + 1, text: text.length > MAX_QUOTE ? `${text.slice(0, MAX_QUOTE - 1)}…` : text }
      }
    }
  }
  return null
}

/**
 * A side's errors grouped by root cause: the first root cause absorbs the symptoms (named in one
 * clause) and quotes the log; other errors are kept as they are. Without a root cause the first
 * symptom quotes the log instead.
 */
export function groupByRootCause(errors: readonly GateError[], quote: LogQuote | null, logName: string): GateError[] {
  const root = errors.find(error => ROOT_CAUSES.test(error.code))
  const symptoms = root ? errors.filter(error => SYMPTOMS.has(error.code)) : []
  const lead = root ?? errors.find(error => SYMPTOMS.has(error.code))
  if (!lead) return [...errors]
  const parts = [lead.message.replace(/; see the \w+ log$/, '')]
  if (quote) parts.push(`${logName} line ${quote.line}: ${quote.text}`)
  else if (lead.code.startsWith('runner.')) parts.push(`see ${logName}`)
  const consequence = consequences(symptoms)
  if (consequence) parts.push(consequence)
  // Same class and code as the cause, so callers that check either still recognise it.
  const Kind = lead.constructor as new (code: string, message: string, location: GateError['location']) => GateError
  const grouped = new Kind(lead.code, parts.join('; '), lead.location)
  return errors.flatMap(error => (error === lead ? [grouped] : symptoms.includes(error) ? [] : [error]))
}

function consequences(symptoms: readonly GateError[]): string {
  const entries = symptoms.filter(s => s.code === 'runner.run_missing').map(s => String(s.location.value))
  const incomplete = symptoms.filter(s => s.code === 'runner.incomplete_run').length
  if (entries.length > 0) return `so ${counted(entries.length, 'entry has', 'entries have')} no complete run: ${entries.join(', ')}`
  if (incomplete > 0) return `so ${counted(incomplete, 'run is', 'runs are')} incomplete`
  return ''
}

/** The tail of a log file (the whole file up to a bound), or '' when it cannot be read. */
export async function readLogTail(file: string): Promise<string> {
  let handle
  try {
    handle = await open(file, 'r')
    const { size } = await handle.stat()
    const length = Math.min(size, MAX_LOG_BYTES)
    const buffer = Buffer.alloc(length)
    await handle.read(buffer, 0, length, size - length)
    return buffer.toString('utf8')
  } catch {
    return ''
  } finally {
    await handle?.close()
  }
}

/**
 * A runner command's log is not HELM's: after a client error of the kinds above (which name the
 * lowest cause, as for helm-run), its last meaningful line is the decisive one (a Python
 * program's final exception line, a shell script's last message); traceback frames and
 * helm-gate's own lines are skipped.
 */
export function runnerDecisiveLine(log: string): LogQuote | null {
  const client = decisiveLine(log, DECISIVE.length - 1)
  if (client) return client
  const lines = log.split('\n')
  for (let i = lines.length - 1; i >= 0; i--) {
    const text = lines[i].trim()
    if (text === '' || text.startsWith('helm-gate:') || /^(?:File "|Traceback \(most recent call last\)|\^+$|~+)/.test(text)) continue
    if (/^\s/.test(lines[i]) && i > 0 && /^\s*File "/.test(lines[i - 1])) continue
    return { line: i + 1, text: text.length > MAX_QUOTE ? `${text.slice(0, MAX_QUOTE - 1)}…` : text }
  }
  return null
}

/** groupByRootCause with the quote read from the side's log (named relative to `outDir`). */
export async function explainSideErrors(errors: GateError[], logFile: string, outDir: string, runner = false): Promise<GateError[]> {
  if (errors.length === 0) return errors
  const log = await readLogTail(logFile)
  const quote = runner ? runnerDecisiveLine(log) : decisiveLine(log)
  return groupByRootCause(errors, quote, relative(outDir, logFile) || logFile)
}
