// The TypeScript ECE and Brier against HELM's own calibration code (scripts/holistic/ece-reference.py,
// run in the HELM 0.5.16 venv) on the committed HELM runs and on random lists that exercise the
// equal-mass bins (ties, uneven parts, fewer records than bins).
import { expect, test } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { brierScore, expectedCalibrationError } from '../../src/holistic/calibration.js'
import { readProbabilityRecords } from '../../src/holistic/read-probabilities.js'
import { createRandom } from '../../src/stats/random.js'

const ROOT = join(import.meta.dirname, '..', '..')
const PYTHON = join(ROOT, '.venv', 'bin', 'python')
const SCRIPT = join(ROOT, 'scripts', 'holistic', 'ece-reference.py')
const FIXTURES = join(ROOT, '__tests__', 'fixtures', 'helm-0.5.16')

interface Reference {
  records: number
  ece_10_bin: number
  brier: number
}

const RUNS = [
  'baseline/runs/gate/simple_mcqa_model=simple_model1',
  'altered/runs/gate/simple_mcqa_model=simple_model1',
  'baseline/runs/gate/simple_mcqa_model=simple_model1,data_augmentation=robustness',
  'altered/runs/gate/simple_mcqa_model=simple_model1,data_augmentation=robustness'
].map(run => join(FIXTURES, run))

test('the committed HELM 0.5.16 runs: ECE and Brier equal HELM ece_10_bin and numpy to 1e-9', async () => {
  const reference = JSON.parse(execFileSync(PYTHON, [SCRIPT, ...RUNS], { encoding: 'utf8' })) as Record<string, Reference>
  for (const run of RUNS) {
    const records = await readProbabilityRecords(join(run, 'per_instance_stats.json'))
    const probs = records.map(r => r.prob)
    const labels = records.map(r => (r.correct ? 1 : 0))
    expect(records.length).toBe(reference[run].records)
    expect(records.length).toBeGreaterThan(0)
    expect(Math.abs(expectedCalibrationError(probs, labels) - reference[run].ece_10_bin)).toBeLessThan(1e-9)
    expect(Math.abs(brierScore(probs, labels) - reference[run].brier)).toBeLessThan(1e-9)
  }
})

test('random lists: the equal-mass bins match calibration.get_ece_em to 1e-9', () => {
  const rng = createRandom(7, 'ece-reference')
  const sets = [3, 9, 10, 11, 57, 300, 1001].flatMap(n => [false, true].map(coarse => ({ n, coarse })))
  const lists = sets.map(({ n, coarse }) => {
    // Coarse probabilities (two decimals) make ties and repeated bin edges.
    const probs = Array.from({ length: n }, () => (coarse ? Math.round(rng.double() * 100) / 100 : rng.double()))
    const labels = probs.map(p => (rng.double() < p * 0.8 ? 1 : 0))
    return { probs, labels }
  })
  const reference = JSON.parse(execFileSync(PYTHON, [SCRIPT, '--stdin'], { input: JSON.stringify(lists), encoding: 'utf8' })) as Reference[]
  lists.forEach(({ probs, labels }, i) => {
    expect(Math.abs(expectedCalibrationError(probs, labels) - reference[i].ece_10_bin)).toBeLessThan(1e-9)
    expect(Math.abs(brierScore(probs, labels) - reference[i].brier)).toBeLessThan(1e-9)
  })
})
