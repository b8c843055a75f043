/**
 * The coverage study of docs/method.md "Validation": on paired data with a known true delta, the 95%
 * interval must contain it in 94-96% of datasets (n >= 200), and the verdict must be `pass` in at
 * most 2.5% (plus simulation error) of datasets whose true delta is exactly -m.
 *
 * - 0/1 metrics, analytic intervals: computed exactly, by enumerating every 2x2 table with
 *   probability >= 1e-13 (the mass left out is checked to be < 1e-8) and weighting each outcome by
 *   its multinomial probability. This is the limit of infinitely many simulated datasets: no
 *   simulation error. The pass-rate bound then allows 0.31 percentage points over 2.5%, the
 *   1.96-standard-error allowance a 10,000-dataset simulation would have had: 0/1 data are discrete,
 *   and a non-randomised interval's one-sided error oscillates around its nominal value from one
 *   design to the next (Tango's is 2.50% with many discordant pairs, 2.60% at n = 200, 10 pairs).
 * - Bootstrap intervals: simulated, 4,000 datasets each (standard error 0.34 points on coverage,
 *   0.25 points on the pass rate; the pass-rate bound is 2.5% + 3 standard errors = 3.24%), with 500
 *   to 1,000 resamples per dataset instead of 10,000 to stay within the test-time budget. Fewer
 *   resamples only add Monte-Carlo noise to each bound (about 0.12 standard errors of the estimate
 *   at 500), which lowers coverage by under 0.2 points: the check is slightly harder than with
 *   10,000 resamples, not easier.
 *
 * The choice of `interval: auto` for 0/1 metrics (Tango) is made here: see "choosing the default".
 */
import { describe, expect, it } from '@jest/globals'
import { logFactorials } from '../../src/stats/binomial.js'
import { newcombeInterval } from '../../src/stats/paired-proportions.js'
import { estimatePaired } from '../../src/stats/paired.js'
import { createRandom, type Random } from '../../src/stats/random.js'
import type { PairedCluster, StatisticsSettings } from '../../src/stats/types.js'
import { decideVerdict } from '../../src/stats/decide-verdict.js'
import { exp, log, sqrt } from '../../src/stats/math.js'
import { decideExcess, decideSimilarityLoss, excessDisagreement, similarityLoss } from '../../src/stats/noise-floor.js'
import { binaryClusters, settings } from './helpers.js'
import type { FidelityCheck } from '../../src/config/fidelity.js'
import { decideFidelityCheck, type InstanceScores } from '../../src/fidelity/fidelity-stats.js'
import type { InstanceFidelity } from '../../src/fidelity/token-metrics.js'
import { decideRatioBand, ratioOfMeans, ratioOfMeansDelta } from '../../src/stats/mean-ratio.js'

const COVERAGE_BAND: [number, number] = [0.94, 0.96]
const EXACT_PASS_LIMIT = 0.025 + 0.0031
const SIMULATED_DATASETS = 4000
const SIMULATED_PASS_LIMIT = 0.025 + 3 * sqrt((0.025 * 0.975) / SIMULATED_DATASETS)

interface StudyResult {
  coverage: number
  passAtMargin: number
}

/**
 * Exact coverage and pass rate for a 0/1 design with P(win) = pw, P(loss) = pl and the concordant
 * pairs split both/neither with P(both | concordant) = bothShare, using `interval` on each table.
 * `splitMatters` = false enumerates (wins, losses) only, for intervals that ignore the split.
 */
function exactBinaryStudy(
  n: number,
  pw: number,
  pl: number,
  interval: (both: number, wins: number, losses: number, neither: number) => [number, number],
  splitMatters = false,
  bothShare = 0.6
): StudyResult {
  const lf = logFactorials(n)
  const truth = pw - pl
  const cutoff = log(1e-13)
  let covered = 0
  let passed = 0
  let mass = 0
  const logTerm = (count: number, p: number) => (count === 0 ? 0 : count * log(p))
  for (let w = 0; w <= n; w++) {
    for (let l = 0; w + l <= n; l++) {
      const rest = n - w - l
      const logP = lf[n] - lf[w] - lf[l] - lf[rest] + logTerm(w, pw) + logTerm(l, pl) + logTerm(rest, 1 - pw - pl)
      if (logP < cutoff) continue
      const splits: [number, number][] = []
      if (splitMatters) {
        for (let e = 0; e <= rest; e++) {
          const logSplit = lf[rest] - lf[e] - lf[rest - e] + logTerm(e, bothShare) + logTerm(rest - e, 1 - bothShare)
          if (logP + logSplit >= cutoff) splits.push([e, exp(logP + logSplit)])
        }
      } else {
        splits.push([0, exp(logP)])
      }
      for (const [e, p] of splits) {
        const [low, high] = interval(e, w, l, rest - e)
        mass += p
        if (low <= truth && truth <= high) covered += p
        // pass <=> low > -m with m = -truth (decideVerdict's rule; checked end to end below).
        if (low > truth) passed += p
      }
    }
  }
  expect(mass).toBeGreaterThan(1 - 1e-8)
  return { coverage: covered, passAtMargin: passed }
}

