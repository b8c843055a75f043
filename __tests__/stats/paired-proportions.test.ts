import { describe, expect, it } from '@jest/globals'
import { normalQuantile } from '../../src/stats/normal.js'
import { newcombeInterval, tangoInterval, tangoRestrictedLossRate, tangoScore, wilsonInterval } from '../../src/stats/paired-proportions.js'

const Z95 = 1.959963984540054

describe('normalQuantile', () => {
  it('gives the familiar critical values', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(Z95, 14)
    expect(normalQuantile(0.5)).toBe(0)
    expect(normalQuantile(0.995)).toBeCloseTo(2.5758293035489004, 13)
    expect(normalQuantile(1e-10)).toBeCloseTo(-6.361340902404056, 11)
  })
})

describe('wilsonInterval', () => {
  it('matches the closed form', () => {
    // 7 of 20: centre (7 + z^2/2)/(20 + z^2), half z sqrt(7*13/20 + z^2/4)/(20 + z^2).
    const z2 = Z95 * Z95
    const centre = (7 + z2 / 2) / (20 + z2)
    const half = (Z95 * Math.sqrt((7 * 13) / 20 + z2 / 4)) / (20 + z2)
    const [low, high] = wilsonInterval(7, 20, Z95)
    expect(low).toBeCloseTo(centre - half, 15)
    expect(high).toBeCloseTo(centre + half, 15)
  })
})

describe('newcombeInterval (method 10)', () => {
  it('reproduces the published Cavo et al. (2012) example', () => {
    // Fagerland, Lydersen & Laake, "Statistical Analysis of Contingency Tables" (2017), ch. 8:
    // complete response before/after consolidation therapy, table [[59, 6], [16, 80]]: the Newcombe
    // square-and-add interval is -0.0621 (95% CI -0.1186 to -0.0046) (also the expected output in
    // the R package contingencytables' tests). Row = first measurement = our candidate.
    const [low, high] = newcombeInterval({ both: 59, wins: 6, losses: 16, neither: 80 }, 0.95)
    expect(low).toBeCloseTo(-0.1186, 4)
    expect(high).toBeCloseTo(-0.0046, 4)
  })

  it('mirrors when wins and losses swap', () => {
    const [low, high] = newcombeInterval({ both: 30, wins: 4, losses: 11, neither: 55 }, 0.95)
    const [mirrorLow, mirrorHigh] = newcombeInterval({ both: 30, wins: 11, losses: 4, neither: 55 }, 0.95)
    expect(mirrorLow).toBeCloseTo(-high, 14)
    expect(mirrorHigh).toBeCloseTo(-low, 14)
  })

  it('ignores a weak positive association (0 <= eh - fg <= N/2): plain square-and-add', () => {
    // e = 2, f = 3, g = 3, h = 5: eh - fg = 1 <= 6.5, so phi = 0.
    const [l1, u1] = wilsonInterval(5, 13, Z95)
    const [l2, u2] = wilsonInterval(5, 13, Z95)
    const p = 5 / 13
    const [low, high] = newcombeInterval({ both: 2, wins: 3, losses: 3, neither: 5 }, 0.95)
    expect(low).toBeCloseTo(-Math.sqrt((p - l1) ** 2 + (u2 - p) ** 2), 14)
    expect(high).toBeCloseTo(Math.sqrt((p - l2) ** 2 + (u1 - p) ** 2), 14)
  })
})

