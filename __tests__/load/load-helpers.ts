/** Gate files for the load half's end-to-end tests: two fake engines, small time constants. */
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseGateConfig } from '../../src/config/load.js'
import type { GateConfig } from '../../src/config/types.js'

export const CLI = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'cli.js')

export function loadGate(baseline: string, candidate: string, load: string, api: 'chat' | 'completions' = 'chat'): GateConfig {
  return parseGateConfig(gateText(baseline, candidate, load, api), 'gate.yml')
}

export function gateText(baseline: string, candidate: string, load: string, api: 'chat' | 'completions' = 'chat'): string {
  return `version: 1
deployments:
  baseline: { api: ${api}, base_url: ${baseline}, model: engine-model }
  candidate: { api: ${api}, base_url: ${candidate}, model: engine-model }
runs:
  - { entry: "simple_mcqa", metric: exact_match, max_drop: 0.05 }
load:
${load
  .trim()
  .split('\n')
  .map(line => `  ${line}`)
  .join('\n')}
`
}
