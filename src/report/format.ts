/**
 * Number and label formatting shared by the renderers, so the PR comment, the check run and the
 * console say the same thing in the same words.
 */
import type { Comparison, Verdict } from '../model/report.js'

/**
 * About four significant digits, never more than four decimals: metric values range from 0/1
 * accuracies to BLEU scores and seconds, and a fixed number of decimals would either hide a
 * 0.004 delta or print 31.4159265. Whole numbers print as they are. Non-finite values (which the JSON writes as null) show `—`.
 */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return '—'
  // Whole numbers (0/1 scores, counts) read best without decimals.
  if (Number.isInteger(value) && Math.abs(value) < 1e15) return String(value)
  const magnitude = Math.floor(Math.log10(Math.abs(value)))
  const decimals = Math.min(4, Math.max(0, 3 - magnitude))
  const text = value.toFixed(decimals)
  return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text
}

/** A difference, always signed, so `+0.0100` and `-0.0100` line up and read as changes. */
export function formatSigned(value: number): string {
  const text = formatNumber(value)
  return value > 0 && text !== '0' && !/^0\.0*$/.test(text) ? `+${text}` : text
}

export function formatInterval(low: number, high: number): string {
  return `[${formatSigned(low)}, ${formatSigned(high)}]`
}

/** `95%` from 0.95; `99.9%` from 0.999. */
export function formatLevel(level: number): string {
  if (!Number.isFinite(level)) return '—'
  return `${Number((level * 100).toFixed(2))}%`
}

/** `12,345`. Grouped by hand: `toLocaleString` goes through Intl and is slow for thousands of rows. */
export function formatCount(value: number): string {
  if (!Number.isFinite(value)) return '—'
  const digits = String(Math.abs(Math.round(value)))
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return value < 0 && Math.round(value) !== 0 ? `-${grouped}` : grouped
}

/**
 * The drop the gate tolerates, on the delta axis: a higher-is-better metric may fall by at most
 * `max_drop`, a lower-is-better one may rise by at most `max_drop`.
 */
export function marginOf(comparison: Comparison): number {
  return comparison.direction === 'lower' ? comparison.max_drop : -comparison.max_drop
}

export const VERDICT_WORD: Record<Verdict, string> = {
  pass: 'Pass',
  fail: 'Fail',
  inconclusive: 'Inconclusive',
  error: 'Error'
}

export const VERDICT_EMOJI: Record<Verdict, string> = {
  pass: '✅',
  fail: '❌',
  inconclusive: '🟡',
  error: '⛔'
}

/** What a comparison's verdict cell says: ungated comparisons are information only. */
export function comparisonVerdictLabel(comparison: Comparison): string {
  return comparison.gated ? comparison.verdict : 'info'
}

/**
 * `12 won, 3 lost` for 0/1 metrics; `12 improved, 3 worsened` for continuous ones. `wins` and
 * `losses` count values that went up and down; for a lower-is-better metric (an error rate)
 * going up is the loss, so the words follow the direction.
 */
export function formatFlips(comparison: Comparison): string {
  const lower = comparison.direction === 'lower'
  const better = formatCount(lower ? comparison.losses : comparison.wins)
  const worse = formatCount(lower ? comparison.wins : comparison.losses)
  return comparison.binary ? `${better} won, ${worse} lost` : `${better} improved, ${worse} worsened`
}
