/// <reference lib="dom" />
/**
 * The header of report.html (docs/report.md): the verdict, the headline, the two sides named by
 * what they are with the rows whose sides differ marked, the statistics settings, and the errors
 * and warnings. Bundled into the page with html-client.ts (it imports only types); every text
 * goes in through `textContent` (the `el` the page gives it): identities come from servers.
 */
import type { Report, ReportIssue, SideInfo } from '../model/report.js'
import type { IdentityDiffers, IdentityRow, ServingRow } from '../model/side-identity.js'

type El = (
  tag: 'header' | 'h1' | 'h2' | 'p' | 'table' | 'tr' | 'th' | 'td' | 'ul' | 'li' | 'code',
  attrs?: Record<string, string>,
  ...children: (Node | string | null)[]
) => HTMLElement

function deploymentText(s: SideInfo): string {
  const id = s.identity
  return [id?.model ?? s.deployment, id?.host ? `on ${id.host}` : '', id?.api ? `(${id.api})` : ''].filter(Boolean).join(' ')
}

function engineText(s: SideInfo): string {
  const e = s.identity?.engine
  if (!e) return ''
  return [
    e.version && `version ${e.version}`,
    e.root && `weights ${e.root}`,
    e.max_model_len !== null && `context ${e.max_model_len}`,
    e.owned_by && `by ${e.owned_by}`,
    e.details
  ]
    .filter(Boolean)
    .join(' · ')
}

function imageText(s: SideInfo): string {
  const i = s.identity?.image
  if (!i) return ''
  return [i.name, i.digest ? `digest ${i.digest}` : i.id ? `image id ${i.id} (no registry digest)` : 'digest unknown'].join(' · ')
}

function weightsText(s: SideInfo): string {
  const w = s.identity?.weights
  if (!w) return ''
  return [w.file, w.sha256 ? `sha256 ${w.sha256}` : (w.error ?? '')].filter(Boolean).join(' · ')
}

function sourceText(s: SideInfo): string {
  const o = s.identity?.origin
  if (!o) return ''
  if (o.kind !== 'archived') return o.kind === 'run' ? 'run by this gate' : `from ${o.artifact_name ?? 'shard artifacts'}`
  return [
    'archived',
    o.workflow_run_id !== undefined && `run ${o.workflow_run_id}`,
    o.age_hours !== undefined && `${Math.round(o.age_hours)} h old`
  ]
    .filter(Boolean)
    .join(', ')
}

/** The sides table; `differs` is per header row (computed by html.ts from model/side-identity.ts). */
function sidesTable(el: El, report: Report, differs: IdentityDiffers | undefined): HTMLElement {
  const sides = el('table', { class: 'sides' })
  const row = (label: string, read: (s: SideInfo) => string, key?: IdentityRow): void => {
    const cells = [read(report.baseline), read(report.candidate)]
    if (cells.every(c => c === '')) return
    const marked = key !== undefined && differs?.[key] === true
    sides.append(
      el(
        'tr',
        marked ? { class: 'differs' } : {},
        el('th', {}, marked ? `${label} (differs)` : label),
        ...cells.map(c => el('td', {}, c || '—'))
      )
    )
  }
  sides.append(el('tr', {}, el('th', {}, ''), el('th', {}, 'Baseline'), el('th', {}, 'Candidate')))
  row('Deployment', deploymentText, 'deployment')
  row('Engine', engineText, 'engine')
  // The serving configuration, compared when the report was built: a row whose sides differ is marked.
  const serving = report.context?.serving
  const servingRow = (label: string, r: ServingRow | null | undefined): void => {
    if (!r) return
    sides.append(
      el(
        'tr',
        r.differs ? { class: 'differs' } : {},
        el('th', {}, r.differs ? `${label} (differs)` : label),
        el('td', {}, r.baseline || '—'),
        el('td', {}, r.candidate || '—')
      )
    )
  }
  servingRow('Chat template', serving?.chat_template)
  // What the harness's own requests sent (HELM's adapter spec), beside what the server would default to.
  row('Sampling (requests)', s => s.requested_sampling?.cell ?? '', 'requested_sampling')
  servingRow('Sampling (server defaults)', serving?.sampling)
  row('Image', imageText, 'image')
  row('Weights', weightsText, 'weights')
  row('HELM', s => s.helm_version ?? '')
  row('Source', sourceText)
  return sides
}

/** Verdict, headline, sides, settings, then the errors and warnings. */
export function headerSection(el: El, report: Report, differs: IdentityDiffers | undefined): HTMLElement {
  const box = el(
    'header',
    {},
    el('h1', { class: `verdict ${report.verdict}` }, `helm-gate: ${report.verdict}`),
    el('p', {}, report.headline)
  )
  box.append(sidesTable(el, report, differs))
  const s = report.settings
  const fingerprint = report.context?.fingerprint
  box.append(
    el(
      'p',
      { class: 'settings' },
      `${fingerprint ? `Gate set ${String(fingerprint).slice(0, 16)} · ` : ''}${Math.round(s.confidence * 1000) / 10}% intervals (${s.interval}), ${s.resamples} resamples, seed ${s.seed}`
    )
  )
  for (const [kind, list] of [
    ['errors', report.errors],
    ['warnings', report.warnings]
  ] as const) {
    if (!list.length) continue
    box.append(el('h2', {}, `${kind === 'errors' ? 'Errors' : 'Warnings'} (${list.length})`))
    box.append(el('ul', { class: kind }, ...list.map((i: ReportIssue) => el('li', {}, el('code', {}, i.code), ' ', i.message))))
  }
  return box
}
