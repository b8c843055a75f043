/**
 * Everything the orchestration touches outside its own pure logic, in one object, so that unit
 * tests replace it whole and the integration tests run the real one against a loopback GitHub.
 */
import type { GateConfig, GatedRun } from '../config/types.js'
import type { GateError } from '../errors.js'
import type { ArtifactStore } from '../github/artifacts.js'
import type { RestClient } from '../github/rest.js'
import type { Report } from '../report/model.js'
import type { Side } from './manifest.js'

export interface ActionIO {
  getInput(name: string): string
  setOutput(name: string, value: string | number): void
  info(message: string): void
  warning(message: string): void
  error(message: string): void
  setFailed(message: string): void
  /** Masks a value in every later log line of the job (`::add-mask::`). */
  setSecret(value: string): void
  /** Appends markdown to the job summary; a missing GITHUB_STEP_SUMMARY is only a warning. */
  writeSummary(markdown: string): Promise<void>
}

export interface SidesRequest {
  outDir: string
  /** Where a relative helm.command is resolved. */
  cwd?: string
  sides: Side[]
  runs?: GatedRun[]
  log?: (line: string) => void
}

export interface SidesResult {
  /** Each side's HELM output directory (absolute) for the sides that were attempted. */
  paths: Partial<Record<Side, string>>
  /** Sides that completed. */
  completed: Side[]
  /** Why a side failed (helm-run exit status, timeout, server not ready...). */
  errors: GateError[]
}

export interface CheckRunText {
  title: string
  summary: string
  text?: string
}

export interface MarkdownRequest {
  maxLength: number
  marker?: string
  links?: { run?: string; artifacts?: string }
  gateFileChange?: string | null
  lengthUnit?: 'utf16' | 'utf8'
}

export interface ActionDeps {
  io: ActionIO
  env: NodeJS.ProcessEnv
  now(): Date
  readEventPayload(file: string | undefined): Promise<unknown>
  readTextFile(file: string): Promise<string>
  parseGateConfig(text: string, source: string): GateConfig
  fingerprint(config: GateConfig): string
  runSides(config: GateConfig, request: SidesRequest): Promise<SidesResult>
  compareOutputs(baselinePath: string, candidatePath: string, config: GateConfig, priorErrors: GateError[]): Promise<Report>
  renderMarkdown(report: Report, request: MarkdownRequest): string
  renderCheckRun(report: Report, request: MarkdownRequest): CheckRunText
  renderJson(report: Report): string
  artifacts(): ArtifactStore
  github(token: string): RestClient
}
