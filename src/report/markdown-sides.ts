/**
 * The markdown report's header table: the two sides named by what they are, the serving
 * configuration compared once, and the statistics settings (docs/report.md). Pure: a report in,
 * lines out; every value from a side goes through `escape.ts`.
 */
import { codeSpan, escapeInline } from './escape.js'
import { formatCount, formatLevel } from './format.js'
import { imageCell, weightsCell } from './identity-cells.js'
import type { Report, SideInfo } from '../model/report.js'
import { identityDiffers, type IdentityRow, type ServingRow } from '../model/side-identity.js'

/** A code span in the header holds at most this many characters: two sides' cells then fit 800 px (the full values are in the JSON). */
const IDENTITY_CODE_LENGTH = 40

type SideRow = [string, (info: SideInfo) => string]

function deploymentCell(info: SideInfo): string {
  const id = info.identity
  const model = id?.model ?? info.deployment
  const parts: string[] = []
  if (model) parts.push(codeSpan(model, { maxLength: IDENTITY_CODE_LENGTH, inTable: true }))
  if (id?.host) parts.push(`on ${codeSpan(id.host, { maxLength: IDENTITY_CODE_LENGTH, inTable: true })}`)
  if (id?.api) parts.push(`(${escapeInline(id.api, 20)})`)
  return parts.join(' ')
}

function engineCell(info: SideInfo): string {
  const e = info.identity?.engine
  if (!e) return ''
  const parts: string[] = []
  if (e.version) parts.push(`version ${codeSpan(e.version, { maxLength: 40, inTable: true })}`)
  if (e.root) parts.push(`weights ${codeSpan(e.root, { maxLength: IDENTITY_CODE_LENGTH, inTable: true })}`)
  if (e.max_model_len !== null) parts.push(`context ${formatCount(e.max_model_len)}`)
  if (e.owned_by) parts.push(`by ${escapeInline(e.owned_by, 30)}`)
  if (e.details) parts.push(escapeInline(e.details, 80))
  return parts.join(' · ')
}

function sourceCell(info: SideInfo): string {
  const o = info.identity?.origin
  if (!o) return ''
  if (o.kind === 'run') return 'run by this gate'
  if (o.kind === 'given') return 'given folder'
  if (o.kind === 'artifact')
    return `from ${o.artifact_name ? codeSpan(o.artifact_name, { maxLength: 60, inTable: true }) : 'shard artifacts'}`
  // "archived baseline #1125 from run 1201 at `abc…`, 2.0 h old": the artifact and the run, never a path.
  let archived = 'archived baseline'
  if (o.artifact_id !== undefined) archived += ` #${o.artifact_id}`
  if (o.workflow_run_id !== undefined) archived += ` from run ${o.workflow_run_id}`
  const parts = [escapeInline(archived, 80) + (o.head_sha ? ` at ${codeSpan(o.head_sha.slice(0, 12), { inTable: true })}` : '')]
  if (o.age_hours !== undefined && Number.isFinite(o.age_hours)) parts.push(ageText(o.age_hours))
  return parts.join(', ')
}

function ageText(hours: number): string {
  if (hours < 48) return `${Math.max(0, hours).toFixed(1)} h old`
  return `${formatCount(Math.round(hours / 24))} days old`
}

/** The header's rows, in order, each its label (marked when the sides differ) and how to read a side. */
function sideRows(report: Report): SideRow[] {
  // The serving configuration, compared once (model/side-identity.ts): a row whose sides differ is
  // marked, since a changed chat template or sampling default changes answers with the same weights.
  const serving = report.context?.serving
  const servingRow = (label: string, row: ServingRow | null | undefined): SideRow[] =>
    row
      ? [
          [
            row.differs ? `${label} **(differs)**` : label,
            info => escapeInline(info === report.candidate ? row.candidate : row.baseline, 200)
          ]
        ]
      : []
  const differs = identityDiffers(report.baseline.identity, report.candidate.identity, serving, {
    baseline: report.baseline.requested_sampling,
    candidate: report.candidate.requested_sampling
  })
  const marked = (label: string, row: IdentityRow): string => (differs[row] ? `${label} **(differs)**` : label)
  return [
    [marked('Deployment', 'deployment'), deploymentCell],
    [marked('Engine', 'engine'), engineCell],
    ...servingRow('Chat template', serving?.chat_template),
    // What the harness's own requests sent (HELM's adapter spec), beside what the server would default to.
    [marked('Sampling (requests)', 'requested_sampling'), info => escapeInline(info.requested_sampling?.cell ?? '', 200)],
    ...servingRow('Sampling (server defaults)', serving?.sampling),
    [marked('Image', 'image'), info => imageCell(info.identity?.image)],
    [marked('Weights', 'weights'), info => weightsCell(info.identity?.weights)],
    ['HELM', info => (info.helm_version ? codeSpan(info.helm_version, { maxLength: 20, inTable: true }) : '')],
    ['Source', sourceCell]
  ]
}

/**
 * The two sides named by what they are (served model, host, API, engine, HELM version, where an
 * archived baseline came from), in a three-column table that fits the page; never file-system
 * paths, which stay in the JSON.
 */
export function sidesBlock(report: Report): string[] {
  const sides = [report.baseline, report.candidate]
  const cell = (text: string): string => text || '—'
  const lines = ['| | Baseline | Candidate |', '|---|---|---|']
  for (const [label, read] of sideRows(report)) {
    const cells = sides.map(read)
    // A row nobody can fill (an engine that does not say its version) is left out.
    if (cells.every(c => c === '')) continue
    lines.push(`| ${label} | ${cells.map(cell).join(' | ')} |`)
  }
  const s = report.settings
  const fingerprint = report.context?.fingerprint
  const facts = [
    ...(fingerprint ? [`Gate set ${codeSpan(fingerprint.slice(0, 16))}`] : []),
    `${formatLevel(s.confidence)} intervals (${escapeInline(s.interval, 40)}), ${formatCount(s.resamples)} resamples, seed ${escapeInline(String(s.seed), 40)}`
  ]
  return [...(lines.length > 2 ? lines : []), ...(lines.length > 2 ? [''] : []), `${facts.join(' · ')}.`]
}
