/**
 * The part of `plan` that says how many instances each comparison will have and whether that can
 * resolve its tolerated drop. Pure: the counts (from a helm-run dry run) and the gate file in,
 * lines out.
 *
 * Two checks, both from the statistics the gate itself uses (docs/method.md "Verdicts"):
 * - a hard floor: even a candidate that changes no answer must have an interval that clears the
 *   margin. For a 0/1 metric that is Tango's interval with no discordant pair; for other metrics,
 *   the bootstrap's minimum of 20 instances. Below the floor every result is inconclusive at best.
 * - the power approximation (`helm-gate power`): n resolves the margin m while the share r of
 *   answers that change stays below n m^2 / z^2; with `--discordance R` (e.g. the flip rate of a
 *   self-check) a warning is given when the instances needed for R exceed n.
 */
import type { GateConfig } from '../../config/types.js'
import { MIN_BOOTSTRAP_UNITS } from '../../gate/comparison-row.js'
import type { InstanceCount } from '../../runner/instance-count.js'
import { binarySd, instancesNeeded } from '../../stats/power.js'
import { twoSidedZ } from '../../stats/normal.js'
import { tangoInterval } from '../../stats/paired-proportions.js'

/** HELM's 0/1 accuracy metrics (exact-match family, with their `@k` variants). */
const BINARY_METRIC = /(^|_)(exact_match|exact_set_match|exact_match_indicator)(@\d+)?$/

export function isBinaryMetric(metric: string): boolean {
  return BINARY_METRIC.test(metric)
}

/** The lower bound of the interval when no answer changed: the best a candidate can do. */
export function bestCaseLowerBound(n: number, binary: boolean, confidence: number): number {
  if (!binary) return n >= MIN_BOOTSTRAP_UNITS ? 0 : -Infinity
  return tangoInterval({ both: n, wins: 0, losses: 0, neither: 0 }, confidence)[0]
}

/** The smallest n whose best case clears -margin (null when none below ten million does). */
export function floorInstances(margin: number, binary: boolean, confidence: number): number | null {
  if (!binary) return MIN_BOOTSTRAP_UNITS
  if (!(margin > 0)) return null
  const clears = (n: number): boolean => bestCaseLowerBound(n, true, confidence) > -margin
  let high = 1
  while (!clears(high)) {
    high *= 2
    if (high > 10_000_000) return null
  }
  let low = Math.floor(high / 2)
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2)
    if (clears(mid)) high = mid
    else low = mid
  }
  return high
}

export interface InstanceLinesOptions {
  maxEvalInstances: number
  /** Assumed share of changed answers (0/1 metrics), from `--discordance`. */
  discordance?: number
}

export interface InstanceLines {
  lines: string[]
  warnings: string[]
}

export function instanceLines(counts: InstanceCount[], config: GateConfig, options: InstanceLinesOptions): InstanceLines {
  const confidence = config.statistics.confidence
  const z = twoSidedZ(confidence)
  const lines: string[] = []
  const warnings: string[] = []
  for (const count of counts) {
    const { run } = count
    const name = `${run.entry} ${run.metric}`
    if (count.n === null || count.split === null) {
      const why = count.counts === null ? 'the dry run made no run for this entry' : 'several splits and no test split: set split'
      warnings.push(`${name}: cannot tell how many instances it will have (${why})`)
      continue
    }
    const split = `split ${count.split}`
    const perturbations = Object.entries(count.counts?.perturbed ?? {}).map(([p, k]) => `${p} ${k}`)
    const described = `n = ${count.n} (${split}${perturbations.length ? `; perturbed: ${perturbations.join(', ')}` : ''})`
    if (run.maxDrop === null) {
      lines.push(`${name}: ${described}; max_relative_drop ${run.maxRelativeDrop} depends on the baseline mean`)
      continue
    }
    const margin = run.maxDrop
    const binary = isBinaryMetric(run.metric)
    const lowest = bestCaseLowerBound(count.n, binary, confidence)
    if (!(lowest > -margin)) {
      warnings.push(
        `${name}: ${described} cannot resolve max_drop ${margin}: ${floorReason(count, binary, lowest, margin, confidence, options)}`
      )
      continue
    }
    if (!binary) {
      lines.push(`${name}: ${described}; at least ${MIN_BOOTSTRAP_UNITS} instances, so max_drop ${margin} can be resolved`)
      continue
    }
    const tolerated = (count.n * margin * margin) / (z * z)
    lines.push(
      `${name}: ${described}; resolves max_drop ${margin} while at most about ${percent(tolerated)} of answers change (power approximation)`
    )
    if (options.discordance !== undefined) {
      const needed = instancesNeeded({ sd: binarySd(options.discordance), delta: 0, margin, confidence })
      if (needed !== null && needed > count.n) {
        warnings.push(
          `${name}: ${described} is too few for max_drop ${margin} if ${percent(options.discordance)} of answers change: about ${needed} needed${scaleAdvice(count, needed, options.maxEvalInstances)}`
        )
      }
    }
  }
  return { lines, warnings }
}

function floorReason(
  count: InstanceCount,
  binary: boolean,
  lowest: number,
  margin: number,
  confidence: number,
  options: InstanceLinesOptions
): string {
  if (!binary)
    return `a bootstrap interval on fewer than ${MIN_BOOTSTRAP_UNITS} instances never passes${scaleAdvice(count, MIN_BOOTSTRAP_UNITS, options.maxEvalInstances)}`
  const needed = floorInstances(margin, true, confidence)
  const level = `${Number((confidence * 100).toPrecision(6))}%`
  return (
    `even with no changed answer the ${level} interval reaches ${lowest.toPrecision(3)}, so every result is inconclusive at best` +
    (needed === null ? '' : `; about ${needed} instances needed${scaleAdvice(count, needed, options.maxEvalInstances)}`)
  )
}

/** How to get `needed` instances in the comparison's split: a larger budget, if the scenario has them. */
function scaleAdvice(count: InstanceCount, needed: number, maxEvalInstances: number): string {
  const n = count.n as number
  const evalTotal = Object.values(count.counts?.clean ?? {}).reduce((a, b) => a + b, 0)
  if (evalTotal < maxEvalInstances) {
    return ` (the scenario has only ${evalTotal} evaluation instances: a larger max_eval_instances cannot help)`
  }
  if (n === 0) return ''
  return ` (raise helm.max_eval_instances from ${maxEvalInstances} to about ${Math.ceil((maxEvalInstances * needed) / n)})`
}

function percent(rate: number): string {
  return `${Number((rate * 100).toPrecision(2))}%`
}
