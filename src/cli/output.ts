/** Writing a finished report where the user asked for it, and the exit code it implies. */
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { InputError } from '../errors.js'
import { renderConsole } from '../report/console.js'
import { renderJson } from '../report/json.js'
import { renderHtml, type ChangedAnswers } from '../report/html.js'
import { renderMarkdown } from '../report/markdown.js'
import type { Report, Verdict } from '../report/model.js'
import type { CliIo } from './io.js'

/** GitHub's comment limit is 65,536; leave room for the action's links and marker. */
export const MARKDOWN_LIMIT = 65_000

export function exitCodeFor(verdict: Verdict): number {
  if (verdict === 'pass') return 0
  if (verdict === 'error') return 2
  return 1
}

export async function writeReportOutputs(
  report: Report,
  opts: {
    json: string | null
    markdown: string | null
    /** report.html, with every changed answer when `changed` has them. */
    html?: string | null
    changed?: ChangedAnswers
    quiet: boolean
    io: CliIo
    color?: boolean
  }
): Promise<void> {
  if (opts.json) await writeText(opts.json, renderJson(report))
  if (opts.html) await writeText(opts.html, renderHtml(report, opts.changed))
  if (opts.markdown) await writeText(opts.markdown, renderMarkdown(report, { maxLength: MARKDOWN_LIMIT }))
  if (!opts.quiet) opts.io.stdout(renderConsole(report, { color: opts.color ?? false }))
}

async function writeText(file: string, text: string): Promise<void> {
  try {
    await mkdir(dirname(file), { recursive: true })
    await writeFile(file, text)
  } catch (error) {
    throw new InputError('output.unwritable', `cannot write ${file}: ${(error as Error).message}`, { file })
  }
}
