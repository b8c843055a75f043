/**
 * The holistic grid (docs/report.md "The holistic grid"): what the gate measured of each run
 * entry, family by family, and what it left blank and why. HELM's own grid marks the
 * scenario-by-metric cells it did not measure, because an omitted measurement is a finding; here
 * a cell is the paired verdict of the report's own rows (never a new computation), and a cell the
 * gate file requires (`require:`, src/config/holistic-require.ts) that is not gated makes the
 * verdict error (fail closed). Pure: report and gate file in, grid out.
 */
import { HOLISTIC_FAMILIES, perturbationFamilies, TOXICITY_METRICS, type HolisticFamily } from '../config/holistic-families.js'
import { runsByEntry } from '../config/holistic-require.js'
import type { GateConfig } from '../config/types.js'
import type { HolisticCell, HolisticGrid, HolisticRow } from '../model/holistic-grid.js'
import type { Report, ReportIssue, Verdict } from '../model/report.js'

const ORDER: Verdict[] = ['pass', 'inconclusive', 'fail', 'error']
const worst = (verdicts: readonly Verdict[]): Verdict =>
  verdicts.reduce<Verdict>((w, v) => (ORDER.indexOf(v) > ORDER.indexOf(w) ? v : w), 'pass')

const count = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`

type CellPart = Omit<HolisticCell, 'family' | 'required'>

const blank = (reason: string): CellPart => ({ state: 'blank', verdict: null, reason })

/** Gated when any row gates (the gated rows' verdict), shown otherwise (all rows' verdict). */
function fromRows(rows: readonly { gated: boolean; verdict: Verdict }[], what: string): CellPart {
  const gated = rows.filter(r => r.gated)
  const counted = gated.length > 0 ? gated : rows
  return {
    state: gated.length > 0 ? 'gated' : 'shown',
    verdict: worst(counted.map(r => r.verdict)),
    reason: `${count(counted.length, what)}${gated.length > 0 ? '' : ', shown only'}`
  }
}

/** The cells of one entry from the report's rows of its runs. */
function entryCells(entry: string, at: readonly number[], report: Report, config: GateConfig): Record<HolisticFamily, CellPart> {
  const comparisons = report.comparisons.filter(c => (c.entry ?? c.run) === entry)
  const runs = new Set(comparisons.map(c => c.run))
  const noRun: CellPart = blank('no comparison of this entry (see the errors)')
  const clean = comparisons.filter(c => c.perturbation === null)
  const perturbed = (family: 'robustness' | 'fairness'): CellPart => {
    if (!perturbationFamilies(entry).includes(family)) return blank(`perturbation not configured (data_augmentation=${family})`)
    const rows = comparisons.filter(c => c.perturbation !== null)
    return rows.length > 0 ? fromRows(rows, 'perturbed row') : blank('no perturbed instance was scored')
  }
  const calibrations = (report.calibrations ?? []).filter(r => runs.has(r.run))
  const chat = config.deployments && Object.values(config.deployments).some(d => d.kind === 'server' && d.api === 'chat')
  const checked = at.some(i => config.runs[i].calibration)
  const toxicity = comparisons.filter(c => (TOXICITY_METRICS as readonly string[]).includes(c.metric))
  const efficiency = report.efficiency.filter(e => runs.has(e.run))
  const lengths = (report.answer_lengths ?? []).filter(r => r.source !== 'traffic' && runs.has(r.run))
  return {
    accuracy: clean.length > 0 ? fromRows(clean, 'row') : noRun,
    calibration:
      calibrations.length > 0
        ? fromRows(calibrations, 'calibration row')
        : checked
          ? blank('the calibration check could not be computed (see the errors)')
          : chat
            ? blank('needs probabilities the API did not return (a chat API gives none)')
            : blank('not checked (runs[i].calibration)'),
    robustness: perturbed('robustness'),
    fairness: perturbed('fairness'),
    bias: blank("not paired: HELM's bias metrics are computed over a whole run, not per instance"),
    toxicity: toxicity.length > 0 ? fromRows(toxicity, 'toxicity row') : blank("not in this run's metric set"),
    efficiency:
      efficiency.length > 0
        ? {
            state: 'shown',
            verdict: null,
            reason: `request time, median ×${efficiency[0].median_ratio.estimate.toPrecision(3)}, shown only`
          }
        : blank('no request times recorded'),
    answer_length: lengths.length > 0 ? fromRows(lengths, 'answer-length row') : blank('no answers to measure'),
    fidelity: blank('measured for the gate as a whole')
  }
}

/** The grid of a report made from `config`. */
export function holisticGrid(report: Report, config: GateConfig): HolisticGrid {
  const required = config.require ?? []
  const families = [...HOLISTIC_FAMILIES]
  const cell = (family: HolisticFamily, part: CellPart): HolisticCell => ({ family, ...part, required: required.includes(family) })
  const rows: HolisticRow[] = [...runsByEntry(config.runs)].map(([entry, at]) => {
    const cells = entryCells(entry, at, report, config)
    return { entry, cells: families.filter(f => f !== 'fidelity').map(f => cell(f, cells[f])) }
  })
  const fidelity = report.fidelity
  const gate = [
    cell(
      'fidelity',
      fidelity && fidelity.checks.length > 0
        ? fromRows(
            fidelity.checks.map(c => ({ gated: true, verdict: c.verdict as Verdict })),
            'fidelity check'
          )
        : config.fidelity
          ? blank('the fidelity measurement did not complete (see the errors)')
          : blank('not configured (fidelity:)')
    )
  ]
  return { families, rows, gate, required: [...required] }
}

/** Why a required cell does not count: blank, or measured but not gated. */
function requiredProblem(cell: HolisticCell): string | null {
  if (!cell.required || cell.state === 'gated') return null
  return cell.state === 'blank' ? `it is blank: ${cell.reason}` : 'it was measured but not gated'
}

/**
 * The report with its grid, and an error for each required cell that is not gated (the gate
 * file's check at load makes that a run-time failure: a run that did not complete, a row that
 * could not be computed). The quality half's own verdict, when the report carries it, takes the
 * error too: the grid is part of the quality half.
 */
export function withHolisticGrid(report: Report, config: GateConfig): Report {
  const grid = holisticGrid(report, config)
  const issues: ReportIssue[] = []
  for (const row of grid.rows) {
    for (const cell of row.cells) {
      const problem = requiredProblem(cell)
      if (problem) issues.push(requiredIssue(config, `${cell.family} of ${row.entry}`, problem, cell.family))
    }
  }
  for (const cell of grid.gate) {
    const problem = requiredProblem(cell)
    if (problem) issues.push(requiredIssue(config, cell.family, problem, cell.family))
  }
  if (issues.length === 0) return { ...report, holistic: grid }
  const headline = `Error: ${count(issues.length, 'required cell')} of the holistic grid ${issues.length === 1 ? 'is' : 'are'} not gated (${issues[0].message}).`
  return {
    ...report,
    verdict: 'error',
    headline,
    errors: [...report.errors, ...issues],
    ...(report.quality ? { quality: { verdict: 'error' as const, errors: [...report.quality.errors, ...issues] } } : {}),
    holistic: grid
  }
}

function requiredIssue(config: GateConfig, what: string, problem: string, family: HolisticFamily): ReportIssue {
  const j = (config.require ?? []).indexOf(family)
  return {
    code: 'holistic.required_blank',
    message: `required cell ${what}: ${problem}`,
    file: config.source,
    field: `require[${j}]`,
    value: family
  }
}
