// Decides what the fake deployment answers: right or wrong with a controlled accuracy that is
// deterministic per (seed, instance), so two servers with the same seed agree on every instance
// they both get right, and a rerun gives the same answers.
import { createHash } from 'node:crypto'

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'

/** A number in [0, 1) fixed by the seed and the text. */
export function unitHash(seed, text) {
  const digest = createHash('sha256').update(`${seed}\u0000${text}`).digest()
  return digest.readUInt32BE(0) / 2 ** 32
}

// How many times each text has been drawn for noise, so that with a noise seed the n-th asking of
// a prompt gets the same draw on every run whatever order concurrent requests arrive in.
const noiseAskings = new Map()

/**
 * A noise draw in [0, 1): Math.random without a noise seed (a fresh draw on every run), else fixed
 * by the seed, the text and how many times the text was asked before (a rerun repeats it).
 */
export function noiseDraw(noiseSeed, salt, text) {
  if (noiseSeed === null || noiseSeed === undefined) return Math.random()
  const key = `${noiseSeed}\u0000${salt}\u0000${text}`
  const asking = noiseAskings.get(key) ?? 0
  noiseAskings.set(key, asking + 1)
  return unitHash(`${noiseSeed}:${salt}:${asking}`, text)
}

/**
 * @param {{ instance: import('./answer-key.mjs').KeyInstance, exact: boolean } | null} match
 * @param {{ seed: number, accuracy: number, perturbedAccuracy: number, noise: number, noiseSeed: number | null }} behaviour
 * @returns {{ text: string, correct: boolean | null }}
 */
export function answerFor(match, behaviour) {
  if (!match) return { text: 'unknown', correct: null }
  const { instance, exact } = match
  // Perturbed copies get their own draw (salted), so a candidate can be made worse on them only.
  const accuracy = exact ? behaviour.accuracy : behaviour.perturbedAccuracy
  const text = exact ? instance.input : `perturbed\u0000${instance.input}`
  const draw =
    behaviour.noise > 0 && noiseDraw(behaviour.noiseSeed, 'noise', text) < behaviour.noise
      ? noiseDraw(behaviour.noiseSeed, 'answer', text)
      : unitHash(behaviour.seed, text)
  const correct = draw < accuracy
  return { text: textFor(instance, correct), correct }
}

function textFor(instance, correct) {
  const count = instance.references.length
  const chosen = correct ? instance.correct : wrongIndex(instance)
  if (instance.method.startsWith('multiple_choice')) return LETTERS[chosen] ?? 'Z'
  if (chosen < 0 || chosen >= count) return 'none of these'
  return instance.references[chosen]
}

function wrongIndex(instance) {
  for (let step = 1; step < instance.references.length; step += 1) {
    const index = (instance.correct + step) % instance.references.length
    if (instance.references[index] !== instance.references[instance.correct]) return index
  }
  // Generation with a single reference: an answer no metric can count as right.
  return instance.method.startsWith('multiple_choice') ? (instance.correct + 1) % LETTERS.length : -1
}
