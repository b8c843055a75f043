/**
 * mulberry32: a small deterministic generator for test and benchmark data (the fake engine's error
 * and stall choices, the bench's synthetic runs), so they repeat with the seed. Not the gate's
 * resampling generator (src/stats/random.ts), which is a named portable one.
 */
export function mulberry32(seed) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
