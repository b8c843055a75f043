/**
 * Before the first block (docs/load.md): probing each side, what the probes mean, the prompts of
 * the run, and synthetic prompts sized in the baseline server's tokens.
 */
import { GateError } from '../errors.js'
import type { GateConfig } from '../config/types.js'
import type { LoadSide } from '../model/load-report.js'
import { probeSide, type StreamProbe } from './probe.js'
import { serverTokenizer, sizedSyntheticSource, type SizedPrompts } from './server-tokens.js'
import { fileSource, gateSetSource, syntheticSource, trafficSource, type WorkloadSource } from './workload.js'
import { LOAD_SIDES, type LoadOutcome, type LoadRun, type LoadRunOptions } from './load-run.js'

/** Probes one side (is it there, does it stream) and records what it accepts. */
export async function probeLoadSide(run: LoadRun, side: LoadSide): Promise<StreamProbe> {
  const probe = await probeSide(run.targets[side], Math.min(run.timeoutMs, 60_000))
  run.report.sides[side].ignore_eos = probe.ignoreEos
  run.report.sides[side].usage = probe.usage
  return probe
}

/** What the probes mean: an error, a loud skip (load.baseline: optional), or null to go on. */
export function judgeProbes(run: LoadRun, probes: Record<LoadSide, StreamProbe>): LoadOutcome | null {
  const { report, load } = run
  if (!probes.baseline.reachable && probes.candidate.problem === null && load.baseline === 'optional') {
    report.skipped = `the baseline deployment is not reachable (${probes.baseline.problem}); load.baseline is optional, so the load half was SKIPPED and nothing about performance was measured`
    report.verdict = 'pass'
    report.headline = `Performance: SKIPPED: ${report.skipped}`
    report.warnings.push({ code: 'load.skipped', message: report.skipped })
    return { report, timings: [] }
  }
  for (const side of LOAD_SIDES) {
    const problem = probes[side].problem
    if (problem) {
      const hint = probes[side].reachable ? '' : unreachableHint(run.config, side)
      // Three different fixes, so three codes: start the server, fix its answers, enable streaming.
      const code = !probes[side].reachable ? 'load.unreachable' : probes[side].streaming ? 'load.probe' : 'load.not_streaming'
      return run.fail(code, `${side}: ${problem}${hint}`, `deployments.${side}.base_url`)
    }
  }
  return null
}

/**
 * What to do about a side that does not answer. A launched server was started by helm-gate and
 * has died or stopped listening: its own output says why. A baseline that is not launched may be
 * down because the quality half reused an archived baseline and nobody started it.
 */
function unreachableHint(config: GateConfig, side: LoadSide): string {
  if (config.launch?.sides[side]) return ` (the launched ${side} server is not answering: its output is in logs/${side}-server.log)`
  if (side === 'baseline') {
    return ' (the load half needs the baseline deployment live even when the quality half reuses an archived baseline; set load.baseline: optional to skip it instead)'
  }
  return ''
}

/** The prompts of the run (the same for both sides: the streams are seeded). */
export async function workloadOf(run: LoadRun, options: LoadRunOptions): Promise<WorkloadSource | LoadOutcome> {
  const { load, config } = run
  try {
    if (load.workload.prompts === 'synthetic') return syntheticSource(load)
    if (load.workload.prompts === 'file') return await fileSource(load, config.source)
    if (load.workload.prompts === 'traffic') {
      return await trafficSource(load, config.source, load.mode === 'rate' && load.arrival === 'traffic' ? 'traffic' : null)
    }
    if (!options.gateSetOutput) {
      return run.fail(
        'load.gate_set',
        'load.workload.prompts is gate-set, which needs the quality half to run first (helm-gate run)',
        'load.workload.prompts'
      )
    }
    return await gateSetSource(load, options.gateSetOutput)
  } catch (error) {
    const e = error as { code?: string; message: string; describe?: () => string }
    return run.fail(e.code ?? 'load.workload', e.describe ? e.describe() : e.message, 'load.workload')
  }
}

/**
 * Synthetic prompts sized with the baseline server's /tokenize when it has one (server-tokens.ts),
 * every prompt of the warm-ups and blocks; the requested and realized counts go into the report.
 * Without one, one word per token, said in a note.
 */
export async function sizeInServerTokens(run: LoadRun, words: WorkloadSource): Promise<WorkloadSource> {
  const { load, report } = run
  const tokenizer = await serverTokenizer(run.targets.baseline, Math.min(run.timeoutMs, 30_000))
  if (!tokenizer) {
    report.prompt_tokens = {
      sized_by: 'words',
      tokenizer: null,
      prompts: 0,
      requested_mean: load.workload.inputTokens.mean,
      realized_mean: null,
      realized_min: null,
      realized_max: null,
      served: { baseline: null, candidate: null }
    }
    return words
  }
  const perBlock = load.requestsPerLevel === null ? 0 : Math.ceil(load.requestsPerLevel / load.repetitions)
  const streams = [
    // A sample for the tokens per word of prompts beyond these (blocks of duration_seconds).
    { stream: 'calibration', count: 16 },
    ...load.levels.flatMap((_, li) => [
      { stream: `warmup:${li}`, count: load.warmupRequests },
      ...Array.from({ length: load.repetitions }, (_, repetition) => ({ stream: `block:${li}:${repetition}`, count: perBlock }))
    ])
  ]
  let sized: SizedPrompts
  try {
    sized = await sizedSyntheticSource(load, tokenizer, streams)
  } catch (error) {
    throw new GateError('load.tokenize', `the baseline's /tokenize failed while sizing the prompts: ${(error as Error).message}`, {
      field: 'deployments.baseline.base_url'
    })
  }
  const realized = sized.realized.slice(16)
  const mean = (xs: number[]): number | null => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null)
  report.prompt_tokens = {
    sized_by: 'server',
    tokenizer: `${tokenizer.shape} /tokenize of the baseline`,
    prompts: realized.length,
    requested_mean: mean(sized.requested.slice(16)) ?? load.workload.inputTokens.mean,
    realized_mean: mean(realized),
    realized_min: realized.length ? Math.min(...realized) : null,
    realized_max: realized.length ? Math.max(...realized) : null,
    served: { baseline: null, candidate: null }
  }
  run.say(
    `load: ${realized.length} synthetic prompts sized with the baseline's /tokenize (${tokenizer.shape}): requested mean ${report.prompt_tokens.requested_mean.toFixed(1)}, realized mean ${report.prompt_tokens.realized_mean?.toFixed(1) ?? '-'} tokens`
  )
  return sized.source
}
