/** Writing a finished report where the user asked for it. */
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { InputError } from '../errors.js'
import { renderConsole } from '../report/console.js'
import { renderJson } from '../report/json.js'
import { renderHtml, type ChangedAnswers } from '../report/html.js'
import { renderMarkdown } from '../report/markdown.js'
import { LIMITS } from '../model/publication.js'
import type { Report } from '../model/report.js'
import type { CliIo } from './io.js'

/** `--json -`: the JSON report goes to standard output instead of a file. */
export const STANDARD_OUTPUT = '-'

/**
 * The streams of a command given `--json VALUE`. With `--json -` the JSON report is the whole of
 * standard output, so it can be piped into `jq`; every line meant for a person (the summary,
 * progress, advice) moves to standard error. Otherwise both are the command's own.
 */
export function reportStreams(io: CliIo, json: string | undefined): { human: CliIo; jsonStdout: ((s: string) => void) | null } {
  if (json !== STANDARD_OUTPUT) return { human: io, jsonStdout: null }
  return { human: { ...io, stdout: io.stderr }, jsonStdout: io.stdout }
}

export async function writeReportOutputs(
  report: Report,
  opts: {
    json: string | null
    /** Where `--json -` sends the JSON report (reportStreams); written after the files. */
    jsonStdout?: ((s: string) => void) | null
    markdown: string | null
    /** report.html, with every changed answer when `changed` has them. */
    html?: string | null
    changed?: ChangedAnswers
    quiet: boolean
    /** false: write the files only (the caller prints the errors itself). */
    print?: boolean
    io: CliIo
    color?: boolean
  }
): Promise<void> {
  if (opts.json) await writeText(opts.json, renderJson(report))
  if (opts.html) await writeText(opts.html, renderHtml(report, opts.changed))
  if (opts.markdown) await writeText(opts.markdown, renderMarkdown(report, { maxLength: LIMITS.markdownFile }))
  if (opts.jsonStdout) opts.jsonStdout(renderJson(report))
  if (opts.print === false) return
  if (!opts.quiet) opts.io.stdout(renderConsole(report, { color: opts.color ?? false }))
  // --quiet prints nothing but errors: the summary is not printed, so the errors are, once each.
  else for (const e of report.errors) opts.io.stderr(`helm-gate: error: ${e.message} [${e.code}]\n`)
}

async function writeText(file: string, text: string): Promise<void> {
  try {
    await mkdir(dirname(file), { recursive: true })
    await writeFile(file, text)
  } catch (error) {
    throw new InputError('output.unwritable', `cannot write ${file}: ${(error as Error).message}`, { file })
  }
}
