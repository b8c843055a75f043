/**
 * `helm-gate plan --config FILE`: print the run plan (src/plan/run-plan.ts, made as run makes
 * it: each side's endpoint and key variable, launch, the schedule, the fingerprint, the
 * measurements in order), the prod_env files each side would get (secrets redacted) and the exact
 * helm-run commands, without running anything.
 */
import { join, resolve } from 'node:path'
import { availableParallelism, tmpdir } from 'node:os'
import { GateError } from '../../errors.js'
import { makeRunPlan, planSides, scheduleOf, type PlannedSides } from '../../plan/run-plan.js'
import { runPlanLines } from '../../plan/run-plan-lines.js'
import { gateSections, measurementPlanLines } from '../../pipeline/measurement-definitions.js'
import { measurementsFor } from '../../pipeline/measurements.js'
import { loadGateConfig } from '../../config/load.js'
import { describeBand } from '../../config/answer-length-band.js'
import { describeCalibrationCheck } from '../../config/calibration-check.js'
import { checkStoppingSchedule, describeStopping } from '../../config/sequential-section.js'
import { planStages } from '../../sequential/stages.js'
import { pluginPythonPath, resolveHelmRun } from '../../runner/helm-install.js'
import { countInstances, type CountResult, type InstanceCount } from '../../runner/instance-count.js'
import { checkPreparedMetricNames, refusalOf, type MetricNameCheck } from '../../runner/metric-names.js'
import { PROD_ENV_FILES, redactedFiles } from '../../runner/prod-env.js'
import { prepareRun, type PreparedRun } from '../../runner/prepare-run.js'
import { DEFAULT_READINESS_TIMEOUT_MS } from '../../runner/run-sides.js'
import { displayCommand } from '../../runner/side-plan.js'
import { numberOption, parseArgs, requiredConfig } from '../args.js'
import type { CliIo } from '../io.js'
import type { GateConfig } from '../../config/types.js'
import { instanceLines } from './plan-instances.js'
import { renderPlanJson, type PlanJsonInput } from './plan-json.js'
import { redactText, redactUrl } from '../../secrets/redact.js'
import { launchLines, loadModeLines, scheduleLine, type LaunchPlanInput } from '../../launch/plan-lines.js'
import { measureSwap } from '../../launch/side-holder.js'
import { childProcessEnv } from '../../secrets/child-env.js'
import { PLAN_USAGE } from '../usage.js'
import { counted } from '../../words.js'

const SPECS = {
  config: { value: true },
  out: { value: true },
  'self-check': { value: false },
  'ready-timeout': { value: true },
  discordance: { value: true },
  'no-count': { value: false },
  'measure-swap': { value: false },
  sequential: { value: false },
  'baseline-ref': { value: true },
  json: { value: false },
  debug: { value: false },
  help: { value: false }
}

