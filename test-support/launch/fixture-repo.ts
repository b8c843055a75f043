/**
 * A small git repository for the launch tests: a base commit and a pull-request head that differ
 * in `serving/fake.json`, the file the launched fake OpenAI server reads its behaviour from. So
 * the baseline (launched from a worktree of the base commit) and the candidate (launched from the
 * checked-out head) answer differently, as two serving configurations would.
 */
import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface FixtureRepo {
  dir: string
  baseSha: string
  headSha: string
}

export interface ServingBehaviour {
  accuracy?: number
  seed?: number
  startDelayMs?: number
  failStart?: string
  latencyMs?: number
  dieAfter?: number
  hangAfter?: number
}

export function gitIn(dir: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(
      'git',
      args,
      {
        cwd: dir,
        env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e' }
      },
      (error, stdout, stderr) => (error ? reject(new Error(`git ${args.join(' ')}: ${stderr}`)) : resolve(stdout.trim()))
    )
  )
}

/**
 * @param base the serving behaviour at the base commit
 * @param head the serving behaviour in the pull request
 * @param extra more files, committed in the base commit (e.g. the gate file)
 */
export async function makeFixtureRepo(
  base: ServingBehaviour,
  head: ServingBehaviour,
  extra: Record<string, string> = {}
): Promise<FixtureRepo> {
  const dir = await mkdtemp(join(tmpdir(), 'helm-gate-launch-repo-'))
  await gitIn(dir, ['init', '--quiet', '--initial-branch=main'])
  await mkdir(join(dir, 'serving'), { recursive: true })
  for (const [path, text] of Object.entries(extra)) {
    await mkdir(join(dir, path, '..'), { recursive: true })
    await writeFile(join(dir, path), text)
  }
  await writeFile(join(dir, 'serving', 'fake.json'), `${JSON.stringify(base, null, 2)}\n`)
  await writeFile(join(dir, 'serving', 'README'), 'serving configuration of the fixture\n')
  await gitIn(dir, ['add', '-A'])
  await gitIn(dir, ['commit', '--quiet', '-m', 'base'])
  const baseSha = await gitIn(dir, ['rev-parse', 'HEAD'])
  await gitIn(dir, ['checkout', '--quiet', '-b', 'pr'])
  await writeFile(join(dir, 'serving', 'fake.json'), `${JSON.stringify(head, null, 2)}\n`)
  await gitIn(dir, ['commit', '--quiet', '--allow-empty', '-am', 'pull request: new serving configuration'])
  const headSha = await gitIn(dir, ['rev-parse', 'HEAD'])
  return { dir, baseSha, headSha }
}

/** A loopback port that was free a moment ago (the launched server binds it itself). */
/** Ports handed out by this process: two fixtures (or two sides of one) never get the same one. */
const handedOut = new Set<number>()

/**
 * A port for a server that starts later (a launched side). Drawn below Linux's ephemeral range
 * (32768-60999): the tests running in parallel bind port 0 all the time, and one of them could be
 * given a port from that range in the moment between this check and the launch, which the launch
 * then refuses as an address already in use.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000)
    if (handedOut.has(port)) continue
    if (await bindable(port)) {
      handedOut.add(port)
      return port
    }
  }
}

function bindable(port: number): Promise<boolean> {
  return new Promise(resolve => {
    const server = createServer()
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)))
  })
}
