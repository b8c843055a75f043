/**
 * Runs the bundled action (dist/index.js) the way the GitHub runner does: a child process with
 * inputs as INPUT_* variables, an event payload file, GITHUB_OUTPUT / GITHUB_STEP_SUMMARY files,
 * an ACTIONS_RUNTIME_TOKEN JWT and ACTIONS_RESULTS_URL / GITHUB_API_URL pointing at the loopback
 * fake. The spawn is asynchronous: the fake runs in the test process and must keep answering.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { chmod, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse as parseYaml } from 'yaml'
import type { FakeGitHub } from '../fake-github/server.js'

const here = path.dirname(fileURLToPath(import.meta.url))
export const REPO_ROOT = path.resolve(here, '../..')
export const BUNDLE = path.join(REPO_ROOT, 'dist/index.js')
export const VENV_PYTHON = path.join(REPO_ROOT, '.venv/bin/python')

export interface ActionRun {
  code: number | null
  stdout: string
  stderr: string
  outputs: Record<string, string>
  summary: string
  workspace: string
  /** The RUNNER_TEMP the action was given. */
  runnerTemp: string
}

export interface ActionInvocation {
  fake: FakeGitHub
  /** Inputs by their action.yml names (kebab-case). */
  inputs: Record<string, string>
  eventName: string
  payload: Record<string, unknown>
  workspace: string
  runId: number
  runAttempt?: number
  sha?: string
  ref?: string
  token?: string
  /** Extra environment (fake helm-run switches, PATH additions). */
  env?: Record<string, string>
  timeoutMs?: number
  /** Called with the running action process (e.g. to send it SIGTERM mid-run). */
  onSpawn?: (child: ChildProcess) => void
}

export async function runAction(invocation: ActionInvocation): Promise<ActionRun> {
  const { fake } = invocation
  const temp = await mkdtemp(path.join(tmpdir(), 'helm-gate-action-'))
  const files = {
    event: path.join(temp, 'event.json'),
    output: path.join(temp, 'output'),
    summary: path.join(temp, 'summary'),
    env: path.join(temp, 'env'),
    path: path.join(temp, 'path'),
    state: path.join(temp, 'state')
  }
  await writeFile(files.event, JSON.stringify(invocation.payload))
  for (const file of [files.output, files.summary, files.env, files.path, files.state]) await writeFile(file, '')
  const runnerTemp = path.join(temp, 'runner-temp')
  await mkdir(runnerTemp)

  // The runner passes every input, with action.yml's default when the workflow gives none.
  const inputs: Record<string, string> = {
    ...(await actionDefaults()),
    'github-token': invocation.token ?? 'test-token',
    ...invocation.inputs
  }
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? temp,
    LANG: 'C.UTF-8',
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: invocation.eventName,
    GITHUB_EVENT_PATH: files.event,
    GITHUB_OUTPUT: files.output,
    GITHUB_STEP_SUMMARY: files.summary,
    GITHUB_ENV: files.env,
    GITHUB_PATH: files.path,
    GITHUB_STATE: files.state,
    GITHUB_REPOSITORY: `${fake.repo.owner}/${fake.repo.name}`,
    GITHUB_REPOSITORY_OWNER: fake.repo.owner,
    GITHUB_SHA: invocation.sha ?? 'f'.repeat(40),
    GITHUB_REF: invocation.ref ?? 'refs/heads/main',
    GITHUB_RUN_ID: String(invocation.runId),
    GITHUB_RUN_ATTEMPT: String(invocation.runAttempt ?? 1),
    GITHUB_RUN_NUMBER: '1',
    GITHUB_ACTOR: 'octocat',
    GITHUB_WORKSPACE: invocation.workspace,
    RUNNER_TEMP: runnerTemp,
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_API_URL: fake.url,
    ACTIONS_RUNTIME_TOKEN: fake.runtimeToken(invocation.runId),
    ACTIONS_RESULTS_URL: `${fake.url}/`,
    GITHUB_RETENTION_DAYS: '90',
    NO_PROXY: '127.0.0.1,localhost',
    // Retry delays in milliseconds instead of seconds: a retried 502 costs nothing here.
    HELM_GATE_RETRY_UNIT_MS: '5',
    ...invocation.env
  }
  for (const [name, value] of Object.entries(inputs)) env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value

  const child = spawn(process.execPath, [BUNDLE], { cwd: invocation.workspace, env, stdio: ['ignore', 'pipe', 'pipe'] })
  invocation.onSpawn?.(child)
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', chunk => (stdout += chunk))
  child.stderr.on('data', chunk => (stderr += chunk))
  const code = await new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`the action did not finish within ${invocation.timeoutMs ?? 60000} ms\n${stdout}\n${stderr}`))
    }, invocation.timeoutMs ?? 60000)
    child.on('error', reject)
    child.on('close', exitCode => {
      clearTimeout(timer)
      resolve(exitCode)
    })
  })
  return {
    code,
    stdout,
    stderr,
    outputs: parseOutputFile(await readFile(files.output, 'utf8')),
    summary: await readFile(files.summary, 'utf8'),
    workspace: invocation.workspace,
    runnerTemp
  }
}

export async function actionDefaults(): Promise<Record<string, string>> {
  const metadata = parseYaml(await readFile(path.join(REPO_ROOT, 'action.yml'), 'utf8')) as {
    inputs: Record<string, { default?: string }>
  }
  const defaults: Record<string, string> = {}
  for (const [name, input] of Object.entries(metadata.inputs)) {
    if (input.default !== undefined && !String(input.default).includes('${{')) defaults[name] = String(input.default)
  }
  return defaults
}

/** GITHUB_OUTPUT's heredoc format: `name<<delimiter`, the value lines, the delimiter. */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {}
  const lines = text.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const match = /^([^<=]+)<<(.+)$/.exec(lines[i])
    if (!match) continue
    const value: string[] = []
    for (i++; i < lines.length && lines[i] !== match[2]; i++) value.push(lines[i])
    outputs[match[1]] = value.join('\n')
  }
  return outputs
}

/** Writes the fake helm-run into `binDir`, started by the venv's Python (which has crfm-helm). */
export async function installFakeHelmRun(binDir: string): Promise<string> {
  await mkdir(binDir, { recursive: true })
  const script = await readFile(path.join(here, 'fake-helm-run.py'), 'utf8')
  const file = path.join(binDir, 'helm-run')
  await writeFile(file, `#!${VENV_PYTHON}\n${script}`)
  await chmod(file, 0o755)
  return file
}
