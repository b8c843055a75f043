/**
 * For a `docker run` launch command: which image is really running. A tag (`vllm-openai:latest`)
 * says little; the digest says exactly which engine build answered. Information only: a failure
 * to ask docker is recorded, never a gate error.
 */
import { execFile } from 'node:child_process'
import { basename } from 'node:path'
import type { ImageIdentity } from '../model/side-identity.js'
import type { DockerIdentity } from '../model/launch-record.js'
export type { DockerIdentity } from '../model/launch-record.js'

/** Flags of `docker run` that take no value; every other long flag takes one. */
const BOOLEAN_LONG = new Set([
  '--rm',
  '--detach',
  '--interactive',
  '--tty',
  '--privileged',
  '--init',
  '--read-only',
  '--publish-all',
  '--no-healthcheck',
  '--oom-kill-disable',
  '--disable-content-trust',
  '--quiet',
  '--sig-proxy',
  '--use-api-socket',
  '--help'
])
const BOOLEAN_SHORT = new Set(['d', 'i', 't', 'P', 'q'])

/** The image and `--name` of a `docker run` (or `docker container run`) command, else null. */
export function dockerRun(command: string[]): { image: string; name: string | null } | null {
  if (!['docker', 'podman'].includes(basename(command[0]))) return null
  let i = 1
  // Global options before the subcommand (e.g. --context x) all take a value except --debug/-D.
  while (i < command.length && command[i].startsWith('-'))
    i += command[i] === '--debug' || command[i] === '-D' || command[i].includes('=') ? 1 : 2
  if (command[i] === 'container') i++
  if (command[i] !== 'run') return null
  let name: string | null = null
  for (i++; i < command.length; i++) {
    const arg = command[i]
    if (arg === '--') return command[i + 1] ? { image: command[i + 1], name } : null
    if (!arg.startsWith('-') || arg === '-') return { image: arg, name }
    if (arg.startsWith('--')) {
      const [flag, attached] = arg.split(/=(.*)/s)
      if (flag === '--name') name = attached ?? command[i + 1] ?? null
      if (attached === undefined && !BOOLEAN_LONG.has(flag)) i++
      continue
    }
    const cluster = arg.slice(1)
    if ([...cluster].every(c => BOOLEAN_SHORT.has(c))) continue
    if (cluster.length === 1) i++ // `-p 8000:8000`; `-p8000:8000` carries its value
  }
  return null
}

export async function dockerIdentity(command: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<DockerIdentity | null> {
  const run = dockerRun(command)
  if (!run) return null
  const program = command[0]
  const identity: DockerIdentity = { image: run.image, container_name: run.name, image_id: null, repo_digests: [], error: null }
  try {
    if (run.name)
      identity.image_id = (await exec(program, ['container', 'inspect', '--format', '{{.Image}}', run.name], env, cwd)).trim() || null
    const target = identity.image_id ?? run.image
    const out = await exec(program, ['image', 'inspect', '--format', '{{.Id}} {{json .RepoDigests}}', target], env, cwd)
    const space = out.indexOf(' ')
    identity.image_id ??= out.slice(0, space).trim() || null
    const digests = JSON.parse(out.slice(space + 1).trim() || '[]') as unknown
    identity.repo_digests = Array.isArray(digests) ? digests.filter((d): d is string => typeof d === 'string') : []
  } catch (error) {
    identity.error = (error as Error).message.split('\n')[0].slice(0, 300)
  }
  return identity
}

function exec(program: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(program, args, { env, cwd, timeout: 30_000 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${program} ${args.slice(0, 2).join(' ')}: ${(stderr || error.message).trim()}`)) : resolve(stdout)
    )
  })
}

/**
 * What the report names: the image and its registry digest. Of the repo digests (one per registry
 * the image was pulled from or pushed to) the one of the named repository is preferred.
 */
export function imageOf(docker: DockerIdentity): ImageIdentity {
  const repository = repositoryOf(docker.image)
  const digests = docker.repo_digests.filter(d => d.includes('@'))
  const chosen = digests.find(d => d.slice(0, d.lastIndexOf('@')) === repository) ?? digests[0] ?? null
  const pinned = docker.image.includes('@') ? docker.image.slice(docker.image.lastIndexOf('@') + 1) : null
  return {
    name: docker.image,
    digest: chosen ? chosen.slice(chosen.lastIndexOf('@') + 1) : pinned,
    id: docker.image_id,
    error: docker.error
  }
}

/** `vllm/vllm-openai:v0.11.0` -> `vllm/vllm-openai`; a registry's port is not a tag. */
function repositoryOf(image: string): string {
  const name = image.includes('@') ? image.slice(0, image.lastIndexOf('@')) : image
  const colon = name.lastIndexOf(':')
  return colon > name.lastIndexOf('/') ? name.slice(0, colon) : name
}
