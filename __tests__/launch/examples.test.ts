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
