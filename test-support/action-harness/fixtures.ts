/**
 * Real HELM run directories for the action's integration tests, made by the real helm-run
 * (simple_mcqa and simple_classification with HELM's built-in simple/model1: offline, no
 * server, about 10 s) once per machine and cached in the temp directory. The fake helm-run
 * copies them per side. Returns the suite directory holding both runs.
 */
import { spawn } from 'node:child_process'
import { mkdtemp, readdir, rename, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { REPO_ROOT } from './harness.js'

const CACHE = path.join(tmpdir(), 'helm-gate-action-fixture-v2')
const RUN_NAMES = ['simple_mcqa:model=simple_model1', 'simple_classification:model=simple_model1']

export async function helmRunFixtures(): Promise<string> {
  const ready = path.join(CACHE, 'out/runs/s')
  if (await exists(path.join(ready, RUN_NAMES[1], 'per_instance_stats.json'))) return ready
  const work = await mkdtemp(path.join(tmpdir(), 'helm-gate-fixture-'))
  const helmRun = path.join(REPO_ROOT, '.venv/bin/helm-run')
  const entries = ['simple_mcqa:model=simple/model1', 'simple_classification:model=simple/model1']
  const args = [
    '-r',
    ...entries,
    '--suite',
    's',
    '-m',
    '79',
    '--disable-cache',
    '-o',
    path.join(work, 'out'),
    '--local-path',
    path.join(work, 'prod_env')
  ]
  await new Promise<void>((resolve, reject) => {
    const child = spawn(helmRun, args, { cwd: work, stdio: 'ignore' })
    child.on('error', reject)
    child.on('close', code => (code === 0 ? resolve() : reject(new Error(`helm-run exited ${code}`))))
  })
  const made = path.join(work, 'out/runs/s')
  const written = await readdir(made)
  for (const name of RUN_NAMES) if (!written.includes(name)) throw new Error(`helm-run did not write ${name}`)
  await rm(path.join(work, 'prod_env'), { recursive: true, force: true })
  try {
    await rename(work, CACHE)
  } catch {
    // Another test file made it first.
    await rm(work, { recursive: true, force: true })
  }
  return ready
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file)
    return true
  } catch {
    return false
  }
}
