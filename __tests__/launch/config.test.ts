import { describe, expect, it } from '@jest/globals'
import { fingerprint } from '../../src/config/fingerprint.js'
import { parseGateConfig } from '../../src/config/load.js'
import { ConfigError } from '../../src/errors.js'
import { launchesDiffer } from '../../src/launch/notes.js'

const gate = (deployments: string, top = '') => `
version: 1
helm: { version: 0.5.16, max_eval_instances: 10 }
deployments:
${deployments}
runs:
  - { entry: simple_mcqa, metric: exact_match, max_drop: 0.05 }
${top}`

const TWO_IMAGES = `
  baseline:
    api: chat
    base_url: http://127.0.0.1:8000/v1
    model: llama
    launch:
      command: [docker, run, --rm, -p, "8000:8000", "vllm/vllm-openai:\${BASE_TAG}", --model, /m]
      checkout: base
      env: { CUDA_VISIBLE_DEVICES: 0 }
      ready_timeout_seconds: 600
      stop: { signal: SIGINT, timeout_seconds: 30 }
      stop_command: [docker, stop, hg-baseline]
  candidate:
    api: chat
    base_url: http://127.0.0.1:8000/v1
    model: llama
    launch:
      command: [docker, run, --rm, -p, "8000:8000", "vllm/vllm-openai:v0.11.0", --model, /m]
`

function fails(text: string): ConfigError {
  try {
    parseGateConfig(text, 'gate.yml')
  } catch (error) {
    if (error instanceof ConfigError) return error
    throw error
  }
  throw new Error('expected a ConfigError')
}