describe('tangoInterval', () => {
  /** Multinomial log-likelihood with p_wins = q + diff, p_losses = q, concordant share 1 - 2q - diff. */
  function logLikelihood(wins: number, losses: number, n: number, diff: number, q: number): number {
    const concordant = n - wins - losses
    const pw = q + diff
    const rest = 1 - 2 * q - diff
    if (pw < 0 || q < 0 || rest < 0) return -Infinity
    const term = (count: number, p: number) => (count === 0 ? 0 : count * Math.log(p))
    return term(wins, pw) + term(losses, q) + term(concordant, rest)
  }

  /** Maximise over q by golden-section search on the feasible range. */
  function bruteForceMle(wins: number, losses: number, n: number, diff: number): number {
    let low = Math.max(0, -diff)
    let high = (1 - diff) / 2
    const ratio = (Math.sqrt(5) - 1) / 2
    for (let i = 0; i < 200; i++) {
      const a = high - ratio * (high - low)
      const b = low + ratio * (high - low)
      if (logLikelihood(wins, losses, n, diff, a) < logLikelihood(wins, losses, n, diff, b)) low = a
      else high = b
    }
    return (low + high) / 2
  }

  it('uses the constrained maximum-likelihood estimate', () => {
    for (const [w, l, n] of [
      [6, 16, 161],
      [1, 7, 21],
      [0, 5, 200],
      [40, 20, 160],
      [3, 0, 50]
    ]) {
      for (const diff of [-0.3, -0.05, 0, 0.02, 0.2]) {
        expect(tangoRestrictedLossRate(w, l, n, diff)).toBeCloseTo(bruteForceMle(w, l, n, diff), 7)
      }
    }
  })

  it('has endpoints where the score statistic equals -+z', () => {
    // Independent form of the statistic (Tango 1998; Fagerland et al. 2017, eq. 8.x):
    // p21 = (sqrt(B^2 - 4AC) - B) / 2A, A = 2N, B = -n12 - n21 + (2N - n12 + n21) d, C = -n21 d (1 - d).
    const score = (n12: number, n21: number, N: number, d: number) => {
      const A = 2 * N
      const B = -n12 - n21 + (2 * N - n12 + n21) * d
      const C = -n21 * d * (1 - d)
      const p21 = (Math.sqrt(B * B - 4 * A * C) - B) / (2 * A)
      return (n12 - n21 - N * d) / Math.sqrt(N * (2 * p21 + d * (1 - d)))
    }
    for (const table of [
      { both: 59, wins: 6, losses: 16, neither: 80 },
      { both: 1, wins: 1, losses: 7, neither: 12 },
      { both: 80, wins: 40, losses: 20, neither: 20 }
    ]) {
      const n = table.both + table.wins + table.losses + table.neither
      const [low, high] = tangoInterval(table, 0.95)
      expect(score(table.wins, table.losses, n, low)).toBeCloseTo(Z95, 8)
      expect(score(table.wins, table.losses, n, high)).toBeCloseTo(-Z95, 8)
      expect(tangoScore(table.wins, table.losses, n, low)).toBeCloseTo(score(table.wins, table.losses, n, low), 10)
      const estimate = (table.wins - table.losses) / n
      expect(low).toBeLessThan(estimate)
      expect(high).toBeGreaterThan(estimate)
    }
  })

  it('keeps an honest width without discordant pairs: +-z^2/(n + z^2)', () => {
    // With no discordant pair the score equation reduces to n d / (1 - d) = z^2.
    const [low, high] = tangoInterval({ both: 120, wins: 0, losses: 0, neither: 80 }, 0.95)
    const bound = (Z95 * Z95) / (200 + Z95 * Z95)
    expect(high).toBeCloseTo(bound, 12)
    expect(low).toBeCloseTo(-bound, 12)
  })

  it('reaches the ends of [-1, 1] only when every pair moved one way', () => {
    expect(tangoInterval({ both: 0, wins: 30, losses: 0, neither: 0 }, 0.95)[1]).toBe(1)
    expect(tangoInterval({ both: 0, wins: 0, losses: 30, neither: 0 }, 0.95)[0]).toBe(-1)
    const [low, high] = tangoInterval({ both: 0, wins: 29, losses: 0, neither: 1 }, 0.95)
    expect(high).toBeLessThan(1)
    expect(low).toBeGreaterThan(0)
  })

  it('mirrors when wins and losses swap', () => {
    const [low, high] = tangoInterval({ both: 30, wins: 4, losses: 11, neither: 55 }, 0.9)
    const [mirrorLow, mirrorHigh] = tangoInterval({ both: 30, wins: 11, losses: 4, neither: 55 }, 0.9)
    expect(mirrorLow).toBeCloseTo(-high, 12)
    expect(mirrorHigh).toBeCloseTo(-low, 12)
  })
})
