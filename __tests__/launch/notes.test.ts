/**
 * src/launch/notes.ts: the quality half's schedule note says what happened to the quality half and
 * nothing about the load half, which reports its own schedule (swapped between blocks, or periods).
 */
import { describe, expect, it } from '@jest/globals'
import { scheduleNotes } from '../../src/launch/notes.js'
import type { LaunchManifest } from '../../src/model/launch-record.js'

describe('scheduleNotes', () => {
  it('is empty when both sides ran at once', () => {
    expect(scheduleNotes('concurrent', null)).toEqual([])
  })

  it('names each side’s period and claims nothing about the load half', () => {
    const launch = {
      schedule: 'sequential',
      sides: {
        baseline: { side: 'baseline', started_at: '2026-12-06T03:00:00Z', stop: { stopped_at: '2026-12-06T03:01:00Z' } },
        candidate: { side: 'candidate', started_at: '2026-12-06T03:01:05Z', stop: null }
      }
    } as unknown as LaunchManifest
    const [note, ...rest] = scheduleNotes('sequential', launch)
    expect(rest).toEqual([])
    expect(note).toContain('baseline up 2026-12-06T03:00:00Z to 2026-12-06T03:01:00Z; candidate up 2026-12-06T03:01:05Z to unknown')
    expect(note).toContain('not drift between the two periods')
    expect(note).not.toMatch(/load (half|measurement)|block|interleave/i)
  })
})
