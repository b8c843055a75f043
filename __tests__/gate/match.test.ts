import { describe, expect, it } from '@jest/globals'
import type { GatedRun } from '../../src/config/types.js'
import { adapterDrift, canonicalJson, displayName, readableName, runIdentity } from '../../src/gate/run-identity.js'
import { globMatches, pairRuns, parseEntry, runMatchesEntry } from '../../src/gate/match.js'
import type { RunDirectory, RunSpecJson } from '../../src/helm/types.js'

function spec(name: string, args: Record<string, unknown> = {}, extra: Partial<RunSpecJson> = {}): RunSpecJson {
  return {
    name,
    scenario_spec: { class_name: `helm.benchmark.scenarios.${name.split(/[:,]/)[0]}`, args },
    adapter_spec: { method: 'generation', model: 'ci/baseline', model_deployment: 'ci/baseline', max_tokens: 5 },
    metric_specs: [],
    data_augmenter_spec: { perturbation_specs: [], should_augment_eval_instances: false },
    groups: [],
    ...extra
  }
}

function run(s: RunSpecJson, path = `/out/${s.name}`): RunDirectory {
  return {
    path,
    runSpec: s,
    scenarioName: null,
    files: { runSpec: true, scenario: true, scenarioState: true, stats: true, perInstanceStats: true }
  }
}

const gated = (entry: string, match: string | null = null): GatedRun => ({
  entry,
  match,
  metric: 'exact_match',
  split: null,
  maxDrop: 0.05,
  maxRelativeDrop: null,
  direction: 'higher',
  perturbations: 'report'
})

const robust = {
  data_augmenter_spec: {
    perturbation_specs: [{ class_name: 'helm.benchmark.augmentations.mild_mix_perturbation.MildMixPerturbation', args: {} }],
    should_augment_eval_instances: true
  }
}

describe('run identity', () => {
  it('canonical JSON ignores key order', () => {
    expect(canonicalJson({ b: 1, a: [{ y: 2, x: 1 }] })).toBe(canonicalJson({ a: [{ x: 1, y: 2 }], b: 1 }))
  })

  it('is the same for the same scenario answered by different models and names', () => {
    const a = spec('synthetic_reasoning:mode=induction,model=ci_baseline', { mode: 'induction' })
    const b = spec('synthetic_reasoning:model=ci_candidate,mode=induction', { mode: 'induction' })
    b.adapter_spec.model = 'ci/candidate'
    expect(runIdentity(a)).toBe(runIdentity(b))
  })

  it('differs by scenario arguments and by augmentation', () => {
    const base = spec('synthetic_reasoning:mode=induction', { mode: 'induction' })
    expect(runIdentity(spec('synthetic_reasoning:mode=pattern_match', { mode: 'pattern_match' }))).not.toBe(runIdentity(base))
    expect(runIdentity(spec('synthetic_reasoning:mode=induction', { mode: 'induction' }, robust))).not.toBe(runIdentity(base))
  })

  it('names each drifted adapter field with both values, ignoring model fields', () => {
    const a = spec('x')
    const b = spec('x')
    b.adapter_spec = { ...b.adapter_spec, model: 'other/model', max_tokens: 50, instructions: 'Be brief.' }
    expect(adapterDrift(a, b)).toEqual([
      { field: 'adapter_spec.instructions', baseline: undefined, candidate: 'Be brief.' },
      { field: 'adapter_spec.max_tokens', baseline: 5, candidate: 50 }
    ])
  })

  it('display names drop the model parts wherever they stand', () => {
    expect(displayName(spec('simple_mcqa:model=ci_baseline,data_augmentation=robustness'))).toBe('simple_mcqa:data_augmentation=robustness')
    expect(displayName(spec('synthetic_reasoning:mode=induction,model=ci_baseline'))).toBe('synthetic_reasoning:mode=induction')
    expect(displayName(spec('simple_classification:model=ci_baseline,model_deployment=cand_ci_baseline'))).toBe('simple_classification')
  })

  it("readable names show a path= scenario's file, not the host's folders it was kept in", () => {
    const custom = spec('custom_mcqa,path=_tmp_helm-gate-x1_model_addition.jsonl,method=multiple_choice_joint:model=ci_baseline', {
      path: '/tmp/helm-gate-x1/model/addition.jsonl'
    })
    expect(displayName(custom)).toBe('custom_mcqa,path=_tmp_helm-gate-x1_model_addition.jsonl,method=multiple_choice_joint')
    expect(readableName(custom)).toBe('custom_mcqa,path=addition.jsonl,method=multiple_choice_joint')
    // Nothing to shorten: the name is displayName's.
    expect(readableName(spec('simple_mcqa:model=ci_baseline'))).toBe('simple_mcqa')
    const relative = spec('custom_mcqa,path=set.jsonl:model=ci_baseline', { path: 'set.jsonl' })
    expect(readableName(relative)).toBe('custom_mcqa,path=set.jsonl')
  })
})

