/** The forest plot's labels: what tells rows apart is kept, and no two rows read the same. */
import { describe, expect, it } from '@jest/globals'
import { fullLabel, plotLabels } from '../../src/report/plot-labels.js'

const RUN = 'simple_mcqa,data_augmentation=robustness'
const row = (metric: string, perturbation: string | null, run = RUN) => ({ run, metric, split: 'test', perturbation })

describe('plotLabels', () => {
  it('keeps short labels whole', () => {
    expect(plotLabels([row('exact_match', null, 'simple_mcqa')], 44)).toEqual(['simple_mcqa · exact_match · test'])
  })

  it('keeps metric, split and perturbation whole and cuts the run in its middle, so the rows of one run differ', () => {
    const rows = [row('exact_match', null), row('exact_match', 'typo'), row('exact_match', 'worst case')]
    const labels = plotLabels(rows, 44)
    expect(new Set(labels).size).toBe(3)
    for (const label of labels) expect(label.length).toBeLessThanOrEqual(44)
    expect(labels[1]).toMatch(/^simple_m.*….*ustness · exact_match · test · typo$/)
    expect(labels[2].endsWith('· exact_match · test · worst case')).toBe(true)
    // The old cut (the first 43 characters) made all three the same.
    expect(new Set(rows.map(r => fullLabel(r).slice(0, 43))).size).toBe(1)
  })

  it('numbers rows that would still read the same', () => {
    const a = row('exact_match', null, 'custom_mcqa,path=a_very_long_folder_name_one/set.jsonl')
    const b = row('exact_match', null, 'custom_mcqa,path=a_very_long_folder_name_two/set.jsonl')
    const labels = plotLabels([a, b], 30)
    expect(labels[0]).not.toBe(labels[1])
    for (const label of labels) expect(label.length).toBeLessThanOrEqual(30)
  })

  it('cuts a tail that leaves the run no room from its middle, within the width', () => {
    const long = row('a_metric_with_a_name_longer_than_the_whole_label', 'and a perturbation')
    const [label] = plotLabels([long], 44)
    expect(label.length).toBe(44)
    expect(label).toContain('…')
  })
})
