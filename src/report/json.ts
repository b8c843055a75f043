/**
 * The report as JSON text: the published, documented format (docs/report.md, "report.json and
 * the renderings").
 *
 * Equal reports give byte-identical text, whatever order the producer built the objects in:
 * keys are written in the order of `model.ts`; keys the model does not (yet) list follow, sorted.
 * Two-space indent, `\n` line ends and a trailing newline.
 *
 * Numbers: JSON has no NaN or Infinity, and a report must always be writable (it is the evidence
 * of a run, uploaded whatever the outcome), so a non-finite number is written as `null`, the
 * same as `JSON.stringify` does, and `-0` as `0`. The engine never produces them for a
 * comparison that reached a verdict; a `null` where a number belongs marks a defect upstream.
 * Properties whose value is `undefined` (unset optional fields) are omitted.
 */
import type { Report } from '../model/report.js'

interface Shape {
  keys: readonly string[]
  /** Shapes of nested objects, or of the elements of nested arrays, by key. */
  children?: Readonly<Record<string, Shape>>
}

const INTERVAL: Shape = { keys: ['estimate', 'low', 'high'] }
const ISSUE: Shape = { keys: ['code', 'message', 'file', 'field', 'value'] }
const SIDE: Shape = { keys: ['path', 'runs', 'deployment', 'helm_version'] }

const EXAMPLE: Shape = {
  keys: [
    'instance_id',
    'train_trial_index',
    'input',
    'reference',
    'baseline_output',
    'candidate_output',
    'baseline_value',
    'candidate_value'
  ]
}

const COMPARISON: Shape = {
  keys: [
    'id',
    'run',
    'entry',
    'metric',
    'split',
    'perturbation',
    'gated',
    'direction',
    'binary',
    'n',
    'pairs',
    'unmatched',
    'dropped',
    'baseline_mean',
    'candidate_mean',
    'delta',
    'ci',
    'wins',
    'losses',
    'unchanged',
    'p_value',
    'change_direction',
    'max_drop',
    'max_relative_drop',
    'verdict',
    'n_needed',
    'reason',
    'examples'
  ],
  children: {
    unmatched: { keys: ['baseline', 'candidate'] },
    dropped: { keys: ['baseline', 'candidate'] },
    ci: { keys: ['level', 'low', 'high', 'method'] },
    examples: EXAMPLE
  }
}

const EFFICIENCY: Shape = {
  keys: ['run', 'metric', 'n', 'baseline_median', 'candidate_median', 'median_ratio', 'p90_ratio'],
  children: { median_ratio: INTERVAL, p90_ratio: INTERVAL }
}

const REPORT: Shape = {
  keys: [
    'schema_version',
    'tool',
    'verdict',
    'headline',
    'errors',
    'warnings',
    'settings',
    'baseline',
    'candidate',
    'comparisons',
    'efficiency',
    'notes',
    'load',
    'quality',
    'parts'
  ],
  children: {
    tool: { keys: ['name', 'version'] },
    errors: ISSUE,
    warnings: ISSUE,
    settings: { keys: ['confidence', 'resamples', 'seed', 'min_overlap', 'interval'] },
    baseline: SIDE,
    candidate: SIDE,
    comparisons: COMPARISON,
    efficiency: EFFICIENCY,
    quality: { keys: ['verdict', 'errors'], children: { errors: ISSUE } },
    parts: {
      keys: ['key', 'title', 'verdict', 'summary', 'decision', 'tables', 'lines', 'errors', 'strips'],
      children: {
        decision: { keys: ['deciding', 'beside'] },
        tables: { keys: ['columns', 'numeric', 'rows', 'verdicts', 'page_only'] },
        errors: ISSUE,
        strips: { keys: ['id', 'label', 'legend', 'cells'], children: { cells: { keys: ['above', 'below', 'value', 'marked', 'title'] } } }
      }
    }
  }
}

/** A copy of `value` whose objects carry their keys in canonical order (see the file comment). */
function canonical(value: unknown, shape: Shape | undefined): unknown {
  if (typeof value === 'number') return Number.isFinite(value) ? (Object.is(value, -0) ? 0 : value) : null
  if (Array.isArray(value)) return value.map(item => canonical(item ?? null, shape))
  if (value === null || typeof value !== 'object') return value
  const source = value as Record<string, unknown>
  const known = shape?.keys ?? []
  const extra = Object.keys(source)
    .filter(key => !known.includes(key))
    .sort()
  const out: Record<string, unknown> = {}
  for (const key of [...known, ...extra]) {
    if (!Object.prototype.hasOwnProperty.call(source, key) || source[key] === undefined) continue
    out[key] = canonical(source[key], shape?.children?.[key])
  }
  return out
}

export function renderJson(report: Report): string {
  return `${JSON.stringify(canonical(report, REPORT), null, 2)}\n`
}
