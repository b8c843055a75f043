import { afterEach, describe, expect, test } from '@jest/globals'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { main } from '../../src/cli/main.js'
import { fixedExamples } from '../../test-support/credentials.js'

let dirs: string[] = []
afterEach(async () => {
  await Promise.all(dirs.map(d => rm(d, { recursive: true, force: true })))
  dirs = []
})

async function workdir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'helm-gate-traffic-'))
  dirs.push(dir)
  return dir
}

async function cli(cwd: string, argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = ''
  let err = ''
  const code = await main(argv, { stdout: s => (out += s), stderr: s => (err += s), env: {}, cwd })
  return { code, out, err }
}

const LOG = Array.from({ length: 40 }, (_, i) =>
  JSON.stringify({
    messages: [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: `Question ${i}: ${'why '.repeat(i)}(reach me at user${i}@example.com)` }
    ],
    max_tokens: 32,
    tag: i % 4 === 0 ? 'billing' : 'technical'
  })
).join('\n')

describe('helm-gate traffic build', () => {
  test('writes the set and its summary beside it, prints the summary, and repeats byte for byte', async () => {
    const dir = await workdir()
    await writeFile(join(dir, 'log.jsonl'), LOG)
    const first = await cli(dir, ['traffic', 'build', 'log.jsonl', '--out', 'set/traffic.jsonl', '--count', '12', '--seed', '3'])
    expect(first.err).toBe('')
    expect(first.code).toBe(0)
    expect(first.out).toContain('Traffic set: 12 requests written to set/traffic.jsonl')
    expect(first.out).toContain('Scrubbed in the set: 0 credentials, 12 e-mail addresses, 0 phone numbers')
    const set = await readFile(join(dir, 'set', 'traffic.jsonl'), 'utf8')
    const summary = await readFile(join(dir, 'set', 'traffic.summary.json'), 'utf8')
    expect(set.trim().split('\n')).toHaveLength(12)
    expect(set).not.toContain('@example.com')
    expect(JSON.parse(summary).count_written).toBe(12)
    await cli(dir, ['traffic', 'build', 'log.jsonl', '--out', 'set/traffic.jsonl', '--count', '12', '--seed', '3'])
    expect(await readFile(join(dir, 'set', 'traffic.jsonl'), 'utf8')).toBe(set)
    expect(await readFile(join(dir, 'set', 'traffic.summary.json'), 'utf8')).toBe(summary)
  })

  test('a bad line is one error naming the file, the line and the field, exit 2', async () => {
    const dir = await workdir()
    await writeFile(join(dir, 'log.jsonl'), `${LOG}\n{"messages": [{"role": "user"}]}\n`)
    const { code, err, out } = await cli(dir, ['traffic', 'build', 'log.jsonl', '--out', 't.jsonl', '--count', '5'])
    expect(code).toBe(2)
    expect(out).toBe('')
    expect(err).toBe(
      'helm-gate: error: line 41: content must be a string or a list of parts (null only for an assistant turn with tool_calls) (file: log.jsonl, field: line 41: messages[0].content) [traffic.bad_line]\n'
    )
  })

  test('usage errors: no count, no out, a missing log, an unknown subcommand', async () => {
    const dir = await workdir()
    expect((await cli(dir, ['traffic', 'build', 'log.jsonl', '--out', 't.jsonl'])).err).toContain('--count N')
    expect((await cli(dir, ['traffic', 'build', 'log.jsonl', '--count', '3'])).err).toContain('--out FILE')
    const missing = await cli(dir, ['traffic', 'build', 'nope.jsonl', '--out', 't.jsonl', '--count', '3'])
    expect(missing.code).toBe(2)
    expect(missing.err).toContain('(file: nope.jsonl) [input.missing]')
    expect((await cli(dir, ['traffic', 'sample'])).err).toContain('unknown traffic command "sample"')
  })
})

describe('traffic build keeps no credential and no phone number (issue 28)', () => {
  // The issue's own four survivors, then one fixed example of every other kind: 17 in all.
  const planted = [
    { text: 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG+bPxRfiCYzEXAMPLEKEY', secrets: ['wJalrXUtnFEMI/K7MDENG+bPxRfiCYzEXAMPLEKEY'] },
    { text: 'fetch https://user:pa!ss@host.example.com/export?all=1', secrets: ['pa!ss', 'ss@host'] },
    ...fixedExamples()
  ]

  test('a log with 17 planted credentials of common kinds, in prompts and in logged answers', async () => {
    expect(planted).toHaveLength(17)
    const dir = await workdir()
    const log = planted.map(({ text }, i) =>
      JSON.stringify({
        request: { messages: [{ role: 'user', content: `Ticket ${i}: the deploy failed, config below.\n${text}\nWhat is wrong?` }] },
        response: { choices: [{ message: { role: 'assistant', content: `You posted ${text}; rotate it.` }, finish_reason: 'stop' }] }
      })
    )
    await writeFile(join(dir, 'log.jsonl'), log.join('\n') + '\n')
    const run = await cli(dir, ['traffic', 'build', 'log.jsonl', '--out', 'traffic.jsonl', '--count', '17'])
    expect(run.err).toBe('')
    expect(run.code).toBe(0)
    const set = await readFile(join(dir, 'traffic.jsonl'), 'utf8')
    expect(set.trim().split('\n')).toHaveLength(17)
    const kept = planted
      .flatMap(({ secrets }) => secrets)
      .filter(secret => set.includes(secret) || set.includes(JSON.stringify(secret).slice(1, -1)))
    expect(kept).toEqual([])
    expect(set).toContain('[secret]')
    expect(set).not.toContain('-----BEGIN') // the PEM block goes whole, its BEGIN line too
  })

  test("the issue's phone numbers are hidden whole; dates, versions and ids stay", async () => {
    const dir = await workdir()
    const phones = ['555-0123', '98765 43210', '0049 30 12345678', '06 12 34 56 78']
    const log = phones.map((phone, i) =>
      JSON.stringify({
        messages: [{ role: 'user', content: `Case ${i} on 2026-11-02, app 8.2.1, order 1234567890: call ${phone} please` }]
      })
    )
    await writeFile(join(dir, 'log.jsonl'), log.join('\n') + '\n')
    const run = await cli(dir, ['traffic', 'build', 'log.jsonl', '--out', 'traffic.jsonl', '--count', '4'])
    expect(run.code).toBe(0)
    const set = await readFile(join(dir, 'traffic.jsonl'), 'utf8')
    for (const phone of phones) expect(set).not.toContain(phone)
    expect(set.match(/call \[phone\] please/g)).toHaveLength(4)
    expect(set.match(/on 2026-11-02, app 8\.2\.1, order 1234567890/g)).toHaveLength(4)
    expect(run.out).toContain('4 phone numbers')
  })
})
