/**
 * Every process group helm-gate started and has not yet seen die: launched servers and helm-run.
 * While one is alive, SIGINT and SIGTERM to helm-gate (a cancelled job, Ctrl-C) stop them all
 * before exiting, because each lives in its own process group and would otherwise survive us and
 * keep the GPU. A second signal, or the process exiting for any other reason, kills them at once.
 *
 * GitHub cancels a job with SIGINT, then SIGTERM 7.5 s later, then SIGKILL 2.5 s after that, so the
 * urgent stop used here is short (registered stop functions get `urgent: true`).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { constants } from 'node:os'

export interface LiveGroup {
  /** Process group id (the leader's pid: spawned with `detached: true`). */
  pgid: number
  label: string
  /** Stops the group; `urgent` shortens every grace period. Must not throw. */
  stop(urgent: boolean): Promise<void>
}

const live = new Map<number, LiveGroup>()
/** Run after the groups are stopped on a signal: write and upload what evidence there is. */
type CancelHook = (signal: NodeJS.Signals) => Promise<void>
const hooks = new Set<CancelHook>()
let armed = false
let stopping: Promise<void> | null = null
let received: NodeJS.Signals | null = null
/** How long the cancel hooks may take in all (GitHub kills the job 10 s after its SIGINT). */
const HOOKS_LIMIT_MS = 6_000
/** After a second signal the hooks get this long before the process exits. */
const SECOND_SIGNAL_GRACE_MS = 1_500
const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM']
/** Messages of the signal path; stderr by default (the action's log). */
let say: (line: string) => void = line => process.stderr.write(`${line}\n`)

/** Tracks a group until the returned function is called (after it is known to be gone). */
export function trackGroup(group: LiveGroup): () => void {
  live.set(group.pgid, group)
  arm()
  // Started while helm-gate is being cancelled (the sequential schedule's next side, a helm-run
  // that was about to start): stopped at once.
  if (received) void group.stop(true).catch(() => {})
  return () => {
    if (live.get(group.pgid) === group) live.delete(group.pgid)
    disarmWhenIdle()
  }
}

/**
 * Registers what to do when helm-gate is cancelled (SIGINT/SIGTERM): after every group is
 * stopped, `hook` runs (all hooks together within a few seconds), then the process exits with
 * 128 + the signal number. While a hook is registered the signals are handled even when no group
 * is alive. Returns the function that unregisters it.
 */
export function onCancel(hook: CancelHook): () => void {
  hooks.add(hook)
  arm()
  return () => {
    hooks.delete(hook)
    disarmWhenIdle()
  }
}

export interface CancelGuard {
  /**
   * Call when the work is done, before writing its own reports: unregisters the hook, or, when
   * helm-gate is being cancelled, never resolves (the signal handler runs the hook and exits), so
   * the normal path cannot race the cancelled report.
   */
  settle(): Promise<void>
}

/** `onCancel` for a unit of work that ends in a report: the hook writes the cancelled one. */
export function guardOnCancel(hook: CancelHook): CancelGuard {
  const release = onCancel(hook)
  return {
    settle: () => {
      if (received) return new Promise<void>(() => {})
      release()
      return Promise.resolve()
    }
  }
}

/** The signal that is cancelling helm-gate, or null. New launches refuse to start once it is set. */
export function cancelledBy(): NodeJS.Signals | null {
  return received
}

/** Process group ids still tracked (tests check these are gone). */
export function trackedGroups(): number[] {
  return [...live.keys()]
}

export function setSignalLog(log: (line: string) => void): void {
  say = log
}

/** Stops every tracked group (used on signals; the normal path stops each launch itself). */
export async function stopAllGroups(urgent: boolean): Promise<void> {
  await Promise.all([...live.values()].map(group => group.stop(urgent).catch(() => {})))
}

/**
 * Live (non-zombie) processes of group `pgid`. On Linux read from /proc, because a zombie
 * (exited, not yet reaped by its parent) still answers kill(0) but holds nothing; elsewhere
 * kill(-pgid, 0) is the best available answer.
 */
export function groupMembers(pgid: number): number[] {
  let entries: string[]
  try {
    entries = readdirSync('/proc').filter(name => /^\d+$/.test(name))
  } catch {
    return signalable(pgid) ? [pgid] : []
  }
  const members: number[] = []
  for (const name of entries) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      // pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') members.push(Number(name))
    } catch {
      // exited while we looked
    }
  }
  return members
}

/** Is any process of group `pgid` still alive? */
export function groupAlive(pgid: number): boolean {
  return groupMembers(pgid).length > 0
}

/** Is process `pid` alive (and not a zombie)? */
export function processAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false
    try {
      process.kill(pid, 0)
      return true
    } catch (inner) {
      return (inner as NodeJS.ErrnoException).code === 'EPERM'
    }
  }
}

function signalable(pgid: number): boolean {
  try {
    process.kill(-pgid, 0)
    return true
  } catch (error) {
    // EPERM: something exists in that group that we may not signal; count it as alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

export function killGroupNow(pgid: number, signal: NodeJS.Signals = 'SIGKILL'): void {
  try {
    process.kill(-pgid, signal)
  } catch {
    // already gone
  }
}

function onSignal(signal: NodeJS.Signals): void {
  const code = 128 + (constants.signals[signal] ?? 15)
  if (stopping) {
    say(`helm-gate: ${signal} again; killing ${live.size} process group(s) now`)
    for (const pgid of live.keys()) killGroupNow(pgid)
    // The evidence upload may be nearly done: a moment more, then exit whatever it is doing.
    setTimeout(() => process.exit(code), SECOND_SIGNAL_GRACE_MS).unref()
    return
  }
  received = signal
  say(`helm-gate: ${signal} received; stopping ${live.size} launched process group(s) before exiting`)
  stopping = (async () => {
    await stopAllGroups(true)
    const all = Promise.all([...hooks].map(hook => hook(signal).catch(error => say(`helm-gate: on ${signal}: ${String(error)}`))))
    let timer: NodeJS.Timeout | undefined
    await Promise.race([all, new Promise(resolve => (timer = setTimeout(resolve, HOOKS_LIMIT_MS)))])
    clearTimeout(timer)
  })().finally(() => {
    for (const pgid of live.keys()) killGroupNow(pgid)
    process.exit(code)
  })
}

/** Last resort when the process exits with groups still tracked (an uncaught error, process.exit). */
function onExit(): void {
  for (const pgid of live.keys()) killGroupNow(pgid)
}

function arm(): void {
  if (armed) return
  armed = true
  for (const signal of SIGNALS) process.on(signal, onSignal)
  process.on('exit', onExit)
}

function disarmWhenIdle(): void {
  if (live.size === 0 && hooks.size === 0 && !stopping) disarm()
}

function disarm(): void {
  if (!armed) return
  armed = false
  for (const signal of SIGNALS) process.off(signal, onSignal)
  process.off('exit', onExit)
}
