/**
 * HELM behind the harness interface (src/model/harness.ts): run directories found by the HELM
 * reader (src/helm/read/), runs paired by scenario and augmentation (match.ts), and each pair's
 * guards before its values are read: the same HELM layout, no adapter or scoring drift, the same
 * evidence read twice, cached or failed requests, prompt, decoding and answer-key drift
 * (guards.ts), and after the rows copied scores. Answer lengths are HELM's output tokens, or the
 * answers' characters where HELM kept none (answer-length.ts); request times give the
 * information-only efficiency ratios.
 */
import type { GateConfig, GatedRun } from '../config/types.js'
import { GateError } from '../errors.js'
import { discoverRuns } from '../helm/read/discover.js'
import type { RunDirectory, RunSpecJson } from '../helm/types.js'
import type { Harness, HarnessSide, OpenedUnit, PairedUnit, RunDefaults } from '../model/harness.js'
import type { IssueLog } from '../model/issue-log.js'
import type { ChangedExample, Comparison, Report } from '../model/report.js'
import { requestedSampling, type RequestSampling } from '../model/side-identity.js'
import { prewarmRatioWorker } from '../stats/off-thread.js'
import { helmLengths } from './answer-length.js'
import { efficiencyFor } from './efficiency.js'
import { checkOwnScores, checkRequestStates, checkSameEvidence, expectedDecoding } from './guards.js'
import { checkSameLayout, warnUnsupportedGuards } from './helm-layout.js'
import { pairRuns, runMatchesEntry, type RunPair } from './match.js'
import { adapterDrift, displayName, readableName, scoringDrift } from './run-identity.js'
import { exampleKey, fillExampleTexts, loadExampleTexts, loadRunData, readRunStats, TEXT_KEEP_LIMIT, type RunData } from './run-data.js'

/** One side's HELM output: its run directories. */
export class HelmSide implements HarnessSide {
  constructor(readonly runs: RunDirectory[]) {}

  info(path: string): Report['baseline'] {
    const deployments = [
      ...new Set(this.runs.map(r => String(r.runSpec.adapter_spec?.['model_deployment'] || r.runSpec.adapter_spec?.['model'] || '')))
    ].filter(Boolean)
    const requested = requestedSampling(
      Object.fromEntries(this.runs.map(r => [readableName(r.runSpec), requestSamplingOf(r.runSpec.adapter_spec)]))
    )
    return {
      path,
      runs: this.runs.map(r => r.runSpec.name).sort(),
      deployment: deployments.length === 1 ? deployments[0] : deployments.length ? deployments.join(', ') : null,
      helm_version: null,
      ...(requested ? { requested_sampling: requested } : {})
    }
  }
}

/**
 * What a run's requests sent, from its adapter spec as discovery read it (the types were checked
 * there, src/helm/read/run-spec.ts), through the adapter method's own rule (`expectedDecoding`):
 * a multiple-choice joint run asks for one completion whatever its `num_outputs` says. The
 * decoding guard holds every compared request to the same rule. A value the rule does not fix
 * (the stop sequences of a joint run, every field of an unknown method) is null.
 */
export function requestSamplingOf(adapter: RunSpecJson['adapter_spec']): RequestSampling {
  const expected = expectedDecoding(adapter) ?? {}
  const value = <T>(field: keyof typeof expected): T | null => (expected[field] === undefined ? null : (expected[field] as T))
  return {
    temperature: value<number>('temperature'),
    max_tokens: value<number>('max_tokens'),
    stop_sequences: value<string[]>('stop_sequences'),
    num_outputs: value<number>('num_completions')
  }
}

export const helmHarness: Harness<HelmSide> = {
  name: 'HELM',
  expects: 'HELM output (no <output>/runs/<suite>/<run>/run_spec.json)',
  // Anything no other harness recognises is read as HELM output, whose reader names a folder without runs.
  fallback: true,
  recognises: async () => true,
  read: async path => new HelmSide(await discoverRuns(path)),
  pair: async (baseline, candidate, config, defaults, log) => {
    const work = selectWork(baseline.runs, candidate.runs, config, defaults, log)
    if (work.length > 0) prewarmRatioWorker()
    return work.map(item => new HelmRunPair(item.pair, item.gated, config))
  }
}

interface WorkItem {
  pair: RunPair
  gated: GatedRun
}

