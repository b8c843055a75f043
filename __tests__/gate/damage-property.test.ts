/**
 * Property: no damage to the evidence of a failing or inconclusive pair ever yields a pass, and
 * none yields anything but a report (no exception, so no stack trace). Seeded random damages of
 * real HELM 0.5.16 run directories: truncations, deleted and duplicated rows, swapped values,
 * huge and non-finite numbers, type changes, deleted keys, emptied and deleted files, on either
 * side and in any of the five files. The comparison core runs in process for speed.
 */
import { describe, expect, it } from '@jest/globals'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import seedrandom from 'seedrandom'
import { compareOutputs } from '../../src/gate/compare.js'
import type { RunDefaults } from '../../src/model/harness.js'
import { ALTERED_SUITE, BASELINE_SUITE, HELM_0516, MCQA_RUN } from '../helm/read/fixtures.js'
import { cliConfig } from './compare-helpers.js'

const DAMAGES_PER_PAIR = Number(process.env.HELM_GATE_DAMAGES ?? 750)
const FILES = ['per_instance_stats.json', 'scenario_state.json', 'stats.json', 'run_spec.json', 'scenario.json']
const SIDES = ['baseline', 'candidate'] as const

const defaults: RunDefaults = {
  metric: 'exact_match',
  split: null,
  maxDrop: 0.05,
  maxRelativeDrop: null,
  direction: 'higher',
  perturbations: 'gate'
}
const config = cliConfig(100)

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type Rng = () => number

const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]

/** Placeholders for what JSON.stringify cannot write (HELM's bare NaN / Infinity tokens). */
const TOKENS: Record<string, string> = { '"\u0000NaN"': 'NaN', '"\u0000Inf"': 'Infinity', '"\u0000-Inf"': '-Infinity' }
const NUMBERS: Json[] = [
  1e308,
  -1e308,
  1e300,
  1e200,
  -1e200,
  4,
  -1,
  0.5,
  2,
  1e-320,
  9007199254740992,
  '\u0000NaN',
  '\u0000Inf',
  '\u0000-Inf'
]
const OTHER_TYPES: Json[] = ['x', '1', '', null, true, false, {}, [], [1], { a: 1 }]

function serialise(value: Json): string {
  let text = JSON.stringify(value, null, 1)
  for (const [placeholder, token] of Object.entries(TOKENS)) text = text.split(placeholder).join(token)
  return text
}

interface Slot {
  parent: Json[] | { [key: string]: Json }
  key: string | number
}

/** Every slot (object member or array element) of a document, walked without recursion. */
function slots(root: Json): Slot[] {
  const out: Slot[] = []
  const stack: Json[] = [root]
  while (stack.length > 0) {
    const node = stack.pop()!
    if (node === null || typeof node !== 'object') continue
    const entries: [string | number, Json][] = Array.isArray(node) ? node.map((v, i) => [i, v]) : Object.entries(node)
    for (const [key, value] of entries) {
      out.push({ parent: node, key })
      stack.push(value)
    }
  }
  return out
}

const get = (s: Slot): Json => (s.parent as Record<string | number, Json>)[s.key]
const set = (s: Slot, v: Json): void => void ((s.parent as Record<string | number, Json>)[s.key] = v)

/** The arrays of records a HELM file holds: the top level, or request_states. */
function rowsOf(doc: Json): Json[] | null {
  if (Array.isArray(doc)) return doc
  if (doc && typeof doc === 'object' && !Array.isArray(doc) && Array.isArray(doc.request_states)) return doc.request_states
  return null
}

const DAMAGES = [
  'truncate',
  'delete row',
  'duplicate row',
  'swap values',
  'number',
  'type change',
  'delete key',
  'empty',
  'delete file',
  'metric values',
  'metric removed',
  'instances removed',
  'request field',
  'results removed',
  'deep nesting',
  'same file'
] as const
type DamageKind = (typeof DAMAGES)[number]

