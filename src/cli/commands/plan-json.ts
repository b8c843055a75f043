/**
 * `helm-gate plan --json`: the plan as one JSON document on standard output, for scripts that
 * check a gate file before spending on it (docs/cli.md "plan --json"). It holds what the text plan
 * shows, structured: the fingerprint or why it could not be computed, the measurements in order,
 * the instances per comparison or why they were not counted, and each side's deployment, command
 * (an argument array) and prod_env files, secrets redacted; `lines` is the text plan itself.
 */
import type { CountResult } from '../../runner/instance-count.js'
import type { MetricNameCheck } from '../../runner/metric-names.js'
import { PROD_ENV_FILES, redactedFiles } from '../../runner/prod-env.js'
import type { PreparedRun } from '../../runner/prepare-run.js'
import { redactText } from '../../secrets/redact.js'

/** Raised when the document's shape changes incompatibly. */
export const PLAN_JSON_VERSION = 1

export interface PlanJsonInput {
  source: string
  prepared: PreparedRun
  fingerprint: { value: string } | { problem: string }
  measurements: string[]
  /** null: not counted (--no-count, or a runner command's side). */
  counts: CountResult | null
  /** null: not checked (--no-count, or every side a runner command). */
  names: MetricNameCheck | null
  pythonPath: string
  lines: string[]
}

export function renderPlanJson(input: PlanJsonInput): string {
  const doc = {
    plan_json_version: PLAN_JSON_VERSION,
    config: input.source,
    helm_version: input.prepared.helm.version,
    max_eval_instances: input.prepared.helm.maxEvalInstances,
    fingerprint: 'value' in input.fingerprint ? input.fingerprint.value : null,
    fingerprint_problem: 'problem' in input.fingerprint ? input.fingerprint.problem : null,
    measurements: input.measurements,
    instances: instancesPart(input.counts),
    metric_names:
      input.names === null
        ? { checked: false, lines: [], refused: [] }
        : {
            checked: true,
            lines: input.names.lines,
            refused: input.names.refused.map(error => ({ code: error.code, message: error.message, ...error.location }))
          },
    sides: input.prepared.plans.map(plan =>
      plan.runner
        ? {
            side: plan.side,
            made_by: 'runner command',
            working_directory: plan.workDir,
            invocations: plan.runner.map(call => ({ entry: call.entry, argv: [call.command, ...call.args] }))
          }
        : {
            side: plan.side,
            made_by: 'helm-run',
            deployment: plan.prodEnv.deployment,
            entries: plan.entries,
            argv: [plan.command, ...plan.args],
            env: { PYTHONPATH: input.pythonPath },
            prod_env: Object.fromEntries(PROD_ENV_FILES.map(name => [name, redactedFiles(plan.prodEnv)[name]]))
          }
    ),
    lines: input.lines
  }
  // Every string through the one redactor (as the text plan is), then the whole text once more:
  // a credential in a command line or a template is hidden whatever field it sits in.
  return `${redactText(JSON.stringify(redactStrings(doc), null, 2))}\n`
}

function instancesPart(counts: CountResult | null): object {
  if (counts === null) return { counted: false, problem: 'not counted' }
  if (!counts.ok) return { counted: false, problem: counts.problem }
  return {
    counted: true,
    comparisons: counts.counts.map(c => ({ entry: c.run.entry, metric: c.run.metric, split: c.split, n: c.n }))
  }
}

function redactStrings(value: unknown): unknown {
  if (typeof value === 'string') return redactText(value)
  if (Array.isArray(value)) return value.map(redactStrings)
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactStrings(item)]))
  }
  return value
}
