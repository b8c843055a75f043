// The fake continuous-batching engine (test-support/fake-engine/server.mjs) as the load benches
// start it, and the commands they time: one copy for bench/load.mjs and bench/release-load.mjs.
import { execFile, spawn } from 'node:child_process'
import { dirname, join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..')
export const FAKE_ENGINE = join(root, 'test-support', 'fake-engine', 'server.mjs')

/** Runs a command to its end: its exit code (1 when it could not start) and its output. */
export function exec(command, args, options = {}) {
  return new Promise(resolvePromise => {
    execFile(command, args, { maxBuffer: 64 << 20, ...options }, (error, stdout, stderr) =>
      resolvePromise({ code: error ? (error.code ?? 1) : 0, stdout, stderr })
    )
  })
}

/**
 * Starts the engine on a free loopback port with the given flags (`cpu`: a `taskset` prefix, or
 * none) and resolves once it listens: its URL, its records of every request, and stop.
 */
export async function startFakeEngine(flags, cpu = []) {
  const [command, ...prefix] = [...cpu, process.execPath]
  const child = spawn(command, [...prefix, FAKE_ENGINE, '--port', '0', ...flags], { stdio: ['ignore', 'pipe', 'inherit'] })
  const url = await new Promise((resolvePromise, reject) => {
    createInterface({ input: child.stdout }).on('line', line => {
      const m = /listening on (\S+)/.exec(line)
      if (m) resolvePromise(m[1])
    })
    child.once('exit', code => reject(new Error(`engine exited ${code}`)))
  })
  const origin = url.replace(/\/v1$/, '')
  const get = async path => (await fetch(origin + path)).json()
  return {
    url,
    origin,
    records: () => get('/engine/records'),
    stats: () => get('/engine/stats'),
    reset: () => fetch(`${origin}/engine/reset`, { method: 'POST' }),
    stop: () => child.kill('SIGTERM')
  }
}

/**
 * Runs a command under GNU time (`cpu`: a `taskset` prefix, or none): CPU seconds (user + system,
 * children included), peak RSS, and the wall time in ms.
 */
export async function timedUnder(cpu, command, args, env) {
  const start = process.hrtime.bigint()
  const r = await exec('/usr/bin/time', ['-f', 'TIME %U %S %M', ...cpu, command, ...args], { env: { ...process.env, ...env } })
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6
  const m = /TIME (\S+) (\S+) (\d+)\s*$/.exec(r.stderr)
  return { ...r, wallMs, cpu: m ? Number(m[1]) + Number(m[2]) : NaN, rssMb: m ? Number(m[3]) / 1024 : NaN }
}
