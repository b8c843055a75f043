/**
 * The holistic grid on real HELM 0.5.16 output (the fixture suites: simple_mcqa, its robustness
 * run, synthetic_reasoning), built from compareOutputs' own rows, and the fail-closed rule for
 * required cells.
 */
import { describe, expect, it } from '@jest/globals'
import { parseGateConfig } from '../../src/config/load.js'
import { compareOutputs } from '../../src/gate/compare.js'
import { holisticGrid, withHolisticGrid } from '../../src/holistic/grid.js'
import type { HolisticCell } from '../../src/model/holistic-grid.js'
import { renderGridMarkdown } from '../../src/report/markdown-grid.js'
import { renderMarkdown } from '../../src/report/markdown.js'
import { ALTERED_SUITE, BASELINE_SUITE } from '../helm/read/fixtures.js'

const GATE = `runs:
  - {entry: simple_mcqa, metric: exact_match, max_drop: 0.5}
  - {entry: "simple_mcqa:data_augmentation=robustness", metric: exact_match, max_drop: 0.5, perturbations: gate}
  - {entry: "synthetic_reasoning:mode=pattern_match", metric: exact_match, split: test, max_drop: 0.5, perturbations: report}
statistics: {resamples: 500}
`

const cellOf = (cells: HolisticCell[], family: string): HolisticCell => cells.find(c => c.family === family)!

describe('the holistic grid', () => {
  it('has one row per entry and one cell per family, each from the report rows of that entry', async () => {
    const config = parseGateConfig(GATE, 'gate.yml')
    const report = await compareOutputs(BASELINE_SUITE, ALTERED_SUITE, config)
    const grid = holisticGrid(report, config)
    expect(grid.rows.map(r => r.entry)).toEqual([
      'simple_mcqa',
      'simple_mcqa:data_augmentation=robustness',
      'synthetic_reasoning:mode=pattern_match'
    ])
    expect(grid.rows.every(r => r.cells.map(c => c.family).join() === grid.families.filter(f => f !== 'fidelity').join())).toBe(true)

    const [mcqa, robust, reasoning] = grid.rows
    // Accuracy: the entry's clean rows, with their own verdict.
    const clean = report.comparisons.filter(c => c.entry === 'simple_mcqa' && c.perturbation === null)
    expect(cellOf(mcqa.cells, 'accuracy')).toMatchObject({ state: 'gated', verdict: clean[0].verdict })
    // Robustness: blank where no augmentation was asked for, gated where its perturbed rows gate.
    expect(cellOf(mcqa.cells, 'robustness')).toMatchObject({
      state: 'blank',
      reason: 'perturbation not configured (data_augmentation=robustness)'
    })
    const perturbed = report.comparisons.filter(c => c.entry === 'simple_mcqa:data_augmentation=robustness' && c.perturbation !== null)
    expect(perturbed.length).toBeGreaterThan(0)
    expect(cellOf(robust.cells, 'robustness')).toMatchObject({ state: 'gated', reason: `${perturbed.length} perturbed rows` })
    expect(cellOf(robust.cells, 'fairness').state).toBe('blank')
    // Calibration: not asked for anywhere, and no API is named: blank with the key to set.
    expect(cellOf(reasoning.cells, 'calibration')).toMatchObject({ state: 'blank', reason: 'not checked (runs[i].calibration)' })
    expect(cellOf(mcqa.cells, 'bias').reason).toContain('computed over a whole run')
    expect(cellOf(mcqa.cells, 'toxicity')).toMatchObject({ state: 'blank', reason: "not in this run's metric set" })
    // Efficiency and answer length: the information rows, shown only.
    const runOf = report.comparisons.find(c => c.entry === 'synthetic_reasoning:mode=pattern_match')!.run
    expect(cellOf(reasoning.cells, 'efficiency').state).toBe(report.efficiency.some(e => e.run === runOf) ? 'shown' : 'blank')
    expect(cellOf(reasoning.cells, 'answer_length').state).toBe(
      (report.answer_lengths ?? []).some(r => r.run === runOf) ? 'shown' : 'blank'
    )
    expect(grid.gate).toEqual([
      { family: 'fidelity', state: 'blank', verdict: null, reason: 'not configured (fidelity:)', required: false }
    ])
  })

  it('leaves the verdict alone when nothing is required, and shows a compact grid in the comment', async () => {
    const config = parseGateConfig(GATE, 'gate.yml')
    const report = await compareOutputs(BASELINE_SUITE, ALTERED_SUITE, config)
    const gridded = withHolisticGrid(report, config)
    expect(gridded.verdict).toBe(report.verdict)
    expect(gridded.errors).toEqual(report.errors)
    const md = renderMarkdown(gridded, { maxLength: 65000 })
    expect(md).toContain('<summary>Holistic grid: ')
    expect(md).toContain('| Entry | acc | cal | rob | fair | bias | tox | eff | len |')
    expect(md).toMatch(/\| simple\\_mcqa \| (✅|❌|🟡|⛔) \| – \| – \|/u)
    expect(md).toContain("- tox: not in this run's metric set (every entry)")
    expect(md).toContain(
      '- rob: perturbation not configured \\(data\\_augmentation=robustness\\) (simple\\_mcqa, synthetic\\_reasoning:mode=pattern\\_match)'
    )
  })

  it('makes the verdict error when a required cell is not gated at run time (a run that did not complete)', async () => {
    const config = parseGateConfig(`${GATE}require: [accuracy]\n`, 'gate.yml')
    const report = await compareOutputs(BASELINE_SUITE, ALTERED_SUITE, config)
    // What a side whose robustness run failed leaves: no rows of that entry.
    const lost = { ...report, comparisons: report.comparisons.filter(c => c.entry !== 'simple_mcqa:data_augmentation=robustness') }
    const gridded = withHolisticGrid(lost, config)
    expect(gridded.verdict).toBe('error')
    expect(gridded.errors.at(-1)).toEqual({
      code: 'holistic.required_blank',
      message:
        'required cell accuracy of simple_mcqa:data_augmentation=robustness: it is blank: no comparison of this entry (see the errors)',
      file: 'gate.yml',
      field: 'require[0]',
      value: 'accuracy'
    })
    expect(gridded.headline).toContain('1 required cell of the holistic grid is not gated')
    const required = cellOf(gridded.holistic!.rows[1].cells, 'accuracy')
    expect(required).toMatchObject({ state: 'blank', required: true })
    expect(renderGridMarkdown(gridded.holistic).join('\n')).toContain('| acc* |')
    // The complete report passes the same requirement.
    expect(withHolisticGrid(report, config).errors).toEqual(report.errors)
  })

  it('escapes entry names: a gate file entry never becomes markup in the comment', () => {
    const grid = {
      families: ['accuracy', 'fidelity'] as const,
      rows: [
        {
          entry: 'x<img src=y>|z',
          cells: [{ family: 'accuracy' as const, state: 'blank' as const, verdict: null, reason: 'a|b <b>', required: false }]
        }
      ],
      gate: [],
      required: []
    }
    const text = renderGridMarkdown({ ...grid, families: [...grid.families] }).join('\n')
    expect(text).not.toContain('<img')
    expect(text).not.toContain('<b>')
    expect(text).toContain('x&lt;img')
  })
})
