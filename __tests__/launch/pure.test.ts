import { describe, expect, it } from '@jest/globals'
import { ConfigError } from '../../src/errors.js'
import { dockerRun, imageOf } from '../../src/launch/docker.js'
import { imageCell } from '../../src/report/identity-cells.js'
import { expandTemplate } from '../../src/launch/expand.js'
import { runOnSchedule } from '../../src/launch/side-schedule.js'

describe('expandTemplate', () => {
  it('fills ${NAME} without a shell: a value stays one argument whatever it holds', () => {
    const env = { TAG: 'v1; rm -rf / $(x) "q"', EMPTY: '' }
    expect(expandTemplate('img:${TAG}', env, 'f', 's')).toEqual({ text: 'img:v1; rm -rf / $(x) "q"', used: ['TAG'] })
    expect(expandTemplate('a$${TAG}$$b$c${EMPTY}', env, 'f', 's').text).toBe('a${TAG}$b$c')
  })

  it('names the field and the variable when it is not set', () => {
    let error: unknown
    try {
      expandTemplate('x${MISSING}', {}, 'deployments.candidate.launch.command[2]', 'gate.yml')
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as ConfigError).describe()).toBe(
      'deployments.candidate.launch.command[2] uses ${MISSING}, which is not set in the environment (file: gate.yml, field: deployments.candidate.launch.command[2], value: "MISSING")'
    )
  })
})

describe('dockerRun', () => {
  it.each([
    [
      ['docker', 'run', '--rm', '--gpus', 'all', '-p', '8000:8000', '--name', 'hg', 'vllm/vllm-openai:v0.10', '--model', 'm'],
      'vllm/vllm-openai:v0.10',
      'hg'
    ],
    [
      ['/usr/bin/docker', 'run', '-it', '-e', 'A=1', '-p8000:8000', '--name=x', '--ipc=host', 'img@sha256:ab', 'serve'],
      'img@sha256:ab',
      'x'
    ],
    [['docker', '--context', 'gpu', 'container', 'run', '-d', '-v', '/m:/m', 'img'], 'img', null],
    [['docker', 'run', '--', 'img'], 'img', null]
  ])('%j runs %s', (command, image, name) => {
    expect(dockerRun(command as string[])).toEqual({ image, name })
  })

  it('is null for other commands', () => {
    expect(dockerRun(['bash', 'serving/start.sh'])).toBeNull()
    expect(dockerRun(['docker', 'compose', 'up'])).toBeNull()
  })
})

describe('runOnSchedule', () => {
  const recorder = () => {
    const events: string[] = []
    return {
      events,
      steps: (fail: { up?: string; measure?: string } = {}) => ({
        up: async (side: string) => {
          events.push(`up ${side}`)
          await new Promise(r => setTimeout(r, 5))
          return fail.up !== side
        },
        measure: async (side: string) => {
          events.push(`measure ${side}`)
          if (fail.measure === side) throw new Error(`boom ${side}`)
        },
        down: async (side: string) => {
          events.push(`down ${side}`)
        }
      })
    }
  }

  it('sequential: one side is down before the next is up', async () => {
    const r = recorder()
    await runOnSchedule(['baseline', 'candidate'], 'sequential', r.steps())
    expect(r.events).toEqual(['up baseline', 'measure baseline', 'down baseline', 'up candidate', 'measure candidate', 'down candidate'])
  })

  it('sequential: a side that does not come up is stopped and ends the schedule; an exception still stops it', async () => {
    const a = recorder()
    await runOnSchedule(['baseline', 'candidate'], 'sequential', a.steps({ up: 'baseline' }))
    expect(a.events).toEqual(['up baseline', 'down baseline'])
    const b = recorder()
    await expect(runOnSchedule(['baseline', 'candidate'], 'sequential', b.steps({ measure: 'baseline' }))).rejects.toThrow('boom baseline')
    expect(b.events).toEqual(['up baseline', 'measure baseline', 'down baseline'])
  })

  it('concurrent: both up, both measured, both down, also when one fails', async () => {
    const a = recorder()
    await runOnSchedule(['baseline', 'candidate'], 'concurrent', a.steps())
    expect(a.events.slice(0, 2).sort()).toEqual(['up baseline', 'up candidate'])
    expect(a.events.slice(2, 4).sort()).toEqual(['measure baseline', 'measure candidate'])
    expect(a.events.slice(4).sort()).toEqual(['down baseline', 'down candidate'])
    const b = recorder()
    await expect(runOnSchedule(['baseline', 'candidate'], 'concurrent', b.steps({ measure: 'candidate' }))).rejects.toThrow(
      'boom candidate'
    )
    expect(b.events.filter(e => e.startsWith('down')).sort()).toEqual(['down baseline', 'down candidate'])
    const c = recorder()
    await runOnSchedule(['baseline', 'candidate'], 'concurrent', c.steps({ up: 'candidate' }))
    expect(c.events.filter(e => e.startsWith('measure'))).toEqual([])
    expect(c.events.filter(e => e.startsWith('down')).sort()).toEqual(['down baseline', 'down candidate'])
  })
})