describe('matching gate entries to runs', () => {
  it('parses run entries', () => {
    expect(parseEntry('dyck_language:num_parenthesis_pairs=3')).toEqual({
      scenario: 'dyck_language',
      args: new Map([['num_parenthesis_pairs', '3']])
    })
  })

  it('matches through scenario arguments even when the run name is rewritten', () => {
    const dyck = run(spec('dyck_language_np=3:model=ci_baseline', { num_parenthesis_pairs: 3 }))
    expect(runMatchesEntry(dyck, gated('dyck_language:num_parenthesis_pairs=3'))).toBe(true)
    expect(runMatchesEntry(dyck, gated('dyck_language:num_parenthesis_pairs=4'))).toBe(false)
  })

  it('tells clean and augmented runs of one scenario apart', () => {
    const clean = run(spec('simple_mcqa:model=ci_baseline'))
    const aug = run(spec('simple_mcqa:model=ci_baseline,data_augmentation=robustness', {}, robust))
    expect(runMatchesEntry(clean, gated('simple_mcqa'))).toBe(true)
    expect(runMatchesEntry(aug, gated('simple_mcqa'))).toBe(false)
    expect(runMatchesEntry(aug, gated('simple_mcqa:data_augmentation=robustness'))).toBe(true)
    expect(runMatchesEntry(clean, gated('simple_mcqa:data_augmentation=robustness'))).toBe(false)
  })

  it('uses the match glob when given', () => {
    const r = run(spec('custom_mcqa,path=_data_gate_mcqa.jsonl,method=multiple_choice_joint:model=ci_baseline'))
    expect(runMatchesEntry(r, gated('custom_mcqa:path=/data/gate/mcqa.jsonl', 'custom_mcqa,path=*mcqa.jsonl*'))).toBe(true)
    expect(globMatches('a?c*', 'abcdef')).toBe(true)
    expect(globMatches('a.c', 'abc')).toBe(false)
  })

  it('matches a relative path= entry with the absolute path helm-run was given, and only that file', () => {
    const r = run(
      spec('custom_mcqa,path=_work_clone_gate_set.jsonl,method=multiple_choice_joint:model=ci_baseline', {
        path: '/work/clone/gate/set.jsonl'
      })
    )
    expect(runMatchesEntry(r, gated('custom_mcqa:path=./gate/set.jsonl'))).toBe(true)
    expect(runMatchesEntry(r, gated('custom_mcqa:path=../clone/gate/set.jsonl'))).toBe(true)
    expect(runMatchesEntry(r, gated('custom_mcqa:path=./other/set.jsonl'))).toBe(false)
    expect(runMatchesEntry(r, gated('custom_mcqa:path=./set.jsonl'))).toBe(true)
    expect(runMatchesEntry(r, gated('custom_mcqa:path=./et.jsonl'))).toBe(false)
  })

  it('pairs runs across sides by identity and reports one-sided and duplicate runs', () => {
    const b = [run(spec('a:model=x', { k: 1 })), run(spec('b:model=x')), run(spec('c:model=x'), '/b/c1'), run(spec('c:model=y'), '/b/c2')]
    const c = [run(spec('a:model=y', { k: 1 })), run(spec('d:model=y')), run(spec('c:model=y'), '/c/c')]
    const pairing = pairRuns(b, c)
    expect(pairing.pairs.map(p => p.baseline.runSpec.name)).toEqual(['a:model=x', 'c:model=x'])
    expect(pairing.onlyBaseline.map(r => r.runSpec.name)).toEqual(['b:model=x'])
    expect(pairing.onlyCandidate.map(r => r.runSpec.name)).toEqual(['d:model=y'])
    expect(pairing.duplicates).toHaveLength(1)
    expect(pairing.duplicates[0].side).toBe('baseline')
  })
})

describe('augmentation names are matched whole', () => {
  it('does not take robustness_all for robustness', () => {
    const all = run(spec('simple_mcqa:model=ci_baseline,data_augmentation=robustness_all', {}, robust))
    expect(runMatchesEntry(all, gated('simple_mcqa:data_augmentation=robustness'))).toBe(false)
    expect(runMatchesEntry(all, gated('simple_mcqa:data_augmentation=robustness_all'))).toBe(true)
  })
})
