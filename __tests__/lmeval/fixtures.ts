/** The real lm-eval 0.4.13 output the tests read (scripts/make-lm-eval-fixtures.sh). */
import { fileURLToPath } from 'node:url'
import { join } from 'node:path'

export const LM_EVAL = fileURLToPath(new URL('../fixtures/lm-eval-0.4.13', import.meta.url))
export const LM_EVAL_BASELINE = join(LM_EVAL, 'baseline')
export const LM_EVAL_EQUIVALENT = join(LM_EVAL, 'equivalent')
export const LM_EVAL_DEGRADED = join(LM_EVAL, 'degraded')
export const LM_EVAL_BAD = join(LM_EVAL, 'bad')
/** gate_arith_mc: multiple choice (log-likelihood) through local-completions. */
export const LM_EVAL_MC = join(LM_EVAL, 'multiple-choice')
