import { describe, expect, it } from '@jest/globals'
import { runLabel } from '../../src/report/markdown.js'

describe('runLabel', () => {
  it('drops model= and separates the arguments with spaces so the cell can wrap', () => {
    expect(runLabel('mmlu:subject=anatomy,model=meta_llama-3')).toBe('mmlu: subject=anatomy')
    expect(runLabel('dyck_language_np=3')).toBe('dyck_language_np=3')
  })

  it('finds the arguments of a run named without a colon (as the demo names its runs)', () => {
    // One unbreakable token made the demo's comment table scroll at 800 px.
    expect(runLabel('simple_mcqa,data_augmentation=robustness')).toBe('simple_mcqa: data_augmentation=robustness')
    expect(runLabel('simple_mcqa,model=x,data_augmentation=robustness')).toBe('simple_mcqa: data_augmentation=robustness')
  })
})
