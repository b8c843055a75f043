/**
 * Steps the modes share around the pipeline: reading the frozen gate file, resolving the
 * baseline, the pipeline settings every mode starts from, writing the reports and uploading the
 * evidence.
 */
import { cp, mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { parseGateConfig } from '../config/load.js'
import { gateSections } from '../pipeline/measurement-definitions.js'
import type { GateConfig } from '../config/types.js'
import { ConfigError, GateError } from '../errors.js'
import { findArchivedBaseline } from '../evidence/archived-baseline.js'
import { baselineArtifactName } from '../evidence/names.js'
import { acceptedPermissions, describeRequestError, isRequestFailure } from '../github/client.js'
import { safeEntryPath } from '../github/extracted-tree.js'
import type { BaselineOrigin } from '../model/manifest.js'
import { LIMITS } from '../model/publication.js'
import type { Report } from '../model/report.js'
import type { GateSettings, GivenSide } from '../pipeline/run-gate.js'
import { renderHtml, type ChangedAnswers } from '../report/html.js'
import { renderJson } from '../report/json.js'
import { renderMarkdown } from '../report/markdown.js'
import { evidenceDir, manifestEvent } from './evidence.js'
import { launchSettings } from './launch-policy.js'
import { resolveGateFile, type ResolvedGateFile } from './gate-file.js'
import type { Session } from './session.js'
import { planSides } from '../plan/run-plan.js'

export async function loadGateFile(session: Session): Promise<ResolvedGateFile> {
  const { deps, client, repo, repoPath, configFile } = session
  const resolved = await resolveGateFile(repoPath, session.event, session.settings.frozenConfig, {
    readWorkspaceSet: async set => {
      try {
        return await deps.readTextFile(path.resolve(path.dirname(configFile), set))
      } catch {
        return null
      }
    },
    readWorkspace: async () => {
      try {
        return await deps.readTextFile(configFile)
      } catch (error) {
        throw new ConfigError('config.unreadable', `cannot read the gate file: ${(error as Error).message}`, {
          file: configFile
        })
      }
    },
    // Retried by the client on 5xx, network failures and rate limits; what still fails is an
    // error naming GitHub's answer, never a silent fallback to the pull request's own version.
    readAtCommit: async sha => {
      let file: unknown
      try {
        file = (await client.rest.repos.getContent({ ...repo, path: repoPath, ref: sha })).data
      } catch (error) {
        if (isRequestFailure(error) && error.status === 404) return null
        if (!isRequestFailure(error)) throw error
        const permission = acceptedPermissions(error)
        throw new ConfigError(
          'config.base_unreadable',
          `cannot read the gate file at the base commit: ${describeRequestError(error)}${permission ? ` (the token needs ${permission})` : ''}`,
          { file: repoPath, value: sha }
        )
      }
      const content = file as { type?: string; content?: string; encoding?: string }
      if (content.type !== 'file' || content.encoding !== 'base64' || typeof content.content !== 'string') {
        throw new ConfigError('config.unreadable', 'the gate file at the base commit is not a regular file', { file: repoPath, value: sha })
      }
      return Buffer.from(content.content, 'base64').toString('utf8')
    },
    // The contents API answers base64 up to 1 MB; a larger file (a traffic set can be) comes with
    // `encoding: none` and is asked for again as raw bytes.
    readFileAtCommit: async (path, sha) => {
      const get = async (raw: boolean): Promise<unknown> => {
        try {
          return (await client.rest.repos.getContent({ ...repo, path, ref: sha, ...(raw ? { mediaType: { format: 'raw' } } : {}) })).data
        } catch (error) {
          if (isRequestFailure(error) && error.status === 404) return null
          if (!isRequestFailure(error)) throw error
          throw new ConfigError('config.base_unreadable', `cannot read ${path} at the base commit: ${describeRequestError(error)}`, {
            file: path,
            value: sha
          })
        }
      }
      const file = (await get(false)) as { type?: string; content?: string; encoding?: string } | null
      if (file === null) return null
      if (file.type !== 'file')
        throw new ConfigError('config.unreadable', `${path} at the base commit is not a regular file`, { file: path, value: sha })
      if (file.encoding === 'base64' && typeof file.content === 'string') return Buffer.from(file.content, 'base64')
      const raw = await get(true)
      if (typeof raw !== 'string')
        throw new ConfigError('config.unreadable', `${path} at the base commit could not be read as a file`, { file: path, value: sha })
      return Buffer.from(raw, 'utf8')
    },
    parse: (text, source, readSet) => parseGateConfig(text, source, { readSet, sections: gateSections() })
  })
  maskApiKeys(session, resolved.config)
  return resolved
}

/**
 * helm-run's own output is redacted by runHelmProcess, and GitHub masks values that come from
 * `secrets.*`, but not a key exported by an earlier step (a vault action, GITHUB_ENV). Masking
 * here covers every later line of the job: exceptions, a server echoing the header, other steps.
 */
function maskApiKeys(session: Session, config: GateConfig): void {
  // The run plan's secrets (src/plan/run-plan.ts): the keys that are set and the base URLs' credentials.
  for (const value of planSides(config, session.deps.env).secrets) session.deps.io.setSecret(value)
}

export interface BaselinePlan {
  /** HELM output directory of an archived baseline, when one is reused. */
  archivedPath: string | null
  origin: BaselineOrigin
  /** Why the baseline is run here, or where it came from: shown in the report. */
  note: string
  errors: GateError[]
}

export async function planBaseline(session: Session, config: GateConfig, fingerprint: string): Promise<BaselinePlan> {
  const { settings, event, deps } = session
  if (settings.baseline === 'run') {
    return { archivedPath: null, origin: { kind: 'run' }, note: 'Baseline: run in this job (input baseline is run).', errors: [] }
  }
  const artifactName = baselineArtifactName(settings.baselineArtifact, fingerprint)
  let reason: string
  try {
    const found = await findArchivedBaseline({
      client: session.client,
      repo: session.repo,
      artifactName,
      criteria: {
        repositoryId: event.repositoryId,
        defaultBranch: event.defaultBranch,
        now: deps.now(),
        maxAgeDays: settings.baselineMaxAgeDays
      },
      fingerprint,
      helmVersion: config.helm?.version ?? null,
      destination: path.join(session.outRoot, 'archived'),
      download: (artifact, destination, runId) =>
        deps.artifacts().download(artifact, destination, { token: settings.githubToken, ...session.repo, runId }),
      log: message => deps.io.info(message)
    })
    if (found.found) {
      const relative = found.manifest.sides.baseline?.output_path ?? ''
      const baselinePath = safeEntryPath(found.dir, relative)
      if (baselinePath === null) {
        reason = `the archived manifest points outside the artifact (${JSON.stringify(relative)})`
      } else {
        const o = found.origin
        return {
          archivedPath: baselinePath,
          origin: o,
          note: `Baseline: ${describeArchive(o)} (commit ${(o.head_sha ?? 'unknown').slice(0, 12)} on ${event.defaultBranch}).`,
          errors: []
        }
      }
    } else {
      reason = found.reason
    }
  } catch (error) {
    if (!isRequestFailure(error)) throw error
    const permission = acceptedPermissions(error) ?? (error.status === 403 ? 'actions: read' : null)
    reason = `the archived baselines could not be listed (${describeRequestError(error)}${permission ? `; the token needs ${permission}` : ''})`
  }
  if (settings.baseline === 'require-archived') {
    return {
      archivedPath: null,
      origin: { kind: 'run' },
      note: `Baseline: none (${reason}).`,
      errors: [new GateError('baseline.not_archived', `input baseline is require-archived but ${reason}`, { value: artifactName })]
    }
  }
  deps.io.info(`running the baseline: ${reason}`)
  return { archivedPath: null, origin: { kind: 'run' }, note: `Baseline: run in this job because ${reason}.`, errors: [] }
}

/** "archived baseline #1125 from run 1201, 2.0 h old": the artifact and its run, never where it was unpacked. */
export function describeArchive(origin: BaselineOrigin): string {
  const age = origin.age_hours === undefined ? '' : `, ${origin.age_hours.toFixed(1)} h old`
  return `archived baseline #${origin.artifact_id ?? '?'} from run ${origin.workflow_run_id ?? '?'}${age}`
}

/**
 * What every mode hands runGate: its evidence directory as the output folder, the gate file's
 * origin, the workflow run, and the job log: progress lines while the sides run, then each
 * side's complete helm-run output in a group of its own (never interleaved), then the phase
 * `next` (what runGate does after the sides: compare, or only record).
 */
export async function pipelineSettings(
  session: Session,
  config: GateConfig,
  configSource: string,
  next = 'compare'
): Promise<GateSettings> {
  const { deps } = session
  return {
    config,
    outDir: await evidenceDir(session),
    mode: session.settings.mode,
    configSource,
    event: manifestEvent(session),
    env: deps.env,
    cwd: session.workDir,
    progress: line => deps.io.info(line),
    sidesDone: async logs => {
      await session.jobLog.replay(logs)
      session.jobLog.start(next)
    },
    ...launchSettings(session, config)
  }
}

/** The archived baseline, when one is reused, as a side runGate takes as it is. */
export function givenBaseline(plan: BaselinePlan): { baseline?: GivenSide } {
  return plan.archivedPath ? { baseline: { path: plan.archivedPath, source: 'archived' } } : {}
}

/** Copies an archived side into the evidence directory, so a shard's artifact is self-contained. */
export async function copySide(from: string, evidenceDir: string, name: string): Promise<string> {
  const target = path.join(evidenceDir, name)
  await cp(from, target, { recursive: true })
  return target
}

export interface WrittenReports {
  jsonPath: string
  markdownPath: string
}

export async function writeReports(
  session: Session,
  report: Report,
  evidenceDir: string,
  gateFileChange: string | null,
  changed?: ChangedAnswers
): Promise<WrittenReports> {
  const jsonPath = path.join(evidenceDir, 'report.json')
  const markdownPath = path.join(evidenceDir, 'report.md')
  await mkdir(evidenceDir, { recursive: true })
  await writeFile(jsonPath, renderJson(report))
  await writeFile(markdownPath, renderMarkdown(report, { maxLength: LIMITS.jobSummary, lengthUnit: 'utf8', gateFileChange }))
  // report.html has every changed answer runGate collected, not only the few in report.json.
  await writeFile(path.join(evidenceDir, 'report.html'), renderHtml(report, changed))
  return { jsonPath, markdownPath }
}

export interface EvidenceUpload {
  id: number | null
  name: string
}

/** Uploads the evidence; a failure is reported loudly but never replaces the verdict. */
export async function uploadEvidence(session: Session, name: string, dir: string): Promise<EvidenceUpload> {
  try {
    const uploaded = await session.deps.artifacts().upload(name, dir, session.settings.retentionDays)
    session.deps.io.info(`uploaded artifact ${name} (id ${uploaded.id ?? 'unknown'}, ${uploaded.size} bytes)`)
    return { id: uploaded.id, name }
  } catch (error) {
    session.deps.io.error(`could not upload the evidence artifact ${name}: ${(error as Error).message}`)
    return { id: null, name }
  }
}

/** One phase of the job log, folded under its title (`::group::`), so helm-run's lines do not flood it. */
export function phase<T>(session: Session, title: string, fn: () => Promise<T>): Promise<T> {
  return session.jobLog.phase(title, fn)
}
