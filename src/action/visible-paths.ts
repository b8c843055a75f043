/**
 * What the pull request sees names deployments and files of the evidence, not the runner's
 * disk: the comment, the check run, the job summary and the failure annotation never show the
 * workspace, $RUNNER_TEMP or the temporary directory (they tell a reader nothing, and on a
 * self-hosted runner they describe the machine). Errors name the files they are about, so each
 * absolute path is rewritten to where a reader finds the file: inside the evidence artifact
 * (`candidate/runs/s/…/per_instance_stats.json`) or the repository (`deploy/helm-gate.yml`).
 * report.json keeps the paths as they were: it is evidence, read next to the files.
 */
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Report } from '../model/report.js'
import type { ActionIO } from './deps.js'

export interface PathRoot {
  /** Absolute directory. */
  dir: string
  /** Put in place of `<dir>/` before a path below it ('' makes it relative). */
  below: string
  /** Put in place of the directory itself. */
  itself: string
}

/** The roots an action invocation writes under or reads from, most specific first. */
export function runnerPathRoots(dirs: {
  evidence: string
  outRoot: string
  workDir: string
  workspace: string
  runnerTemp?: string
  /** Where the runner unpacked this action (an internal error's stack names its files). */
  actionDir?: string
}): PathRoot[] {
  const roots: PathRoot[] = [
    // `uses: ./` runs the action from the workspace: its files are then the repository's.
    ...(dirs.actionDir && !overlaps(dirs.actionDir, dirs.workspace)
      ? [{ dir: dirs.actionDir, below: 'helm-gate/', itself: 'the helm-gate action' }]
      : []),
    { dir: dirs.evidence, below: '', itself: 'the evidence artifact' },
    { dir: dirs.outRoot, below: '', itself: "helm-gate's output folder" },
    { dir: dirs.workDir, below: '', itself: 'the working directory' },
    { dir: dirs.workspace, below: '', itself: 'the repository' },
    ...(dirs.runnerTemp ? [{ dir: dirs.runnerTemp, below: '…/', itself: "the runner's temporary folder" }] : []),
    { dir: tmpdir(), below: '…/', itself: 'the temporary folder' }
  ]
  return roots
    .filter(root => path.isAbsolute(root.dir) && root.dir !== path.parse(root.dir).root)
    .map(root => ({ ...root, dir: path.resolve(root.dir) }))
    .sort((a, b) => b.dir.length - a.dir.length)
}

/** `text` with every occurrence of a root (as a directory, or the start of a path) replaced. */
export function hidePaths(text: string, roots: readonly PathRoot[]): string {
  let out = text
  for (const root of roots) {
    if (!out.includes(root.dir)) continue
    // The root as a whole path component: followed by a separator, or by nothing that would
    // continue the name (a full stop ending the sentence does not).
    const pattern = new RegExp(`${escapeRegExp(root.dir)}(?:(${escapeRegExp(path.sep)})|(?![\\w-]|\\.[\\w-]))`, 'g')
    out = out.replace(pattern, (_match, separator: string | undefined) => (separator ? root.below : root.itself))
  }
  return out
}

/** A copy of the report for the pull request: every string with the runner's paths hidden. */
export function reportForPullRequest(report: Report, roots: readonly PathRoot[]): Report {
  return JSON.parse(JSON.stringify(report), (_key, value: unknown) =>
    typeof value === 'string' ? hidePaths(value, roots) : value
  ) as Report
}

/**
 * The job's I/O with the runner's paths hidden in what becomes an annotation (warnings, errors,
 * the failure): GitHub shows those on the pull request's checks. Log lines keep the full paths:
 * they are for whoever debugs the job.
 */
export function annotationsWithoutPaths(io: ActionIO, roots: readonly PathRoot[]): ActionIO {
  return {
    ...io,
    warning: message => io.warning(hidePaths(message, roots)),
    error: message => io.error(hidePaths(message, roots)),
    setFailed: message => io.setFailed(hidePaths(message, roots))
  }
}

function overlaps(a: string, b: string): boolean {
  const inside = (dir: string, parent: string): boolean => !path.relative(parent, dir).startsWith('..')
  return inside(a, b) || inside(b, a)
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
