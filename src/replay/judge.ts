/**
 * Judges the replayed answers (docs/traffic.md "Replay and judging") and turns them into rows of
 * the report's comparisons: per instance, the candidate (C) against the baseline (B1), the
 * baseline's rerun (B2) against B1 as the noise floor, the structural checks on B1 and C, and
 * the reference metrics where the set has a reference. Pure: states in, comparisons out.
 */
import type { CheckMargins, TrafficCheck, TrafficSettings } from '../config/traffic.js'
import { REPORTED_MARGINS } from '../config/traffic.js'
import type { StatisticsSettings } from '../config/types.js'
import { GateError } from '../errors.js'
import { comparisonRow, pairedDecision } from '../gate/comparison-row.js'
import type { ChangedExample, Comparison } from '../model/report.js'
import type { TrafficInstance } from '../config/traffic-set.js'
import { estimatePaired } from '../stats/index.js'
import type { Direction, PairedCluster } from '../stats/types.js'
import { SchemaCache, structuralChecks, type Answer, type StructuralOutcome } from './answer-checks.js'
import { exactMatch, f1Score, quasiExactMatch, rougeL, whitespaceFix } from './text-metrics.js'
import { redactText } from '../secrets/redact.js'

/** The three replays: the baseline (B1), its rerun (B2, absent without a noise floor), the candidate (C). */
export interface Replayed {
  b1: Answer[]
  b2: Answer[] | null
  c: Answer[]
}

export interface TrafficJudgement {
  comparisons: Comparison[]
  /** Every changed answer per comparison id, for report.html. */
  changed: Map<string, ChangedExample[]>
  notes: string[]
}

/**
 * The text two answers are compared by: the content, then each tool call as `name(arguments)`
 * with the arguments re-serialised (key order and spacing are the server's, not the model's).
 */
export function answerText(answer: Answer): string {
  const calls = (answer.tool_calls ?? []).map(call => {
    const fn = (call as { function?: { name?: unknown; arguments?: unknown } } | null)?.function
    let args = typeof fn?.arguments === 'string' ? fn.arguments : ''
    try {
      args = JSON.stringify(sortKeys(JSON.parse(args)))
    } catch {
      // Arguments that do not parse are compared as sent (and fail the tool-call check).
    }
    return `${String(fn?.name)}(${args})`
  })
  return [answer.content ?? '', ...calls].filter(Boolean).join('\n')
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map(key => [key, sortKeys((value as Record<string, unknown>)[key])])
    )
  }
  return value
}

/** The documented normalisation of agreement: whitespace collapsed, case folded when the gate file says. */
export function normaliseAnswer(text: string, ignoreCase: boolean): string {
  const collapsed = whitespaceFix(text)
  return ignoreCase ? collapsed.toLowerCase() : collapsed
}

/** Similarity of two answers in [0, 1]; two answers equal after normalisation are 1 (HELM's F1 of two empty texts is 0). */
export function similarity(a: string, b: string, measure: TrafficSettings['similarity'], ignoreCase: boolean): number {
  if (normaliseAnswer(a, ignoreCase) === normaliseAnswer(b, ignoreCase)) return 1
  return measure === 'rouge_l' ? rougeL(a, b) : f1Score(a, b)
}

const REFERENCE_METRICS: Partial<Record<TrafficCheck, (gold: string, pred: string) => number>> = {
  exact_match: exactMatch,
  quasi_exact_match: quasiExactMatch,
  f1_score: f1Score,
  rouge_l: rougeL
}

export function judgeTraffic(
  instances: TrafficInstance[],
  replayed: Replayed,
  traffic: TrafficSettings,
  statistics: StatisticsSettings,
  examples: number
): TrafficJudgement {
  const run = `traffic:${traffic.set}`
  const refusal = traffic.refusalPatterns.map(p => new RegExp(p, 'i'))
  const schemas = new SchemaCache()
  const texts = {
    b1: replayed.b1.map(answerText),
    b2: replayed.b2?.map(answerText) ?? null,
    c: replayed.c.map(answerText)
  }
  const structB = instances.map((inst, i) => structuralChecks(inst.request, replayed.b1[i], refusal, schemas))
  const structC = instances.map((inst, i) => structuralChecks(inst.request, replayed.c[i], refusal, schemas))

  const rows: Comparison[] = []
  const changed = new Map<string, ChangedExample[]>()
  const ctx: RowContext = { run, statistics, examples, rows, changed, instances, texts, margins: traffic.checks }
  const notes = addNoiseFloorRows(ctx, traffic)
  addStructuralRows(ctx, structB, structC)
  addReferenceRows(ctx)

  // The answer-length ratio is its own row with an interval (gate/answer-length.ts, run-traffic.ts).
  return { comparisons: rows, changed, notes }
}

/** The two noise-floor rows (disagreement, similarity), and the note on how much noise the baseline showed. */
function addNoiseFloorRows(ctx: RowContext, traffic: TrafficSettings): string[] {
  const { instances, texts } = ctx
  const norm = (t: string): string => normaliseAnswer(t, traffic.ignoreCase)
  const notes: string[] = []
  // Disagreement against the noise floor: N_i = 1[B2 != B1], D_i = 1[C != B1].
  const noise = instances.map((_, i) => (texts.b2 && norm(texts.b2[i]) !== norm(texts.b1[i]) ? 1 : 0))
  const change = instances.map((_, i) => (norm(texts.c[i]) !== norm(texts.b1[i]) ? 1 : 0))
  addRow(
    ctx,
    'disagreement',
    'lower',
    instances.map((_, i) => i),
    noise,
    change,
    'the excess of C-vs-B1 disagreement over B1-vs-B2'
  )
  const floor = instances.map((_, i) => (texts.b2 ? similarity(texts.b2[i], texts.b1[i], traffic.similarity, traffic.ignoreCase) : 1))
  const kept = instances.map((_, i) => similarity(texts.c[i], texts.b1[i], traffic.similarity, traffic.ignoreCase))
  addRow(
    ctx,
    'similarity',
    'higher',
    instances.map((_, i) => i),
    floor,
    kept,
    `${traffic.similarity} to B1, C against B2`
  )
  if (texts.b2 === null) {
    notes.push(
      'Traffic: the baseline was not rerun (baseline_reruns: 0), so the noise floor is taken as zero: any changed answer counts against the candidate.'
    )
  } else if (noise.every(n => n === 0)) {
    notes.push(
      `Traffic: the baseline answered all ${instances.length} requests identically twice (a deterministic server): the noise floor is zero, so the disagreement check reduces to "did the candidate change answers".`
    )
  }
  return notes
}

