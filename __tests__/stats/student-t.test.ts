import { describe, expect, test } from '@jest/globals'
import { studentTCdf, studentTQuantile, twoSidedT } from '../../src/stats/student-t.js'

describe('Student t', () => {
  // Reference values from R's qt() / scipy.stats.t.ppf.
  test.each([
    [0.975, 1, 12.706204736174705],
    [0.975, 2, 4.302652729911275],
    [0.975, 10, 2.2281388519649385],
    [0.995, 5, 4.032142983557536],
    [0.975, 30, 2.0422724563012373],
    [0.9, 3, 1.6377443536962102]
  ])('quantile %p with %p degrees of freedom', (p, df, expected) => {
    expect(studentTQuantile(p, df)).toBeCloseTo(expected, 9)
    expect(studentTQuantile(1 - p, df)).toBeCloseTo(-expected, 9)
    expect(studentTCdf(expected, df)).toBeCloseTo(p, 10)
  })

  test('approaches the normal quantile for many degrees of freedom', () => {
    expect(twoSidedT(0.95, 1e6)).toBeCloseTo(1.959964, 5)
  })

  test('invalid arguments give NaN, never a number that could pass a check', () => {
    expect(studentTQuantile(0, 3)).toBeNaN()
    expect(studentTQuantile(0.5, 0)).toBeNaN()
  })
})
