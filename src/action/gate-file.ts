/**
 * The frozen gate set: in a pull request the gate file is read as of the base commit, so the
 * change under test cannot loosen the gate that judges it. A change to the file is shown in the
 * comment (as a diff) and takes effect after merge.
 */
import { posix } from 'node:path'
import { parseYamlFile } from '../config/load.js'
import { changedReferences } from '../config/traffic.js'
import type { GateConfig } from '../config/types.js'
import { ConfigError } from '../errors.js'
import type { EventInfo } from './event.js'
import { unifiedDiff } from './unified-diff.js'

export interface GateFileSources {
  /** The file in the checked-out work tree (the PR's version in a pull request). */
  readWorkspace(): Promise<string>
  /** The file at a commit; null when it does not exist there. */
  readAtCommit(sha: string): Promise<string | null>
  /** Another repository file at a commit (the traffic set); null when it does not exist there. */
  readFileAtCommit(path: string, sha: string): Promise<Buffer | null>
  /**
   * The traffic set as the work tree has it (the pull request's), relative to the gate file's
   * folder; null when absent. Optional: only to say what a pull request changes in it.
   */
  readWorkspaceSet?(set: string): Promise<string | null>
  /** `readSet` replaces reading the traffic set from the work tree. */
  parse(text: string, source: string, readSet?: (file: string) => Buffer): GateConfig
}

export interface ResolvedGateFile {
  config: GateConfig
  /** `base <sha>` or `workspace`. */
  origin: string
  /** Unified diff base → PR when the pull request edits the gate file. */
  change: string | null
  notes: string[]
}

export async function resolveGateFile(
  repoPath: string,
  event: EventInfo,
  frozen: boolean,
  sources: GateFileSources
): Promise<ResolvedGateFile> {
  const baseSha = event.pullRequest?.baseSha ?? event.mergeGroupBaseSha ?? null
  // workflow_run already runs the default branch's workflow and files: frozen by construction.
  if (!frozen || !baseSha || event.eventName === 'workflow_run') {
    const text = await sources.readWorkspace()
    return { config: sources.parse(text, repoPath), origin: 'workspace', change: null, notes: [] }
  }
  const baseText = await sources.readAtCommit(baseSha)
  let workspaceText: string | null = null
  try {
    workspaceText = await sources.readWorkspace()
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
  }
  if (baseText === null) {
    if (workspaceText === null) {
      throw new ConfigError('config.unreadable', 'the gate file exists neither at the base commit nor in the work tree', {
        file: repoPath
      })
    }
    // No gate existed before this PR: there is nothing to loosen, so the PR's version applies.
    return {
      config: sources.parse(workspaceText, repoPath),
      origin: 'workspace',
      change: null,
      notes: [`The gate file ${repoPath} is new in this pull request; its own version is used.`]
    }
  }
  const source = `${repoPath}@${baseSha.slice(0, 12)}`
  // The work tree's traffic set is the pull request's: the base commit's judges it, like the gate file.
  const set = trafficSetOf(baseText, source)
  const frozenSet = set === null ? null : await frozenTrafficSet(repoPath, set, baseSha, sources)
  const config = frozenSet === null ? sources.parse(baseText, source) : sources.parse(baseText, source, () => frozenSet)
  const change =
    workspaceText !== null && workspaceText !== baseText
      ? unifiedDiff(baseText, workspaceText, `a/${repoPath} (base ${baseSha.slice(0, 12)})`, `b/${repoPath} (this pull request)`)
      : workspaceText === null
        ? `--- a/${repoPath}\n+++ /dev/null\n(the pull request deletes the gate file)`
        : null
  const notes = change ? [`This pull request changes ${repoPath}; the change takes effect after merge.`] : []
  const headSet = set !== null && frozenSet !== null && sources.readWorkspaceSet ? await sources.readWorkspaceSet(set) : null
  if (headSet !== null && frozenSet !== null) {
    // Both sides are judged against the base commit's set, so a reference the pull request edits
    // cannot move this verdict; the reader is told that it did not count yet.
    const changed = changedReferences(frozenSet.toString('utf8'), headSet)
    if (changed.length > 0) {
      notes.push(
        `This pull request changes the reference answer of ${changed.length} traffic instance${changed.length === 1 ? '' : 's'} in ${set} (first: ${changed[0]}); both sides were judged against the base commit's references, and the change takes effect after merge.`
      )
    }
  }
  return { config, origin: `base ${baseSha}`, change: change || null, notes }
}

/**
 * The traffic set as of the base commit. A set outside the repository cannot be frozen, and a
 * base gate file that names a set the base commit lacks is broken: both are errors.
 */
async function frozenTrafficSet(repoPath: string, set: string, baseSha: string, sources: GateFileSources): Promise<Buffer> {
  const inRepo = posix.normalize(posix.join(posix.dirname(repoPath), set))
  if (posix.isAbsolute(set) || inRepo.startsWith('../')) {
    throw new ConfigError(
      'config.traffic_set_outside',
      "the traffic set must be a file in the repository, so the base commit's version can judge a pull request",
      {
        file: repoPath,
        field: 'traffic.set',
        value: set
      }
    )
  }
  const bytes = await sources.readFileAtCommit(inRepo, baseSha)
  if (bytes === null) {
    throw new ConfigError('config.traffic_set_missing', `the traffic set ${inRepo} does not exist at the base commit`, {
      file: repoPath,
      field: 'traffic.set',
      value: baseSha
    })
  }
  return bytes
}

/** `traffic.set` of a gate file's text, when it has one (the full validation follows in parse). */
function trafficSetOf(text: string, source: string): string | null {
  const doc = parseYamlFile(text, source) as { traffic?: { set?: unknown } } | null
  const set = doc && typeof doc === 'object' ? doc.traffic?.set : undefined
  return typeof set === 'string' ? set : null
}
