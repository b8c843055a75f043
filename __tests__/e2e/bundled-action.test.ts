/**
 * The bundled action (dist/index.js) as the GitHub runner starts it, with the REAL pinned
 * helm-run against two fake OpenAI servers on loopback and a loopback GitHub (REST, artifact
 * service). action.integration.test.ts covers the GitHub side with a fake helm-run; this proves
 * the whole chain: gate file at the base commit, both sides run by crfm-helm, verdict, sticky
 * comment, check run and an evidence artifact holding real HELM output and no secret.
 */
import { afterAll, describe, expect, it } from '@jest/globals'
import { mkdtemp, readFile, readdir } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { commentMarker } from '../../src/action/constants.js'

const COMMENT_MARKER = commentMarker('.github/helm-gate.yml')
import { extractZip, listZipEntries } from '../../test-support/fake-github/zip-reader.js'
import { HELM_RUN, helmAvailable } from '../../test-support/fake-openai/harness.js'
import { FakeGitHub } from '../../test-support/fake-github/server.js'
import { gatePullRequest, gateYaml, HEAD_SHA, useFakeServers } from './gate-fixture.js'

const ENTRIES = ['simple_mcqa', 'dyck_language:num_parenthesis_pairs=3']
// Both servers demand this key; it must reach HELM through the environment and never the artifact.
const API_KEY = 'sk-helm-gate-e2e-7f3a9c1d2b'
const describeHelm = helmAvailable() ? describe : describe.skip

describeHelm('the bundled action with the real helm-run', () => {
  const server = useFakeServers(ENTRIES)
  let fake: FakeGitHub | undefined
  afterAll(async () => {
    await fake?.stop()
  })

  it('gates a pull request: verdict, sticky comment, check run on the head, real HELM files in the artifact', async () => {
    const baseline = await server({ accuracy: 1, seed: 9, apiKey: API_KEY })
    const candidate = await server({ accuracy: 0.8, seed: 9, apiKey: API_KEY })
    fake = await new FakeGitHub().start()

    const text = gateYaml({
      baseline: { baseUrl: baseline.baseUrl, apiKeyEnv: 'GATE_API_KEY' },
      candidate: { baseUrl: candidate.baseUrl, api: 'completions', apiKeyEnv: 'GATE_API_KEY' },
      runs: [{ entry: 'simple_mcqa', metric: 'exact_match', max_drop: 0.05 }],
      maxEvalInstances: 60
    })
    expect(text).toContain(HELM_RUN)
    const result = await gatePullRequest(fake, text, { runId: 900, env: { GATE_API_KEY: API_KEY }, timeoutMs: 150_000 })
    const trace = `exit ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`
    if (result.outputs.verdict !== 'fail') throw new Error(`expected verdict fail\n${trace}`)
    expect(result.code).toBe(1)
    // The key is masked for the rest of the job, whatever prints it later.
    expect(result.stdout).toContain(`::add-mask::${API_KEY}`)
    expect(result.outputs['baseline-source']).toBe('run')
    expect(fake.violations).toEqual([])

    // Both sides really went through HELM to their own server, each instance once.
    expect((await baseline.state()).counters.chat).toBe(60)
    const candidateCounters = (await candidate.state()).counters
    expect(candidateCounters.completions).toBe(60)
    const report = JSON.parse(await readFile(result.outputs['report-path'], 'utf8'))
    expect(report.verdict).toBe('fail')
    expect(report.comparisons[0].n).toBe(60)
    expect(report.comparisons[0].losses).toBe(candidateCounters.wrong)

    expect(fake.comments).toHaveLength(1)
    expect(fake.comments[0].issue).toBe(7)
    expect(fake.comments[0].body.startsWith(COMMENT_MARKER)).toBe(true)
    expect(fake.comments[0].body).toMatch(/fail/i)
    expect(fake.checkRuns).toHaveLength(1)
    expect(fake.checkRuns[0].body).toMatchObject({ name: 'helm-gate', head_sha: HEAD_SHA, status: 'completed', conclusion: 'failure' })

    const [evidence] = fake.uploadedBy(900)
    expect(evidence.name).toBe('helm-gate-gate-helm-gate-attempt-1')
    const zip = evidence.bytes as Buffer
    const names = listZipEntries(zip).map(entry => entry.name)
    for (const side of ['baseline', 'candidate']) {
      expect(names.some(name => name.startsWith(`${side}/`) && name.endsWith('/per_instance_stats.json'))).toBe(true)
      expect(names.some(name => name.startsWith(`${side}/`) && name.endsWith('/scenario_state.json'))).toBe(true)
    }
    expect(names).toEqual(
      expect.arrayContaining(['manifest.json', 'report.json', 'report.html', 'logs/baseline.log', 'logs/candidate.log'])
    )
    expect(names.filter(name => /prod_env|credentials\.conf/.test(name))).toEqual([])

    // No file in the artifact carries the key (logs, manifests, HELM's own run_spec and state).
    const unpacked = await mkdtemp(path.join(tmpdir(), 'helm-gate-e2e-artifact-'))
    await extractZip(zip, unpacked)
    const files = (await readdir(unpacked, { recursive: true, withFileTypes: true })).filter(entry => entry.isFile())
    expect(files.length).toBe(names.filter(name => !name.endsWith('/')).length)
    const leaking: string[] = []
    for (const file of files) {
      const full = path.join(file.parentPath, file.name)
      if ((await readFile(full, 'utf8')).includes(API_KEY)) leaking.push(path.relative(unpacked, full))
    }
    expect(leaking).toEqual([])

    // report.html in the evidence carries every changed answer (report.json keeps the first 3).
    const html = await readFile(path.join(unpacked, 'report.html'), 'utf8')
    const embedded = /<script type="application\/json" id="helm-gate-data">([\s\S]*?)<\/script>/.exec(html)
    expect(embedded).not.toBeNull()
    const page = JSON.parse(embedded![1]) as { changed: Record<string, { instance_id: string }[]> }
    const comparison = report.comparisons[0]
    expect(comparison.losses).toBeGreaterThan(3)
    expect(comparison.examples.length).toBeLessThan(comparison.losses)
    const answers = page.changed[comparison.id]
    expect(answers).toHaveLength(comparison.wins + comparison.losses)
    expect(new Set(answers.map(answer => answer.instance_id)).size).toBe(answers.length)
  }, 240_000)
})
