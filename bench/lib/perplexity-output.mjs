// llama.cpp's `llama-perplexity --kl-divergence` summary, read from its stdout: each figure with the
// ± llama.cpp prints beside it (its standard error), and the reference tokens from the base file.
// A figure that is missing or not a number is an error naming the line, never a NaN in a table:
// values such as "-0.000000", "1.2e-05" or "nan" must each be read as what they are.
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

/**
 * Runs llama-perplexity and returns its stdout with the summary complete. llama.cpp's logger writes
 * from a worker thread, and on this build the end of its output is sometimes lost at exit (measured:
 * 1 run in 6 of `--kl-divergence` on the real-engine model ended without its last table rows and
 * its summary, with exit status 0: the NaN the bench once printed). The computation is
 * deterministic, so a run whose summary is incomplete is run again, up to `attempts` times, and
 * still incomplete is an error.
 */
export function runPerplexity(binary, args, attempts = 5) {
  let last = ''
  for (let i = 0; i < attempts; i++) {
    const r = spawnSync(binary, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    if (r.status !== 0)
      throw new Error(`llama-perplexity ${args.join(' ')} exited ${r.status ?? r.signal}: ${`${r.stdout}\n${r.stderr}`.slice(-2000)}`)
    const wantsKld = args.includes('--kl-divergence')
    if (!wantsKld || /^Same top p\s*:/mu.test(r.stdout)) return { out: r.stdout, attempts: i + 1 }
    last = r.stdout
  }
  throw new Error(`llama-perplexity ${args.join(' ')}: its summary was incomplete in ${attempts} runs; the last ended: ${last.slice(-300)}`)
}

const NUMBER = '([-+]?(?:[0-9]*\\.?[0-9]+(?:[eE][-+]?[0-9]+)?|nan|inf))'

function read(out, label, scale) {
  const re = new RegExp(`^\\s*${label}\\s*:\\s*${NUMBER}(?:\\s*±\\s*${NUMBER})?\\s*%?\\s*$`, 'mu')
  const m = re.exec(out)
  if (!m) throw new Error(`llama-perplexity output: no "${label}:" line in its summary`)
  const value = Number(m[1]) / scale
  const se = m[2] === undefined ? null : Number(m[2]) / scale
  if (!Number.isFinite(value)) throw new Error(`llama-perplexity output: "${label}" is ${m[1]}, not a number`)
  return { value, se: se !== null && Number.isFinite(se) ? se : null }
}

/** Mean KLD, same top p (a share) and mean Δp (a probability), each { value, se }. */
export function parseKlDivergence(out) {
  return {
    kld: read(out, 'Mean\\s+KLD', 1),
    top1: read(out, 'Same top p', 100),
    dp: read(out, 'Mean\\s+Δp', 100)
  }
}

/**
 * The running figures after `chunk` windows, from its per-chunk table (chunk, PPL ± se,
 * ln(PPL(Q)/PPL(base)) ± se, KL divergence ± se, Δp RMS ± se, same top p ± se): the figures over
 * the first windows only, for a comparison on fewer windows than the whole text.
 */
export function parseKlDivergenceAt(out, chunk) {
  const row = out.split('\n').find(line => new RegExp(`^\\s*${chunk}\\s+[0-9]`).test(line))
  if (!row) throw new Error(`llama-perplexity output: no row for chunk ${chunk} in its table`)
  const n = row.match(/[-+]?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?|nan|inf/g).map(Number)
  if (n.length !== 11 || n.some(x => !Number.isFinite(x)))
    throw new Error(`llama-perplexity output: chunk ${chunk}'s row is not 11 numbers: ${row}`)
  return { kld: { value: n[5], se: n[6] }, top1: { value: n[9] / 100, se: n[10] / 100 } }
}

/**
 * The tokens llama-perplexity evaluated, from its --kl-divergence-base file ("_logits_", n_ctx,
 * n_vocab, n_chunk, then n_ctx * n_chunk token ids): the exact chunks its KLD is over.
 */
export function readBaseTokens(file) {
  const buf = readFileSync(file)
  if (buf.toString('latin1', 0, 8) !== '_logits_') throw new Error(`${file}: not a llama-perplexity logits file`)
  const nCtx = buf.readUInt32LE(8)
  const nVocab = buf.readInt32LE(12)
  const nChunk = buf.readInt32LE(16)
  const tokens = []
  for (let i = 0; i < nCtx * nChunk; i++) tokens.push(buf.readInt32LE(20 + 4 * i))
  return { nCtx, nVocab, nChunk, tokens }
}

/**
 * llama-perplexity's scored positions as prompts and forced answers: chunk i is tokens
 * [i*n_ctx, (i+1)*n_ctx) with its first token replaced by BOS; the logits at positions
 * n_ctx/2 .. n_ctx-2 are compared, each predicting the next token. As a prompt (BOS and the chunk
 * up to position n_ctx/2) and an answer (the chunk's tokens after it), teacher-forcing the answer
 * gives the distributions at exactly those positions.
 */
export function chunkPrompts({ nCtx, nChunk, tokens }, bos) {
  const first = Math.floor(nCtx / 2)
  const out = []
  for (let i = 0; i < nChunk; i++) {
    const chunk = tokens.slice(i * nCtx, (i + 1) * nCtx)
    chunk[0] = bos
    out.push({ id: `chunk${i}`, text: '', ids: chunk.slice(0, first + 1), reference: chunk.slice(first + 1) })
  }
  return out
}
