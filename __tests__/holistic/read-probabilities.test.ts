// Reading one side's probability records from real HELM 0.5.16 run directories.
import { expect, test } from '@jest/globals'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readProbabilityRecords } from '../../src/holistic/read-probabilities.js'

const RUN = join(import.meta.dirname, '..', 'fixtures', 'helm-0.5.16', 'altered', 'runs', 'gate')

test('a clean and a perturbed run give one record per instance and perturbation', async () => {
  const clean = await readProbabilityRecords(join(RUN, 'simple_mcqa_model=simple_model1', 'per_instance_stats.json'))
  expect(clean).toHaveLength(10)
  expect(clean.every(r => r.perturbation === null && r.prob >= 0 && r.prob <= 1)).toBe(true)
  expect(clean.filter(r => r.correct).length).toBe(7)
  const robust = await readProbabilityRecords(
    join(RUN, 'simple_mcqa_model=simple_model1,data_augmentation=robustness', 'per_instance_stats.json')
  )
  expect(robust).toHaveLength(20)
  expect(new Set(robust.map(r => r.perturbation)).size).toBe(2)
})

test('a fractional exact_match is refused naming the file, the instance and the value', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'holistic-'))
  try {
    const entries = JSON.parse(await readFile(join(RUN, 'simple_mcqa_model=simple_model1', 'per_instance_stats.json'), 'utf8')) as {
      instance_id: string
      stats: { name: { name: string }; sum: number; count: number }[]
    }[]
    const em = entries[0].stats.find(s => s.name.name === 'exact_match')
    if (!em) throw new Error('the fixture has no exact_match')
    em.sum = 0.5
    const file = join(dir, 'per_instance_stats.json')
    await writeFile(file, JSON.stringify(entries))
    await expect(readProbabilityRecords(file)).rejects.toThrow('exact_match is neither 0 nor 1.')
    await expect(readProbabilityRecords(file)).rejects.toMatchObject({
      location: { file, field: `${entries[0].instance_id}, trial 0, clean`, value: 0.5 }
    })
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
})
