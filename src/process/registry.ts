/**
 * Every process group helm-gate started and has not yet seen die (launched servers and helm-run),
 * and every file it must not leave behind (the temporary folder that holds each side's prod_env
 * with credentials.conf, the base commit's worktree and its `git worktree` registration).
 *
 * Cancellation has one path (docs/trust-model.md, "What is removed"). On SIGINT or SIGTERM (a
 * cancelled job, Ctrl-C), in this order: every group is stopped, because each lives in its own
 * process group and would otherwise survive us and keep the GPU; every leftover is removed (the
 * newest first: the worktree inside the temporary folder before the folder); the cancel hooks
 * write (and upload) the cancelled report; the process exits with 128 + the signal's number. The
 * command's own path keeps running meanwhile, and its `finally` blocks call the same removals,
 * which are shared, so neither can cut the other short. A second signal kills the groups and
 * removes the leftovers synchronously, then exits; so does the process exiting for any other
 * reason (the 'exit' handler).
 *
 * GitHub cancels a job with SIGINT, then SIGTERM 7.5 s later, then SIGKILL 2.5 s after that, so the
 * urgent stop used here is short (registered stop functions get `urgent: true`).
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { rm } from 'node:fs/promises'
import { constants, tmpdir } from 'node:os'
import { join } from 'node:path'

export interface LiveGroup {
  /** Process group id (the leader's pid: spawned with `detached: true`). */
  pgid: number
  label: string
  /** Stops the group; `urgent` shortens every grace period. Must not throw. */
  stop(urgent: boolean): Promise<void>
}

/** Something on disk helm-gate made and must remove on every path. */
export interface Leftover {
  label: string
  /** Removes it; the same promise however often it is called. Must not throw. */
  remove(): Promise<void>
  /** The same, synchronously: the last resort before a forced exit. Must not throw. */
  removeNow(): void
}

const live = new Map<number, LiveGroup>()
/** Registration order: the newest is removed first. */
const leftovers: Leftover[] = []
/** Leftovers present at (or registered after) the first signal: swept again right before exiting. */
const sweep = new Set<Leftover>()
/** Run after the groups are stopped on a signal: write and upload what evidence there is. */
type CancelHook = (signal: NodeJS.Signals) => Promise<void>
const hooks = new Set<CancelHook>()
let armed = false
let stopping: Promise<void> | null = null
let received: NodeJS.Signals | null = null
/** How long the removals may take before the synchronous sweep does the rest. */
const LEFTOVERS_LIMIT_MS = 3_000
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
 * Tracks a leftover until the returned function is called (after it is removed). Registered while
 * helm-gate is being cancelled: removed at once.
 */
export function trackLeftover(item: Leftover): () => void {
  leftovers.push(item)
  arm()
  if (received) {
    sweep.add(item)
    void item.remove()
  }
  return () => {
    const at = leftovers.indexOf(item)
    if (at >= 0) leftovers.splice(at, 1)
    disarmWhenIdle()
  }
}

export interface TempDir {
  path: string
  /** Removes the folder and everything in it; shared by every caller. */
  remove(): Promise<void>
}

/**
 * A private temporary folder (mode 0700, under TMPDIR) that is removed on every path: by `remove`
 * in the owner's `finally`, by the signal path, or by the 'exit' handler. Created synchronously,
 * so no signal can come between its creation and its registration.
 */
export function trackedTempDir(prefix = 'helm-gate-'): TempDir {
  const path = mkdtempSync(join(tmpdir(), prefix))
  let removing: Promise<void> | null = null
  let release = (): void => {}
  const item: Leftover = {
    label: path,
    remove: () =>
      (removing ??= (async () => {
        await rm(path, { recursive: true, force: true, maxRetries: 3 }).catch(() => {})
        // A write that raced the removal (a file created while the folder was being emptied)
        // leaves it behind: the synchronous pass removes what is left.
        removeDirNow(path)
        release()
      })()),
    removeNow: () => removeDirNow(path)
  }
  release = trackLeftover(item)
  return { path, remove: item.remove }
}

export function removeDirNow(path: string): void {
  try {
    rmSync(path, { recursive: true, force: true, maxRetries: 3 })
  } catch {
    // nothing more can be done here; the caller reports what it can
  }
}

/** Runs a command synchronously, ignoring its failure (the signal path's last resort). */
export function runNow(command: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv): void {
  try {
    execFileSync(command, args, { cwd, env, stdio: 'ignore', timeout: 5_000 })
  } catch {
    // best effort
  }
}

/** Leftovers still tracked (tests check these are gone). */
export function trackedLeftovers(): string[] {
  return leftovers.map(item => item.label)
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
    say(`helm-gate: ${signal} again; killing ${live.size} process group(s) and exiting`)
    for (const pgid of live.keys()) killGroupNow(pgid)
    // The credentials go first, whatever else is cut short.
    sweepNow()
    // The evidence upload may be nearly done: a moment more, then exit whatever it is doing.
    setTimeout(() => process.exit(code), SECOND_SIGNAL_GRACE_MS).unref()
    return
  }
  received = signal
  for (const item of leftovers) sweep.add(item)
  say(`helm-gate: ${signal} received; stopping ${live.size} launched process group(s) before exiting`)
  stopping = (async () => {
    await stopAllGroups(true)
    await withinLimit(removeLeftovers(), LEFTOVERS_LIMIT_MS)
    const all = Promise.all([...hooks].map(hook => hook(signal).catch(error => say(`helm-gate: on ${signal}: ${String(error)}`))))
    await withinLimit(all, HOOKS_LIMIT_MS)
  })().finally(() => {
    for (const pgid of live.keys()) killGroupNow(pgid)
    // Whatever the command's own path made while the hooks ran, and anything a removal missed.
    sweepNow()
    process.exit(code)
  })
}

/** The newest first: a worktree inside the temporary folder goes before the folder. */
async function removeLeftovers(): Promise<void> {
  for (;;) {
    const pending = [...sweep].reverse()
    for (const item of pending) await item.remove().catch(() => {})
    // Removals registered meanwhile (a launch that was starting) are removed too.
    if ([...sweep].every(item => pending.includes(item))) return
  }
}

function sweepNow(): void {
  for (const item of [...leftovers, ...sweep].reverse()) item.removeNow()
}

async function withinLimit(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  await Promise.race([work, new Promise(resolve => (timer = setTimeout(resolve, ms)))])
  clearTimeout(timer)
}

/** Last resort when the process exits with groups or leftovers still tracked (an uncaught error, process.exit). */
function onExit(): void {
  for (const pgid of live.keys()) killGroupNow(pgid)
  for (const item of [...leftovers].reverse()) item.removeNow()
}

function arm(): void {
  if (armed) return
  armed = true
  for (const signal of SIGNALS) process.on(signal, onSignal)
  process.on('exit', onExit)
}

function disarmWhenIdle(): void {
  if (live.size === 0 && hooks.size === 0 && leftovers.length === 0 && !stopping) disarm()
}

function disarm(): void {
  if (!armed) return
  armed = false
  for (const signal of SIGNALS) process.off(signal, onSignal)
  process.off('exit', onExit)
}
