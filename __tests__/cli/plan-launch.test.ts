/** `helm-gate plan` with launched deployments: what would be spawned, where, and how it stops. */
import { describe, expect, it } from '@jest/globals'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { planCommand } from '../../src/cli/commands/plan.js'
import type { CliIo } from '../../src/cli/io.js'

const GATE = `version: 1
helm: { version: "0.5.16", max_eval_instances: 100, command: helm-run }
deployments:
  baseline:
    api: chat
    base_url: "http://127.0.0.1:8000/v1"
    model: served
    api_key_env: SERVE_KEY
    launch:
      command: [docker, run, --rm, -p, "8000:8000", --name, hg-base, "vllm/vllm-openai:\${VLLM_TAG}", --api-key, "\${SERVE_KEY}", --model, /m]
      checkout: base
      env: { CUDA_VISIBLE_DEVICES: "0", HF_TOKEN: "\${HF_TOKEN}" }
      ready_timeout_seconds: 600
      stop: { signal: SIGINT, timeout_seconds: 30 }
      stop_command: [docker, stop, hg-base]
  candidate:
    api: chat
    base_url: "http://127.0.0.1:8000/v1"
    model: served
    api_key_env: SERVE_KEY
    launch:
      command: [docker, run, --rm, -p, "8000:8000", "vllm/vllm-openai:\${VLLM_TAG}", --quantization, fp8, --api-key, "\${SERVE_KEY}"]
runs:
  - { entry: simple_mcqa, metric: exact_match, max_drop: 0.05 }
`

async function plan(env: Record<string, string>, args: string[] = []): Promise<{ code: number; text: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'helm-gate-plan-launch-'))
  await writeFile(join(dir, 'gate.yml'), GATE)
  let text = ''
  const io: CliIo = { stdout: s => (text += s), stderr: s => (text += s), env, cwd: dir }
  const code = await planCommand(['--config', 'gate.yml', '--no-count', ...args], io)
  return { code, text }
}

describe('helm-gate plan with launch', () => {
  const env = { SERVE_KEY: 'sk-serving-secret', VLLM_TAG: 'v0.11.0', HF_TOKEN: 'hf_abcdefghijkl' }

  it('shows each side: the expanded command with secrets masked, the checkout, readiness and stop; and the schedule', async () => {
    const { code, text } = await plan(env, ['--baseline-ref', 'origin/main'])
    expect(code).toBe(0)
    expect(text).toContain('# schedule: sequential (the gate file): baseline up, measured, down; then the candidate')
    expect(text).not.toContain('both sides run at the same time')
    expect(text).toContain('## baseline: launched by helm-gate (deployments.baseline.launch)')
    expect(text).toContain(
      'command: ["docker","run","--rm","-p","8000:8000","--name","hg-base","vllm/vllm-openai:v0.11.0","--api-key","***","--model","/m"]'
    )
    expect(text).toContain('checkout: base (a git worktree of --baseline-ref origin/main)')
    expect(text).toContain('env: CUDA_VISIBLE_DEVICES=0 HF_TOKEN=***')
    expect(text).toContain('ready: GET http://127.0.0.1:8000/v1/models must list served within 600 s')
    expect(text).toContain('stop: SIGINT to the process group, SIGKILL after 30 s, then stop_command ["docker","stop","hg-base"]')
    expect(text).toContain('## candidate: launched by helm-gate (deployments.candidate.launch)')
    expect(text).toContain('"vllm/vllm-openai:v0.11.0","--quantization","fp8","--api-key","***"]')
    expect(text).toContain("checkout: head (the checked-out tree: the pull request's own files)")
    expect(text).toContain('within 900 s (ready_timeout_seconds)')
    expect(text).toContain('stop: SIGTERM to the process group, SIGKILL after 60 s\n')
    // The header agrees with each side: no single value that applies to neither launched server.
    expect(text).not.toMatch(/readiness timeout 120 s/)
    expect(text).toContain(
      '#   baseline: GET http://127.0.0.1:8000/v1/models must list served within 600 s (launched: deployments.baseline.launch.ready_timeout_seconds;'
    )
    expect(text).toContain(
      '#   candidate: GET http://127.0.0.1:8000/v1/models must list served within 900 s (launched: deployments.candidate.launch.ready_timeout_seconds;'
    )
    expect(text).not.toContain('--ready-timeout SEC')
    for (const secret of Object.values(env).filter(v => v !== 'v0.11.0')) expect(text).not.toContain(secret)
  })

  it('names a variable that is not set, shows the template and still plans', async () => {
    const { code, text } = await plan({ SERVE_KEY: 'sk-serving-secret', HF_TOKEN: 'hf_abcdefghijkl' })
    expect(code).toBe(0)
    expect(text).toContain(
      '# WARNING deployments.baseline.launch.command[7] uses ${VLLM_TAG}, which is not set in the environment: run would stop here (shown unexpanded)'
    )
    expect(text).toContain('"vllm/vllm-openai:${VLLM_TAG}"')
    expect(text).toContain(
      "checkout: base (a git worktree of the pull request's base commit; on the command line --baseline-ref REF is required)"
    )
  })
})
