/**
 * A measurement's own part of the report, and the definition a measurement gives of its whole
 * slice (docs/development.md "Adding a measurement"). The renderers (console, the comment,
 * report.html) and the decision line loop over `report.parts` and name no measurement: each
 * measurement says, in its own folder, what its part shows (a title, a verdict, tables, sentences,
 * and its words in the decision line). The part is data in report.json, so every reader of an
 * archived report (compare-shards, a replayed baseline, report.html) shows it without the
 * measurement's code.
 */
import type { GateSection } from '../config/sections.js'
import type { GateConfig } from '../config/types.js'
import type { SideEndpoint } from './side-endpoint.js'
import type { ReportIssue, Side, Verdict } from './verdict.js'

/** A table of plain text cells (untrusted text inside: every renderer escapes it). */
export interface PartTable {
  /** The column headings. */
  columns: string[]
  /** Columns whose cells are numbers, aligned right. */
  numeric?: number[]
  /** One row per line; a cell per column. */
  rows: string[][]
  /** Each row's verdict when the first column shows one (colours the console, marks the comment). */
  verdicts?: (Verdict | null)[]
  /** Detail for report.html only (the console and the comment keep to the first tables). */
  page_only?: boolean
}

/**
 * A sequence shown as pairs (report.html only): per position the text above (the baseline's) and
 * below (the candidate's), shaded by a signed value in [-1, 1] (red below zero, green above), a
 * framed pair where `marked`. Untrusted text inside.
 */
export interface PartStrip {
  /** What the strip is of (an instance id), for the page's `data-id`. */
  id: string
  /** The line above the strip. */
  label: string
  /** What the pairs are, under the label. */
  legend: string
  cells: { above: string; below: string | null; value: number; marked: boolean; title: string }[]
}

export interface ReportPart {
  /** The measurement's key, its gate-file section's (`fidelity`). */
  key: string
  /** The section heading (`Fidelity`). */
  title: string
  /** The part's own verdict; null: reported only, nothing gated. */
  verdict: Verdict | null
  /** After the heading's verdict word: `1 of 2 checks passed`; without a verdict, all it says (`reported, no check`). */
  summary: string
  /** Its words in the decision line (src/report/decision.ts): when it decides, and beside a part that does. */
  decision: { deciding: string; beside: string } | null
  tables: PartTable[]
  /** Sentences after the tables: what an open check needs, how it was measured, notes. */
  lines: string[]
  /** Pair strips for report.html (the page's detail); absent when none. */
  strips?: PartStrip[]
  /** The errors the part added to the report's (the report's `errors` holds every part's). */
  errors: ReportIssue[]
}

/** What `plan` gives a measurement's plan lines. */
export interface PlanContext {
  env: NodeJS.ProcessEnv
  /** Each side's endpoint from the run plan, or null where a side is not a server. */
  endpoints: Record<Side, SideEndpoint | null>
}

/**
 * A measurement's whole slice: everything here is optional, so a measurement takes only the seams
 * it needs. Its running is the SideMeasurement (model/measurement.ts) the list makes.
 */
export interface MeasurementDefinition {
  /** The key of its gate-file section and of its part of the report. */
  readonly key: string
  /** Its gate-file section (schema and validation). */
  readonly section?: GateSection
  /** What `plan` prints for it (lines starting `# `); empty when the gate file does not ask for it. */
  planLines?(config: GateConfig, context: PlanContext): Promise<string[]>
}
