/** The grammar text that forces llama.cpp along the baseline's token ids. */
import { describe, expect, it } from '@jest/globals'
import { forcedGrammar } from '../../src/fidelity/fidelity-llama-cpp.js'

describe('forcedGrammar', () => {
  it('admits exactly the token ids, in order', () => {
    expect(forcedGrammar([12, 7, 7])).toBe('root ::= <[12]> <[7]> <[7]>')
  })
})