/** Decides which run pairs are compared under which gate entry, reporting everything unpaired. */
function selectWork(
  baseline: RunDirectory[],
  candidate: RunDirectory[],
  config: GateConfig,
  defaults: RunDefaults | null,
  log: IssueLog
): WorkItem[] {
  const pairing = pairRuns(baseline, candidate)
  for (const dup of pairing.duplicates) {
    log.error(
      'runs.ambiguous',
      `the ${dup.side} side has ${dup.runs.length} runs of the same scenario and augmentation; give one suite per side`,
      { file: dup.runs[0].path, value: dup.runs.map(r => r.runSpec.name) }
    )
  }
  const gatedEntries = config.runs
  const concerns = (run: RunDirectory): boolean => gatedEntries.length === 0 || gatedEntries.some(g => runMatchesEntry(run, g))
  for (const [side, runs] of [
    ['baseline', pairing.onlyBaseline],
    ['candidate', pairing.onlyCandidate]
  ] as const) {
    for (const run of runs) {
      const other = side === 'baseline' ? 'candidate' : 'baseline'
      const message = `run ${displayName(run.runSpec)} exists only on the ${side} side: the gate cannot judge what the ${other} did not run`
      if (concerns(run)) log.error('runs.one_sided', message, { file: run.path })
      else log.warn('runs.one_sided', `${message} (not in the gate file; ignored)`, { file: run.path })
    }
  }

  if (gatedEntries.length === 0) {
    if (!defaults) return []
    return pairing.pairs.map(pair => ({
      pair,
      gated: { entry: displayName(pair.baseline.runSpec), match: null, ...defaults }
    }))
  }

  const work: WorkItem[] = []
  gatedEntries.forEach((gated, i) => {
    const matches = pairing.pairs.filter(p => runMatchesEntry(p.baseline, gated))
    if (matches.length === 1) {
      work.push({ pair: matches[0], gated })
      return
    }
    const found = [...baseline, ...candidate].filter(r => runMatchesEntry(r, gated))
    if (matches.length === 0 && found.length === 0) {
      const available = [...new Set([...baseline, ...candidate].map(r => displayName(r.runSpec)))].sort()
      log.error('runs.missing', `no run found for gate entry ${gated.entry} on either side`, {
        file: config.source,
        field: `runs[${i}].entry`,
        value: available.length ? `available: ${available.join('; ')}` : 'no runs at all'
      })
    } else if (matches.length > 1) {
      log.error('runs.ambiguous', `gate entry ${gated.entry} matches ${matches.length} runs; set runs[${i}].match`, {
        file: config.source,
        field: `runs[${i}].entry`,
        value: matches.map(m => displayName(m.baseline.runSpec))
      })
    }
  })
  for (const run of [...pairing.pairs.map(p => p.baseline)]) {
    if (!gatedEntries.some(g => runMatchesEntry(run, g))) {
      log.warn('runs.ungated', `run ${displayName(run.runSpec)} is on both sides but not in the gate file; not compared`, {
        file: run.path
      })
    }
  }
  return work
}

/** One run pair under one gate entry. */
class HelmRunPair implements PairedUnit {
  readonly name: string

  constructor(
    private readonly pair: RunPair,
    readonly gated: GatedRun,
    private readonly config: GateConfig
  ) {
    this.name = readableName(pair.baseline.runSpec)
  }

  async open(log: IssueLog): Promise<OpenedUnit | null> {
    const { pair, name } = this
    // Checked first: across HELM generations every other field may differ for that reason alone.
    if (!checkSameLayout(name, pair, log)) return null
    const drift = adapterDrift(pair.baseline.runSpec, pair.candidate.runSpec)
    for (const d of drift) {
      log.error(
        'guard.adapter_drift',
        `run ${name}: the two sides used different ${d.field}, so the comparison would measure configuration, not the model`,
        {
          file: pair.candidate.path,
          field: d.field,
          value: { baseline: d.baseline, candidate: d.candidate }
        }
      )
    }
    const scoring = scoringDrift(pair.baseline.runSpec, pair.candidate.runSpec)
    for (const d of scoring) {
      log.error(
        'guard.scoring_drift',
        `run ${name}: the two sides were scored with different ${d.field}, so the comparison would measure the scoring, not the model`,
        {
          file: pair.candidate.path,
          field: `${d.field}[${d.index ?? 0}]`,
          value: { baseline: d.baseline, candidate: d.candidate }
        }
      )
    }
    if (drift.length > 0 || scoring.length > 0) return null

    const [bStats, cStats] = await Promise.all([readRunStats(pair.baseline), readRunStats(pair.candidate)])
    // The request-time intervals need only the stats: started now, their bootstrap runs on a
    // worker while this thread reads the request states (docs/benchmarks.md "Against the previous
    // release"). Settled here too, so that a return before it is awaited leaves no unhandled rejection.
    const efficiencyTask = efficiencyFor(name, bStats.runtimes(), cStats.runtimes(), this.config.statistics)
    efficiencyTask.catch(() => undefined)
    const [b, c] = await Promise.all([
      loadRunData(pair.baseline, TEXT_KEEP_LIMIT, bStats),
      loadRunData(pair.candidate, TEXT_KEEP_LIMIT, cStats)
    ])
    warnUnsupportedGuards(name, b, c, log)
    if (!checkSameEvidence(name, b, c, log)) return null
    if (!checkRequestStates(name, b, c, log)) return null
    return new OpenedHelmRun(name, this.gated, b, c, efficiencyTask)
  }
}

class OpenedHelmRun implements OpenedUnit {
  constructor(
    private readonly name: string,
    private readonly gated: GatedRun,
    readonly baseline: RunData,
    readonly candidate: RunData,
    private readonly efficiencyTask: ReturnType<typeof efficiencyFor>
  ) {}

  checkAfterRows(log: IssueLog): boolean {
    // Copied scores are reported only when nothing more specific was found (the caller's condition).
    return checkOwnScores(this.name, this.baseline, this.candidate, log)
  }

  async fillExamples(rows: Comparison[]): Promise<void> {
    const keyOf = (cmp: Comparison, e: ChangedExample): string =>
      exampleKey({ instanceId: e.instance_id, trainTrialIndex: e.train_trial_index, perturbation: cmp.perturbation })
    const wanted = new Set(rows.flatMap(cmp => cmp.examples.map(e => keyOf(cmp, e))))
    if (wanted.size === 0) return
    const [b, c] = await Promise.all([loadExampleTexts(this.baseline, wanted), loadExampleTexts(this.candidate, wanted)])
    fillExampleTexts(rows, keyOf, b, c)
  }

  answerLengths(split: string | null, log: IssueLog): ReturnType<OpenedUnit['answerLengths']> {
    return helmLengths(this.name, this.gated, split, this.baseline, this.candidate, log)
  }

  async efficiency(log: IssueLog): ReturnType<OpenedUnit['efficiency']> {
    // Request times are information only: a problem with them is a warning, never a gate error.
    try {
      return await this.efficiencyTask
    } catch (error) {
      if (!(error instanceof GateError)) throw error
      log.warn('efficiency.skipped', `run ${this.name}: request-time ratios not computed: ${error.message}`)
      return null
    }
  }
}