/** Tango through the public pipeline: estimatePaired (auto) and decideVerdict. */
function autoPipeline(n: number, pw: number, pl: number): StudyResult {
  const margin = pl - pw
  let passes = 0
  let checked = 0
  const result = exactBinaryStudy(n, pw, pl, (both, wins, losses, neither) => {
    const est = estimatePaired(binaryClusters(both, wins, losses, neither), settings())
    expect(est.ci.method).toBe('tango')
    // The verdict agrees with the rule the study counts (low > truth), table by table.
    const pass = decideVerdict(est, margin, 'higher').verdict === 'pass'
    if (pass !== est.ci.low > pw - pl) throw new Error(`verdict disagrees for ${wins}/${losses}`)
    if (pass) passes++
    checked++
    return [est.ci.low, est.ci.high]
  })
  expect(checked).toBeGreaterThan(0)
  expect(passes).toBeGreaterThanOrEqual(0)
  return result
}

describe('coverage: 0/1 metrics with interval auto (Tango), exact', () => {
  it.each([
    ['few discordant pairs (10 expected), n = 200', 200, 0.02, 0.03],
    ['few discordant pairs (15 expected), n = 500', 500, 0.01, 0.02],
    ['few discordant pairs (15 expected), n = 1000', 1000, 0.005, 0.01],
    ['many discordant pairs (90 expected), n = 200', 200, 0.2, 0.25],
    ['many discordant pairs (220 expected), n = 1000', 1000, 0.1, 0.12]
  ])('%s', (_label, n, pw, pl) => {
    const { coverage, passAtMargin } = autoPipeline(n, pw, pl)
    expect(coverage).toBeGreaterThanOrEqual(COVERAGE_BAND[0])
    expect(coverage).toBeLessThanOrEqual(COVERAGE_BAND[1])
    expect(passAtMargin).toBeLessThanOrEqual(EXACT_PASS_LIMIT)
  })
})

describe('choosing the default for 0/1 metrics', () => {
  // With few discordant pairs, the side that matters for a gate is the lower one: how often the
  // candidate passes when it is exactly m worse. Tango keeps that under 2.5%; Newcombe's method 10
  // and the bootstrap do not (their misses pile up on the lower side), so auto = Tango.
  const tango = (both: number, wins: number, losses: number, neither: number) => {
    const est = estimatePaired(binaryClusters(both, wins, losses, neither), settings({ interval: 'tango' }))
    return [est.ci.low, est.ci.high] as [number, number]
  }
  const newcombe = (both: number, wins: number, losses: number, neither: number) => newcombeInterval({ both, wins, losses, neither }, 0.95)

  it.each([
    ['8 discordant pairs, 1 win : 3 losses', 200, 0.01, 0.03],
    ['8 discordant pairs, 1 win : 7 losses', 200, 0.005, 0.035]
  ])('Newcombe passes too often at delta = -m with %s; Tango does not', (_label, n, pw, pl) => {
    const t = exactBinaryStudy(n, pw, pl, tango, true)
    const nc = exactBinaryStudy(n, pw, pl, newcombe, true)
    expect(t.passAtMargin).toBeLessThanOrEqual(0.025)
    expect(nc.passAtMargin).toBeGreaterThan(EXACT_PASS_LIMIT)
  })

  it('the count bootstrap passes too often at delta = -m with few discordant pairs', () => {
    const rng = createRandom(101, 'study-binary-few')
    const result = simulate(rng, 200, 0.005 - 0.035, settings({ interval: 'bootstrap', resamples: 1000 }), r =>
      binaryDataset(r, 200, 0.005, 0.035)
    )
    expect(result.passAtMargin).toBeGreaterThan(SIMULATED_PASS_LIMIT)
  })
})

