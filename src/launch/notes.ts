/**
 * What the launch settings mean for the rest of the run: whether two launched sides count as
 * different deployments, and the caveats a schedule puts in the report.
 */
import type { GateConfig } from '../config/types.js'
import type { LaunchManifest } from '../model/launch-record.js'

/**
 * Both sides launched from different commands, environments or checkouts: different servers even
 * at the same address and model name (the usual sequential set-up: two images on port 8000).
 */
export function launchesDiffer(config: GateConfig): boolean {
  const { baseline, candidate } = config.launch?.sides ?? {}
  if (!baseline || !candidate) return false
  const identity = (spec: typeof baseline): string => JSON.stringify([spec.command, spec.env, spec.checkout])
  return identity(baseline) !== identity(candidate)
}

/**
 * The quality half's schedule only: the load half says its own (swapped between blocks, or one
 * period per side and why) in its section, so this note claims nothing about it.
 */
export function scheduleNotes(schedule: 'sequential' | 'concurrent', launch: LaunchManifest | null): string[] {
  if (schedule !== 'sequential') return []
  const periods = Object.values(launch?.sides ?? {})
    .filter(record => record.started_at)
    .map(record => `${record.side} up ${record.started_at} to ${record.stop?.stopped_at ?? 'unknown'}`)
  return [
    'Sequential schedule: the quality half measured the sides one after the other' +
      (periods.length ? ` (${periods.join('; ')})` : '') +
      '. Pairing removes instance difficulty, not drift between the two periods (host load, thermal state).'
  ]
}
