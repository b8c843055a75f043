/**
 * One action invocation: the settings, the event, the paths and the GitHub client, built once
 * from the inputs and the runner's environment and handed to the mode.
 */
import { stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { GitHubClient } from '../github/client.js'
import type { ActionDeps } from './deps.js'
import { deriveEvent, type EventInfo } from './event.js'
import { readSettings, type ActionSettings } from './inputs.js'
import { JobLog } from './job-log.js'
import { annotationsWithoutPaths, runnerPathRoots, type PathRoot } from './visible-paths.js'

export interface Session {
  deps: ActionDeps
  settings: ActionSettings
  event: EventInfo
  /** Absolute path of the gate file in the work tree. */
  configFile: string
  /** The gate file's path inside the repository (for the contents API and messages). */
  repoPath: string
  /** The working-directory input, resolved against the workspace. */
  workDir: string
  /** Where everything this invocation writes goes. */
  outRoot: string
  client: GitHubClient
  repo: { owner: string; repo: string }
  /** The job log, folded by phase. */
  jobLog: JobLog
  /** The runner's directories, which what the pull request sees must not show (visible-paths.ts). */
  pathRoots: PathRoot[]
}

export async function openSession(deps: ActionDeps): Promise<Session> {
  const settings = readSettings(name => deps.io.getInput(name))
  const env = deps.env
  const payload = await deps.readEventPayload(env.GITHUB_EVENT_PATH)
  const event = deriveEvent(env.GITHUB_EVENT_NAME ?? '', payload, env)
  const workspace = path.resolve(env.GITHUB_WORKSPACE || process.cwd())
  const workDir = path.resolve(workspace, settings.workingDirectory)
  const configFile = path.resolve(workDir, settings.configPath)
  const repoPath = path
    .relative(await repositoryRoot(path.dirname(configFile), workspace), configFile)
    .split(path.sep)
    .join('/')
  const outRoot = settings.outputDir ? path.resolve(workDir, settings.outputDir) : path.join(env.RUNNER_TEMP || tmpdir(), 'helm-gate')
  const pathRoots = runnerPathRoots({
    evidence: path.join(outRoot, 'evidence'),
    outRoot,
    workDir,
    workspace,
    runnerTemp: env.RUNNER_TEMP,
    // The runner starts `node <action>/dist/index.js`.
    actionDir: process.argv[1] ? path.dirname(path.dirname(path.resolve(process.argv[1]))) : undefined
  })
  return {
    deps: { ...deps, io: annotationsWithoutPaths(deps.io, pathRoots) },
    settings,
    event,
    configFile,
    repoPath,
    workDir,
    outRoot,
    client: deps.github(settings.githubToken),
    repo: { owner: event.owner, repo: event.repo },
    jobLog: new JobLog(deps.io),
    pathRoots
  }
}

/**
 * The work tree holding `dir`: the nearest ancestor with a `.git` entry. actions/checkout with
 * `path:` puts the repository below the workspace, and the contents API (the frozen base
 * version) knows the gate file by its path in the repository; a workspace-relative path would
 * answer 404 there, which reads as "the gate file is new in this pull request" and would let
 * the pull request's own version judge it.
 */
async function repositoryRoot(dir: string, workspace: string): Promise<string> {
  const inWorkspace = (candidate: string): boolean => !path.relative(workspace, candidate).startsWith('..')
  for (let current = dir; inWorkspace(current) && current !== workspace; current = path.dirname(current)) {
    try {
      await stat(path.join(current, '.git'))
      return current
    } catch {
      // not a work tree root
    }
  }
  return workspace
}
