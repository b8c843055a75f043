import { describe, expect, it } from '@jest/globals'
import { deriveEvent } from '../../src/action/event.js'
import { assertLaunchAllowed, launchBaseRef } from '../../src/action/launch-policy.js'
import { parseGateConfig } from '../../src/config/load.js'

const env = { GITHUB_REPOSITORY: 'acme/serving', GITHUB_SHA: 'merge0000', GITHUB_RUN_ID: '9' }
const repository = { id: 1, default_branch: 'main' }
const pr = (headRepoId: number) => ({
  number: 7,
  head: { sha: 'head1111', ref: 'f', repo: { id: headRepoId } },
  base: { sha: 'base2222', ref: 'main', repo: { id: 1 } }
})
const gate = (launch: boolean) =>
  parseGateConfig(
    `
version: 1
deployments:
  baseline: { api: chat, base_url: http://127.0.0.1:8001/v1, model: a }
  candidate: { api: chat, base_url: http://127.0.0.1:8002/v1, model: b${launch ? ', launch: { command: [sh, serving/start.sh] }' : ''} }
runs: [{ entry: simple_mcqa, metric: exact_match, max_drop: 0.05 }]
`,
    'gate.yml'
  )

describe('assertLaunchAllowed', () => {
  const fork = deriveEvent('pull_request', { repository, pull_request: pr(2) }, env)
  const own = deriveEvent('pull_request', { repository, pull_request: pr(1) }, env)

  it('refuses to launch for a fork pull request unless allow-fork-launch is true', () => {
    expect(() => assertLaunchAllowed(gate(true), fork, false)).toThrow(
      /comes from a fork.*launches candidate; nothing was launched.*allow-fork-launch: true/
    )
    expect(() => assertLaunchAllowed(gate(true), fork, true)).not.toThrow()
  })

  it('lets the repository’s own pull requests launch, and gates without launch run anywhere', () => {
    expect(() => assertLaunchAllowed(gate(true), own, false)).not.toThrow()
    expect(() => assertLaunchAllowed(gate(false), fork, false)).not.toThrow()
  })

  it('applies the same rule to runner command sides: they run programs on the runner too', () => {
    const commands = parseGateConfig(
      `
version: 1
deployments:
  baseline: { command: [python, run.py, "{entry}", "{output}"] }
  candidate: { command: [python, run.py, "{entry}", "{output}", --compress-weight] }
runs: [{ entry: simple_mcqa, metric: exact_match, max_drop: 0.05 }]
`,
      'gate.yml'
    )
    expect(() => assertLaunchAllowed(commands, fork, false)).toThrow(
      /comes from a fork.*runs a runner command for baseline and candidate; nothing was launched/
    )
    expect(() => assertLaunchAllowed(commands, fork, true)).not.toThrow()
    expect(() => assertLaunchAllowed(commands, own, false)).not.toThrow()
  })

  it('launches checkout: base from the pull request base, else the merge group base, else the commit', () => {
    expect(launchBaseRef(own, 'merge0000')).toBe('base2222')
    const queue = deriveEvent('merge_group', { repository, merge_group: { base_sha: 'queue333', head_sha: 'h' } }, env)
    expect(launchBaseRef(queue, 'merge0000')).toBe('queue333')
    expect(launchBaseRef(deriveEvent('push', { repository }, env), 'abc')).toBe('abc')
  })
})
