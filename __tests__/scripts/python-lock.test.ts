/**
 * The committed Python locks (python/locks/) and the checks around them (scripts/python-lock.sh):
 * a lock stale against its inputs fails here, and every venv script refuses it, naming the script
 * that resolves it again, before anything installs (docs/development.md "Python environments and
 * their locks").
 */
import { describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))
const lockDir = join(root, 'python', 'locks')
const inputs = readdirSync(lockDir)
  .filter(f => f.endsWith('.in'))
  .map(f => f.slice(0, -3))
  .sort()

function sha256(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex')
}

/** A throwaway copy of the scripts and locks, so a test can break a lock without touching ours. */
function scratchRoot(): string {
  const dir = mkdtempSync(join(tmpdir(), 'helm-gate-lock-'))
  mkdirSync(join(dir, 'python'))
  cpSync(lockDir, join(dir, 'python', 'locks'), { recursive: true })
  cpSync(join(root, 'scripts'), join(dir, 'scripts'), { recursive: true })
  return dir
}

function sourced(dir: string, script: string, input = ''): { status: number | null; stderr: string } {
  const r = spawnSync('bash', ['-c', `set -euo pipefail; root="$1"; source "$root/scripts/python-lock.sh"; ${script}`, 'x', dir], {
    input,
    encoding: 'utf8'
  })
  return { status: r.status, stderr: r.stderr }
}

describe('python/locks', () => {
  it('has a lock for every venv script, each lock resolved from its inputs as they are now', () => {
    expect(inputs).toEqual(['helm', 'helm-0.2', 'helm-0.2-nodeps', 'lm-eval', 'load-peers'])
    for (const name of inputs) {
      const lock = join(lockDir, `${name}.txt`)
      expect(existsSync(lock)).toBe(true)
      const first = readFileSync(lock, 'utf8').split('\n')[0]
      // Stale: someone moved a pin in NAME.in without `bash scripts/lock-python.sh NAME`.
      expect({ name, first }).toEqual({ name, first: `# inputs-sha256: ${sha256(join(lockDir, `${name}.in`))}` })
    }
  })

  it('pins every package to one version and hashes every file', () => {
    for (const name of inputs) {
      const text = readFileSync(join(lockDir, `${name}.txt`), 'utf8')
      const requirements = text.split('\n').filter(line => /^[A-Za-z0-9]/.test(line))
      expect(requirements.length).toBeGreaterThan(0)
      for (const line of requirements)
        expect({ name, line }).toEqual({ name, line: expect.stringMatching(/^[A-Za-z0-9._-]+(\[[a-z,-]+\])?==\S+ \\$/) })
      // Each requirement is followed by its hashes; --require-hashes refuses a requirement without.
      const blocks = text.split(/\n(?=[A-Za-z0-9])/).filter(b => /^[A-Za-z0-9]/.test(b))
      for (const block of blocks)
        expect({ name, block: block.split('\n')[0], hashed: /--hash=sha256:[0-9a-f]{64}/.test(block) }).toEqual({
          name,
          block: block.split('\n')[0],
          hashed: true
        })
    }
  })

  it('leaves torchvision out of the HELM lock and keeps the CPU torch', () => {
    const helm = readFileSync(join(lockDir, 'helm.txt'), 'utf8')
    expect(helm).not.toMatch(/^torchvision==/m)
    expect(helm).toMatch(/^torch==2\.13\.0\+cpu /m)
    expect(helm).not.toMatch(/^nvidia-/m)
  })
})

describe('scripts/python-lock.sh', () => {
  it('refuses a lock whose inputs changed, naming both files and the script that resolves it again', () => {
    const dir = scratchRoot()
    try {
      expect(sourced(dir, 'check_lock helm').status).toBe(0)
      writeFileSync(
        join(dir, 'python', 'locks', 'helm.in'),
        readFileSync(join(lockDir, 'helm.in'), 'utf8').replace('crfm-helm[openai]==0.5.16', 'crfm-helm[openai]==0.5.17')
      )
      const stale = sourced(dir, 'check_lock helm')
      expect(stale.status).toBe(3)
      expect(stale.stderr).toContain('python/locks/helm.txt is stale against python/locks/helm.in')
      expect(stale.stderr).toContain('run bash scripts/lock-python.sh helm')
      rmSync(join(dir, 'python', 'locks', 'lm-eval.txt'))
      const missing = sourced(dir, 'check_lock lm-eval')
      expect(missing.status).toBe(3)
      expect(missing.stderr).toContain('python/locks/lm-eval.txt is missing: run bash scripts/lock-python.sh lm-eval')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('refuses a venv whose installed set differs from its lock, listing the difference', () => {
    const r = spawnSync('bash', ['-c', 'root="$1"; source "$root/scripts/python-lock.sh"; lock_pins helm', 'x', root], { encoding: 'utf8' })
    const locked = r.stdout.trim().split('\n')
    expect(locked.length).toBeGreaterThan(100)
    // As `uv pip freeze` prints them: the lock's own names and case.
    expect(sourced(root, 'check_installed_against_lock /some/venv helm', locked.join('\n')).status).toBe(0)
    const tampered = locked.filter(p => !p.startsWith('six==')).concat('requests-mock==1.0.0')
    const bad = sourced(root, 'check_installed_against_lock /some/venv helm', tampered.join('\n'))
    expect(bad.status).toBe(3)
    expect(bad.stderr).toContain('the venv /some/venv differs from python/locks/helm.txt')
    expect(bad.stderr).toMatch(/< six==/)
    expect(bad.stderr).toContain('> requests-mock==1.0.0')
    // A package installed beside the locks on purpose is named with `+`.
    const withExtra = sourced(root, 'check_installed_against_lock /v helm +pyext==0.7', locked.concat('pyext==0.7').join('\n'))
    expect(withExtra.status).toBe(0)
  })

  it.each([
    ['scripts/python-env.sh', 'helm', 'HELM_GATE_VENV'],
    ['scripts/lm-eval-env.sh', 'lm-eval', 'HELM_GATE_LM_EVAL_VENV'],
    ['scripts/helm-0.2-env.sh', 'helm-0.2', 'HELM_GATE_VENV_0_2']
  ])('%s refuses a stale lock before it installs anything', (script, name, variable) => {
    const dir = scratchRoot()
    try {
      writeFileSync(join(dir, 'python', 'locks', `${name}.in`), `${readFileSync(join(lockDir, `${name}.in`), 'utf8')}six==1.0.0\n`)
      const venv = join(dir, 'venv')
      const r = spawnSync('bash', [join(dir, script)], { encoding: 'utf8', env: { ...process.env, [variable]: venv } })
      expect(r.status).toBe(3)
      expect(r.stderr).toContain(`python/locks/${name}.txt is stale`)
      expect(existsSync(venv)).toBe(false)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
