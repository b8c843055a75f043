/**
 * Steps the modes share around the pipeline: reading the frozen gate file, resolving the
 * baseline, the pipeline settings every mode starts from, writing the reports and uploading the
 * evidence.
 */
import { cp, mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { parseGateConfig } from '../config/load.js'
import type { GateConfig } from '../config/types.js'
import { ConfigError, GateError } from '../errors.js'
import { findArchivedBaseline } from '../evidence/archived-baseline.js'
import { baselineArtifactName } from '../evidence/names.js'
import { GitHubHttpError } from '../github/rest.js'
import { safeEntryPath } from '../github/zip.js'
import type { BaselineOrigin } from '../model/manifest.js'
import { LIMITS } from '../model/publication.js'
import type { Report } from '../model/report.js'
import type { GateSettings, GivenSide } from '../pipeline/run-gate.js'
import { renderHtml } from '../report/html.js'
import { renderJson } from '../report/json.js'
import { renderMarkdown } from '../report/markdown.js'
import { evidenceDir, manifestEvent } from './evidence.js'
import { launchSettings } from './launch-policy.js'
import { resolveGateFile, type ResolvedGateFile } from './gate-file.js'
import type { Session } from './session.js'

export async function loadGateFile(session: Session): Promise<ResolvedGateFile> {
  const { deps, client, repo, repoPath, configFile } = session
  const resolved = await resolveGateFile(repoPath, session.event, session.settings.frozenConfig, {
    readWorkspace: async () => {
      try {
        return await deps.readTextFile(configFile)
      } catch (error) {
        throw new ConfigError('config.unreadable', `cannot read the gate file: ${(error as Error).message}`, {
          file: configFile
        })
      }
    },
    readAtCommit: async sha => {
      const route = `/repos/${repo.owner}/${repo.repo}/contents/${repoPath.split('/').map(encodeURIComponent).join('/')}?ref=${sha}`
      try {
        const file = await client.request<{ type?: string; content?: string; encoding?: string }>('GET', route)
        if (file.type !== 'file' || file.encoding !== 'base64' || typeof file.content !== 'string') {
          throw new ConfigError('config.unreadable', 'the gate file at the base commit is not a regular file', {
            file: repoPath,
            value: sha
          })
        }
        return Buffer.from(file.content, 'base64').toString('utf8')
      } catch (error) {
        if (error instanceof GitHubHttpError && error.status === 404) return null
        if (error instanceof GitHubHttpError) {
          throw new ConfigError(
            'config.base_unreadable',
            `cannot read the gate file at the base commit (GitHub answered ${error.status}; the token needs contents: read)`,
            { file: repoPath, value: sha }
          )
        }
        throw error
      }
    },
    parse: (text, source) => parseGateConfig(text, source)
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
  for (const deployment of Object.values(config.deployments ?? {})) {
    if (deployment.kind !== 'server' || !deployment.apiKeyEnv) continue
    const value = session.deps.env[deployment.apiKeyEnv]
    if (value) session.deps.io.setSecret(value)
  }
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
          note:
            `Baseline: archived artifact ${o.artifact_id} from workflow run ${o.workflow_run_id} ` +
            `(commit ${(o.head_sha ?? 'unknown').slice(0, 12)} on ${event.defaultBranch}), ${o.age_hours} hours old.`,
          errors: []
        }
      }
    } else {
      reason = found.reason
    }
  } catch (error) {
    if (!(error instanceof GitHubHttpError)) throw error
    reason = `the archived baselines could not be listed (GitHub answered ${error.status}; the token needs actions: read)`
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

/**
 * What every mode hands runGate: its evidence directory as the output folder, the gate file's
 * origin, the workflow run, and helm-run's output in the job log.
 */
export async function pipelineSettings(session: Session, config: GateConfig, configSource: string): Promise<GateSettings> {
  const { deps } = session
  return {
    config,
    outDir: await evidenceDir(session),
    mode: session.settings.mode,
    configSource,
    event: manifestEvent(session),
    env: deps.env,
    cwd: session.workDir,
    log: line => deps.io.info(line),
    progress: line => deps.io.info(line),
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
  gateFileChange: string | null
): Promise<WrittenReports> {
  const jsonPath = path.join(evidenceDir, 'report.json')
  const markdownPath = path.join(evidenceDir, 'report.md')
  await mkdir(evidenceDir, { recursive: true })
  await writeFile(jsonPath, renderJson(report))
  await writeFile(markdownPath, renderMarkdown(report, { maxLength: LIMITS.jobSummary, lengthUnit: 'utf8', gateFileChange }))
  await writeFile(path.join(evidenceDir, 'report.html'), renderHtml(report))
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