describe('deployments.<side>.launch', () => {
  it('reads the launch sections, with sequential as the default schedule', () => {
    const config = parseGateConfig(gate(TWO_IMAGES, 'fingerprint_paths: [serving/**]'), 'gate.yml')
    const baseline = config.launch?.sides.baseline
    expect(baseline).toEqual({
      command: ['docker', 'run', '--rm', '-p', '8000:8000', 'vllm/vllm-openai:${BASE_TAG}', '--model', '/m'],
      checkout: 'base',
      env: { CUDA_VISIBLE_DEVICES: '0' },
      readyTimeoutSeconds: 600,
      stop: { signal: 'SIGINT', timeoutSeconds: 30 },
      stopCommand: ['docker', 'stop', 'hg-baseline'],
      switch: 'restart',
      field: 'deployments.baseline.launch'
    })
    expect(config.launch?.sides.candidate).toMatchObject({
      checkout: 'head',
      readyTimeoutSeconds: 900,
      stop: { signal: 'SIGTERM', timeoutSeconds: 60 },
      stopCommand: null
    })
    expect(config.launch?.schedule).toBe('sequential')
    expect(config.launch?.fingerprintPaths).toEqual(['serving/**'])
    // Same address and model, different images: two deployments.
    expect(launchesDiffer(config)).toBe(true)
  })

  it('keeps concurrent as the default without launch, and the old fingerprint', () => {
    const plain = gate(`
  baseline: { api: chat, base_url: http://127.0.0.1:8001/v1, model: a }
  candidate: { api: chat, base_url: http://127.0.0.1:8002/v1, model: b }`)
    const config = parseGateConfig(plain, 'gate.yml')
    expect(config.launch).toEqual({ sides: {}, schedule: 'concurrent', fingerprintPaths: [] })
    const { launch: _unused, ...withoutLaunch } = config
    expect(fingerprint(config)).toBe(fingerprint(withoutLaunch))
  })

  it.each([
    ['an unknown key', TWO_IMAGES.replace('checkout: base', 'chekout: base'), 'deployments.baseline.launch.chekout'],
    [
      'a command that is not a list',
      TWO_IMAGES.replace(
        /command: \[docker, run, --rm, -p, "8000:8000", "vllm\/vllm-openai:\$\{BASE_TAG\}", --model, \/m\]/,
        'command: "docker run x"'
      ),
      'deployments.baseline.launch.command'
    ],
    ['a malformed variable', TWO_IMAGES.replace('${BASE_TAG}', '${BASE-TAG}'), 'deployments.baseline.launch.command'],
    ['a bad checkout', TWO_IMAGES.replace('checkout: base', 'checkout: main'), 'deployments.baseline.launch.checkout'],
    ['a bad signal', TWO_IMAGES.replace('signal: SIGINT', 'signal: TERM'), 'deployments.baseline.launch.stop.signal'],
    [
      'an env value that is a list',
      TWO_IMAGES.replace('CUDA_VISIBLE_DEVICES: 0', 'CUDA_VISIBLE_DEVICES: [0]'),
      'deployments.baseline.launch.env.CUDA_VISIBLE_DEVICES'
    ],
    [
      'a zero ready timeout',
      TWO_IMAGES.replace('ready_timeout_seconds: 600', 'ready_timeout_seconds: 0'),
      'deployments.baseline.launch.ready_timeout_seconds'
    ]
  ])('rejects %s, naming the key path', (_what, deployments, field) => {
    expect(fails(gate(deployments)).location.field).toBe(field)
  })

  it('rejects launch on a prod_env deployment, a bad schedule and fingerprint paths outside the repository', () => {
    const prodEnv = `
  baseline: { prod_env: ./p, deployment: x, launch: { command: [a] } }
  candidate: { api: chat, base_url: http://127.0.0.1:8002/v1, model: b }`
    expect(fails(gate(prodEnv)).location.field).toBe('deployments.baseline.launch')
    expect(fails(gate(TWO_IMAGES, 'schedule: parallel')).location.field).toBe('schedule')
    expect(fails(gate(TWO_IMAGES, 'fingerprint_paths: [../x]')).location.field).toBe('fingerprint_paths')
    // Both launched on one port at once cannot work.
    expect(fails(gate(TWO_IMAGES, 'schedule: concurrent')).message).toMatch(/same host and port/)
  })

  it('reads each side switch (restart by default); sleep keeps a server resident, so it needs its own port', () => {
    expect(parseGateConfig(gate(TWO_IMAGES), 'gate.yml').launch?.sides.candidate?.switch).toBe('restart')
    const none = TWO_IMAGES.replace(
      'stop_command: [docker, stop, hg-baseline]',
      'stop_command: [docker, stop, hg-baseline]\n      switch: none'
    )
    expect(parseGateConfig(gate(none), 'gate.yml').launch?.sides.baseline?.switch).toBe('none')
    const bad = fails(gate(TWO_IMAGES.replace('stop_command: [docker, stop, hg-baseline]', 'switch: pause')))
    expect([bad.location.field, bad.message]).toEqual([
      'deployments.baseline.launch.switch',
      expect.stringMatching(/restart, sleep, none|restart|sleep/)
    ])
    const sleepy = TWO_IMAGES.replace('stop_command: [docker, stop, hg-baseline]', 'switch: sleep')
    const samePort = fails(gate(sleepy))
    expect([samePort.location.field, samePort.message]).toEqual([
      'schedule',
      expect.stringMatching(/switch is sleep, .* give each its own port/)
    ])
    const ownPort = sleepy.replace(/(candidate:\n {4}api: chat\n {4}base_url: http:\/\/127\.0\.0\.1:)8000/, '$18001')
    expect(parseGateConfig(gate(ownPort), 'gate.yml').launch?.sides.baseline?.switch).toBe('sleep')
  })

  it('puts the baseline launch and the digests of fingerprint_paths into the fingerprint, not the candidate launch', () => {
    const config = parseGateConfig(gate(TWO_IMAGES, 'fingerprint_paths: [serving/**]'), 'gate.yml')
    const digestA = fingerprint(config, { pathDigests: { 'serving/a.json': '1'.repeat(40) } })
    expect(fingerprint(config, { pathDigests: { 'serving/a.json': '1'.repeat(40) } })).toBe(digestA)
    expect(fingerprint(config, { pathDigests: { 'serving/a.json': '2'.repeat(40) } })).not.toBe(digestA)
    const otherCandidate = parseGateConfig(gate(TWO_IMAGES.replace('v0.11.0', 'v0.12.0'), 'fingerprint_paths: [serving/**]'), 'gate.yml')
    expect(fingerprint(otherCandidate, { pathDigests: { 'serving/a.json': '1'.repeat(40) } })).toBe(digestA)
    const otherBaseline = parseGateConfig(gate(TWO_IMAGES.replace('${BASE_TAG}', 'v0.10.0'), 'fingerprint_paths: [serving/**]'), 'gate.yml')
    expect(fingerprint(otherBaseline, { pathDigests: { 'serving/a.json': '1'.repeat(40) } })).not.toBe(digestA)
  })
})
