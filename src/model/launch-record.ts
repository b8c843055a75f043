/**
 * What manifest.json records about launched deployments (src/launch writes them): each side's
 * command, checkout, times, stop, docker image and weights file. Types only, so the manifest's model does not
 * import the launcher.
 */
import type { LaunchSide } from '../config/launch.js'

export interface StopRecord {
  requested_at: string
  /** When the leader exited (or the stop gave up waiting and killed the group). */
  exited_at: string
  killed: boolean
  stop_command_exit: number | string | null
  stopped_at: string
}

export interface DockerIdentity {
  /** The image as written in the command. */
  image: string
  container_name: string | null
  /** The local image id (sha256:...) of the running container or the image. */
  image_id: string | null
  /** Registry digests (`repo@sha256:...`) of that image. */
  repo_digests: string[]
  error: string | null
}

/** The `--model FILE` a launched server was started with, by content (src/launch/weights.ts). */
export interface WeightsIdentity {
  /** The argument as written in the launch command. */
  file: string
  bytes: number | null
  sha256: string | null
  error: string | null
}

export interface LaunchRecord {
  side: LaunchSide
  /** The command as written in the gate file (`${VAR}` unexpanded: values may be secret). */
  command: string[]
  checkout: 'head' | 'base'
  /** The base commit, for `checkout: base`. */
  commit: string | null
  log_file: string
  pid: number | null
  started_at: string | null
  ready_at: string | null
  ready_ms: number | null
  stop: StopRecord | null
  exit: { code: number | null; signal: string | null } | null
  docker: DockerIdentity | null
  /** The `--model FILE` the server was started with, by content (src/launch/weights.ts). */
  weights?: WeightsIdentity | null
  errors: { code: string; message: string }[]
}

export interface LaunchManifest {
  schedule: 'sequential' | 'concurrent'
  /**
   * False with a sequential schedule: the quality half's two sides were up in separate periods.
   * The load half then swaps the sides between its blocks to interleave them anyway; what it did
   * is the manifest's `load_timeline` (docs/launch.md, "Interleaving one at a time").
   */
  interleaving_possible: boolean
  base_commit: string | null
  sides: Partial<Record<LaunchSide, LaunchRecord>>
}
