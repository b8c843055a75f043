/**
 * The open-loop arrival schedule (docs/load.md, `rate` and `arrival`): when each request of a
 * block is due, in milliseconds from the block's start. Pure: it depends on the seed, the block's
 * stream, the rate and (for `arrival: traffic`) the traffic set's gaps, never on the clock, so both
 * sides of a block pair get the same schedule and a unit test can check it exactly. How closely the
 * sender keeps it on a busy machine is a measurement (bench/arrivals.mjs), not a property of it.
 */
import type { Arrival } from '../config/load-types.js'
import { ConfigError } from '../errors.js'
import { createRandom } from '../stats/random.js'

export interface ArrivalSpec {
  arrival: Arrival
  /** Requests per second. */
  rate: number
  seed: number
  /** The block's stream name (the same for both sides of a pair). */
  stream: string
  /** `arrival: traffic`: the set's gap after request `index`, scaled to `rate` (workload.ts). */
  trafficGap?: (index: number) => number
}

/**
 * The due times of the block's requests, ms from its start: 0 first, then each gap added. Absolute
 * offsets, so a late send does not delay the ones after it. Endless: the caller stops at its count
 * or at the block's end.
 */
export function* arrivalOffsets(spec: ArrivalSpec): Generator<number, never, undefined> {
  const gapOf = gapFunction(spec)
  let at = 0
  for (let i = 0; ; i++) {
    yield at
    at += gapOf(i)
  }
}

/** The first `count` due times (for tests and the bench). */
export function arrivalSchedule(spec: ArrivalSpec, count: number): number[] {
  const out: number[] = []
  if (count <= 0) return out
  for (const at of arrivalOffsets(spec)) {
    out.push(at)
    if (out.length >= count) break
  }
  return out
}

function gapFunction(spec: ArrivalSpec): (index: number) => number {
  if (spec.arrival === 'traffic') {
    // Without the set's gaps there is no traffic schedule: refuse rather than invent one.
    if (!spec.trafficGap) {
      throw new ConfigError('load.traffic_arrival', 'load.arrival is traffic but the workload has no traffic set to take its gaps from', {
        field: 'load.arrival',
        value: spec.arrival
      })
    }
    return spec.trafficGap
  }
  if (spec.arrival === 'constant') return () => 1000 / spec.rate
  // Poisson arrivals: exponential gaps of mean 1000 / rate ms, by inversion of a seeded uniform.
  const random = createRandom(spec.seed, `arrivals:${spec.stream}`)
  return () => (-Math.log(random.double()) * 1000) / spec.rate
}
