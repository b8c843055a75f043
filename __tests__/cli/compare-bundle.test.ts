/**
 * `helm-gate compare` loads only what it runs (docs/benchmarks.md "Against the previous release"):
 * the bundled CLI's entry chunk (dist/cli.js) holds no measurement's runner, launcher, client or
 * load generator; they sit in the chunks `run`, `load` and `plan` import when asked. Parsing them
 * on every compare cost about 200 ms of start-up on the 5,000-instance pair. A static import from
 * the compare path into them (pipeline/measurements.ts, a definition's plan lines) fails here.
 */
import { describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

const DIST = resolve('dist')
const entry = readFileSync(join(DIST, 'cli.js'), 'utf8')
const chunks = readdirSync(DIST)
  .filter(name => /^cli-.+\.js$/.test(name))
  .map(name => readFileSync(join(DIST, name), 'utf8'))
  .join('\n')

describe('the CLI entry chunk', () => {
  // Each declaration is one measurement's running code: the quality half, the traffic replay,
  // fidelity and its route detection, the load half and the launcher that holds the sides.
  it.each([
    ['class QualityMeasurement'],
    ['class TrafficReplay'],
    ['class FidelityRun'],
    ['function detectClient'],
    ['class LoadMeasurement'],
    ['function runLoad('],
    ['class SideHolder']
  ])('leaves %s to a lazily imported chunk', declaration => {
    expect(chunks).toContain(declaration)
    expect(entry).not.toContain(declaration)
  })

  it('still holds what compare runs', () => {
    expect(entry).toContain('function compareOutputs(')
    expect(entry).toContain('function gateSections(')
  })
})
