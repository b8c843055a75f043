/** Spawns a fake server script and resolves with the URL it prints as `listening on URL`. */
import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'

export async function spawnListening(args: string[], label: string): Promise<{ child: ChildProcess; baseUrl: string }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] })
  const baseUrl = await new Promise<string>((resolvePromise, reject) => {
    const lines = createInterface({ input: child.stdout! })
    const timer = setTimeout(() => reject(new Error(`${label} did not start within 30 s`)), 30_000)
    lines.on('line', line => {
      const match = /listening on (\S+)/.exec(line)
      if (match) {
        clearTimeout(timer)
        resolvePromise(match[1])
      }
    })
    child.once('exit', code => {
      clearTimeout(timer)
      reject(new Error(`${label} exited with ${code} before listening`))
    })
  })
  return { child, baseUrl }
}
