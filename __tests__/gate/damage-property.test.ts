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
import { compareOutputs, type RunDefaults } from '../../src/gate/compare.js'
import { ALTERED_SUITE, BASELINE_SUITE, HELM_0516, MCQA_RUN } from '../helm/read/fixtures.js'
import { cliConfig } from './compare-helpers.js'

const DAMAGES_PER_PAIR = Number(process.env.HELM_GATE_DAMAGES ?? 1000)
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
  'delete file'
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

const PAIRS = [
  // 0.7 -> 0 on 10 instances, one trial (Tango): fail.
  { name: 'a failing pair, one trial', baseline: ALTERED_SUITE, candidate: BASELINE_SUITE, undamaged: 'fail', seed: 'fail-1' },
  // The same with three trials per instance (cluster bootstrap on 8 instances): never a pass.
  {
    name: 'an inconclusive or failing pair, three trials',
    baseline: join(HELM_0516, 'trials-altered', 'runs', 'gate'),
    candidate: join(HELM_0516, 'trials', 'runs', 'gate'),
    undamaged: 'fail',
    seed: 'trials-3'
  },
  // No change at all on 8 instances x 3 trials: inconclusive (too few for a bootstrap pass).
  {
    name: 'an inconclusive pair',
    baseline: join(HELM_0516, 'trials', 'runs', 'gate'),
    candidate: join(HELM_0516, 'trials', 'runs', 'gate'),
    undamaged: 'inconclusive',
    seed: 'inconclusive'
  }
] as const

/**
 * Damages run in a few workspaces at once: most of a comparison's time is spent waiting for
 * file-system calls, so overlapping them keeps the test short on a busy machine.
 */
const WORKSPACES = 4

interface Planned {
  side: (typeof SIDES)[number]
  file: string
  kind: DamageKind
  text: string | null
}

describe('no damage of a failing or inconclusive pair yields a pass or an exception', () => {
  it.each(PAIRS)(
    '$name',
    async pair => {
      const spaces = Array.from({ length: WORKSPACES }, () => stage(pair.baseline, pair.candidate))
      const compare = (dirs: Record<(typeof SIDES)[number], string>): ReturnType<typeof compareOutputs> =>
        compareOutputs(dirs.baseline, dirs.candidate, config, { defaults, examples: 0 })
      expect((await compare(spaces[0].dirs)).verdict).toBe(pair.undamaged)

      // The damages, drawn in order from the seed: the same list on every machine.
      const rng = seedrandom(pair.seed)
      const pristine = spaces[0].pristine
      const plan: Planned[] = []
      for (let i = 0; plan.length < DAMAGES_PER_PAIR && i < DAMAGES_PER_PAIR * 3; i++) {
        const side = pick(rng, SIDES)
        const file = pick(rng, FILES)
        const kind = pick(rng, DAMAGES)
        const before = pristine.get(join(spaces[0].dirs[side], MCQA_RUN, file))!
        const after = damage(kind, before, rng)
        if (after === undefined || after === before) continue
        plan.push({ side, file, kind, text: after })
      }
      expect(plan).toHaveLength(DAMAGES_PER_PAIR)

      const seen = new Map<string, number>()
      const outcomes: string[] = []
      let next = 0
      await Promise.all(
        spaces.map(async ({ dirs, pristine: texts }) => {
          while (next < plan.length) {
            const index = next++
            const { side, file, kind, text } = plan[index]
            const path = join(dirs[side], MCQA_RUN, file)
            const before = texts.get(path)!
            if (text === null) rmSync(path)
            else writeFileSync(path, text)
            let verdict: string
            try {
              const report = await compare(dirs)
              verdict = report.verdict
              if (verdict === 'error') seen.set(report.errors[0].code, (seen.get(report.errors[0].code) ?? 0) + 1)
            } catch (error) {
              verdict = `exception: ${(error as Error).stack}`
            } finally {
              writeFileSync(path, before)
            }
            // Damage number and kind in the message, so a counterexample can be replayed.
            if (verdict === 'pass' || verdict.startsWith('exception')) outcomes.push(`#${index} ${kind} of the ${side} ${file}: ${verdict}`)
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
