/**
 * The README's launch examples (examples/launch/*.helm-gate.yml) pass the strict validation and
 * say what the README says they do: an engine upgrade (two vLLM images, same weights) and an FP8
 * candidate (the same image, --quantization fp8), both sequential on one port.
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseGateConfig } from '../../src/config/load.js'
import { dockerRun } from '../../src/launch/docker.js'
import { expandLaunch } from '../../src/launch/expand.js'
import { REPO_ROOT } from '../../test-support/fake-openai/harness.js'
import { fidelityPlanLines } from '../../src/fidelity/fidelity-plan-lines.js'
import type { FidelitySettings } from '../../src/config/fidelity.js'
import { main } from '../../src/cli/main.js'
import type { CliIo } from '../../src/cli/io.js'

const example = (name: string) => {
  const file = join(REPO_ROOT, 'examples', 'launch', name)
  return parseGateConfig(readFileSync(file, 'utf8'), file)
}
const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')

describe('the launch examples', () => {
  it('engine upgrade: two vLLM images, the same weights and port, one after the other', () => {
    const config = example('engine-upgrade.helm-gate.yml')
    const { baseline, candidate } = config.launch!.sides
    expect(config.launch!.schedule).toBe('sequential')
    expect([dockerRun(baseline!.command)?.image, dockerRun(candidate!.command)?.image]).toEqual([
      'vllm/vllm-openai:v0.10.2',
      'vllm/vllm-openai:v0.11.0'
    ])
    const after = (command: string[]) => command.slice(command.indexOf(dockerRun(command)!.image) + 1)
    expect(after(baseline!.command)).toEqual(after(candidate!.command))
    expect(readme).toContain('examples/launch/engine-upgrade.helm-gate.yml')
  })

  it('FP8: the same image, the candidate adds --quantization fp8; the load half is measured while each is up', () => {
    const config = example('fp8.helm-gate.yml')
    const env = { VLLM_TAG: 'v0.11.0' }
    const base = expandLaunch(config.launch!.sides.baseline!, env, config.source).command
    const head = expandLaunch(config.launch!.sides.candidate!, env, config.source).command
    expect(dockerRun(base)?.image).toBe(dockerRun(head)?.image)
    expect(head.slice(-2)).toEqual(['--quantization', 'fp8'])
    expect(base).not.toContain('--quantization')
    expect(config.load?.checks.length).toBeGreaterThan(0)
    expect(readme).toContain('examples/launch/fp8.helm-gate.yml')
  })
})

describe('the real-engine examples (examples/real-cpu/)', () => {
  const realCpu = (name: string) => {
    const file = join(REPO_ROOT, 'examples', 'real-cpu', name)
    return parseGateConfig(readFileSync(file, 'utf8'), file)
  }
  const model = (command: string[]) => command[command.indexOf('--model') + 1]
  const flagsBesidesModel = (command: string[]) => command.filter((_, i) => i !== command.indexOf('--model') + 1)

  it.each([
    ['gate.yml', 'model-Q4_0.gguf', 'chat'],
    ['q8.yml', 'model-Q8_0.gguf', 'completions']
  ])('%s: llama-server with the F16 model against %s, the same flags otherwise, one port, the %s API', (name, quantized, api) => {
    const config = realCpu(name)
    const { baseline, candidate } = config.launch!.sides
    expect(config.launch!.schedule).toBe('sequential')
    expect(model(baseline!.command)).toBe('./.real-engine/model/model-F16.gguf')
    expect(model(candidate!.command)).toBe(`./.real-engine/model/${quantized}`)
    expect(flagsBesidesModel(baseline!.command)).toEqual(flagsBesidesModel(candidate!.command))
    expect(config.deployments!.baseline).toMatchObject({ api, tokenizer: './.real-engine/model/tokenizer' })
    expect(config.runs[0].entry).toBe('custom_mcqa:path=./.real-engine/model/addition.jsonl')
    expect(config.load?.checks.length).toBeGreaterThan(0)
    // The same fidelity bound on both: Q8_0 passes it, Q4_0 fails it (the real-engine e2e test).
    expect(config.fidelity).toMatchObject({ instances: 100, topK: 20, baselineReruns: 1 })
    expect(config.fidelity?.checks).toEqual([{ metric: 'kld_mean', bound: 'max', value: 0.0002 }])
  })

  it('sequential.yml: the quality half of gate.yml, F16 against Q8_0 side by side on two ports, in stages that stop when certain', () => {
    const config = realCpu('sequential.yml')
    const full = realCpu('gate.yml')
    const { baseline, candidate } = config.launch!.sides
    // A sequential gate refuses one side after the other: both servers up at once, each its port.
    expect(config.launch!.schedule).toBe('concurrent')
    const port = (command: string[]) => command[command.indexOf('--port') + 1]
    expect(port(baseline!.command)).not.toBe(port(candidate!.command))
    expect(config.deployments!.baseline).toMatchObject({ baseUrl: expect.stringContaining(`:${port(baseline!.command)}/`) })
    expect(config.deployments!.candidate).toMatchObject({ baseUrl: expect.stringContaining(`:${port(candidate!.command)}/`) })
    expect(model(baseline!.command)).toBe('./.real-engine/model/model-F16.gguf')
    expect(model(candidate!.command)).toBe('./.real-engine/model/model-Q8_0.gguf')
    const sameFlags = (command: string[]) => flagsBesidesModel(command).filter((_, i, all) => all[i - 1] !== '--port')
    expect(sameFlags(baseline!.command)).toEqual(sameFlags(candidate!.command))
    // gate.yml's task and bound; the budget is its fixed design's instances, the last look.
    expect(config.runs.map(r => [r.entry, r.metric, r.maxDrop])).toEqual(full.runs.map(r => [r.entry, r.metric, r.maxDrop]))
    expect(config.stopping).toMatchObject({ looks: [150, 250, 400], budget: 400 })
    expect(config.stopping!.budget).toBe(config.helm!.maxEvalInstances)
    expect(config.fidelity ?? null).toBeNull()
    expect(config.load ?? null).toBeNull()
  })

  it('demo.yml (what `npm run demo:real` runs): gate.yml with the same servers and checks, smaller budgets', () => {
    const demo = realCpu('demo.yml')
    const full = realCpu('gate.yml')
    // The servers, their flags and model files, the task and every bound: gate.yml's.
    expect(demo.launch!.sides).toEqual(full.launch!.sides)
    expect(demo.deployments).toEqual(full.deployments)
    expect(demo.runs).toEqual(full.runs)
    expect(demo.load!.checks).toEqual(full.load!.checks)
    expect(demo.fidelity!.checks).toEqual(full.fidelity!.checks)
    // Only the budgets shrink: fewer questions and blocks, the claim's level kept.
    expect(demo.helm!.maxEvalInstances).toBeLessThan(full.helm!.maxEvalInstances)
    expect(demo.load!.repetitions).toBeLessThan(full.load!.repetitions)
    // The one level kept is the one the throughput claim is about.
    expect(demo.load!.levels).toEqual([4])
    expect(full.load!.checks.map(c => c.level).filter(level => level !== null)).toEqual([4])
    // Fidelity costs a request per prompt: the demo scores every prompt the quality half sent.
    expect(demo.fidelity!.instances).toBe(demo.helm!.maxEvalInstances)
    expect(readFileSync(join(REPO_ROOT, 'scripts', 'demo-real.sh'), 'utf8')).toContain('examples/real-cpu/demo.yml')
  })

  it('demo.yml plans: the launch commands, the load blocks and the fidelity prompts it will use', async () => {
    let out = ''
    const io: CliIo = { stdout: s => (out += s), stderr: s => (out += s), env: { PATH: process.env.PATH }, cwd: REPO_ROOT }
    const code = await main(['plan', '--config', 'examples/real-cpu/demo.yml', '--no-count'], io)
    expect(out).not.toMatch(/error/i)
    expect(code).toBe(0)
    expect(out).toContain('./.real-engine/model/model-Q4_0.gguf')
    expect(out).toMatch(/blocks alternate A B B A with 6 swaps/)
    expect(out).toMatch(/# fidelity: the first 150 prompts .*checks: kld_mean <= 0.0002/)
  })

  it('vLLM on a GPU: `vllm serve` with the same weights, the candidate adds --quantization fp8', () => {
    const config = realCpu('vllm-gpu-fp8.yml')
    const { baseline, candidate } = config.launch!.sides
    expect(baseline!.command.slice(0, 2)).toEqual(['vllm', 'serve'])
    expect(candidate!.command).toEqual([...baseline!.command, '--quantization', 'fp8'])
  })

  it('vLLM on a GPU: the fidelity section is valid and plan names the routes of the launched sides', async () => {
    const config = realCpu('vllm-gpu-fp8.yml')
    expect(config.fidelity).toMatchObject({ instances: 200, topK: 20, baselineReruns: 1 })
    expect(config.fidelity!.checks.map(c => c.metric)).toEqual(['kld_mean', 'top1_agreement', 'answer_length_ratio'])
    const lines = await fidelityPlanLines(config as typeof config & { fidelity: FidelitySettings }, {})
    expect(lines[0]).toMatch(
      /^# fidelity: the first 200 prompts of the gate set's prompts .* top-20 .* checks: kld_mean <= 0.02, top1_agreement >= 0.97, answer_length_ratio <= 1.2$/
    )
    expect(lines[1]).toMatch(/^# fidelity baseline: launched, route decided when it is up \(.*vLLM: prompt_logprobs/)
  })
})
