/**
 * Finding the installed helm-run, its Python, the installed crfm-helm version and the plugin
 * package helm-gate ships. Nothing in HELM's output records its version (docs/helm.md "The HELM version"),
 * so it is read from the package metadata and recorded in the manifest.
 */
import { execFile } from 'node:child_process'
import { access, constants, open, stat } from 'node:fs/promises'
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { HelmRunError } from '../errors.js'

/** Resolves `helm.command` (a path, or a name looked up on PATH) to an executable file. */
export async function resolveHelmRun(command: string, env: NodeJS.ProcessEnv, cwd: string): Promise<string> {
  const candidates = command.includes('/')
    ? [isAbsolute(command) ? command : resolve(cwd, command)]
    : (env.PATH ?? '')
        .split(delimiter)
        .filter(Boolean)
        .map(dir => join(dir, command))
  for (const candidate of candidates) {
    try {
      await access(candidate, constants.X_OK)
      if ((await stat(candidate)).isFile()) return candidate
    } catch {
      // not this one
    }
  }
  throw new HelmRunError(
    'runner.helm_missing',
    `helm-run was not found (${command}); create the environment with scripts/python-env.sh or set helm.command`,
    { field: 'helm.command', value: command }
  )
}

/**
 * The Python interpreter that runs helm-run: pip writes console scripts with a `#!/path/python`
 * line. Falls back to `python` next to the script (a venv's bin directory).
 */
export async function pythonFor(helmRun: string): Promise<string[]> {
  let firstLine: string
  try {
    const handle = await open(helmRun, 'r')
    try {
      const buffer = Buffer.alloc(512)
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0)
      firstLine = buffer.subarray(0, bytesRead).toString('utf8').split('\n')[0]
    } finally {
      await handle.close()
    }
  } catch {
    firstLine = ''
  }
  if (firstLine.startsWith('#!')) {
    const parts = firstLine.slice(2).trim().split(/\s+/).filter(Boolean)
    if (parts.length > 0 && /python/.test(parts[parts.length - 1])) return parts
  }
  return [join(dirname(helmRun), 'python')]
}

/** The installed crfm-helm version, read with importlib.metadata through helm-run's Python. */
export async function installedHelmVersion(python: string[], env: NodeJS.ProcessEnv): Promise<string> {
  const [file, ...prefix] = python
  const code = 'import importlib.metadata as m; print(m.version("crfm-helm"))'
  return new Promise((resolvePromise, reject) => {
    execFile(file, [...prefix, '-c', code], { env, timeout: 60_000 }, (error, stdout, stderr) => {
      if (error) {
        reject(
          new HelmRunError(
            'runner.helm_version_unknown',
            `cannot read the installed crfm-helm version: ${firstLineOf(stderr) || error.message}`,
            {
              value: python.join(' ')
            }
          )
        )
        return
      }
      resolvePromise(stdout.trim())
    })
  })
}

/** Refuses to run a HELM other than the pinned one: results would not be comparable with the archive. */
export function assertPinnedVersion(installed: string, pinned: string, source: string): void {
  if (installed !== pinned) {
    throw new HelmRunError(
      'runner.helm_version',
      `installed crfm-helm is ${installed} but the gate file pins ${pinned}; install the pinned version or change helm.version`,
      { file: source, field: 'helm.version', value: installed }
    )
  }
}

/**
 * The directory that holds `helm_gate_plugins/` (put on PYTHONPATH of helm-run). Searched upwards
 * from this module, so it works from src/ (tests), dist/ (the action and CLI bundles) alike;
 * HELM_GATE_PYTHONPATH overrides it.
 */
export async function pluginPythonPath(env: NodeJS.ProcessEnv): Promise<string> {
  const override = env.HELM_GATE_PYTHONPATH
  const starts = override ? [override] : ancestors(dirname(fileURLToPath(import.meta.url)), 5).map(dir => join(dir, 'python'))
  for (const dir of starts) {
    try {
      await access(join(dir, 'helm_gate_plugins', 'clients.py'), constants.R_OK)
      return dir
    } catch {
      // keep looking
    }
  }
  throw new HelmRunError('runner.plugins_missing', 'the helm_gate_plugins Python package was not found next to helm-gate', {
    value: starts[0]
  })
}

function ancestors(dir: string, count: number): string[] {
  const out = [dir]
  for (let i = 0; i < count; i++) out.push(dirname(out[out.length - 1]))
  return [...new Set(out)]
}

function firstLineOf(text: string): string {
  return text.trim().split('\n').filter(Boolean).pop() ?? ''
}
