/**
 * Workflow artifacts through @actions/artifact: uploading evidence (the runtime token's Twirp
 * service) and downloading, streamed to disk, either from this workflow run or, with `findBy`
 * and the REST token, from another run (an archived baseline, the fork pair's measurement).
 * Every download is checked against the digest GitHub listed (an artifact without one is
 * refused: fail closed) and the extracted tree against the path-escape guard.
 */
import { DefaultArtifactClient } from '@actions/artifact'
import { copyFile, link, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises'
import path from 'node:path'
import { GateError } from '../errors.js'
import { decodeTree, encodeArtifactPath } from './artifact-paths.js'
import { checkExtractedTree } from './extracted-tree.js'

export interface StoredArtifact {
  id: number
  name: string
  /** `sha256:<hex>` as the service lists it. */
  digest: string | null
}

export interface UploadedArtifact {
  id: number | null
  name: string
  size: number
}

/** Another workflow run's artifacts, reached through the REST API with this token (actions: read). */
export interface ArtifactSource {
  token: string
  owner: string
  repo: string
  runId: number
}

export interface ArtifactStore {
  /** Uploads every file under `rootDir` except secrets (see isSecretPath). */
  upload(name: string, rootDir: string, retentionDays: number): Promise<UploadedArtifact>
  /** Deletes an artifact of this run by name; a missing one is not an error. */
  remove(name: string): Promise<void>
  list(): Promise<StoredArtifact[]>
  /** Streams the artifact into `destination` (this run's, or `from` another run's); refuses a bad digest. */
  download(artifact: StoredArtifact, destination: string, from?: ArtifactSource): Promise<void>
}

/**
 * prod_env holds credentials.conf with API keys; it is generated next to the run output, so
 * the upload walks the tree itself and leaves it (and any stray key files) out.
 */
export function isSecretPath(relativePath: string): boolean {
  const parts = relativePath.split(/[\\/]/)
  const base = parts[parts.length - 1].toLowerCase()
  return (
    parts.some(part => part === 'prod_env' || part === '.git') ||
    base === 'credentials.conf' ||
    base === '.env' ||
    base.endsWith('.pem') ||
    base.endsWith('.key')
  )
}

export async function listUploadFiles(rootDir: string): Promise<string[]> {
  const files: string[] = []
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name)
      if (isSecretPath(path.relative(rootDir, full))) continue
      if (entry.isDirectory()) await walk(full)
      else if (entry.isFile()) files.push(full)
    }
  }
  await walk(rootDir)
  return files.sort()
}

export function actionsArtifactStore(): ArtifactStore {
  const client = new DefaultArtifactClient()
  return {
    async upload(name, rootDir, retentionDays) {
      const stage = await stageForUpload(rootDir)
      try {
        const result = await client.uploadArtifact(name, stage.files, stage.dir, {
          ...(retentionDays > 0 ? { retentionDays } : {})
        })
        return { id: result.id ?? null, name, size: result.size ?? 0 }
      } finally {
        await rm(stage.dir, { recursive: true, force: true })
      }
    },
    async remove(name) {
      try {
        await client.deleteArtifact(name)
      } catch (error) {
        // The library throws ArtifactNotFoundError, or a plain Error for a Twirp 404.
        if (!/not ?found|404/i.test(`${(error as Error).name} ${(error as Error).message}`)) throw error
      }
    },
    async list() {
      const { artifacts } = await client.listArtifacts()
      return artifacts.map(a => ({ id: a.id, name: a.name, digest: a.digest ?? null }))
    },
    async download(artifact, destination, from) {
      const what = `artifact ${artifact.name} (${artifact.id})`
      if (!artifact.digest) {
        throw new GateError('artifact.no_digest', `${what} has no digest, so its content cannot be verified`, { value: artifact.id })
      }
      await mkdir(destination, { recursive: true })
      const result = await client.downloadArtifact(artifact.id, {
        path: destination,
        expectedHash: artifact.digest,
        ...(from
          ? { findBy: { token: from.token, workflowRunId: from.runId, repositoryOwner: from.owner, repositoryName: from.repo } }
          : {})
      })
      if (result.digestMismatch) {
        await rm(destination, { recursive: true, force: true })
        throw new GateError('artifact.digest', `${what} does not match its digest ${artifact.digest}`, { value: artifact.id })
      }
      try {
        await checkExtractedTree(destination, what)
      } catch (error) {
        await rm(destination, { recursive: true, force: true })
        throw error
      }
      await decodeTree(destination)
    }
  }
}

/**
 * A copy of `rootDir` (hard links where possible) whose paths are encoded for the artifact
 * service, next to it so links stay on one file system.
 */
async function stageForUpload(rootDir: string): Promise<{ dir: string; files: string[] }> {
  const dir = await mkdtemp(`${path.resolve(rootDir)}-upload-`)
  const files: string[] = []
  for (const file of await listUploadFiles(rootDir)) {
    const relative = path.relative(rootDir, file).split(path.sep).join('/')
    const target = path.join(dir, ...encodeArtifactPath(relative).split('/'))
    await mkdir(path.dirname(target), { recursive: true })
    try {
      await link(file, target)
    } catch {
      await copyFile(file, target)
    }
    files.push(target)
  }
  return { dir, files }
}
