import { describe, expect, it } from '@jest/globals'
import { runnerCommandName } from '../../src/config/runner-command.js'

describe('runnerCommandName: what messages call a runner command', () => {
  it.each([
    [['lm_eval', '--tasks', '{entry}', '--output_path', '{output}'], 'lm_eval'],
    [['/opt/venv/bin/lm_eval', '--tasks', '{entry}'], 'lm_eval'],
    [['python', '-m', 'flexllmgen.apps.helm_run', '--description', '{entry}'], 'flexllmgen.apps.helm_run'],
    [['/usr/bin/python3.11', '-u', 'test-support/flexllmgen-standin/helm_run.py', '--description', '{entry}'], 'helm_run.py'],
    [['uv', 'run', 'lm_eval', '--tasks', '{entry}'], 'lm_eval'],
    [['env', 'CUDA_VISIBLE_DEVICES=0', 'lm_eval', '--tasks', '{entry}'], 'lm_eval'],
    [['sh', '-c', 'run "$1"', 'sh', '{entry}'], 'sh'],
    [['node', 'test-support/lm-eval-standin/lm_eval.mjs', '--tasks', '{entry}'], 'lm_eval.mjs']
  ])('%j is %s', (command, name) => {
    expect(runnerCommandName(command)).toBe(name)
  })
})
