import { expect, it } from '@jest/globals'
import { checkConclusion, exitCode, failsJob } from '../../src/model/publication.js'

it('maps verdicts to check conclusions, inconclusive per the input', () => {
  expect(checkConclusion('pass', 'fail')).toBe('success')
  expect(checkConclusion('fail', 'neutral')).toBe('failure')
  expect(checkConclusion('error', 'neutral')).toBe('failure')
  expect(checkConclusion('inconclusive', 'fail')).toBe('failure')
  expect(checkConclusion('inconclusive', 'neutral')).toBe('neutral')
})

it('fails the job unless the verdict passes or an inconclusive one is neutral', () => {
  expect(failsJob('pass', 'fail')).toBe(false)
  expect(failsJob('fail', 'neutral')).toBe(true)
  expect(failsJob('error', 'neutral')).toBe(true)
  expect(failsJob('inconclusive', 'fail')).toBe(true)
  expect(failsJob('inconclusive', 'neutral')).toBe(false)
})

it('gives the CLI 0 for pass, 1 for fail or inconclusive and 2 for error', () => {
  expect(['pass', 'fail', 'inconclusive', 'error'].map(v => exitCode(v as 'pass'))).toEqual([0, 1, 1, 2])
})