export async function planCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, SPECS)
  if (args.flags.has('help')) {
    io.stdout(PLAN_USAGE)
    return 0
  }
  const configPath = requiredConfig(args, PLAN_USAGE)
  const readySeconds = numberOption(args, 'ready-timeout', n => n > 0 && n <= 3600, 'seconds between 0 and 3600')
  const discordance = numberOption(args, 'discordance', n => n > 0 && n <= 1, 'a rate in (0, 1]')
  const config = await loadGateConfig(resolve(io.cwd, configPath), { sections: gateSections() })
  const outDir = resolve(io.cwd, args.options.get('out') ?? join('helm-gate-runs', 'TIMESTAMP'))
  // The real run uses a fresh private temporary directory; show where it would be.
  const tempDir = join(tmpdir(), 'helm-gate-XXXXXX')
  const prepared = await prepareRun(config, {
    outDir,
    sides: ['baseline', 'candidate'],
    selfCheck: args.flags.has('self-check'),
    tempDir,
    stamp: 'TIMESTAMP'
  })
  let pythonPath: string
  try {
    pythonPath = await pluginPythonPath(io.env)
  } catch {
    pythonPath = '<helm-gate>/python'
  }

  const runnerSides = prepared.plans.filter(plan => plan.runner !== null).map(plan => plan.side)
  const out = headerLines(config, prepared, runnerSides)
  const baseRef = args.options.get('baseline-ref') ?? null
  const sequential = args.flags.has('sequential')
  const selfCheck = args.flags.has('self-check')
  const { sides, fingerprint } = await shownPlan(config, io, baseRef, sequential)
  checkStoppingSchedule(config.stopping, config.source, scheduleOf(config.launch, sequential))
  out.push(
    'value' in fingerprint
      ? `# fingerprint ${fingerprint.value}`
      : `# fingerprint: could not be computed: ${fingerprint.problem} (run would stop here)`
  )
  const launchInput = launchPlanInput(config, prepared, io.env, sides, sequential, baseRef)
  out.push(scheduleLine(launchInput))
  const planned = measurementNames(config, prepared, sides, io, { baseRef, sequential, selfCheck })
  out.push(...runPlanLines({ config, sides, selfCheck, ...planned }))
  out.push('# cache disabled; fresh suite per side')
  out.push(...readinessLines(prepared, config, readySeconds ?? DEFAULT_READINESS_TIMEOUT_MS / 1000, args.flags.has('self-check')))
  out.push(...launchLines(launchInput))
  if (config.load) {
    const swapMs = args.flags.has('measure-swap')
      ? await measureSwap(config, { cwd: io.cwd, env: io.env, baseRef, progress: line => io.stderr(`${line}\n`), sides })
      : null
    out.push('', ...loadModeLines(config, sequential, availableParallelism(), swapMs))
  }
  out.push(...checkLines(config))
  // Each measurement's own lines (src/pipeline/measurement-definitions.ts), in the order they run.
  out.push(...(await measurementPlanLines(config, { env: io.env, endpoints: sides.endpoints })))
  const counts = args.flags.has('no-count') ? null : await countSection(config, prepared, io, runnerSides.length > 0, discordance)
  if (counts) out.push(...counts.lines)
  // The gated metric names, checked as run checks them before it spends anything.
  const names = args.flags.has('no-count') || runnerSides.length === prepared.plans.length ? null : await metricNames(prepared, config, io)
  if (names) {
    out.push("# gated metric names (each run spec's metrics asked what they write; no scenario is built):")
    out.push(...names.lines.map(line => `#   ${line}`))
  }
  const refusal = refusalOf(names)
  out.push(...sideLines(config, prepared, pythonPath))
  const measurements = [planned.quality, ...planned.measurements]
  const shown = { source: config.source, prepared, fingerprint, measurements, counts: counts?.result ?? null, names, pythonPath }
  printPlan(io, args.flags.has('json'), { ...shown, lines: out })
  // The plan is printed either way; a gate file run would refuse exits 2 with run's own error.
  if (refusal) throw refusal
  return 0
}

/** The plan as --json asks, or as text with every credential the one redactor knows hidden. */
function printPlan(io: CliIo, asJson: boolean, plan: PlanJsonInput): void {
  if (asJson) {
    io.stdout(renderPlanJson(plan))
    return
  }
  // The prod_env files are redacted by structure above; the whole plan then goes through the one
  // redactor, so a credential in a command line, a launch template or a comment is hidden too.
  io.stdout(`${redactText(plan.lines.join('\n'))}\n`)
}

/** The plan's first lines: the gate file, the HELM version run insists on, and who makes each side's output. */
function headerLines(config: GateConfig, prepared: PreparedRun, runnerSides: Array<'baseline' | 'candidate'>): string[] {
  const out = [`# helm-gate plan for ${config.source}`]
  if (runnerSides.length < prepared.plans.length) {
    out.push(`# crfm-helm ${prepared.helm.version} (the run refuses any other installed version)`)
  }
  // Both sides write the same kind of output (the gate file's validation saw to it).
  const lmEvalOutput = prepared.plans.some(plan => plan.runner !== null && lmEvalSide(config, plan.side))
  if (runnerSides.length > 0) {
    out.push(
      lmEvalOutput
        ? `# ${runnerSides.join(' and ')}: made by a runner command writing lm-eval output (command_output: lm-eval), once per side for all entries (--tasks), in a private working directory`
        : `# ${runnerSides.join(' and ')}: made by a runner command, once per entry, in a private working directory; the command brings its own HELM`
    )
  }
  return out
}

/** The gate file's extra checks: answer length, calibration, sequential stopping, the required grid. */
function checkLines(config: GateConfig): string[] {
  const out: string[] = []
  const lengthBands = config.runs.filter(run => run.answerLength).map(run => `${run.entry} ${describeBand(run.answerLength)}`)
  if (lengthBands.length > 0) out.push(`# answer_length_ratio (candidate/baseline mean answer length): ${lengthBands.join('; ')}`)
  const calibrationChecks = config.runs.flatMap(run =>
    run.calibration ? [`${run.entry} ${describeCalibrationCheck(run.calibration)}`] : []
  )
  if (calibrationChecks.length > 0) {
    out.push(
      `# calibration (candidate minus baseline, paired over instances; needs max_prob from log-probabilities): ${calibrationChecks.join('; ')}`
    )
  }
  if (config.stopping) {
    for (const entry of new Set(config.runs.map(run => run.entry))) out.push(`# sequential: ${entry} ${describeStopping(config.stopping)}`)
  }
  if (config.require && config.require.length > 0) {
    out.push(`# holistic grid: required (gated for every entry, blank is an error): ${config.require.join(', ')}`)
  }
  return out
}

