/**
 * The real dependencies: @actions/core for inputs, outputs and the job summary, the artifact
 * service, and the REST client (octokit with retries) on GITHUB_API_URL.
 *
 * HELM_GATE_RETRY_UNIT_MS scales every retry delay (default 1000: GitHub's `retry-after` is in
 * seconds); the integration tests set it low so a retried 502 costs milliseconds.
 */
import * as core from '@actions/core'
import { readFile } from 'node:fs/promises'
import { actionsArtifactStore } from '../github/artifacts.js'
import { createGitHubClient } from '../github/client.js'
import { HELM_GATE_VERSION } from '../version.js'
import type { ActionDeps } from './deps.js'

export function defaultDeps(env: NodeJS.ProcessEnv = process.env): ActionDeps {
  return {
    io: {
      getInput: name => core.getInput(name),
      setOutput: (name, value) => core.setOutput(name, value),
      info: message => core.info(message),
      debug: message => core.debug(message),
      startGroup: title => core.startGroup(title),
      endGroup: () => core.endGroup(),
      warning: message => core.warning(message),
      error: message => core.error(message),
      setFailed: message => core.setFailed(message),
      setSecret: value => core.setSecret(value),
      writeSummary: async markdown => {
        try {
          await core.summary.addRaw(markdown, true).write()
        } catch (error) {
          core.warning(`could not write the job summary: ${(error as Error).message}`)
        }
      }
    },
    env,
    now: () => new Date(),
    readEventPayload: async file => (file ? JSON.parse(await readFile(file, 'utf8')) : {}),
    readTextFile: file => readFile(file, 'utf8'),
    artifacts: () => actionsArtifactStore(),
    github: token =>
      createGitHubClient({
        token,
        userAgent: `helm-gate/${HELM_GATE_VERSION}`,
        log: { info: message => core.info(message), debug: message => core.debug(message) },
        retryUnitMs: retryUnit(env.HELM_GATE_RETRY_UNIT_MS)
      })
  }
}

function retryUnit(value: string | undefined): number | undefined {
  const n = Number(value)
  return value && Number.isFinite(n) && n >= 0 ? n : undefined
}