/** New text of the file (null: delete it), or undefined when the damage does not apply. */
function damage(kind: DamageKind, text: string, rng: Rng): string | null | undefined {
  if (kind === 'truncate') return text.slice(0, Math.floor(rng() * text.length))
  if (kind === 'empty') return ''
  if (kind === 'delete file') return null
  const doc = JSON.parse(text) as Json
  const all = slots(doc)
  const leaves = all.filter(s => get(s) === null || typeof get(s) !== 'object')
  if (kind === 'delete row' || kind === 'duplicate row') {
    const rows = rowsOf(doc)
    if (!rows || rows.length === 0) return undefined
    const i = Math.floor(rng() * rows.length)
    if (kind === 'delete row') rows.splice(i, 1)
    else rows.splice(i, 0, JSON.parse(JSON.stringify(rows[i])) as Json)
  } else if (kind === 'swap values') {
    if (leaves.length < 2) return undefined
    const a = pick(rng, leaves)
    const b = pick(rng, leaves)
    const va = get(a)
    set(a, get(b))
    set(b, va)
  } else if (kind === 'number') {
    const numbers = leaves.filter(s => typeof get(s) === 'number')
    if (numbers.length === 0) return undefined
    set(pick(rng, numbers), pick(rng, NUMBERS))
  } else if (kind === 'type change') {
    if (all.length === 0) return undefined
    set(pick(rng, all), pick(rng, OTHER_TYPES))
  } else if (kind === 'delete key') {
    const members = all.filter(s => !Array.isArray(s.parent))
    if (members.length === 0) return undefined
    const s = pick(rng, members)
    delete (s.parent as Record<string, Json>)[s.key as string]
  }
  return serialise(doc)
}

const METRIC = 'exact_match'
const DECODING = ['temperature', 'max_tokens', 'stop_sequences', 'top_p', 'num_completions', 'echo_prompt']
const DECODING_VALUES: Json[] = [0.9, 50, ['###'], 0.5, 3, true, 0, 1, [], null, '0']

interface StatRow {
  instance_id: string
  stats: { name: { name: string }; sum: Json; count: Json }[]
}

/** k distinct indices below n, in random order. */
function some(rng: Rng, n: number): number[] {
  const k = 1 + Math.floor(rng() * n)
  const order = Array.from({ length: n }, (_, i) => i).sort(() => rng() - 0.5)
  return order.slice(0, k)
}

/**
 * Damages aimed at what decides the verdict, as a hostile or broken pipeline would apply them:
 * the gated metric in several rows at once, instances removed from one or two files, every
 * request's decoding settings, results, deep nesting, a file shared with the other side. Returns
 * new texts by file name (null: delete), or undefined when the damage does not apply.
 */