/** Each side's section: a runner command's calls, or HELM's prod_env files (redacted) and helm-run command. */
function sideLines(config: GateConfig, prepared: PreparedRun, pythonPath: string): string[] {
  const out: string[] = []
  for (const plan of prepared.plans) {
    if (plan.runner) {
      const count = counted(plan.entries.length, 'entry', 'entries')
      out.push(
        '',
        `## ${plan.side}: runner command, ${lmEvalSide(config, plan.side) ? `lm-eval output, ${count} in one invocation` : count}`
      )
      out.push(`## working directory ${plan.workDir} (temporary, removed after the run)`)
      for (const call of plan.runner) out.push('', `### ${call.entry}`, displayCommand(call.command, call.args))
      continue
    }
    out.push(
      '',
      `## ${plan.side}: HELM deployment ${plan.prodEnv.deployment}`,
      `## --local-path ${plan.localPath} (temporary, removed after the run)`
    )
    const files = redactedFiles(plan.prodEnv)
    for (const name of PROD_ENV_FILES) {
      out.push('', `### ${name}`, files[name].trimEnd() || '(empty)')
    }
    out.push('', `### command`, displayCommand(plan.command, plan.args, { PYTHONPATH: pythonPath }))
  }
  return out
}

function lmEvalSide(config: GateConfig, side: 'baseline' | 'candidate'): boolean {
  const deployment = config.deployments?.[side]
  return deployment?.kind === 'command' && deployment.output === 'lm-eval'
}

/**
 * What run waits for before starting helm-run, per side, with the timeout that applies to it: a
 * launched server's own ready_timeout_seconds, else --ready-timeout (one header value would be
 * wrong for one of them).
 */
function readinessLines(prepared: PreparedRun, config: GateConfig, seconds: number, selfCheck: boolean): string[] {
  const servers = Object.entries(prepared.deployments).flatMap(([side, d]) => {
    if (d.kind !== 'server') return []
    // A self-check runs the baseline's server on both sides, launched as the baseline's.
    const launch = config.launch?.sides[selfCheck ? 'baseline' : (side as 'baseline' | 'candidate')]
    const within = launch
      ? `${launch.readyTimeoutSeconds} s (launched: ${launch.field}.ready_timeout_seconds; a progress line every 30 s)`
      : `${seconds} s (run --ready-timeout SEC; a progress line every 10 s)`
    return [`#   ${side}: GET ${redactUrl(d.baseUrl.replace(/\/+$/, ''))}/models must list ${d.model} within ${within}`]
  })
  if (servers.length === 0) return []
  return ['# readiness: before helm-run starts, each server must answer:', ...servers]
}

/**
 * The run plan as run makes it (src/plan/run-plan.ts), and the fingerprint run records and
 * archived baselines are looked up by: with fingerprint_paths, the selected files' digests at the
 * base commit join it, exactly as in run and the action. A fingerprint that cannot be computed is
 * shown as the problem (run stops there) beside the plan's sides.
 */
async function shownPlan(
  config: GateConfig,
  io: CliIo,
  baseRef: string | null,
  sequential: boolean
): Promise<{ sides: PlannedSides; fingerprint: { value: string } | { problem: string } }> {
  try {
    const plan = await makeRunPlan(config, { env: io.env, cwd: io.cwd, baseRef, sequential })
    return { sides: plan, fingerprint: { value: plan.fingerprint } }
  } catch (error) {
    if (!(error instanceof GateError)) throw error
    return { sides: planSides(config, io.env), fingerprint: { problem: error.describe() } }
  }
}

/**
 * The measurements run would take, in order, named by themselves (src/pipeline/measurements.ts
 * lists them; nothing is measured here): the quality half first, then each of the others. The
 * load half follows a full run when the gate file has load: (not with --self-check, as in run).
 */
