import { describe, expect, it } from '@jest/globals'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { ActionIO } from '../../src/action/deps.js'
import { annotationsWithoutPaths, hidePaths, reportForPullRequest, runnerPathRoots } from '../../src/action/visible-paths.js'
import type { Report } from '../../src/model/report.js'

const TEMP = path.join(tmpdir(), 'runner-temp')
const roots = runnerPathRoots({
  evidence: path.join(TEMP, 'helm-gate', 'evidence'),
  outRoot: path.join(TEMP, 'helm-gate'),
  workDir: '/home/runner/work/serving/serving/deploy',
  workspace: '/home/runner/work/serving/serving',
  runnerTemp: TEMP,
  actionDir: '/home/runner/work/_actions/acme/helm-gate/v1'
})

describe('hidePaths', () => {
  it('names files inside the evidence artifact or the repository, never where they sit on the runner', () => {
    const evidenceFile = path.join(TEMP, 'helm-gate', 'evidence', 'candidate', 'runs', 's', 'mcqa', 'per_instance_stats.json')
    expect(hidePaths(`${evidenceFile} is truncated`, roots)).toBe('candidate/runs/s/mcqa/per_instance_stats.json is truncated')
    expect(hidePaths('cannot read /home/runner/work/serving/serving/.github/helm-gate.yml', roots)).toBe(
      'cannot read .github/helm-gate.yml'
    )
    expect(hidePaths('cannot read /home/runner/work/serving/serving/deploy/gate.yml', roots)).toBe('cannot read gate.yml')
    expect(hidePaths(`${path.join(TEMP, 'helm-gate', 'archived', '12', 'manifest.json')}: bad`, roots)).toBe(
      'archived/12/manifest.json: bad'
    )
    expect(hidePaths(`${path.join(TEMP, 'other', 'x')} and ${path.join(tmpdir(), 'helm-gate-abc', 'prod_env')}`, roots)).toBe(
      '…/other/x and …/helm-gate-abc/prod_env'
    )
  })

  it("names the action's own files (an internal error's stack) inside helm-gate", () => {
    expect(hidePaths('at run (/home/runner/work/_actions/acme/helm-gate/v1/dist/index.js:12:3)', roots)).toBe(
      'at run (helm-gate/dist/index.js:12:3)'
    )
    // `uses: ./`: the action is the repository, and its files are named as the repository's.
    const self = runnerPathRoots({ evidence: '/t/e', outRoot: '/t', workDir: '/w/r', workspace: '/w/r', actionDir: '/w/r' })
    expect(hidePaths('at run (/w/r/dist/index.js:1:2)', self)).toBe('at run (dist/index.js:1:2)')
  })

  it('replaces a directory named on its own, and leaves a longer name that merely starts the same alone', () => {
    expect(hidePaths(`could not write ${path.join(TEMP, 'helm-gate', 'evidence')}.`, roots)).toBe('could not write the evidence artifact.')
    expect(hidePaths('/home/runner/work/serving/serving2/x', roots)).toBe('/home/runner/work/serving/serving2/x')
  })
})

describe('reportForPullRequest', () => {
  it('rewrites every string of a copy and leaves the original (report.json) as it was', () => {
    const file = path.join(TEMP, 'helm-gate', 'evidence', 'baseline', 'runs', 's', 'x', 'scenario_state.json')
    const report = {
      verdict: 'error',
      headline: `reading ${file} failed`,
      errors: [{ code: 'helm.truncated', message: `${file} ends early`, file }],
      baseline: { path: path.join(TEMP, 'helm-gate', 'evidence', 'baseline'), runs: [] }
    } as unknown as Report
    const shown = reportForPullRequest(report, roots)
    expect(shown.errors[0]).toEqual({
      code: 'helm.truncated',
      message: 'baseline/runs/s/x/scenario_state.json ends early',
      file: 'baseline/runs/s/x/scenario_state.json'
    })
    expect(shown.headline).toBe('reading baseline/runs/s/x/scenario_state.json failed')
    expect(shown.baseline.path).toBe('baseline')
    expect(JSON.stringify(shown)).not.toContain(tmpdir())
    expect(report.errors[0].file).toBe(file)
  })
})

describe('annotationsWithoutPaths', () => {
  it('hides the paths in warnings, errors and the failure (annotations on the PR), not in log lines', () => {
    const seen: string[] = []
    const record =
      (kind: string) =>
      (message: string): void => {
        seen.push(`${kind}: ${message}`)
      }
    const io = annotationsWithoutPaths(
      { info: record('info'), warning: record('warning'), error: record('error'), setFailed: record('failed') } as unknown as ActionIO,
      roots
    )
    const file = '/home/runner/work/serving/serving/.github/helm-gate.yml'
    io.info(`read ${file}`)
    io.warning(`cannot read ${file}`)
    io.error(`cannot read ${file}`)
    io.setFailed(`cannot read ${file}`)
    expect(seen).toEqual([
      `info: read ${file}`,
      'warning: cannot read .github/helm-gate.yml',
      'error: cannot read .github/helm-gate.yml',
      'failed: cannot read .github/helm-gate.yml'
    ])
  })
})
