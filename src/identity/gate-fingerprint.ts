/**
 * The gate set's fingerprint, the one `plan` shows, `run` and the action record and archived
 * baselines are looked up by: the gate file's (config/fingerprint.ts), joined, when
 * `fingerprint_paths` select files, by those files' digests at the base commit (`baseRef`, HEAD
 * when null). A glob that selects nothing is an error: a typo there would silently leave the
 * serving files out and reuse a stale baseline. A traffic set the gate file names joins it by its
 * bytes (sha256), as they are in the work tree beside the gate file: the set is data the gate
 * reads, like the gate file itself, not a serving file of the baseline.
 */
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import picomatch from 'picomatch'
import { fingerprint } from '../config/fingerprint.js'
import type { GateConfig } from '../config/types.js'
import { ConfigError } from '../errors.js'
import { pathDigests } from './fingerprint-paths.js'
import { repositoryRoot, resolveCommit } from './git.js'

export async function gateFingerprint(config: GateConfig, cwd: string, baseRef: string | null, env?: NodeJS.ProcessEnv): Promise<string> {
  const globs = config.launch?.fingerprintPaths ?? []
  const trafficSets = await trafficSetDigests(config, cwd)
  if (globs.length === 0) return fingerprint(config, { trafficSets })
  const root = await repositoryRoot(cwd, env)
  const commit = await resolveCommit(root, baseRef ?? 'HEAD', env)
  const digests = await pathDigests(root, commit, globs, env)
  globs.forEach((glob, i) => {
    const matches = picomatch(glob, { dot: true })
    if (!Object.keys(digests).some(path => matches(path))) {
      throw new ConfigError('config.fingerprint_paths', `fingerprint_paths[${i}] matches no file at commit ${commit.slice(0, 12)}`, {
        file: config.source,
        field: `fingerprint_paths[${i}]`,
        value: glob
      })
    }
  })
  return fingerprint(config, { pathDigests: digests, trafficSets })
}

/** The gate file's key -> sha256 of the traffic set's bytes, for every traffic set it names. */
async function trafficSetDigests(config: GateConfig, cwd: string): Promise<Record<string, string>> {
  const sets: Record<string, string> = {}
  const workload = config.load?.workload
  if (workload?.prompts === 'traffic' && workload.file !== null) {
    const file = resolve(cwd, dirname(config.source), workload.file)
    let bytes: Buffer
    try {
      bytes = await readFile(file)
    } catch (error) {
      throw new ConfigError('config.traffic_set', `cannot read the traffic set: ${(error as Error).message}`, {
        file: config.source,
        field: 'load.workload.file',
        value: workload.file
      })
    }
    sets['load.workload.file'] = createHash('sha256').update(bytes).digest('hex')
  }
  return sets
}