describe('runOnSchedule hold', () => {
  it('holds each side alone (sequential) or both together (concurrent) before stopping them', async () => {
    for (const schedule of ['sequential', 'concurrent'] as const) {
      const events: string[] = []
      await runOnSchedule(['baseline', 'candidate'], schedule, {
        up: async side => (events.push(`up ${side}`), true),
        measure: async side => void events.push(`measure ${side}`),
        hold: async sides => void events.push(`hold ${sides.join('+')}`),
        down: async side => void events.push(`down ${side}`)
      })
      if (schedule === 'sequential') {
        expect(events).toEqual([
          'up baseline',
          'measure baseline',
          'hold baseline',
          'down baseline',
          'up candidate',
          'measure candidate',
          'hold candidate',
          'down candidate'
        ])
      } else {
        expect(events.slice(4)).toEqual(['hold baseline+candidate', 'down baseline', 'down candidate'])
      }
    }
  })
})

describe('imageOf and the Image row', () => {
  const docker = (image: string, digests: string[], id: string | null = 'sha256:' + 'a'.repeat(64)) => ({
    image,
    container_name: null,
    image_id: id,
    repo_digests: digests,
    error: null
  })

  it("prefers the named repository's digest over a mirror's", () => {
    const image = imageOf(docker('vllm/vllm-openai:v0.11.0', ['mirror.local:5000/vllm@sha256:111', 'vllm/vllm-openai@sha256:222']))
    expect(image.digest).toBe('sha256:222')
    expect(imageOf(docker('registry.local:5000/vllm', ['other/x@sha256:333'])).digest).toBe('sha256:333')
  })

  it('uses a digest pinned in the command when docker lists none', () => {
    expect(imageOf(docker('vllm/vllm-openai@sha256:444', [])).digest).toBe('sha256:444')
    expect(imageOf(docker('local-build:dev', [])).digest).toBeNull()
  })

  it('renders tag and short digest, the image id when there is no digest, and why when docker could not be asked', () => {
    expect(imageCell(imageOf(docker('vllm/vllm-openai:v0.11.0', ['vllm/vllm-openai@sha256:' + 'b'.repeat(64)])))).toBe(
      '`vllm/vllm-openai:v0.11.0` · digest `sha256:bbbbbbbbbbbb`'
    )
    expect(imageCell(imageOf(docker('local-build:dev', [])))).toBe(
      '`local-build:dev` · image id `sha256:aaaaaaaaaaaa` (no registry digest)'
    )
    expect(imageCell({ name: 'x:1', digest: null, id: null, error: 'docker image inspect: permission denied' })).toBe(
      '`x:1` · digest unknown (docker image inspect: permission denied)'
    )
    expect(imageCell(undefined)).toBe('')
  })
})
