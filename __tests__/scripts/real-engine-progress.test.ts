/**
 * scripts/real-engine/common.sh's with_progress: a first-run step that takes minutes prints how
 * long it has run and what to expect, on stderr only, and hands back the step's output and status.
 */
import { describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { REPO_ROOT } from '../../test-support/fake-openai/harness.js'

const COMMON = join(REPO_ROOT, 'scripts', 'real-engine', 'common.sh')

/** Runs `with_progress` in bash with a one-second tick; the step's stderr goes to a file it can read. */
function withProgress(step: string): { status: number | null; stdout: string; log: string } {
  const log = join(mkdtempSync(join(tmpdir(), 'helm-gate-progress-')), 'stderr.log')
  const script = `exec 2>>${JSON.stringify(log)}; set -euo pipefail; source ${JSON.stringify(COMMON)}
out=$(with_progress "building the thing" "about 5 min quiet, 13 busy" bash -c ${JSON.stringify(step)} | tail -1)
echo "$out"`
  const r = spawnSync('bash', ['-c', script], {
    env: { ...process.env, HELM_GATE_PROGRESS_SECONDS: '1', LOG: log },
    encoding: 'utf8'
  })
  return { status: r.status, stdout: r.stdout, log: readFileSync(log, 'utf8') }
}

describe('with_progress', () => {
  it('prints a progress line with the expected time while the step runs, and passes the step’s last line on', () => {
    // The step ends only once a progress line has been printed: no timing in the test.
    const r = withProgress('until grep -q "so far" "$LOG"; do sleep 0.1; done; echo noise; echo /cache/the-folder')
    expect(r.status).toBe(0)
    expect(r.stdout).toBe('/cache/the-folder\n')
    expect(r.log).toMatch(
      /^real-engine: building the thing: 0 min \d+ s so far \(about 5 min quiet, 13 busy on a 2-core machine; first run only\)$/m
    )
  }, 60_000)

  it("gives back the step's failure (set -e stops the caller) and prints nothing for a step that is done at once", () => {
    const r = withProgress('exit 3')
    expect(r.status).toBe(3)
    expect(r.stdout).toBe('')
    expect(r.log).toBe('')
  }, 60_000)
})