/** Draws a 0/1 single-trial dataset with P(win) = pw, P(loss) = pl. */
function binaryDataset(rng: Random, n: number, pw: number, pl: number): PairedCluster[] {
  let wins = 0
  let losses = 0
  let both = 0
  for (let i = 0; i < n; i++) {
    const u = rng.double()
    if (u < pw) wins++
    else if (u < pw + pl) losses++
    else if (rng.double() < 0.6) both++
  }
  return binaryClusters(both, wins, losses, n - wins - losses - both)
}

/**
 * Continuous scores in [0, 1] with many unchanged instances, like F1 or ROUGE: baseline b = u^1.5;
 * with probability 0.3 the candidate answers differently and scores v = w^2, else it scores b.
 * True delta = 0.3 (E[v] - E[b]) = 0.3 (1/3 - 1/2.5) = -0.02.
 */
const CONTINUOUS_DELTA = 0.3 * (1 / 3 - 1 / 2.5)
function continuousDataset(rng: Random, n: number): PairedCluster[] {
  const out: PairedCluster[] = []
  for (let i = 0; i < n; i++) {
    const b = rng.double() ** 1.5
    const c = rng.double() < 0.3 ? rng.double() ** 2 : b
    out.push({ baseline: [b], candidate: [c] })
  }
  return out
}

/**
 * Three trials per instance, 0/1: instance difficulty theta ~ U(0, 1); a baseline trial is correct
 * when u < theta, a candidate trial when u' < 0.94 theta, with u' = u (same sampling luck) in 80% of
 * trials and a fresh uniform otherwise. Trials of one instance are correlated through theta.
 * True delta = E[0.94 theta - theta] = -0.03.
 */
const CLUSTERED_DELTA = -0.03
function clusteredDataset(rng: Random, n: number, trials = 3): PairedCluster[] {
  const out: PairedCluster[] = []
  for (let i = 0; i < n; i++) {
    const theta = rng.double()
    const baseline: number[] = []
    const candidate: number[] = []
    for (let k = 0; k < trials; k++) {
      const u = rng.double()
      const v = rng.double() < 0.8 ? u : rng.double()
      baseline.push(u < theta ? 1 : 0)
      candidate.push(v < 0.94 * theta ? 1 : 0)
    }
    out.push({ baseline, candidate })
  }
  return out
}

function simulate(
  rng: Random,
  n: number,
  truth: number,
  stats: StatisticsSettings,
  draw: (rng: Random) => PairedCluster[]
): StudyResult & { method: string } {
  let covered = 0
  let passed = 0
  let method = ''
  for (let k = 0; k < SIMULATED_DATASETS; k++) {
    // Each dataset's bootstrap gets its own seed, as independent runs of the gate would.
    const est = estimatePaired(draw(rng), { ...stats, seed: k })
    method = est.ci.method
    if (est.ci.low <= truth && truth <= est.ci.high) covered++
    if (decideVerdict(est, -truth, 'higher').verdict === 'pass') passed++
  }
  expect(n).toBeGreaterThanOrEqual(200)
  return { coverage: covered / SIMULATED_DATASETS, passAtMargin: passed / SIMULATED_DATASETS, method }
}

describe('coverage: bootstrap intervals, simulated', () => {
  it('0/1 metric, many discordant pairs, count bootstrap (interval: bootstrap)', () => {
    const rng = createRandom(102, 'study-binary-many')
    const result = simulate(rng, 200, 0.2 - 0.25, settings({ interval: 'bootstrap', resamples: 1000 }), r =>
      binaryDataset(r, 200, 0.2, 0.25)
    )
    expect(result.method).toBe('bootstrap-counts')
    expect(result.coverage).toBeGreaterThanOrEqual(COVERAGE_BAND[0])
    expect(result.coverage).toBeLessThanOrEqual(COVERAGE_BAND[1])
    expect(result.passAtMargin).toBeLessThanOrEqual(SIMULATED_PASS_LIMIT)
  })

  it('continuous scores in [0, 1], n = 200', () => {
    const rng = createRandom(103, 'study-continuous')
    const result = simulate(rng, 200, CONTINUOUS_DELTA, settings({ resamples: 500 }), r => continuousDataset(r, 200))
    expect(result.method).toBe('bootstrap')
    expect(result.coverage).toBeGreaterThanOrEqual(COVERAGE_BAND[0])
    expect(result.coverage).toBeLessThanOrEqual(COVERAGE_BAND[1])
    expect(result.passAtMargin).toBeLessThanOrEqual(SIMULATED_PASS_LIMIT)
  })

  it('clustered trials (3 per instance), n = 200 instances', () => {
    const rng = createRandom(104, 'study-clustered')
    const result = simulate(rng, 200, CLUSTERED_DELTA, settings({ resamples: 500 }), r => clusteredDataset(r, 200))
    expect(result.method).toBe('bootstrap')
    expect(result.coverage).toBeGreaterThanOrEqual(COVERAGE_BAND[0])
    expect(result.coverage).toBeLessThanOrEqual(COVERAGE_BAND[1])
    expect(result.passAtMargin).toBeLessThanOrEqual(SIMULATED_PASS_LIMIT)
  })
})

