/**
 * The committed trained model is what the training scripts make: scripts/real-engine/check-trained.sh
 * trains the model again in a scratch folder (seeded, one torch thread: about 7 minutes of one
 * core) and compares it with examples/real-cpu/trained-model/: weights and tokenizer byte for byte,
 * the JSON configs by content without their writer's transformers_version (content_sums.py). A
 * match is remembered in the cache per key, so a machine trains once. On a CPU vendor whose float
 * kernels give other weights (AMD EPYC), the training is held to that vendor's recorded result
 * (scripts/real-engine/cpu-reproductions/). Serial: it holds a core for minutes.
 */
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { helmAvailable, REPO_ROOT } from '../../test-support/fake-openai/harness.js'
import { run } from '../support/spawn.js'

const describeHelm = helmAvailable() ? describe : describe.skip

describeHelm('the committed trained model', () => {
  it('training again makes the same weights, tokenizer and configs', async () => {
    const checked = await run('bash', [join(REPO_ROOT, 'scripts', 'real-engine', 'check-trained.sh')], {
      cwd: REPO_ROOT,
      timeoutMs: 3_600_000
    })
    expect([checked.code, checked.stderr.slice(-3000)]).toEqual([0, checked.stderr.slice(-3000)])
    const files = readFileSync(join(REPO_ROOT, 'examples', 'real-cpu', 'trained-model', 'SHA256SUMS'), 'utf8')
      .trim()
      .split('\n').length
    // Reproduced now, or on this machine before (the marker holds the same SHA256SUMS).
    expect(checked.stdout).toMatch(
      new RegExp(
        `^check-trained: (reproduced: training again made the committed files \\(${files} files: weights and tokenizer byte for byte|the committed weights \\(key [0-9a-f]{12}\\) were reproduced on this machine before|reproduced on \\w+: training again made what this CPU vendor's training makes)`
      )
    )
  }, 3_600_000)
})
