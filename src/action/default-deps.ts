/**
 * The real dependencies: @actions/core for inputs, outputs and the job summary, the artifact
 * service, and the REST client on GITHUB_API_URL.
 */
import * as core from '@actions/core'
import { readFile } from 'node:fs/promises'
import { actionsArtifactStore } from '../github/artifacts.js'
import { RestClient } from '../github/rest.js'
import { HELM_GATE_VERSION } from '../version.js'
import type { ActionDeps } from './deps.js'

export function defaultDeps(env: NodeJS.ProcessEnv = process.env): ActionDeps {
  return {
    io: {
      getInput: name => core.getInput(name),
      setOutput: (name, value) => core.setOutput(name, value),
      info: message => core.info(message),
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
      new RestClient({
        apiUrl: env.GITHUB_API_URL || 'https://api.github.com',
        token,
        userAgent: `helm-gate/${HELM_GATE_VERSION}`
      })
  }
}
