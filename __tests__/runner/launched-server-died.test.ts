/**
 * A launched server killed while helm-run measures its side (issue 28): the side's first error is
 * the server's death (the signal, the server log's last lines), helm-run's "Connection refused"
 * second. Real helm-run against the fake OpenAI server, launched by the gate file and killed with
 * SIGKILL from outside once it has answered a few requests.
 */
import { describe, expect, it } from '@jest/globals'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { parse, stringify } from 'yaml'
import { loadGateConfig } from '../../src/config/load.js'
import { runSides } from '../../src/runner/run-sides.js'
import { buildAnswerKey, helmAvailable, SERVER_SCRIPT } from '../../test-support/fake-openai/harness.js'
import { freePort } from '../../test-support/launch/fixture-repo.js'
import { freshDir, gateYaml, useFakeServers } from '../e2e/gate-fixture.js'

const describeHelm = helmAvailable() ? describe : describe.skip

describeHelm('a launched server that dies during helm-run', () => {
  const server = useFakeServers(['simple_mcqa'])

  it('is named first, by its signal and its log, before the client symptom', async () => {
    const baseline = await server({ accuracy: 1 })
    const key = await buildAnswerKey(['simple_mcqa'])
    const dir = await freshDir('died')
    const port = await freePort()
    const pidFile = join(dir, 'candidate.pid')
    const doc = parse(
      gateYaml({
        baseline: { baseUrl: baseline.baseUrl },
        candidate: { baseUrl: `http://127.0.0.1:${port}/v1`, requestTimeoutSeconds: 3 },
        runs: [{ entry: 'simple_mcqa', metric: 'exact_match' }],
        maxEvalInstances: 30
      })
    ) as { deployments: { candidate: Record<string, unknown> } }
    doc.deployments.candidate.launch = {
      command: [
        process.execPath,
        SERVER_SCRIPT,
        '--port',
        String(port),
        '--answer-key',
        key,
        '--model',
        'gate-model',
        '--latency-ms',
        '150',
        '--pid-file',
        pidFile
      ],
      ready_timeout_seconds: 60
    }
    const file = join(dir, 'gate.yml')
    await writeFile(file, stringify(doc))
    const config = await loadGateConfig(file)

    // SIGKILL the launched server once it has answered 3 requests.
    let killed = false
    const killer = setInterval(() => {
      void (async () => {
        if (killed) return
        try {
          const state = (await (await fetch(`http://127.0.0.1:${port}/control`)).json()) as { counters: { chat: number } }
          if (state.counters.chat < 3 || killed) return
          killed = true
          process.kill(Number(await readFile(pidFile, 'utf8')), 'SIGKILL')
        } catch {
          // not up yet, or gone
        }
      })()
    }, 100)
    let outcome
    try {
      outcome = await runSides(config, { outDir: join(dir, 'out'), sides: ['baseline', 'candidate'], cwd: dir })
    } finally {
      clearInterval(killer)
    }
    expect(killed).toBe(true)
    expect(outcome.completed).toEqual(['baseline'])
    const candidate = outcome.errors.filter(e => e.message.startsWith('candidate'))
    expect(candidate[0].code).toBe('launch.server_died')
    expect(candidate[0].message).toMatch(
      /^candidate server was killed by SIGKILL while the candidate side was measured; last lines of logs\/candidate-server\.log:\n {2}/
    )
    expect(candidate[0].message).toContain('fake-openai listening')
    expect(candidate[0].location).toMatchObject({
      file: 'logs/candidate-server.log',
      field: 'deployments.candidate.launch.command',
      value: 'SIGKILL'
    })
    // The client's symptom follows, as before.
    expect(candidate[1].code).toBe('runner.exit')
    expect(candidate[1].message).toMatch(/Connection refused/)
    // The manifest's launch record says it too.
    const record = outcome.launch?.sides.candidate
    expect(record?.exit).toEqual({ code: null, signal: 'SIGKILL' })
    expect(record?.errors.map(e => e.code)).toContain('launch.server_died')
    expect(outcome.records.candidate?.complete).toBe(false)
  }, 240_000)
})
