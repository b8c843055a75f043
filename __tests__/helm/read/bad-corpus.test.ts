import { describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { GateError, InputError } from '../../../src/errors.js'
import { discoverRuns } from '../../../src/helm/read/discover.js'
import { readPerInstanceStats } from '../../../src/helm/read/instance-stats.js'
import { collectRequestStates } from '../../../src/helm/read/request-states.js'
import { FIXTURES } from './fixtures.js'

interface Expected {
  reader: 'perInstanceStats' | 'requestStates' | 'discover'
  target: string
  error?: { code: string; field?: string; offset?: number; value?: unknown; messageIncludes?: string }
  ok?: { entries?: number; nonFiniteSums?: number; requestStates?: number; cached?: number }
}

const BAD = join(FIXTURES, 'bad')
const cases = readdirSync(BAD).sort()

/** What the reader produced, reduced to the figures an expected.json can check. */
async function runReader(expected: Expected, target: string): Promise<Record<string, number>> {
  if (expected.reader === 'perInstanceStats') {
    const table = await readPerInstanceStats(target)
    let nonFiniteSums = 0
    for (const series of table.series.values()) for (const v of series.values.values()) if (!Number.isFinite(v.sum)) nonFiniteSums++
    return { entries: table.entries, nonFiniteSums }
  }
  if (expected.reader === 'requestStates') {
    const { summaries } = await collectRequestStates(target)
    return { requestStates: summaries.length, cached: summaries.filter(s => s.cached === true).length }
  }
  return { runs: (await discoverRuns(target)).length }
}

describe('bad-input corpus (__tests__/fixtures/bad)', () => {
  it('has cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(10)
  })

  it.each(cases)('%s', async name => {
    const expected = JSON.parse(readFileSync(join(BAD, name, 'expected.json'), 'utf8')) as Expected
    const target = join(BAD, name, expected.target)
    if (expected.ok) {
      expect(await runReader(expected, target)).toMatchObject(expected.ok)
      return
    }
    let caught: unknown
    try {
      await runReader(expected, target)
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(InputError)
    const error = caught as GateError
    const want = expected.error!
    expect(error.code).toBe(want.code)
    expect(error.location.file).toBeDefined()
    if (want.field !== undefined) expect(error.location.field).toBe(want.field)
    if (want.offset !== undefined) {
      expect(error.location.value).toBe(want.offset)
      expect(error.message).toContain(`at byte ${want.offset}`)
    }
    if (want.value !== undefined) expect(error.location.value).toEqual(want.value)
    if (want.messageIncludes !== undefined) expect(error.message).toContain(want.messageIncludes)
    // One line a user can act on: file, field and value when known.
    expect(error.describe()).toContain(`file: ${error.location.file}`)
  })
})
