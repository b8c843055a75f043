import { describe, expect, it } from '@jest/globals'
import { mkdir, mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { ActionDeps } from '../../src/action/deps.js'
import { openSession } from '../../src/action/session.js'

/** Just enough of the dependencies for openSession: inputs, environment, event payload. */
function depsFor(workspace: string, inputs: Record<string, string>): ActionDeps {
  return {
    io: { getInput: (name: string) => ({ 'github-token': 't', ...inputs })[name] ?? '' },
    env: { GITHUB_REPOSITORY: 'acme/serving', GITHUB_RUN_ID: '5', GITHUB_EVENT_NAME: 'pull_request', GITHUB_WORKSPACE: workspace },
    readEventPayload: async () => ({}),
    github: () => ({})
  } as unknown as ActionDeps
}

describe('openSession', () => {
  it('names the gate file relative to the repository root, also when the checkout is in a subdirectory', async () => {
    // actions/checkout with `path: serving`: the repository's root is <workspace>/serving, and
    // the contents API (the frozen base version) knows the file as .github/helm-gate.yml.
    const workspace = await mkdtemp(path.join(tmpdir(), 'helm-gate-session-'))
    await mkdir(path.join(workspace, 'serving', '.git'), { recursive: true })
    const session = await openSession(depsFor(workspace, { 'working-directory': 'serving', config: '.github/helm-gate.yml' }))
    expect(session.configFile).toBe(path.join(workspace, 'serving', '.github', 'helm-gate.yml'))
    expect(session.repoPath).toBe('.github/helm-gate.yml')
  })

  it('keeps a path inside the repository when the working directory is a subfolder of it', async () => {
    const workspace = await mkdtemp(path.join(tmpdir(), 'helm-gate-session-'))
    await mkdir(path.join(workspace, '.git'))
    await mkdir(path.join(workspace, 'deploy'))
    const session = await openSession(depsFor(workspace, { 'working-directory': 'deploy', config: 'gate.yml' }))
    expect(session.repoPath).toBe('deploy/gate.yml')
  })
})
