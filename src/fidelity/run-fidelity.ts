/**
 * Fidelity, one of the measurements listed in src/pipeline/measurements.ts (model/measurement.ts's
 * SideMeasurement), beside the traffic replay: each side's pass runs while it is up (`hold`, called
 * by the side holder for launched sides; `holdAlwaysUp` after the HELM half for servers that are
 * always up), and `attach` adds the measurement's own part to the report and
 * joins its checks into the verdict. Any error makes the verdict error (fail closed).
 */
import type { FidelitySettings } from '../config/fidelity.js'
import type { GateConfig } from '../config/types.js'
import { GateError, showValue } from '../errors.js'
import type { SideMeasurement } from '../model/measurement.js'
import type { Report } from '../model/report.js'
import type { Side } from '../model/verdict.js'
import { joinPart } from '../model/join-part.js'
import { fidelityPart } from './fidelity-part.js'
import type { MeasurementInputs } from '../plan/measurement-inputs.js'
import { planSides, type SideEndpoint } from '../plan/run-plan.js'
import type { FidelitySide } from './fidelity-client.js'
import { gateSetPrompts, trafficPrompts } from './fidelity-prompts.js'
import { FidelityMeasurement } from './measure-fidelity.js'

/** The fields of what every measurement is given that fidelity reads, and the sides' endpoints alone. */
export type FidelityRunOptions = Pick<MeasurementInputs, 'env' | 'progress'> & {
  /**
   * Each side's endpoint and key from the run plan (src/plan/run-plan.ts); resolved from the gate
   * file and `env` by the plan's own function when not given.
   */
  endpoints?: Record<Side, SideEndpoint | null>
}

export class FidelityRun implements SideMeasurement {
  readonly name = "token-level fidelity (the candidate scored on the baseline's greedy answers)"
  private measurement: FidelityMeasurement | null = null
  private readonly errors: GateError[] = []
  private readonly done = new Set<Side>()

  constructor(
    private readonly config: GateConfig & { fidelity: FidelitySettings },
    private readonly options: FidelityRunOptions
  ) {}

  /** The sides as fidelity needs them; both are servers (the gate file's validation refuses anything else). */
  private sides(): Record<Side, FidelitySide> {
    const endpoints = this.options.endpoints ?? planSides(this.config, this.options.env).endpoints
    const of = (side: Side): FidelitySide => {
      const endpoint = endpoints[side]
      if (!endpoint) throw new GateError('fidelity.not_a_server', `fidelity: deployments.${side} is not a server`)
      return endpoint
    }
    return { baseline: of('baseline'), candidate: of('candidate') }
  }

  /** Called by the side holder while sides are up: the pass of each side that is up now; the baseline's HELM output gives the prompts. */
  readonly hold = async (up: Side[], outputs: Partial<Record<Side, string>> = {}): Promise<void> => {
    const fresh = up.filter(side => !this.done.has(side))
    if (fresh.length === 0 || this.errors.length > 0) return
    for (const side of fresh) this.done.add(side)
    try {
      if (this.measurement === null) {
        const settings = this.config.fidelity
        const prompts = this.config.traffic
          ? trafficPrompts(this.config.traffic.instances)
          : outputs.baseline
            ? await gateSetPrompts(outputs.baseline, settings.instances)
            : []
        this.measurement = new FidelityMeasurement({
          sides: this.sides(),
          prompts,
          source: this.config.traffic
            ? `the traffic set (${this.config.traffic.set})`
            : "the gate set (the prompts helm-run sent, from the baseline's scenario_state.json)",
          settings,
          statistics: this.config.statistics,
          progress: this.options.progress
        })
      }
      await this.measurement.hold(fresh)
    } catch (error) {
      if (!(error instanceof GateError)) throw error
      this.errors.push(error)
    }
  }

  /** After the HELM half: the sides no launch brings up are servers that are always up. */
  async holdAlwaysUp(outputs: Partial<Record<Side, string>>): Promise<void> {
    const up = (['baseline', 'candidate'] as const).filter(side => !this.config.launch?.sides[side])
    if (up.length > 0) await this.hold(up, outputs)
  }

  /** The report with its fidelity part (report.parts, report.fidelity); a failed or inconclusive check decides like any other. */
  attach(report: Report): Report {
    let part: Report['fidelity']
    if (this.errors.length === 0 && this.measurement !== null) {
      try {
        part = this.measurement.report()
      } catch (error) {
        if (!(error instanceof GateError)) throw error
        this.errors.push(error)
      }
    } else if (this.errors.length === 0) {
      this.errors.push(new GateError('fidelity.side_not_up', 'fidelity: no side was up while the gate ran, so nothing was scored'))
    }
    const own = this.errors.map(e => ({
      code: e.code,
      message: e.message,
      ...(e.location.file ? { file: e.location.file } : {}),
      ...(e.location.field ? { field: e.location.field } : {}),
      ...(e.location.value !== undefined ? { value: showValue(e.location.value) } : {})
    }))
    return joinPart(report, fidelityPart(part, own), part ? { fidelity: part } : {})
  }
}

/** Fidelity of a gate that has the section and compares (a shard or a baseline-only run measures nothing). */
export function fidelityRunFor(config: GateConfig, compare: boolean, options: FidelityRunOptions): FidelityRun | null {
  if (!config.fidelity || !compare) return null
  return new FidelityRun(config as GateConfig & { fidelity: FidelitySettings }, options)
}
