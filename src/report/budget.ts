/**
 * Size budgets for rendered markdown. GitHub limits each destination: a comment body to 65,536
 * characters, a check run's summary and text to 65,535 each, the job summary to 1 MiB per step.
 * JavaScript's `.length` counts UTF-16 units, never fewer than the characters GitHub counts, so
 * `utf16` is safe for comments and check runs. The job summary's limit is in bytes, and a
 * character can take up to three UTF-8 bytes for one UTF-16 unit, so that destination needs
 * `utf8`.
 */
import { UsageError } from '../errors.js'

export type LengthUnit = 'utf16' | 'utf8'

export function utf8Length(text: string): number {
  let bytes = 0
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i)
    if (code < 0x80) bytes += 1
    else if (code < 0x800) bytes += 2
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4
        i += 1
      } else bytes += 3
    } else bytes += 3
  }
  return bytes
}

export function measure(text: string, unit: LengthUnit): number {
  return unit === 'utf8' ? utf8Length(text) : text.length
}

/** Markdown block state at a line boundary: an open code fence and open `<details>` elements. */
interface BlockState {
  fence: string | null
  openDetails: number
}

function advance(state: BlockState, line: string): BlockState {
  if (state.fence !== null) {
    const closing = new RegExp(`^${state.fence}\`*\\s*$`)
    return closing.test(line) ? { ...state, fence: null } : state
  }
  const opening = /^(`{3,})/.exec(line)
  if (opening) return { ...state, fence: opening[1] }
  if (/^<details>\s*$/.test(line)) return { ...state, openDetails: state.openDetails + 1 }
  if (/^<\/details>\s*$/.test(line) && state.openDetails > 0) return { ...state, openDetails: state.openDetails - 1 }
  return state
}

function closers(state: BlockState): string {
  let text = state.fence !== null ? `\n${state.fence}` : ''
  // A blank line first: `</details>` right after a table row or paragraph could be read as part of it.
  for (let i = 0; i < state.openDetails; i += 1) text += '\n\n</details>'
  return text
}

/**
 * Cut `text` at the last line boundary where the kept lines, the closers for whatever fence and
 * `<details>` are open there, and `notice` fit in `maxLength`. The first `keepLines` lines are
 * never cut; if they cannot fit with the notice, the budget is too small to be usable.
 */
export function cutAtLineBoundary(text: string, maxLength: number, unit: LengthUnit, notice: string, keepLines: number): string {
  if (measure(text, unit) <= maxLength) return text
  const lines = text.split('\n')
  const tail = `\n\n${notice}\n`
  const tailLength = measure(tail, unit)
  let state: BlockState = { fence: null, openDetails: 0 }
  let used = 0
  let best: { end: number; state: BlockState } | null = null
  for (let i = 0; i < lines.length; i += 1) {
    used += measure(lines[i], unit) + (i > 0 ? 1 : 0)
    state = advance(state, lines[i])
    const total = used + measure(closers(state), unit) + tailLength
    if (i + 1 >= keepLines && total <= maxLength) best = { end: i + 1, state }
    // Lines only add length; closers are bounded, so once the kept lines alone exceed the
    // budget no later boundary can fit.
    if (used > maxLength) break
  }
  if (best === null) {
    throw new UsageError('report.budget_too_small', `The size limit is too small for the report's headline`, {
      field: 'maxLength',
      value: maxLength
    })
  }
  return `${lines.slice(0, best.end).join('\n')}${closers(best.state)}${tail}`
}