/**
 * The noise-floor comparison of a traffic gate (docs/method.md "Traffic gates: against the noise
 * floor"): simulated answers B1, B2 (the baseline twice) and C on n instances. Each instance has a
 * fragility p (how often the serving stack's numerics change its greedy answer): 70% are stable
 * (p = 0), the rest have p ~ U(0, 0.4), so E[p] = 0.06. B2 differs from B1 with probability p; the
 * candidate has the same noise and, on top, changes an answer that the noise left alone with
 * probability r. Answers are small integers (0 = B1's answer; a change draws one of three others,
 * so B2 and C can also agree with each other while both differ from B1). True excess disagreement
 * = P(C != B1) - P(B2 != B1) = r (1 - E[p]); r is set to give excess 0 or exactly m.
 * The similarity of two different answers is U(0.5, 1) (1 when equal), so the true similarity lost
 * beyond the noise floor is E[d] = 0.25 * excess.
 */
const FRAGILE_SHARE = 0.3
const MEAN_FRAGILITY = FRAGILE_SHARE * 0.2
function noiseFloorDataset(rng: Random, n: number, excess: number): { noise: number[]; change: number[]; floor: number[]; kept: number[] } {
  const r = excess / (1 - MEAN_FRAGILITY)
  const noise: number[] = []
  const change: number[] = []
  const floor: number[] = []
  const kept: number[] = []
  const other = (): number => 1 + Math.floor(rng.double() * 3)
  for (let i = 0; i < n; i++) {
    const p = rng.double() < FRAGILE_SHARE ? rng.double() * 0.4 : 0
    const b2 = rng.double() < p ? other() : 0
    const noisy = rng.double() < p
    const c = noisy || rng.double() < r ? other() : 0
    noise.push(b2 !== 0 ? 1 : 0)
    change.push(c !== 0 ? 1 : 0)
    floor.push(b2 === 0 ? 1 : 0.5 + 0.5 * rng.double())
    kept.push(c === 0 ? 1 : 0.5 + 0.5 * rng.double())
  }
  return { noise, change, floor, kept }
}

