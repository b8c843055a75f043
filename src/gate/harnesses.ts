/**
 * The harnesses whose output the gate compares (docs/development.md "Harness output"): the first
 * that recognises a folder reads it, and the fallback (HELM) reads any other. A third harness is
 * one implementation of src/model/harness.ts and one line here.
 */
import type { Harness } from '../model/harness.js'
import { helmHarness } from './helm-harness.js'
import { lmEvalHarness } from './lmeval.js'

// Listed in the order "neither ... nor ..." names them when a folder holds none.
export const HARNESSES: readonly Harness[] = [helmHarness, lmEvalHarness]
