/**
 * `helm-gate plan --config FILE`: print the prod_env files each side would get (secrets
 * redacted) and the exact helm-run commands, without running anything.
 */
import { join, resolve } from 'node:path'
import { tmpdir } from 'node:os'
import { fingerprint } from '../../config/fingerprint.js'
import { loadGateConfig } from '../../config/load.js'
import { pluginPythonPath } from '../../runner/helm-install.js'
import { PROD_ENV_FILES, redactedFiles } from '../../runner/prod-env.js'
import { prepareRun } from '../../runner/run-sides.js'
import { displayCommand } from '../../runner/side-plan.js'
import { parseArgs, requiredConfig } from '../args.js'
import type { CliIo } from '../io.js'

export const PLAN_USAGE = `usage: helm-gate plan --config FILE [--out DIR] [--self-check]

Prints the prod_env files generated for each side (secrets redacted) and the exact helm-run
commands that \`helm-gate run\` would execute. Runs nothing.
`

const SPECS = {
  config: { value: true },
  out: { value: true },
  'self-check': { value: false },
  debug: { value: false },
  help: { value: false }
}

export async function planCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, SPECS)
  if (args.flags.has('help')) {
    io.stdout(PLAN_USAGE)
    return 0
  }
  const configPath = requiredConfig(args, PLAN_USAGE)
  const config = await loadGateConfig(resolve(io.cwd, configPath))
  const outDir = resolve(io.cwd, args.options.get('out') ?? join('helm-gate-runs', 'TIMESTAMP'))
  // The real run uses a fresh private temporary directory; show where it would be.
  const tempDir = join(tmpdir(), 'helm-gate-XXXXXX')
  const prepared = await prepareRun(config, {
    outDir,
    sides: ['baseline', 'candidate'],
    selfCheck: args.flags.has('self-check'),
    tempDir,
    stamp: 'TIMESTAMP'
  })
  let pythonPath: string
  try {
    pythonPath = await pluginPythonPath(io.env)
  } catch {
    pythonPath = '<helm-gate>/python'
  }

  const out: string[] = []
  out.push(`# helm-gate plan for ${config.source}`)
  out.push(`# crfm-helm ${prepared.helm.version} (the run refuses any other installed version)`)
  out.push(`# fingerprint ${fingerprint(config)}`)
  out.push(`# both sides run at the same time (run --sequential to change); cache disabled; fresh suite per side`)
  for (const plan of prepared.plans) {
    out.push(
      '',
      `## ${plan.side}: HELM deployment ${plan.prodEnv.deployment}`,
      `## --local-path ${plan.localPath} (temporary, removed after the run)`
    )
    const files = redactedFiles(plan.prodEnv)
    for (const name of PROD_ENV_FILES) {
      out.push('', `### ${name}`, files[name].trimEnd() || '(empty)')
    }
    out.push('', `### command`, displayCommand(plan.command, plan.args, { PYTHONPATH: pythonPath }))
  }
  io.stdout(`${out.join('\n')}\n`)
  return 0
}