describe('coverage: the noise-floor comparison (traffic gates), simulated', () => {
  const MARGIN = 0.05
  // Measured (4,000 datasets each): coverage 95.2% / 95.6% (n = 200 / 500, excess 0) and
  // 95.6% / 94.9% (excess m); pass at the margin 1.7% / 2.7%.
  it.each([
    ['excess 0, n = 200', 200, 0, 201],
    ['excess 0, n = 500', 500, 0, 202],
    ['excess exactly m, n = 200', 200, MARGIN, 203],
    ['excess exactly m, n = 500', 500, MARGIN, 204]
  ])('excess disagreement (Tango), %s', (_label, n, excess, seed) => {
    const rng = createRandom(seed, 'study-noise-floor')
    let covered = 0
    let passed = 0
    for (let k = 0; k < SIMULATED_DATASETS; k++) {
      const data = noiseFloorDataset(rng, n, excess)
      const est = excessDisagreement(data.noise, data.change, settings())
      expect(est.ci.method).toBe('tango')
      if (est.ci.low <= excess && excess <= est.ci.high) covered++
      if (decideExcess(est, MARGIN).verdict === 'pass') passed++
    }
    expect(covered / SIMULATED_DATASETS).toBeGreaterThanOrEqual(COVERAGE_BAND[0])
    expect(covered / SIMULATED_DATASETS).toBeLessThanOrEqual(COVERAGE_BAND[1])
    // Pass at the margin counts only where the truth is the margin (at excess 0 passing is right).
    if (excess === MARGIN) expect(passed / SIMULATED_DATASETS).toBeLessThanOrEqual(SIMULATED_PASS_LIMIT)
  })

  // The similarity lost beyond the noise floor is zero on most instances and skewed on the rest;
  // the percentile bootstrap under-covers it at these sizes (measured with 4,000 datasets and 500
  // resamples: coverage 93.8-94.5%, pass at the margin 3.2-3.4%; at n = 1,000, 2,000 datasets:
  // 94.95% and 2.6%), which misses the targets at the sizes of most sets. So the
  // similarity row is shown but not gated by default (docs/method.md); this pins what it does.
  it.each([
    ['n = 200', 200, 205],
    ['n = 500', 500, 206]
  ])('similarity lost (bootstrap), excess exactly m, %s: measured, reported by default', (_label, n, seed) => {
    const rng = createRandom(seed, 'study-noise-floor-similarity')
    const datasets = 1000
    const lost = 0.25 * MARGIN
    let covered = 0
    let passed = 0
    for (let k = 0; k < datasets; k++) {
      const data = noiseFloorDataset(rng, n, MARGIN)
      const sim = similarityLoss(data.floor, data.kept, settings({ resamples: 500, seed: k }))
      expect(sim.ci.method).toBe('bootstrap')
      if (sim.ci.low <= -lost && -lost <= sim.ci.high) covered++
      if (decideSimilarityLoss(sim, lost).verdict === 'pass') passed++
    }
    expect(covered / datasets).toBeGreaterThanOrEqual(0.92)
    expect(passed / datasets).toBeLessThanOrEqual(0.05)
  })
})

/**
 * The targets of a simulated study with `datasets` datasets: at n >= 500 coverage in 94-96% (with
 * half a point of simulation allowance each way: 2,000 datasets have a standard error of 0.49
 * points) and pass at the margin at most 2.5% + 3 standard errors. At n = 200 the percentile
 * bootstrap of these skewed per-instance values is measured to under-cover slightly (docs/method.md
 * "Validation"): the test pins what it does there (coverage >= 92%, pass at the margin <= 5%).
 */
function expectStudy(n: number, coverage: number, passAtMargin: number, datasets: number): void {
  if (n >= 500) {
    expect(coverage).toBeGreaterThanOrEqual(COVERAGE_BAND[0] - 0.005)
    expect(coverage).toBeLessThanOrEqual(COVERAGE_BAND[1] + 0.005)
    expect(passAtMargin).toBeLessThanOrEqual(0.025 + 3 * sqrt((0.025 * 0.975) / datasets))
  } else {
    expect(coverage).toBeGreaterThanOrEqual(0.92)
    expect(passAtMargin).toBeLessThanOrEqual(0.05)
  }
}

/**
 * Token-level fidelity (docs/method.md "Token-level fidelity"): simulated answers with per-token
 * values that are correlated within an instance. Instance i has T_i ~ U{4..33} positions and its
 * own sensitivity: per-position KL = s_i * Exp(1) with s_i = mean * Gamma(2, 1/2) (mean `mean`), and
 * per-position top-1 agreement ~ Bernoulli(q_i) with 1 - q_i ~ U(0, 2 d) (mean d). The A/A floor is
 * drawn the same way with a small mean of its own. The instance's value is its mean over positions,
 * so the truth of the corrected figure perfect + E[candidate - floor] is known exactly: for KL,
 * mean_C - mean_F; for agreement, 1 - d_C + d_F. The real fidelity statistics (cluster bootstrap
 * over instances) decide each dataset.
 */
function fidelityDataset(rng: Random, n: number, kl: { candidate: number; floor: number }, miss: { candidate: number; floor: number }) {
  const exp1 = (): number => -log(1 - rng.double())
  const instance = (klMean: number, missMean: number): InstanceFidelity => {
    const positions = 4 + Math.floor(rng.double() * 30)
    const s = (klMean * (exp1() + exp1())) / 2
    const q = 1 - 2 * missMean * rng.double()
    let klSum = 0
    let agree = 0
    for (let t = 0; t < positions; t++) {
      klSum += s * exp1()
      if (rng.double() < q) agree++
    }
    return {
      positions,
      top1Agreement: agree / positions,
      klMean: klSum / positions,
      klMax: 0,
      deltaPMean: 0,
      restMassMean: 0,
      firstDivergence: null
    }
  }
  const rows: InstanceScores[] = []
  for (let i = 0; i < n; i++) {
    rows.push({
      id: `i${i}`,
      candidate: instance(kl.candidate, miss.candidate),
      floor: instance(kl.floor, miss.floor),
      baselineTokens: 10,
      candidateTokens: 10,
      rerunTokens: 10
    })
  }
  return rows
}

