import { describe, expect, it } from '@jest/globals'
import { binarySd, instancesNeeded, instancesToResolve } from '../../src/stats/power.js'

describe('instancesNeeded', () => {
  it('matches the hand computation n = ceil((z * sd / (delta + m))^2)', () => {
    // z(0.975) = 1.959964; sd = sqrt(0.1); m = 0.05 -> (1.959964 * 0.316228 / 0.05)^2 = 153.66
    expect(instancesNeeded({ sd: binarySd(0.1), delta: 0, margin: 0.05, confidence: 0.95 })).toBe(154)
    // Halving the margin quadruples n.
    expect(instancesNeeded({ sd: binarySd(0.1), delta: 0, margin: 0.025, confidence: 0.95 })).toBe(615)
  })

  it('uses the expected delta and refuses what no sample size can reach', () => {
    expect(instancesNeeded({ sd: 0.3, delta: 0.02, margin: 0.05, confidence: 0.95 })).toBe(71)
    expect(instancesNeeded({ sd: 0.3, delta: -0.05, margin: 0.05, confidence: 0.95 })).toBeNull()
    expect(instancesNeeded({ sd: 0, delta: 0, margin: 0.05, confidence: 0.95 })).toBe(1)
  })

  it('binary sd shrinks with a non-zero delta', () => {
    expect(binarySd(0.2, 0.1)).toBeCloseTo(Math.sqrt(0.19), 12)
  })
})

describe('instancesToResolve', () => {
  it('is the same relation as instancesNeeded, read from a measured interval (z * sd = half-width * sqrt(n))', () => {
    const z = 1.959963984540054
    const sd = 0.3
    const n = 50
    const halfWidth = (z * sd) / Math.sqrt(n)
    const fromPlan = instancesNeeded({ sd, delta: 0.01, margin: 0.02, confidence: 0.95 }) as number
    expect(Math.abs(instancesToResolve(n, halfWidth, 0.03) - fromPlan)).toBeLessThanOrEqual(1)
    expect(fromPlan).toBe(385)
  })

  it('always asks for more instances than were measured', () => {
    expect(instancesToResolve(100, 0.001, 0.5)).toBe(101)
  })
})
