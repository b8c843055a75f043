/**
 * scripts/uv-pip-args.py: pip's configuration handed to uv when scripts/python-env.sh makes the
 * venv. uv reads no pip.conf, so a machine's indexes, find-links and constraints would otherwise
 * be lost (and with them a local CPU wheel of torch).
 */
import { describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const script = fileURLToPath(new URL('../../scripts/uv-pip-args.py', import.meta.url))

function argsFor(config: string): string[] {
  const r = spawnSync('python3', [script], { input: config, encoding: 'utf8' })
  expect(r.stderr).toBe('')
  expect(r.status).toBe(0)
  return r.stdout.split('\n').filter(line => line !== '')
}

describe('uv-pip-args', () => {
  it('turns each index, find-links and constraint setting into uv flags, a list into one flag per value', () => {
    const config = [
      "global.cert='/etc/ssl/certs/ca-certificates.crt'",
      "global.extra-index-url='file:///opt/pypi/simple file:///opt/pypi-more/simple'",
      "global.constraint='/etc/xdg/pip/constraints.txt'",
      "install.index-url='https://mirror.example/simple'",
      ":env:.find-links='/opt/wheels'",
      ":env:.default-timeout='180'"
    ].join('\n')
    expect(argsFor(config)).toEqual([
      '--extra-index-url',
      'file:///opt/pypi/simple',
      '--extra-index-url',
      'file:///opt/pypi-more/simple',
      '--constraint',
      '/etc/xdg/pip/constraints.txt',
      '--index-url',
      'https://mirror.example/simple',
      '--find-links',
      '/opt/wheels'
    ])
  })

  it('gives nothing for an empty configuration or lines that are not settings', () => {
    expect(argsFor('')).toEqual([])
    expect(argsFor('WARNING: something\nglobal.find-links=\n')).toEqual([])
  })

  it('reads what pip itself reports, PIP_* variables included', () => {
    // PIP_CONFIG_FILE=/dev/null: pip loads no configuration file, so only the variables remain.
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PIP_CONFIG_FILE: '/dev/null',
      PIP_FIND_LINKS: '/srv/wheels /srv/more',
      PIP_INDEX_URL: 'https://idx.example/simple'
    }
    for (const key of Object.keys(env))
      if (key.startsWith('PIP_') && !['PIP_CONFIG_FILE', 'PIP_FIND_LINKS', 'PIP_INDEX_URL'].includes(key)) delete env[key]
    const listed = spawnSync('python3', ['-m', 'pip', 'config', 'list'], { env, encoding: 'utf8' })
    expect(listed.status).toBe(0)
    const args = argsFor(listed.stdout)
    expect(args).toEqual(expect.arrayContaining(['--find-links', '/srv/wheels', '/srv/more', '--index-url', 'https://idx.example/simple']))
    expect(args.filter(arg => arg === '--find-links')).toHaveLength(2)
    expect(args).not.toContain('/opt/wheels')
  })
})
