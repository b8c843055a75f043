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
// Steps are scheduled against absolute target times (each starts where the previous one was
// planned to end), so neither the engine's own CPU work (writing a chunk per sequence) nor a
// timer that fires late stretches the model's time: the engine catches up. The real emission
// time of every token is recorded (`records()`).
const now = () => performance.now()

// How late the engine may be and still catch up. Timers fire a millisecond or more late and
// writing a chunk for each of 256 sequences takes milliseconds of CPU; giving that time up at
// every step made the served engine slower than its own model (docs/load.md, "Benchmark").
// Later than this the process was starved (a busy shared machine) and the time is given up,
// counted in `lostMs`, rather than emitted as a burst of steps.
export const MAX_CATCH_UP_MS = 50

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
    // Time given up because a step ended more than MAX_CATCH_UP_MS after its planned end.
    this.lostMs = 0
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
    const ms = stepMs(o, this.running.length, admitted)
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
    const late = now() - this.stepEnd
    if (late > MAX_CATCH_UP_MS) this.lostMs += late - MAX_CATCH_UP_MS
    this.schedule(Math.max(this.stepEnd, now() - MAX_CATCH_UP_MS))
  }

  records() {
    return this.log.map(seq => ({
      id: seq.id,
      prompt_tokens: seq.promptTokens,
      output_tokens: seq.emitted,
      arrival_ms: seq.arrival,
      time_origin: performance.timeOrigin,
      token_ms: seq.times,
      ttft_ms: seq.times[0] - seq.arrival,
      ...(seq.request !== undefined ? { request: seq.request } : {})
    }))
  }

  reset() {
    this.log = []
    this.tokensEmitted = 0
    this.steps = 0
    this.slotMs = 0
    this.busyMs = 0
    this.lostMs = 0
  }
}

/** A step's duration: the decode of the running sequences and the prefill of the admitted ones. */
function stepMs(o, running, admitted) {
  let ms = 0
  if (running > 0) ms += (o.decodeBaseMs + o.decodePerSeqMs * running) / o.decodeSpeedup
  for (const seq of admitted) ms += o.prefillBaseMs + o.prefillPerTokenMs * seq.promptTokens
  return ms
}

/**
 * The engine's capacity in output tokens per second: the model run in virtual time (no timers,
 * so a busy machine does not change it) with every slot always occupied, as by an ideal client
 * whose next request is waiting the moment a sequence finishes. Counted over the second half of
 * `cycles` request lifetimes, after the batch has settled. With `concurrency`, that many
 * sequences in the loop instead of every slot: the truth of a closed-loop level (a decode
 * speed-up is not quite the throughput speed-up, because prefill is not sped up).
 */
export function modelCapacity(options, { promptTokens, outputTokens, cycles = 40, concurrency = undefined }) {
  const o = { ...DEFAULTS, ...options }
  const fresh = () => ({ promptTokens, left: outputTokens })
  let running = []
  let waiting = Array.from({ length: Math.min(concurrency ?? o.maxNumSeqs, o.maxNumSeqs) }, fresh)
  let time = 0
  let tokens = 0
  const steps = cycles * outputTokens
  for (let step = 0; step < steps; step++) {
    const admitted = waiting.splice(0, o.maxNumSeqs - running.length)
    const ms = stepMs(o, running.length, admitted)
    const next = []
    for (const seq of [...running, ...admitted]) {
      seq.left--
      if (seq.left > 0) next.push(seq)
      else waiting.push(fresh())
    }
    if (step >= steps / 2) {
      time += ms
      tokens += running.length + admitted.length
    }
    running = next
  }
  return (tokens / time) * 1000
}
