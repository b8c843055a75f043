/**
 * The frozen gate set: in a pull request the gate file is read as of the base commit, so the
 * change under test cannot loosen the gate that judges it. A change to the file is shown in the
 * comment (as a diff) and takes effect after merge.
 */
import type { GateConfig } from '../config/types.js'
import { ConfigError } from '../errors.js'
import type { EventInfo } from './event.js'
import { unifiedDiff } from './unified-diff.js'

export interface GateFileSources {
  /** The file in the checked-out work tree (the PR's version in a pull request). */
  readWorkspace(): Promise<string>
  /** The file at a commit; null when it does not exist there. */
  readAtCommit(sha: string): Promise<string | null>
  parse(text: string, source: string): GateConfig
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
  const config = sources.parse(baseText, `${repoPath}@${baseSha.slice(0, 12)}`)
  const change =
    workspaceText !== null && workspaceText !== baseText
      ? unifiedDiff(baseText, workspaceText, `a/${repoPath} (base ${baseSha.slice(0, 12)})`, `b/${repoPath} (this pull request)`)
      : workspaceText === null
        ? `--- a/${repoPath}\n+++ /dev/null\n(the pull request deletes the gate file)`
        : null
  return {
    config,
    origin: `base ${baseSha}`,
    change: change || null,
    notes: change ? [`This pull request changes ${repoPath}; the change takes effect after merge.`] : []
  }
}