describe('coverage: token-level fidelity intervals (cluster bootstrap, A/A floor), simulated', () => {
  const FLOOR_KL = 0.002
  const FLOOR_MISS = 0.005
  // Each case puts the truth exactly on the check's threshold, so a pass is a false pass.
  it.each([
    ['kld_mean, n = 200', 200, { metric: 'kld_mean', bound: 'max', value: 0.02 } as FidelityCheck, 301],
    ['kld_mean, n = 500', 500, { metric: 'kld_mean', bound: 'max', value: 0.02 } as FidelityCheck, 302],
    ['top1_agreement, n = 200', 200, { metric: 'top1_agreement', bound: 'min', value: 0.98 } as FidelityCheck, 303],
    ['top1_agreement, n = 500', 500, { metric: 'top1_agreement', bound: 'min', value: 0.98 } as FidelityCheck, 304]
  ])('%s, truth exactly at the threshold', (_label, n, check, seed) => {
    const rng = createRandom(seed, 'study-fidelity')
    const kl = check.metric === 'kld_mean' ? { candidate: check.value + FLOOR_KL, floor: FLOOR_KL } : { candidate: 0.01, floor: FLOOR_KL }
    // 1 - d_C + d_F = threshold.
    const missCandidate = check.metric === 'top1_agreement' ? 1 - check.value + FLOOR_MISS : 0.01
    const datasets = 2000
    let covered = 0
    let passed = 0
    for (let k = 0; k < datasets; k++) {
      const rows = fidelityDataset(rng, n, kl, { candidate: missCandidate, floor: FLOOR_MISS })
      const row = decideFidelityCheck(check, rows, settings({ resamples: 500, seed: k }))
      if (row.figure.ci.low <= check.value && check.value <= row.figure.ci.high) covered++
      if (row.verdict === 'pass') passed++
    }
    if (process.env.HELM_GATE_STUDY_PRINT)
      process.stdout.write(`study ${_label}: coverage ${covered / datasets}, pass at the margin ${passed / datasets}\n`)
    expectStudy(n, covered / datasets, passed / datasets, datasets)
  })
})

/**
 * The answer-length ratio (docs/method.md "Answer length"): baseline lengths 5 + Exp(mean 30)
 * tokens, the candidate's the baseline's times exp(N(mu, 0.3^2)) per instance (independent of the
 * length), so the true ratio of means is exp(mu + 0.045) exactly. mu puts it on the band's max.
 * Both intervals: the bootstrap (a gated row) and the log-scale delta method (a row only shown).
 */
describe.each([
  ['paired bootstrap of the ratio of means', 'bootstrap'],
  ['delta method on the log scale', 'delta']
] as const)('coverage: the answer-length ratio (%s), simulated', (_name, method) => {
  it.each([
    ['n = 200', 200, 401],
    ['n = 500', 500, 402]
  ])('truth exactly at max 1.25, %s', (_label, n, seed) => {
    const rng = createRandom(seed, 'study-answer-length')
    const truth = 1.25
    const mu = log(truth) - 0.045
    const normal = (): number => sqrt(-2 * log(1 - rng.double())) * Math.cos(2 * Math.PI * rng.double())
    const datasets = 2000
    let covered = 0
    let passed = 0
    for (let k = 0; k < datasets; k++) {
      const b: number[] = []
      const c: number[] = []
      for (let i = 0; i < n; i++) {
        const length = 5 - 30 * log(1 - rng.double())
        b.push(length)
        c.push(length * exp(mu + 0.3 * normal()))
      }
      const est = method === 'bootstrap' ? ratioOfMeans(b, c, settings({ resamples: 500, seed: k })) : ratioOfMeansDelta(b, c, settings({}))
      if (est.low <= truth && truth <= est.high) covered++
      if (decideRatioBand(est, { min: 0.8, max: truth }).verdict === 'pass') passed++
    }
    if (process.env.HELM_GATE_STUDY_PRINT)
      process.stdout.write(`study ${method} ${_label}: coverage ${covered / datasets}, pass at the margin ${passed / datasets}\n`)
    expectStudy(n, covered / datasets, passed / datasets, datasets)
  })
})
