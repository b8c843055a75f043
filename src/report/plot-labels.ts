/**
 * The forest plot's row labels in report.html (html-client.ts bundles this file into the page;
 * it imports nothing). A label has room for `max` characters; cutting the end off made rows of one
 * run with different metrics or perturbations read the same (`simple_mcqa,data_augmentation=
 * robustness · ...` three times). So the part that tells rows apart, metric · split ·
 * perturbation, is kept whole and the run's name is shortened in its middle; rows that still read
 * the same are numbered. The full label is the row's tooltip.
 */
export interface PlotLabelParts {
  run: string
  metric: string
  split: string | null
  perturbation: string | null
}

export function fullLabel(c: PlotLabelParts): string {
  return [c.run, c.metric, c.split, c.perturbation].filter(p => p !== null && p !== '').join(' · ')
}

export function plotLabels(rows: readonly PlotLabelParts[], max: number): string[] {
  const labels = rows.map(row => shortLabel(row, max))
  const seen = new Map<string, number>()
  for (const label of labels) seen.set(label, (seen.get(label) ?? 0) + 1)
  const numbered = new Map<string, number>()
  return labels.map(label => {
    if ((seen.get(label) ?? 0) < 2) return label
    const k = (numbered.get(label) ?? 0) + 1
    numbered.set(label, k)
    return `${middleCut(label, max - ` (${k})`.length)} (${k})`
  })
}

function shortLabel(row: PlotLabelParts, max: number): string {
  const whole = fullLabel(row)
  if (whole.length <= max) return whole
  const tail = [row.metric, row.split, row.perturbation].filter(p => p !== null && p !== '').join(' · ')
  const room = max - tail.length - ' · '.length
  // Too little room left for the run: the tail alone is cut, from its middle.
  if (room < 8) return middleCut(whole, max)
  return `${middleCut(row.run, room)} · ${tail}`
}

/** The text's start and end with `…` between them, `max` characters in all. */
function middleCut(text: string, max: number): string {
  if (text.length <= max) return text
  const keep = max - 1
  const head = Math.ceil(keep / 2)
  return `${text.slice(0, head)}…${text.slice(text.length - (keep - head))}`
}
