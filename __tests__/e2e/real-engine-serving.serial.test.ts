/**
 * The serving configuration in the identity, on the real engine (issue 28): two llama-servers
 * (scripts/real-engine/, built from the pinned PyPI sdist) serve the same F16 file, the candidate
 * with `--chat-template chatml`. What each reports at /props is probed as the readiness check
 * does, compared, and rendered: the chat-template row differs and names chatml, the sampling
 * defaults are the same. Serial: it starts two servers on a 2-core machine.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { spawn, type ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import type { Manifest } from '../../src/model/manifest.js'
import { renderMarkdown } from '../../src/report/markdown.js'
import { attachIdentity } from '../../src/runner/engine-identity.js'
import { probeServer, type ProbeResult } from '../../src/server/readiness.js'
import { helmAvailable, REPO_ROOT } from '../../test-support/fake-openai/harness.js'
import { freePort } from '../../test-support/launch/fixture-repo.js'
import { makeReport } from '../report/make-report.js'
import { run } from '../support/spawn.js'

const describeHelm = helmAvailable() ? describe : describe.skip
const ENGINE = join(REPO_ROOT, '.real-engine', 'engine', 'bin', 'llama-server')
const MODEL = join(REPO_ROOT, '.real-engine', 'model', 'model-F16.gguf')
/** The template scripts/real-engine/train_model.py writes into the model (its CHAT_TEMPLATE). */
const MODEL_TEMPLATE = "{% for message in messages %}{{ message['content'] }}{% endfor %}"

describeHelm('the real engine reports the serving configuration that changed', () => {
  const servers: ChildProcess[] = []
  beforeAll(async () => {
    const prepared = await run('bash', [join(REPO_ROOT, 'scripts', 'real-engine', 'prepare.sh')], { cwd: REPO_ROOT, timeoutMs: 3_600_000 })
    expect([prepared.code, prepared.stderr.slice(-3000)]).toEqual([0, prepared.stderr.slice(-3000)])
  }, 3_600_000)
  afterAll(() => {
    for (const server of servers) server.kill('SIGTERM')
  })

  async function serve(extra: string[]): Promise<ProbeResult> {
    const port = await freePort()
    const args = ['--model', MODEL, '--alias', 'addition', '--host', '127.0.0.1', '--port', String(port)]
    args.push('--threads', '1', '--ctx-size', '2048', '--parallel', '1', '--jinja', '--no-webui', ...extra)
    servers.push(spawn(ENGINE, args, { stdio: 'ignore' }))
    return probeServer({ side: 'x', baseUrl: `http://127.0.0.1:${port}/v1`, model: 'addition', apiKey: null, timeoutMs: 120_000 })
  }

  it('the same F16 file with --chat-template chatml on the candidate: the template row differs and names chatml', async () => {
    const baseline = await serve([])
    const candidate = await serve(['--chat-template', 'chatml'])
    expect(baseline.serving_config?.source).toBe('llama.cpp GET /props')
    expect(baseline.serving_config?.chat_template).toEqual({
      sha256: createHash('sha256').update(MODEL_TEMPLATE).digest('hex'),
      name: null,
      length: MODEL_TEMPLATE.length
    })
    expect(candidate.serving_config?.chat_template?.name).toBe('chatml (llama.cpp built-in)')
    // The sampling defaults llama-server reports, the same on both.
    expect(baseline.serving_config?.sampling).toMatchObject({ temperature: 0.8, top_k: 40, n_ctx: 2048 })
    expect(candidate.serving_config?.sampling).toEqual(baseline.serving_config?.sampling)

    const side = (server: ProbeResult) => ({
      source: 'run',
      output_path: 'x',
      complete: true,
      deployment: { kind: 'server', api: 'chat', base_url: 'http://127.0.0.1/v1', model: 'addition' },
      server
    })
    const manifest = {
      fingerprint: null,
      schedule: 'sequential',
      baseline_origin: null,
      sides: { baseline: side(baseline), candidate: side(candidate) }
    }
    const report = makeReport()
    attachIdentity(report, manifest as unknown as Manifest)
    expect(report.context?.serving?.chat_template?.differs).toBe(true)
    expect(report.context?.serving?.sampling?.differs).toBe(false)
    const markdown = renderMarkdown(report, { maxLength: 65_000, marker: '<!-- helm-gate -->' })
    expect(markdown).toMatch(
      /\| Chat template \*\*\(differs\)\*\* \| sha256 [0-9a-f]{12} · 65 chars \| chatml \\\(llama\.cpp built-in\\\) · sha256 cc145ac59732 · \d+ chars \|/
    )
    // Same on both sides: not marked; markdown escapes the underscores of the names.
    expect(markdown).toMatch(
      /\| Sampling \(server defaults\) \| temperature 0\.8 · top\\_k 40 · top\\_p 0\.95 · min\\_p 0\.05 · repeat\\_penalty 1 · /
    )
  }, 300_000)
})
