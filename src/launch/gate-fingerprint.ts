/**
 * The gate set's fingerprint, the one `plan` shows, `run` and the action record and archived
 * baselines are looked up by: the gate file's (config/fingerprint.ts), joined, when
 * `fingerprint_paths` select files, by those files' digests at the base commit (`baseRef`, HEAD
 * when null). A glob that selects nothing is an error: a typo there would silently leave the
 * serving files out and reuse a stale baseline.
 */
import picomatch from 'picomatch'
import { fingerprint } from '../config/fingerprint.js'
import type { GateConfig } from '../config/types.js'
import { ConfigError } from '../errors.js'
import { pathDigests } from './fingerprint-paths.js'
import { repositoryRoot, resolveCommit } from './git.js'

export async function gateFingerprint(config: GateConfig, cwd: string, baseRef: string | null, env?: NodeJS.ProcessEnv): Promise<string> {
  const globs = config.launch?.fingerprintPaths ?? []
  if (globs.length === 0) return fingerprint(config)
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
  return fingerprint(config, { pathDigests: digests })
}
