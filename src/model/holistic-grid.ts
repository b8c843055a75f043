/**
 * The holistic grid of a report (docs/report.md "The holistic grid"): one row per run entry, one
 * column per metric family (HELM's, then answer length and fidelity), each cell the paired verdict
 * where the gate measured it and a visible blank with its reason where it did not. Built by
 * src/holistic/grid.ts; rendered compact in the comment and in full in report.html.
 */
import type { HolisticFamily } from '../config/holistic-families.js'
import type { Verdict } from './verdict.js'

export interface HolisticCell {
  family: HolisticFamily
  /** gated: its verdict counts; shown: measured, information only; blank: not measured. */
  state: 'gated' | 'shown' | 'blank'
  /** The cell's verdict (the worst of its rows); null when blank. */
  verdict: Verdict | null
  /** What the cell is made of, or why it is blank. */
  reason: string
  /** Named in the gate file's `require:`. */
  required: boolean
}

export interface HolisticRow {
  /** The run entry as the gate file names it (or the run's name when no entry matched). */
  entry: string
  cells: HolisticCell[]
}

export interface HolisticGrid {
  families: HolisticFamily[]
  rows: HolisticRow[]
  /** Cells of the gate as a whole (fidelity), in `families` order where they apply. */
  gate: HolisticCell[]
  required: HolisticFamily[]
}
