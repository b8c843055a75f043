// llama.cpp's llama-server for the fidelity benches: one model file on loopback, one thread and one
// slot (one request at a time, as the fidelity measurement sends them), stopped by the caller.
import { spawn } from 'node:child_process'
import { join } from 'node:path'

export async function startLlamaServer({ engine, modelDir, ftype, port }) {
  const args = ['--model', join(modelDir, `model-${ftype}.gguf`), '--alias', 'addition', '--host', '127.0.0.1', '--port', String(port)]
  args.push('--threads', '1', '--parallel', '1', '--ctx-size', '2048', '--no-webui')
  const child = spawn(engine, args, { stdio: ['ignore', 'ignore', 'pipe'] })
  let log = ''
  child.stderr.on('data', d => (log = (log + d).slice(-4000)))
  // The end of its log, for a caller to show when the server stops answering.
  child.log = () => log
  for (let i = 0; i < 600; i++) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/health`)
      if (r.status === 200) return child
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`llama-server ${ftype} exited ${child.exitCode}: ${log}`)
    await new Promise(r => setTimeout(r, 100))
  }
  child.kill('SIGTERM')
  throw new Error(`llama-server ${ftype} not ready: ${log}`)
}