function targeted(
  kind: DamageKind,
  texts: Map<string, string>,
  rng: Rng,
  other: Map<string, string>
): Map<string, string | null> | undefined {
  const out = new Map<string, string | null>()
  const stats = JSON.parse(texts.get('per_instance_stats.json')!) as StatRow[]
  const state = JSON.parse(texts.get('scenario_state.json')!) as {
    request_states: { instance: { id: string }; request: Record<string, Json>; result: Record<string, Json> | null }[]
  }
  if (kind === 'metric values') {
    const value = pick(rng, NUMBERS)
    for (const i of some(rng, stats.length)) for (const st of stats[i].stats) if (st.name.name === METRIC) st.sum = value
    out.set('per_instance_stats.json', serialise(stats as unknown as Json))
  } else if (kind === 'metric removed') {
    for (const i of some(rng, stats.length)) stats[i].stats = stats[i].stats.filter(st => st.name.name !== METRIC)
    out.set('per_instance_stats.json', serialise(stats as unknown as Json))
  } else if (kind === 'instances removed') {
    // From the scores alone, or from the scores and the request states (a truly missing instance).
    const ids = new Set(some(rng, stats.length).map(i => stats[i].instance_id))
    out.set('per_instance_stats.json', serialise(stats.filter(r => !ids.has(r.instance_id)) as unknown as Json))
    if (rng() < 0.5) {
      state.request_states = state.request_states.filter(r => !ids.has(r.instance.id))
      out.set('scenario_state.json', serialise(state as unknown as Json))
    }
  } else if (kind === 'request field') {
    const field = pick(rng, DECODING)
    const value = pick(rng, DECODING_VALUES)
    const all = rng() < 0.5
    state.request_states.forEach((r, i) => {
      if (all || i === 0) r.request[field] = value
    })
    out.set('scenario_state.json', serialise(state as unknown as Json))
  } else if (kind === 'results removed') {
    const how = pick(rng, ['null', 'no completions', 'no text'] as const)
    for (const i of some(rng, state.request_states.length)) {
      const r = state.request_states[i]
      if (how === 'null') r.result = null
      else if (how === 'no completions' && r.result) r.result.completions = []
      else if (r.result) for (const c of r.result.completions as { text?: string }[]) delete c.text
    }
    out.set('scenario_state.json', serialise(state as unknown as Json))
  } else if (kind === 'deep nesting') {
    const file = pick(rng, FILES)
    const text = texts.get(file)!
    const depth = pick(rng, [257, 300, 5000, 100_000])
    const at = text.indexOf('{')
    out.set(file, `${text.slice(0, at + 1)}"deep": ${'['.repeat(depth)}${']'.repeat(depth)}, ${text.slice(at + 1)}`)
  } else if (kind === 'same file') {
    // The other side's file, byte for byte (a copy rather than a link: the evidence is the same).
    const file = pick(rng, FILES)
    if (other.get(file) === texts.get(file)) return undefined
    out.set(file, other.get(file)!)
  } else {
    return undefined
  }
  return out
}

/** Two one-run suites in a temporary folder, with their pristine file texts. */
function stage(
  baselineSuite: string,
  candidateSuite: string
): { dirs: Record<(typeof SIDES)[number], string>; pristine: Map<string, string> } {
  const root = mkdtempSync(join(tmpdir(), 'helm-gate-property-'))
  const dirs = { baseline: join(root, 'baseline'), candidate: join(root, 'candidate') }
  const pristine = new Map<string, string>()
  for (const side of SIDES) {
    const from = side === 'baseline' ? baselineSuite : candidateSuite
    mkdirSync(dirs[side])
    cpSync(join(from, MCQA_RUN), join(dirs[side], MCQA_RUN), { recursive: true })
    for (const file of readdirSync(join(dirs[side], MCQA_RUN))) {
      const path = join(dirs[side], MCQA_RUN, file)
      pristine.set(path, readFileSync(path, 'utf8'))
    }
  }
  return { dirs, pristine }
}

const TRIALS = join(HELM_0516, 'trials', 'runs', 'gate')
const TRIALS_ALTERED = join(HELM_0516, 'trials-altered', 'runs', 'gate')

const PAIRS = [
  // 0.7 -> 0 on 10 instances, one trial (Tango): a clear fail.
  {
    name: 'a failing pair, one trial',
    baseline: ALTERED_SUITE,
    candidate: BASELINE_SUITE,
    maxDrop: 0.05,
    minOverlap: 0.95,
    undamaged: 'fail',
    seed: 'fail'
  },
  // The same at a margin of 0.75 and min_overlap 0.5: inconclusive, a small push from a pass.
  {
    name: 'an inconclusive pair near the margin, lenient overlap',
    baseline: ALTERED_SUITE,
    candidate: BASELINE_SUITE,
    maxDrop: 0.75,
    minOverlap: 0.5,
    undamaged: 'inconclusive',
    seed: 'margin'
  },
  // Three trials per instance (cluster bootstrap on 8 instances).
  {
    name: 'a failing pair, three trials',
    baseline: TRIALS_ALTERED,
    candidate: TRIALS,
    maxDrop: 0.05,
    minOverlap: 0.95,
    undamaged: 'fail',
    seed: 'trials'
  },
  // No change on 8 instances x 3 trials: inconclusive (too few instances for a bootstrap pass).
  {
    name: 'an unchanged pair on too few instances',
    baseline: TRIALS,
    candidate: TRIALS,
    maxDrop: 0.3,
    minOverlap: 0.5,
    undamaged: 'inconclusive',
    seed: 'few'
  }
] as const

