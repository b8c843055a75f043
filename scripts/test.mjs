// `npm test`: the whole suite in two phases. Tests that measure time (the load half against fake
// engines, whose truth is a speed ratio) run alone, after everything else, one file at a time:
// on a 2-core runner a parallel helm-run steals the CPU share the ratio depends on, and a
// statistical assertion that holds on a quiet machine becomes a coin toss (docs/testing.md).
// Arguments (`npm test -- some/path`) go to a single plain jest run instead.
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const jest = fileURLToPath(new URL('../node_modules/jest/bin/jest.js', import.meta.url))
const SERIAL = '\\.serial\\.'

function jestRun(args) {
  const result = spawnSync(process.execPath, ['--experimental-vm-modules', jest, ...args], { stdio: 'inherit' })
  if (result.error) throw result.error
  return result.status ?? 1
}

const extra = process.argv.slice(2)
if (extra.length > 0) process.exit(jestRun(extra))

const parallel = jestRun(['--testPathIgnorePatterns', SERIAL])
const serial = jestRun(['--runInBand', '--testPathPatterns', SERIAL])
process.exit(parallel !== 0 ? parallel : serial)
