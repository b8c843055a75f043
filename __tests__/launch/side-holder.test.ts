/**
 * holdOnSchedule with servers that are always up (no launcher): the measurements are held in the
 * order they are listed, the quality half (`everySide`) on every side as it comes up, the others
 * only while a launched side is up (never here: they take servers always up in `holdAlwaysUp`).
 */
import { describe, expect, it } from '@jest/globals'
import { holdOnSchedule } from '../../src/launch/side-holder.js'
import type { SideMeasurement } from '../../src/model/measurement.js'
import type { Side } from '../../src/model/verdict.js'

function recorder(name: string, events: string[], everySide = false): SideMeasurement {
  return {
    name,
    everySide,
    hold: async (up: Side[], outputs: Partial<Record<Side, string>>) =>
      void events.push(`${name} ${up.join('+')} ${up.map(side => outputs[side]).join('+')}`),
    holdAlwaysUp: async () => {},
    attach: report => report
  }
}

const SIDES = [
  { side: 'baseline' as const, output: '/out/baseline' },
  { side: 'candidate' as const, output: '/out/candidate' }
]

describe('holdOnSchedule', () => {
  it('sequential: the quality half on each side in turn, with its output folder; nothing launched, nothing seen', async () => {
    const events: string[] = []
    const seen = await holdOnSchedule(null, SIDES, 'sequential', [recorder('quality', events, true), recorder('load', events)])
    expect(events).toEqual(['quality baseline /out/baseline', 'quality candidate /out/candidate'])
    expect(seen).toEqual({})
  })

  it('concurrent: the quality half on both sides at once', async () => {
    const events: string[] = []
    await holdOnSchedule(null, SIDES, 'concurrent', [recorder('quality', events, true), recorder('replay', events)])
    expect(events).toEqual(['quality baseline+candidate /out/baseline+/out/candidate'])
  })
})