function measurementNames(
  config: GateConfig,
  prepared: PreparedRun,
  sides: PlannedSides,
  io: CliIo,
  run: { baseRef: string | null; sequential: boolean; selfCheck: boolean }
): { quality: string; measurements: string[] } {
  const makers = [...new Set(prepared.plans.map(plan => (plan.runner ? 'a runner command' : 'helm-run')))]
  const measurements = measurementsFor(config, {
    compare: true,
    load: config.load && !run.selfCheck ? {} : null,
    outDir: io.cwd,
    cwd: io.cwd,
    env: io.env,
    progress: () => {},
    baseRef: run.baseRef,
    sequential: run.sequential,
    toRun: ['baseline', 'candidate'],
    plan: sides
  })
  return { quality: `the quality half (${makers.join(' or ')} on each side)`, measurements: measurements.map(m => m.name) }
}

/** Instances per comparison, counted by a helm-run dry run; a failure to count is a note, not an error. */
async function countAll(prepared: PreparedRun, io: CliIo): Promise<CountResult> {
  try {
    const helmRun = await resolveHelmRun(prepared.helm.command, io.env, io.cwd)
    return await countInstances(prepared.plans[0], prepared.runs, { helmRun, pluginPath: await pluginPythonPath(io.env), env: io.env })
  } catch (error) {
    return { ok: false, problem: error instanceof Error ? error.message : String(error) }
  }
}

async function metricNames(prepared: PreparedRun, config: GateConfig, io: CliIo): Promise<MetricNameCheck> {
  try {
    const helmRun = await resolveHelmRun(prepared.helm.command, io.env, io.cwd)
    const pluginPath = await pluginPythonPath(io.env)
    return (
      (await checkPreparedMetricNames(prepared, { helmRun, pluginPath, env: io.env, source: config.source })) ?? { lines: [], refused: [] }
    )
  } catch (error) {
    return { lines: [`not checked: ${error instanceof Error ? error.message : String(error)}`], refused: [] }
  }
}

/**
 * The instance counts' lines; no count when a side is a runner command. A sequential schedule the
 * counts cannot stage is refused here, as at run start.
 */
async function countSection(
  config: GateConfig,
  prepared: PreparedRun,
  io: CliIo,
  runnerSide: boolean,
  discordance: number | undefined
): Promise<{ result: CountResult | null; lines: string[] }> {
  if (runnerSide) {
    return {
      result: null,
      lines: [
        '# instances per comparison: not counted (helm-run --dry-run cannot speak for a runner command); at most helm.max_eval_instances'
      ]
    }
  }
  const result = await countAll(prepared, io)
  const lines = countLines(result, config, prepared, discordance)
  if (config.stopping && result.ok) refuseUnstageable(config, result.counts)
  return { result, lines }
}

function countLines(result: CountResult, config: GateConfig, prepared: PreparedRun, discordance: number | undefined): string[] {
  const head = '# instances per comparison (helm-run --dry-run with the same entries; no request sent):'
  if (!result.ok) return [head, `#   could not count them: ${result.problem} (plan --no-count skips this)`]
  const { lines, warnings } = instanceLines(result.counts, config, { maxEvalInstances: prepared.helm.maxEvalInstances, discordance })
  return [head, ...lines.map(line => `#   ${line}`), ...warnings.map(line => `# WARNING ${line}`)]
}

/** The launch part of the plan sees what run would: the environment without the runner's credentials. */
function launchPlanInput(
  config: GateConfig,
  prepared: PreparedRun,
  env: NodeJS.ProcessEnv,
  sides: PlannedSides,
  sequential: boolean,
  baseRef: string | null
): LaunchPlanInput {
  return {
    settings: config.launch,
    deployments: prepared.deployments,
    source: config.source,
    env: childProcessEnv(env, sides.keyNames),
    secrets: sides.secrets,
    sequential,
    baseRef
  }
}

/**
 * A sequential schedule whose looks pass an entry's instances is refused here as at run start
 * (src/sequential/stages.ts). A count at helm.max_eval_instances may be that cap, not the entry's
 * size (run counts without the cap), so only a count below it can refuse.
 */
function refuseUnstageable(config: GateConfig, counts: InstanceCount[]): void {
  const stopping = config.stopping
  const cap = config.helm?.maxEvalInstances ?? Infinity
  if (!stopping) return
  for (const count of counts) {
    if (count.n === null || count.n >= cap || !count.counts) continue
    const evalInstances = Object.values(count.counts.clean).reduce((a, b) => a + b, 0)
    planStages(
      { entry: count.run.entry, evalInstances, comparedInstances: count.n },
      { looks: stopping.looks, budget: stopping.budget },
      { file: config.source, field: 'sequential' }
    )
  }
}
