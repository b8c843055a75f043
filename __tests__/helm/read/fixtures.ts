import { fileURLToPath } from 'node:url'
import { join } from 'node:path'

/** __tests__/fixtures, described in its README.md. */
export const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url))

export const HELM_0516 = join(FIXTURES, 'helm-0.5.16')
export const BASELINE_SUITE = join(HELM_0516, 'baseline', 'runs', 'gate')
export const ALTERED_SUITE = join(HELM_0516, 'altered', 'runs', 'gate')
export const TRIALS_SUITE = join(HELM_0516, 'trials', 'runs', 'gate')
export const LEGACY_SUITE = join(FIXTURES, 'helm-0.2.x', 'runs', 'flexllmgen')

export const MCQA_RUN = 'simple_mcqa_model=simple_model1'
export const ROBUSTNESS_RUN = 'simple_mcqa_model=simple_model1,data_augmentation=robustness'
export const REASONING_RUN = 'synthetic_reasoning_mode=pattern_match,model=simple_model1'

/** Real crfm-helm 0.2.1 runs written as FlexLLMGen writes them (the stand-in; fixtures README). */
export const HELM_021 = join(FIXTURES, 'helm-0.2.1')
export const FLEX_BASELINE_SUITE = join(HELM_021, 'baseline', 'runs', 'flexllmgen')
export const FLEX_EQUIVALENT_SUITE = join(HELM_021, 'equivalent', 'runs', 'flexllmgen')
export const FLEX_DEGRADED_SUITE = join(HELM_021, 'degraded', 'runs', 'flexllmgen')
