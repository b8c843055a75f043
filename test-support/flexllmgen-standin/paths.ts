/** Where the FlexLLMGen stand-in and its crfm-helm 0.2.1 environment (scripts/helm-0.2-env.sh) are. */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export const STANDIN = fileURLToPath(new URL('./helm_run.py', import.meta.url))
export const VENV_0_2_PYTHON = process.env.HELM_GATE_VENV_0_2
  ? `${process.env.HELM_GATE_VENV_0_2}/bin/python`
  : fileURLToPath(new URL('../../.venv-helm-0.2/bin/python', import.meta.url))

export function helm02Available(): boolean {
  return existsSync(VENV_0_2_PYTHON)
}
