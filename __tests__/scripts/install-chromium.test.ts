/**
 * `npm test`'s set-up for the browser tests (scripts/install-chromium.sh, run first by
 * scripts/test-setup.sh). The machine is simulated with a PATH that holds only fakes: `id` says
 * who we are, `apt-get` records its arguments and "installs" by creating the tools, `sudo` may be
 * missing or want a password. bash itself and its builtins are real.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))
const BASH = '/bin/bash'

let dir: string
let bin: string
let chromium: string
let aptLog: string

function fake(name: string, body: string): void {
  const file = join(bin, name)
  writeFileSync(file, `#!${BASH}\n${body}\n`)
  chmodSync(file, 0o755)
}

/** apt-get that logs each call and, on install, creates what it was asked for. */
function fakeApt(): void {
  fake(
    'apt-get',
    [
      `echo "$*" >> ${JSON.stringify(aptLog)}`,
      'if [ "$1" = install ]; then',
      `  for p in "$@"; do`,
      `    case "$p" in`,
      `      chromium) echo '#!${BASH}' > ${JSON.stringify(chromium)}; /bin/chmod +x ${JSON.stringify(chromium)} ;;`,
      `      cmark-gfm) echo '#!${BASH}' > ${JSON.stringify(join(bin, 'cmark-gfm'))}; /bin/chmod +x ${JSON.stringify(join(bin, 'cmark-gfm'))} ;;`,
      '    esac',
      '  done',
      'fi'
    ].join('\n')
  )
}

function run(script: string, env: Record<string, string> = {}) {
  const r = spawnSync(BASH, [join(root, 'scripts', script)], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 20_000,
    env: { PATH: bin, HELM_GATE_CHROMIUM: chromium, HELM_GATE_VENV: join(dir, 'venv'), ...env }
  })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

const aptCalls = (): string[] => (existsSync(aptLog) ? readFileSync(aptLog, 'utf8').trim().split('\n') : [])

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'helm-gate-install-chromium-'))
  bin = join(dir, 'bin')
  chromium = join(dir, 'chromium')
  aptLog = join(dir, 'apt.log')
  spawnSync('/bin/mkdir', [bin])
  // test-setup.sh finds the repository with dirname and runs each step with bash.
  symlinkSync('/usr/bin/dirname', join(bin, 'dirname'))
  symlinkSync(BASH, join(bin, 'bash'))
})

afterEach(() => rmSync(dir, { recursive: true, force: true }))

describe('install-chromium.sh', () => {
  it('does nothing when both tools are there', () => {
    fake('id', 'echo 1000')
    fakeApt()
    fake('cmark-gfm', 'true')
    fake('chromium-present', 'true')
    const r = run('install-chromium.sh', { HELM_GATE_CHROMIUM: join(bin, 'chromium-present') })
    expect(r).toMatchObject({ status: 0, stdout: '', stderr: '' })
    expect(aptCalls()).toEqual([])
  })

  it('as root, installs only what is missing from Debian and says why', () => {
    fake('id', 'echo 0')
    fakeApt()
    fake('cmark-gfm', 'true')
    const r = run('install-chromium.sh')
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
    expect(r.stdout).toContain('install-chromium: installing chromium from Debian: the report tests render the PR comment')
    expect(aptCalls()).toEqual(['update -q', 'install -y -q --no-install-recommends chromium'])
    expect(existsSync(chromium)).toBe(true)
  })

  it('without root, installs through password-less sudo', () => {
    fake('id', 'echo 1000')
    fakeApt()
    fake('sudo', `[ "$1" = -n ] || exit 9; shift; [ "$1" = true ] && exit 0; "$@"`)
    const r = run('install-chromium.sh')
    expect(r.status).toBe(0)
    expect(r.stdout).toContain('installing chromium cmark-gfm from Debian')
    expect(aptCalls()).toEqual(['update -q', 'install -y -q --no-install-recommends chromium cmark-gfm'])
  })

  it.each([
    ['not root and no sudo', 'not root, and sudo not found', () => fake('id', 'echo 1000')],
    [
      'not root and sudo wants a password',
      'not root, and sudo needs a password',
      () => {
        fake('id', 'echo 1000')
        fake('sudo', 'echo "sudo: a password is required" >&2; exit 1')
      }
    ],
    ['no apt-get (not Debian), even as root', 'apt-get not found (not Debian or Ubuntu)', () => fake('id', 'echo 0')]
  ])('%s: stops at once with one message naming what to install', (_name, reason, setUp) => {
    setUp()
    if (!reason.startsWith('apt-get')) fakeApt()
    const r = run('install-chromium.sh')
    expect(r.status).toBe(1)
    expect(r.stdout).toBe('')
    expect(r.stderr).toBe(
      [
        `install-chromium: cannot install chromium cmark-gfm: ${reason}.`,
        `  The tests need them: the report tests render the PR comment with cmark-gfm and open the report in chromium (${chromium}).`,
        '  Install them, then run the tests again:  sudo apt-get install --no-install-recommends chromium cmark-gfm',
        "  (elsewhere: a Chromium executable in HELM_GATE_CHROMIUM and GitHub's cmark-gfm on PATH).",
        ''
      ].join('\n')
    )
    // "At once": nothing slow was started (no apt-get call), not a stopwatch on a shared machine.
    expect(aptCalls()).toEqual([])
  })

  it('fails when apt-get succeeds but the tool is still not where the tests look', () => {
    fake('id', 'echo 0')
    fake('apt-get', 'exit 0')
    const r = run('install-chromium.sh')
    expect(r.status).toBe(1)
    expect(r.stderr).toContain(`apt-get finished but ${chromium} is still missing`)
  })
})

describe('test-setup.sh (npm test’s pretest)', () => {
  it('without root, stops in its first seconds, before the Python environment is built', () => {
    fake('id', 'echo 1000')
    fakeApt()
    fake('python3', `echo python-was-run >> ${JSON.stringify(join(dir, 'python.log'))}; exit 1`)
    const r = run('test-setup.sh')
    expect(r.status).toBe(1)
    expect(r.stderr).toContain('install-chromium: cannot install chromium cmark-gfm: not root, and sudo not found.')
    expect(r.stdout).not.toContain('python-env')
    expect(existsSync(join(dir, 'python.log'))).toBe(false)
    expect(aptCalls()).toEqual([])
  })

  it('is what npm test runs first', () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    expect(pkg.scripts.pretest).toBe('bash scripts/test-setup.sh')
  })
})
