// A continuous-batching inference engine simulated in time, with a known truth: the figures a
// load generator measures can be checked against what the engine itself recorded.
//
// Model (time constants in milliseconds):
//   - `maxNumSeqs` slots; requests beyond them wait in a FIFO queue;
//   - one engine step at a time: the step admits waiting requests into free slots (prefill
//     `prefillBaseMs + prefillPerTokenMs * promptTokens` each) and advances every running
//     sequence by one token (decode `decodeBaseMs + decodePerSeqMs * running`, divided by
//     `decodeSpeedup`); at the end of the step each admitted sequence emits its first token and
//     each running one its next token;
//   - a sequence emits exactly `max_tokens` tokens (`eosAfter` ends it earlier unless the
//     request asks for `ignore_eos`).
// Steps are scheduled against absolute target times, so the engine's own CPU work inside a step
// does not stretch it; the real emission time of every token is recorded (`records()`).
const now = () => performance.now()

export const DEFAULTS = {
  maxNumSeqs: 256,
  prefillBaseMs: 1,
  prefillPerTokenMs: 0.002,
  decodeBaseMs: 4,
  decodePerSeqMs: 0.01,
  decodeSpeedup: 1,
  eosAfter: 0
}

export class Engine {
  constructor(options = {}) {
    this.o = { ...DEFAULTS, ...options }
    this.waiting = []
    this.running = []
    this.timer = null
    this.stepEnd = 0
    this.tokensEmitted = 0
    this.steps = 0
    // Slot occupancy while stepping: sum of (sequences in the step x its real duration), and the
    // stepping time; their ratio over maxNumSeqs says how full a client kept the engine.
    this.slotMs = 0
    this.busyMs = 0
    this.stepStart = 0
    this.log = []
    this.keepRecords = true
  }

  /**
   * Adds a sequence. `sink.token(i, time)` is called for each token (i from 0), `sink.finish()`
   * after the last one; `sink.closed()` true drops the sequence (the client went away).
   */
  submit(seq) {
    seq.arrival ??= now()
    seq.emitted = 0
    seq.times = []
    this.waiting.push(seq)
    if (this.timer === null) this.schedule(now())
  }

  schedule(stepStart) {
    const o = this.o
    const free = o.maxNumSeqs - this.running.length
    const admitted = this.waiting.splice(0, Math.max(0, free))
    let ms = 0
    if (this.running.length > 0) ms += (o.decodeBaseMs + o.decodePerSeqMs * this.running.length) / o.decodeSpeedup
    for (const seq of admitted) ms += o.prefillBaseMs + o.prefillPerTokenMs * seq.promptTokens
    if (ms === 0 && admitted.length === 0) {
      this.timer = null
      return
    }
    this.stepStart = stepStart
    this.stepEnd = stepStart + ms
    const delay = Math.max(0, this.stepEnd - now())
    this.timer = setTimeout(() => this.finishStep(admitted), delay)
  }

  finishStep(admitted) {
    this.steps++
    const active = this.running
    const took = now() - this.stepStart
    this.busyMs += took
    this.slotMs += took * (active.length + admitted.length)
    this.running = []
    for (const seq of [...active, ...admitted]) {
      if (seq.sink.closed()) continue
      const t = now()
      seq.times.push(t)
      seq.sink.token(seq.emitted, t)
      seq.emitted++
      this.tokensEmitted++
      const eos = this.o.eosAfter > 0 && !seq.ignoreEos && seq.emitted >= this.o.eosAfter
      if (seq.stallAt !== undefined && seq.emitted >= seq.stallAt) continue
      if (seq.emitted >= seq.maxTokens || eos) {
        if (this.keepRecords) this.log.push(seq)
        seq.sink.finish()
      } else this.running.push(seq)
    }
    // Back to back: the next step starts where this one was planned to end.
    this.schedule(Math.max(this.stepEnd, now() - 1))
  }

  records() {
    return this.log.map(seq => ({
      id: seq.id,
      prompt_tokens: seq.promptTokens,
      output_tokens: seq.emitted,
      arrival_ms: seq.arrival,
      time_origin: performance.timeOrigin,
      token_ms: seq.times,
      ttft_ms: seq.times[0] - seq.arrival
    }))
  }

  reset() {
    this.log = []
    this.tokensEmitted = 0
    this.steps = 0
    this.slotMs = 0
    this.busyMs = 0
  }
}

/**
 * The engine's capacity in output tokens per second: run it with every slot always occupied
 * (a finished sequence is replaced in the same instant, as by an ideal client) for `durationMs`.
 */
export async function measureCapacity(options, { promptTokens, outputTokens, durationMs }) {
  const engine = new Engine(options)
  engine.keepRecords = false
  let stop = false
  let counting = false
  let tokens = 0
  const add = () => {
    const seq = {
      id: 'capacity',
      promptTokens,
      maxTokens: outputTokens,
      ignoreEos: true,
      sink: {
        closed: () => false,
        token: () => {
          if (counting) tokens++
        },
        finish: () => {
          if (!stop) add()
        }
      }
    }
    engine.submit(seq)
  }
  for (let i = 0; i < engine.o.maxNumSeqs; i++) add()
  // Let the batch reach its steady state (staggered finishes) before counting.
  await new Promise(r => setTimeout(r, durationMs / 2))
  counting = true
  const start = now()
  await new Promise(r => setTimeout(r, durationMs))
  const elapsed = now() - start
  counting = false
  stop = true
  return (tokens / elapsed) * 1000
}
