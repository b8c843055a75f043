/**
 * What the action touches outside the pipeline, in one object: the runner's I/O (inputs,
 * outputs, log, summary), the environment, the clock, and the GitHub transport. Unit tests
 * replace it whole; the integration tests run the real one against a loopback GitHub.
 */
import type { ArtifactStore } from '../github/artifacts.js'
import type { GitHubClient } from '../github/client.js'

export interface ActionIO {
  getInput(name: string): string
  setOutput(name: string, value: string | number): void
  info(message: string): void
  /** Request details; shown when the workflow enables step debug logging. */
  debug(message: string): void
  /** Starts folding the following lines under `title` in the job log (`::group::`); see JobLog. */
  startGroup(title: string): void
  endGroup(): void
  warning(message: string): void
  error(message: string): void
  setFailed(message: string): void
  /** Masks a value in every later log line of the job (`::add-mask::`). */
  setSecret(value: string): void
  /** Appends markdown to the job summary; a missing GITHUB_STEP_SUMMARY is only a warning. */
  writeSummary(markdown: string): Promise<void>
}

export interface ActionDeps {
  io: ActionIO
  env: NodeJS.ProcessEnv
  now(): Date
  readEventPayload(file: string | undefined): Promise<unknown>
  readTextFile(file: string): Promise<string>
  artifacts(): ArtifactStore
  github(token: string): GitHubClient
}