/**
 * Damages run in a few workspaces at once: most of a comparison's time is spent waiting for
 * file-system calls, so overlapping them keeps the test short on a busy machine.
 */
const WORKSPACES = 4

interface Planned {
  side: (typeof SIDES)[number]
  kind: DamageKind
  /** New text by file name; null deletes the file. */
  texts: Map<string, string | null>
}

const SIMPLE: readonly DamageKind[] = [
  'truncate',
  'delete row',
  'duplicate row',
  'swap values',
  'number',
  'type change',
  'delete key',
  'empty',
  'delete file'
]

describe('no damage of a failing or inconclusive pair yields a pass or an exception', () => {
  it.each(PAIRS)(
    '$name',
    async pair => {
      const spaces = Array.from({ length: WORKSPACES }, () => stage(pair.baseline, pair.candidate))
      const compare = (dirs: Record<(typeof SIDES)[number], string>): ReturnType<typeof compareOutputs> =>
        compareOutputs(
          dirs.baseline,
          dirs.candidate,
          { ...config, statistics: { ...config.statistics, minOverlap: pair.minOverlap } },
          { defaults: { ...defaults, maxDrop: pair.maxDrop }, examples: 0 }
        )
      expect((await compare(spaces[0].dirs)).verdict).toBe(pair.undamaged)

      // The damages, drawn in order from the seed: the same list on every machine.
      const rng = seedrandom(pair.seed)
      const pristine = spaces[0].pristine
      const plan: Planned[] = []
      const textsOf = (side: (typeof SIDES)[number]): Map<string, string> =>
        new Map(FILES.map(file => [file, pristine.get(join(spaces[0].dirs[side], MCQA_RUN, file))!]))
      const original = { baseline: textsOf('baseline'), candidate: textsOf('candidate') }
      for (let i = 0; plan.length < DAMAGES_PER_PAIR && i < DAMAGES_PER_PAIR * 3; i++) {
        const side = pick(rng, SIDES)
        const kind = pick(rng, DAMAGES)
        let texts: Map<string, string | null> | undefined
        if (SIMPLE.includes(kind)) {
          const file = pick(rng, FILES)
          const after = damage(kind, original[side].get(file)!, rng)
          texts = after === undefined || after === original[side].get(file) ? undefined : new Map([[file, after]])
        } else {
          texts = targeted(kind, original[side], rng, original[side === 'baseline' ? 'candidate' : 'baseline'])
        }
        if (texts !== undefined) plan.push({ side, kind, texts })
      }
      expect(plan).toHaveLength(DAMAGES_PER_PAIR)

      const seen = new Map<string, number>()
      const outcomes: string[] = []
      let next = 0
      await Promise.all(
        spaces.map(async ({ dirs, pristine: texts }) => {
          while (next < plan.length) {
            const index = next++
            const { side, kind, texts: damaged } = plan[index]
            const files = [...damaged.keys()]
            for (const [file, text] of damaged) {
              const path = join(dirs[side], MCQA_RUN, file)
              if (text === null) rmSync(path)
              else writeFileSync(path, text)
            }
            let verdict: string
            try {
              const report = await compare(dirs)
              verdict = report.verdict
              if (verdict === 'error') seen.set(report.errors[0].code, (seen.get(report.errors[0].code) ?? 0) + 1)
            } catch (error) {
              verdict = `exception: ${(error as Error).stack}`
            } finally {
              for (const file of files) writeFileSync(join(dirs[side], MCQA_RUN, file), texts.get(join(dirs[side], MCQA_RUN, file))!)
            }
            // Damage number and kind in the message, so a counterexample can be replayed.
            if (verdict === 'pass' || verdict.startsWith('exception'))
              outcomes.push(`#${index} ${kind} of the ${side} ${files.join(', ')}: ${verdict}`)
          }
        })
      )
      expect(outcomes).toEqual([])
      // The damages reach many different guards, not one early check.
      expect(seen.size).toBeGreaterThanOrEqual(8)
    },
    300_000
  )
})