function addStructuralRows(ctx: RowContext, structB: StructuralOutcome[], structC: StructuralOutcome[]): void {
  const { instances } = ctx
  // Structural failures: paired 0/1 outcomes between B1 and C, on the instances each applies to.
  for (const check of ['invalid_json', 'invalid_tool_calls', 'truncation', 'refusals'] as const) {
    const applies = instances.map((_, i) => i).filter(i => structC[i][check] !== null && structB[i][check] !== null)
    if (applies.length === 0) continue
    const flag = (s: StructuralOutcome): number => (s[check] ? 1 : 0)
    addRow(
      ctx,
      check,
      'lower',
      applies,
      applies.map(i => flag(structB[i])),
      applies.map(i => flag(structC[i])),
      'failure rate, C against B1',
      i => [...structB[i].why.map(w => `baseline: ${w}`), ...structC[i].why.map(w => `candidate: ${w}`)].join('; ')
    )
  }
}

function addReferenceRows(ctx: RowContext): void {
  const { instances, texts } = ctx
  // Reference metrics, on the instances whose record has a reference.
  const withReference = instances.map((_, i) => i).filter(i => instances[i].reference !== null)
  if (withReference.length > 0) {
    for (const [check, metric] of Object.entries(REFERENCE_METRICS) as [TrafficCheck, (g: string, p: string) => number][]) {
      const gold = (i: number): string => instances[i].reference as string
      addRow(
        ctx,
        check,
        'higher',
        withReference,
        withReference.map(i => metric(gold(i), texts.b1[i])),
        withReference.map(i => metric(gold(i), texts.c[i])),
        'against the reference, C against B1'
      )
    }
  }
}

interface RowContext {
  run: string
  statistics: StatisticsSettings
  examples: number
  rows: Comparison[]
  changed: Map<string, ChangedExample[]>
  instances: TrafficInstance[]
  texts: { b1: string[]; b2: string[] | null; c: string[] }
  margins: CheckMargins
}

/**
 * One row: `base` and `cand` are per-instance values over `indices` (the noise floor and the
 * candidate's change for the noise-floor rows, B1 and C otherwise).
 */
function addRow(
  ctx: RowContext,
  check: TrafficCheck,
  direction: Direction,
  indices: number[],
  base: number[],
  cand: number[],
  what: string,
  why: (i: number) => string = () => ''
): void {
  const clusters: PairedCluster[] = base.map((b, k) => ({ baseline: [b], candidate: [cand[k]] }))
  const margin = ctx.margins[check]
  const tolerated = margin ?? REPORTED_MARGINS[check]
  let estimate
  try {
    estimate = estimatePaired(clusters, ctx.statistics)
  } catch (error) {
    if (error instanceof GateError) throw new GateError(error.code, `traffic ${check}: ${error.message}`, error.location)
    throw error
  }
  const decision = pairedDecision(estimate, tolerated, direction, ctx.statistics)
  const id = [ctx.run, check, '', 'clean'].join(' | ')
  const all: ChangedExample[] = []
  indices.forEach((i, k) => {
    // The candidate's side got worse on this instance (for disagreement: it changed the answer).
    const tolerance = ctx.statistics.flipTolerance
    const worse = direction === 'lower' ? cand[k] > base[k] + tolerance : cand[k] < base[k] - tolerance
    if (!worse && !(check === 'disagreement' && cand[k] === 1)) return
    const instance = ctx.instances[i]
    const reason = why(i)
    const example: ChangedExample = {
      instance_id: instance.id,
      train_trial_index: 0,
      // Shown in the report and the pull-request comment: credentials hidden as everywhere else.
      input: redactText(conversation(instance)),
      reference: redactText(instance.reference ?? ''),
      baseline_output: redactText(ctx.texts.b1[i]),
      candidate_output: redactText(ctx.texts.c[i]),
      baseline_value: base[k],
      candidate_value: cand[k]
    }
    if (reason) example.failed_check = reason
    example.stratum = instance.stratum
    all.push(example)
  })
  ctx.changed.set(id, all)
  ctx.rows.push(
    comparisonRow(
      {
        id,
        run: ctx.run,
        entry: 'traffic',
        metric: check,
        split: null,
        perturbation: null,
        gated: margin !== null,
        direction,
        unmatched: { baseline: 0, candidate: 0 },
        dropped: { baseline: 0, candidate: 0 },
        max_drop: tolerated,
        max_relative_drop: null
      },
      estimate,
      decision,
      { reason: `${what}: ${decision.reason}`, examples: all.slice(0, ctx.examples) }
    )
  )
}

/** The conversation as one text for the report: each message as `role: content` (untrusted: renderers escape it). */
export function conversation(instance: TrafficInstance): string {
  return instance.request.messages
    .map(m => `${m.role}: ${typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? m.tool_calls ?? null)}`)
    .join('\n')
}
