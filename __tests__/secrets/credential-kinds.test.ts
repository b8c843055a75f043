/**
 * The property behind "credentials never leave": every kind the docs list, generated at random and
 * embedded in prose, JSON, a URL, a multi-line block and code, survives none of the outputs that
 * print or store text: the redactor, the log masker, the traffic scrubber (text and request), the
 * stored replay states (redactTree with the run's masker) and error messages.
 */
import { describe, expect, test } from '@jest/globals'
import fc from 'fast-check'
import { GateError, showValue } from '../../src/errors.js'
import { masker } from '../../src/secrets/mask.js'
import { redactText, redactTree } from '../../src/secrets/redact.js'
import { noCounts, scrubText, scrubValue } from '../../src/traffic/scrub.js'
import { credentialKinds, embeddings, type Planted } from '../../test-support/credentials.js'

const OUTPUTS: Array<[string, (text: string) => string]> = [
  ['redactText', text => redactText(text)],
  ['log masker', text => masker(['not-this-one'])(text)],
  ['scrubText', text => scrubText(text, noCounts())],
  ['scrubValue (a request)', text => JSON.stringify(scrubValue({ messages: [{ role: 'user', content: text }] }, noCounts()))],
  [
    'stored replay state',
    text => JSON.stringify(redactTree({ request_states: [{ result: { completions: [{ text }], error: text } }] }, 32, masker([])))
  ],
  ['error message', text => new GateError('x.y', `the server answered: ${text}`, { file: 'f', field: 'g', value: text }).describe()],
  ['showValue', text => showValue({ answer: text }, 100_000)]
]

function leaks(output: string, planted: Planted, forms: (secret: string) => string[]): string[] {
  return planted.secrets
    .flatMap(secret => forms(secret).flatMap(form => [form, JSON.stringify(form).slice(1, -1)]))
    .filter(form => output.includes(form))
}

describe('no credential survives any output', () => {
  for (const [kind, arbitrary] of Object.entries(credentialKinds)) {
    for (const embedding of embeddings) {
      test(`${kind} in ${embedding.name}`, () => {
        fc.assert(
          fc.property(arbitrary, planted => {
            if (planted.multiLine && embedding.singleLineOnly) return
            const text = embedding.wrap(planted.text)
            for (const [name, output] of OUTPUTS) {
              const out = output(text)
              expect({ output: name, leaked: leaks(out, planted, embedding.forms) }).toEqual({ output: name, leaked: [] })
            }
          }),
          { numRuns: 25, seed: 28 }
        )
      })
    }
  }

  test('the test can fail: an output that keeps the text is caught', () => {
    const planted = fc.sample(credentialKinds.jwt, { seed: 1, numRuns: 1 })[0]
    expect(leaks(`kept ${planted.text}`, planted, s => [s])).not.toEqual([])
  })
})
