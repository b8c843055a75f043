#!/usr/bin/env node
// The error-rate and efficiency study of sequential verdicts (issue 35 item 3, docs/method.md
// "Sequential verdicts"): simulated accuracy gates, 0/1 outcomes per instance on both sides with
// flips, N instances, a look after every stage, true drops of 0, margin/2, margin and 2 x margin.
// For each design it prints, in the same run, three rules:
//   sequential   the confidence sequence of src/sequential (betting, Waudby-Smith and Ramdas),
//                stopping at the first look whose interval clears or is wholly beyond -margin
//   naive        the same looks with the fixed-n 95% interval the gate uses today (Tango's, the
//                `interval: auto` of 0/1 metrics): stop when it clears -margin or is wholly beyond
//   fixed        the fixed design: Tango's interval once, at the budget
// the pass, fail and inconclusive rates and the average sample number (ASN). At the margin exactly
// a pass is a false pass: it must stay at or below 2.5%.
// Two models of what the gate's question is:
//   superpopulation  each gate's N instances are fresh independent draws (the fixed gate's
//                    question: the change's effect on instances like these); the sequence
//                    without the finite-population correction
//   finite           a frozen set of N instances whose own mean difference is exactly the true
//                    drop, measured in a seeded random order (the question: what the whole set
//                    would show); the sequence with the finite-population correction, and the
//                    one without it on the same orders
//
//   npx tsc -p bench/sequential-tsconfig.json && node bench/sequential-study.mjs \
//     [--gates 2000] [--instances 500] [--seed 1]
import { parseArgs } from 'node:util'
import { runSequentialGate, sequentialOrder } from '../.tmp/sequential-study/sequential/sequential-verdict.js'
import { everyLooks } from '../.tmp/sequential-study/sequential/look-schedule.js'
import { tangoInterval } from '../.tmp/sequential-study/stats/paired-proportions.js'
import { createRandom } from '../.tmp/sequential-study/stats/random.js'

const { values } = parseArgs({
  options: {
    gates: { type: 'string', default: '2000' },
    instances: { type: 'string', default: '500' },
    seed: { type: 'string', default: '1' }
  }
})
const GATES = Number(values.gates)
const N = Number(values.instances)
const SEED = Number(values.seed)

// margin, look step, flip rate (discordant pairs): margin 0.05 needs more flips for a drop of 0.1.
const DESIGNS = [
  { margin: 0.02, step: 25, flips: 0.12 },
  { margin: 0.05, step: 25, flips: 0.1 },
  { margin: 0.05, step: 50, flips: 0.2 }
]

/** Per-instance differences: +1 a win, -1 a loss, 0 concordant; wins - losses = -drop * flips share. */
function rates(drop, flips) {
  return { win: (flips - drop) / 2, loss: (flips + drop) / 2 }
}

function drawIid(random, n, { win, loss }) {
  return Array.from({ length: n }, () => {
    const u = random.double()
    return u < loss ? -1 : u < loss + win ? 1 : 0
  })
}

/** A frozen set whose mean difference is exactly -drop: round(N * rate) losses and wins. */
function frozenSet(n, drop, flips) {
  const losses = Math.round((n * (flips + drop)) / 2)
  const wins = losses - Math.round(n * drop)
  return Array.from({ length: n }, (_, i) => (i < losses ? -1 : i < losses + wins ? 1 : 0))
}

function naiveGate(diffs, looks, margin, budget) {
  let wins = 0
  let losses = 0
  let counted = 0
  for (const n of looks) {
    for (; counted < n; counted++) {
      if (diffs[counted] > 0) wins++
      else if (diffs[counted] < 0) losses++
    }
    const [low, high] = tangoInterval({ both: 0, wins, losses, neither: n - wins - losses }, 0.95)
    if (high < -margin) return { verdict: 'fail', n }
    if (low > -margin) return { verdict: 'pass', n }
    if (n === budget) return { verdict: 'inconclusive', n }
  }
}

function tally() {
  return { pass: 0, fail: 0, inconclusive: 0, spent: 0, covered: 0 }
}
function add(t, verdict, n) {
  t[verdict]++
  t.spent += n
}
const pct = (k, total) => `${((100 * k) / total).toFixed(2)}%`.padStart(7)

function print(label, t, gates, budget) {
  const asn = t.spent / gates
  console.log(
    `  ${label.padEnd(22)} pass ${pct(t.pass, gates)}  fail ${pct(t.fail, gates)}  inconclusive ${pct(t.inconclusive, gates)}  ASN ${asn.toFixed(1).padStart(5)}  (${(budget / asn).toFixed(2)}x fewer than fixed)`
  )
}

const started = Date.now()
console.log(`sequential verdicts study: ${GATES} gates per row, N = ${N}, seed ${SEED}, alpha 0.05 (2.5% each side)`)
for (const { margin, step, flips } of DESIGNS) {
  const schedule = everyLooks(step, N)
  const drops = [0, margin / 2, margin, 2 * margin]
  console.log(`\nmargin ${margin}, looks every ${step} (${schedule.looks.length} looks), flips ${flips * 100}% of instances`)
  for (const model of ['superpopulation', 'finite']) {
    for (const drop of drops) {
      const random = createRandom(SEED, `study:${model}:${margin}:${drop}`)
      const seq = tally()
      const seqWr = tally()
      const naive = tally()
      const fixed = tally()
      const frozen = model === 'finite' ? frozenSet(N, drop, flips) : null
      // The truth: the frozen set's own mean (N * drop rounded to whole flips), or the drop.
      const truth = frozen ? frozen.reduce((a, b) => a + b, 0) / N : -drop
      for (let g = 0; g < GATES; g++) {
        let diffs
        if (frozen) {
          const order = sequentialOrder(N, SEED * 1_000_003 + g)
          diffs = order.map(i => frozen[i])
        } else diffs = drawIid(random, N, rates(drop, flips))
        const options = frozen ? { population: N } : {}
        const out = runSequentialGate(diffs, schedule, margin, options)
        add(seq, out.verdict, out.stoppedAt)
        if (out.interval.low <= truth + 1e-12 && truth - 1e-12 <= out.interval.high) seq.covered++
        if (frozen) {
          const wr = runSequentialGate(diffs, schedule, margin)
          add(seqWr, wr.verdict, wr.stoppedAt)
        }
        const nv = naiveGate(diffs, schedule.looks, margin, N)
        add(naive, nv.verdict, nv.n)
        const fx = naiveGate(diffs, [N], margin, N)
        add(fixed, fx.verdict, fx.n)
      }
      const atMargin = drop === margin ? '   <- at the margin: pass = false pass' : ''
      console.log(` ${model}, true drop ${-truth}${atMargin}`)
      print(frozen ? 'sequential (finite N)' : 'sequential', seq, GATES, N)
      if (frozen) print('sequential (no corr.)', seqWr, GATES, N)
      print('naive peeking (Tango)', naive, GATES, N)
      print('fixed n = N (Tango)', fixed, GATES, N)
      console.log(`  sequence interval at the stop covers the true drop in ${pct(seq.covered, GATES)} of gates`)
    }
  }
}
console.log(`\n${((Date.now() - started) / 1000).toFixed(1)} s`)
