/**
 * The markdown report's comparisons table: six columns, verdict first, one row per comparison
 * shown at this level of detail, its legend, the direction lines and what was left out
 * (docs/report.md). Pure: comparisons in, lines out.
 */
import { counted } from '../words.js'
import { escapeInline } from './escape.js'
import { formatCount, formatInterval, formatLevel, formatSigned, marginOf, VERDICT_EMOJI } from './format.js'
import { changedCell, directionBlock } from './markdown-direction.js'
import { OMISSION_NOTICE } from './markdown-issues.js'
import type { Comparison } from '../model/report.js'

function verdictCell(comparison: Comparison): string {
  if (!comparison.gated) return 'ℹ️ info'
  return `${VERDICT_EMOJI[comparison.verdict]} ${comparison.verdict}`
}

/**
 * Six columns, the verdict first, so that at the width of a pull-request conversation (about
 * 800 px) every row's verdict and interval are visible without scrolling: one label cell for
 * run, metric, split and perturbation; delta and interval in one cell; flips as `+2 / -1`.
 * `__tests__/report/browser/comment-width.test.ts` checks this with GitHub's parser and stylesheet.
 */
const TABLE_HEADER = ['| Verdict | Comparison | Δ and interval | Tolerated | Changed | n |', '|---|---|--:|--:|--:|--:|']

export const RUN_LABEL_LENGTH = 48

/**
 * A run name made to wrap and fit a table cell: HELM's `model=` argument (the same on both sides)
 * is dropped and the arguments are separated by spaces; the full name is in the changed-answers
 * details and the JSON.
 */
export function runLabel(run: string): string {
  // HELM writes `scenario:arg=v,...`, but a run name can also be `scenario,arg=v` (no colon):
  // the arguments start at the first `:` or `,` either way.
  const start = run.search(/[:,]/)
  if (start < 0) return run
  const args = run
    .slice(start + 1)
    .split(',')
    .filter(arg => arg !== '' && !arg.startsWith('model='))
  return args.length ? `${run.slice(0, start)}: ${args.join(', ')}` : run.slice(0, start)
}

function labelCell(comparison: Comparison): string {
  const details = [comparison.metric, comparison.split, comparison.perturbation].filter(
    (part): part is string => part !== null && part !== ''
  )
  const direction = comparison.direction === 'lower' ? ' (lower is better)' : ''
  // A break opportunity after each `=`, `_` and `#` (never inside an entity such as `&#39;`): a long argument (`subject=high_school_european_history`)
  // or perturbation name wraps inside its cell instead of widening the table past the comment.
  const wrap = (text: string): string => text.replace(/(=|\\?_|(?<!&)#)/g, '$1<wbr>')
  return `${wrap(escapeInline(runLabel(comparison.run), RUN_LABEL_LENGTH))}<br>${wrap(escapeInline(details.join(' · '), 120))}${direction}`
}

function deltaCell(comparison: Comparison): string {
  const ci = comparison.ci
  let cell = `**${formatSigned(comparison.delta)}**<br>${formatInterval(ci.low, ci.high)}`
  // The interval with unmatched instances imputed at the worst case, when the gate computed one.
  const worst = comparison.worst_case
  if (worst && worst.imputed.baseline + worst.imputed.candidate > 0) {
    const bound = worst.low === null || worst.high === null ? 'unbounded' : formatInterval(worst.low, worst.high)
    cell += `<br>worst case ${bound}`
  }
  return cell
}

/** `+12 / -3`: changed for the better / for the worse, following the metric's direction. */
export function flipsCell(comparison: Comparison): string {
  const lower = comparison.direction === 'lower'
  const better = lower ? comparison.losses : comparison.wins
  const worse = lower ? comparison.wins : comparison.losses
  return `+${formatCount(better)} / -${formatCount(worse)}`
}

function tableRow(comparison: Comparison): string {
  const cells = [
    verdictCell(comparison),
    labelCell(comparison),
    deltaCell(comparison),
    formatSigned(marginOf(comparison)),
    changedCell(comparison, flipsCell(comparison)),
    formatCount(comparison.n)
  ]
  return `| ${cells.join(' | ')} |`
}

function tableLegend(shown: Comparison[]): string {
  const level = shown.length > 0 ? formatLevel(shown[0].ci.level) : ''
  return `_Δ: candidate - baseline, with its ${level} interval. Tolerated: the change the gate accepts. Changed: answers that got better / worse (p: McNemar's exact test, where answers are right or wrong)._`
}

function omittedLine(omitted: Comparison[]): string[] {
  if (omitted.length === 0) return []
  const passing = omitted.filter(c => c.verdict === 'pass').length
  return [
    '',
    `_${counted(omitted.length, 'comparison', 'comparisons', formatCount)} omitted to fit the size limit (${formatCount(passing)} passing, ${formatCount(omitted.length - passing)} ungated and not passing); ${OMISSION_NOTICE}._`
  ]
}

export function tableBlock(shown: Comparison[], omitted: Comparison[], total: number): string[] {
  if (total === 0) return ['### Comparisons', '', '_No comparisons._', '']
  const lines = ['### Comparisons', '']
  if (shown.length > 0) lines.push(...TABLE_HEADER, ...shown.map(tableRow), '', tableLegend(shown), ...directionBlock(shown, runLabel))
  else lines.push('_Every gated comparison passed._')
  return [...lines, ...omittedLine(omitted), '']
}
