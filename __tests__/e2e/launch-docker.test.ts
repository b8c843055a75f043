/**
 * A `docker run` launch end to end (dist/cli.js, real helm-run): the image digest is asked with
 * `docker container inspect` / `docker image inspect` and lands in manifest.json and the report
 * header. Docker is not installed where the tests run: a fake `docker` first on PATH
 * (test-support/launch/fake-docker.sh) answers `inspect` with digests derived from the image name
 * and runs the fake OpenAI server for `run`. So this tests our spawning (argument arrays, no
 * shell) and our parsing of docker's answers, not docker. The same run checks the header's row of
 * the sampling helm-run's requests sent against HELM's own record of them.
 */
import { beforeAll, describe, expect, it } from '@jest/globals'
import { createHash } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Report } from '../../src/model/report.js'
import { buildAnswerKey, helmAvailable, REPO_ROOT } from '../../test-support/fake-openai/harness.js'
import { run } from '../support/spawn.js'
import { expectNothingAlive, GATE_PATH, launchFixture, readManifest } from './launch-fixture.js'

const CLI = join(REPO_ROOT, 'dist', 'cli.js')
const describeHelm = helmAvailable() ? describe : describe.skip
const sha = (text: string): string => `sha256:${createHash('sha256').update(text).digest('hex')}`

describeHelm('a docker run launch records the image digest (fake docker CLI, real helm-run)', () => {
  let key: string
  beforeAll(async () => {
    key = await buildAnswerKey(['simple_mcqa'])
  }, 300_000)

  it('puts each side image id and registry digest into the manifest and the report header', async () => {
    const images = { baseline: 'vllm/vllm-openai:v0.10.2', candidate: 'vllm/vllm-openai:v0.11.0' }
    const fixture = await launchFixture(
      key,
      { accuracy: 1, seed: 5 },
      { accuracy: 1, seed: 5 },
      { dockerImages: images, maxEvalInstances: 10 }
    )
    const outDir = join(fixture.dir, '..', `${fixture.dir.split('/').pop()}-out`)
    const result = await run(process.execPath, [CLI, 'run', '--config', GATE_PATH, '--out', outDir, '--baseline-ref', fixture.baseSha], {
      cwd: fixture.dir,
      env: { ...process.env, ...fixture.env },
      timeoutMs: 200_000
    })
    const manifest = await readManifest(outDir)
    const report = JSON.parse(await readFile(join(outDir, 'report.json'), 'utf8')) as Report
    // Ten instances a side: pass or inconclusive, but nothing went wrong.
    expect({ errors: report.errors, stderr: result.code === 2 ? result.stderr : '' }).toEqual({ errors: [], stderr: '' })
    for (const side of ['baseline', 'candidate'] as const) {
      expect(manifest?.launch?.sides[side]?.docker).toEqual({
        image: images[side],
        container_name: `hg-${side}`,
        image_id: sha(`id:${images[side]}`),
        repo_digests: [`vllm/vllm-openai@${sha(`digest:${images[side]}`)}`],
        error: null
      })
    }
    expect(report.baseline.identity?.image).toEqual({
      name: images.baseline,
      digest: sha(`digest:${images.baseline}`),
      id: sha(`id:${images.baseline}`),
      error: null
    })
    expect(report.candidate.identity?.image?.digest).toBe(sha(`digest:${images.candidate}`))
    const markdown = await readFile(join(outDir, 'report.md'), 'utf8')
    const short = (image: string): string => sha(`digest:${image}`).slice(0, 'sha256:'.length + 12)
    expect(markdown).toContain(
      `| Image **(differs)** | \`${images.baseline}\` · digest \`${short(images.baseline)}\` | \`${images.candidate}\` · digest \`${short(images.candidate)}\` |`
    )
    // What helm-run's own requests sent, from simple_mcqa's adapter spec (HELM's multiple-choice
    // joint adapter: temperature 0, 5 tokens, one completion though the spec says num_outputs 5),
    // beside the server's defaults; the same on both sides, so not marked.
    const requests = 'temperature 0 · max\\_tokens 5 · 1 output'
    expect(markdown).toContain(`| Sampling (requests) | ${requests} | ${requests} |`)
    expect(report.baseline.requested_sampling?.by_entry['simple_mcqa']).toEqual({
      temperature: 0,
      max_tokens: 5,
      stop_sequences: null,
      num_outputs: 1
    })
    // And it is what the requests in HELM's own record carried.
    const suite = join(outDir, 'baseline', 'runs')
    const [suiteName] = await readdir(suite)
    const [mcqa] = (await readdir(join(suite, suiteName))).filter(name => name.startsWith('simple_mcqa'))
    const state = JSON.parse(await readFile(join(suite, suiteName, mcqa, 'scenario_state.json'), 'utf8')) as {
      request_states: { request: Record<string, unknown> }[]
    }
    for (const { request } of state.request_states) expect(request).toMatchObject({ temperature: 0, max_tokens: 5, num_completions: 1 })
    // The docker CLI got argument arrays: the Go template arrives as one argument, braces intact.
    const calls = (await readFile(join(fixture.env.HG_DOCKER_STATE, 'calls'), 'utf8')).split('\n').filter(Boolean)
    expect(calls).toContain(`container\tinspect\t--format\t{{.Image}}\thg-baseline\t`)
    expect(calls).toContain(`image\tinspect\t--format\t{{.Id}} {{json .RepoDigests}}\t${sha(`id:${images.candidate}`)}\t`)
    expect(await readFile(join(outDir, 'logs', 'baseline-server.log'), 'utf8')).toContain(`fake docker: running ${images.baseline}`)
    await expectNothingAlive(fixture, manifest)
  }, 240_000)
})
