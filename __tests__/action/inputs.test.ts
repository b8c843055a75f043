import { describe, expect, it } from '@jest/globals'
import { readSettings } from '../../src/action/inputs.js'
import { UsageError } from '../../src/errors.js'

const getter = (values: Record<string, string>) => (name: string) => values[name] ?? ''

describe('readSettings', () => {
  it('applies the defaults of action.yml when inputs are empty', () => {
    const settings = readSettings(getter({ 'github-token': 't' }))
    expect(settings).toMatchObject({
      configPath: '.github/helm-gate.yml',
      mode: 'gate',
      comment: true,
      baseline: 'reuse',
      baselineMaxAgeDays: 30,
      retentionDays: 0,
      inconclusive: 'fail',
      shardIndex: 0,
      shardCount: 1,
      frozenConfig: true,
      allowForkLaunch: false
    })
  })

  it('takes baseline-path and candidate-path together, in mode compare only', () => {
    const both = readSettings(getter({ 'github-token': 't', mode: 'compare', 'baseline-path': 'out/b', 'candidate-path': 'out/c' }))
    expect(both).toMatchObject({ baselinePath: 'out/b', candidatePath: 'out/c' })
    expect(readSettings(getter({ 'github-token': 't' }))).toMatchObject({ baselinePath: '', candidatePath: '' })
    const alone = (): unknown => readSettings(getter({ 'github-token': 't', mode: 'compare', 'baseline-path': 'out/b' }))
    expect(alone).toThrow(UsageError)
    expect(alone).toThrow('candidate-path is empty')
    const inGate = (): unknown => readSettings(getter({ 'github-token': 't', 'baseline-path': 'out/b', 'candidate-path': 'out/c' }))
    expect(inGate).toThrow('apply only to mode compare')
  })

  it('reads typed values', () => {
    const settings = readSettings(
      getter({
        mode: 'run',
        'shard-index': '2',
        'shard-count': '3',
        comment: 'false',
        inconclusive: 'neutral',
        'baseline-max-age-days': '7.5'
      })
    )
    expect(settings).toMatchObject({
      mode: 'run',
      shardIndex: 2,
      shardCount: 3,
      comment: false,
      inconclusive: 'neutral',
      baselineMaxAgeDays: 7.5
    })
  })

  it.each([
    [{ mode: 'gates' }, 'mode'],
    [{ comment: 'yes' }, 'comment'],
    [{ 'retention-days': '-1' }, 'retention-days'],
    [{ 'retention-days': '2.5' }, 'retention-days'],
    [{ mode: 'run', 'shard-index': '3', 'shard-count': '3' }, 'shard-index'],
    [{ 'shard-count': '2' }, 'shard-count'],
    [{ inconclusive: 'ignore' }, 'inconclusive'],
    [{ 'baseline-artifact': 'a/b' }, 'baseline-artifact'],
    [{ 'github-token': '' }, 'github-token']
  ])('rejects %j naming the input %s', (values, input) => {
    let caught: unknown
    try {
      readSettings(getter({ 'github-token': 't', ...values }))
    } catch (error) {
      caught = error
    }
    expect(caught).toBeInstanceOf(UsageError)
    expect((caught as UsageError).location.field).toBe(input)
    expect((caught as UsageError).message).toContain(input)
  })
})
