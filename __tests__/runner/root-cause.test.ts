import { describe, expect, it } from '@jest/globals'
import { HelmRunError, ServerNotReadyError } from '../../src/errors.js'
import { decisiveLine, groupByRootCause, runnerDecisiveLine } from '../../src/runner/root-cause.js'

// Lines of a real helm-run log (crfm-helm 0.5.16) whose server died mid-run, shortened.
const DIED = [
  '2026-11-30 20:03:25,728 INFO             Created cache with config: BlackHoleCacheConfig()',
  '2026-11-30 20:03:28,231 ERROR            Connection error.',
  'Traceback (most recent call last):',
  '  File ".venv/lib/python3.11/site-packages/httpcore/_exceptions.py", line 14, in map_exceptions',
  '    raise to_exc(exc) from exc',
  'httpcore.ConnectError: [Errno 111] Connection refused',
  '    raise APIConnectionError(request=request) from err',
  'openai.APIConnectionError: Connection error.',
  '2026-11-30 20:03:28,248 INFO             OpenAI error: Connection error.',
  '  File ".venv/lib/python3.11/site-packages/helm/benchmark/runner.py", line 229, in run_all',
  '    raise RunnerError(f"Failed runs: [{failed_runs_str}]")',
  'helm.benchmark.runner.RunnerError: Failed runs: ["simple_mcqa:model=helm-gate_gated-model"]'
].join('\n')

describe('runnerDecisiveLine (a runner command: FlexLLMGen, lm_eval)', () => {
  it('quotes a client error as for helm-run, else the last meaningful line of the log', () => {
    expect(runnerDecisiveLine(DIED)).toEqual({ line: 6, text: 'httpcore.ConnectError: [Errno 111] Connection refused' })
    // lm_eval with an unknown task: the final exception line, after the traceback's frames.
    const lmEval = [
      '2026-12-02:00:50:01 INFO     [__main__:440] Selected Tasks: [gate_arith]',
      'Traceback (most recent call last):',
      '  File "/venv/bin/lm_eval", line 8, in <module>',
      '    sys.exit(cli_evaluate())',
      'ValueError: Tasks not found: no_such_task. Try `lm-eval --tasks {list_groups,list_subtasks,list_tags,list}`',
      'helm-gate: candidate exceeded nothing',
      ''
    ].join('\n')
    expect(runnerDecisiveLine(lmEval)).toEqual({
      line: 5,
      text: 'ValueError: Tasks not found: no_such_task. Try `lm-eval --tasks {list_groups,list_subtasks,list_tags,list}`'
    })
    expect(runnerDecisiveLine('first\nout of memory: cannot allocate 12 GiB\n\n')).toEqual({
      line: 2,
      text: 'out of memory: cannot allocate 12 GiB'
    })
    expect(runnerDecisiveLine('\n\n')).toBeNull()
  })
})

describe('decisiveLine', () => {
  it('quotes the lowest-level client error, not the SDK summary or the final RunnerError', () => {
    expect(decisiveLine(DIED)).toEqual({ line: 6, text: 'httpcore.ConnectError: [Errno 111] Connection refused' })
  })

  it("prefers helm-gate's plugin error, then the SDK's classification", () => {
    const plugin = 'x\nhelm-gate client error: ValueError: helm-gate: the environment variable K (api_key_env) is not set\n'
    expect(decisiveLine(`${DIED}\n${plugin}`)?.text).toMatch(/^helm-gate client error: ValueError/)
    const unauthorized = "openai.AuthenticationError: Error code: 401 - {'error': 'bad key'}\nINFO OpenAI error: Error code: 401"
    expect(decisiveLine(unauthorized)).toEqual({ line: 1, text: "openai.AuthenticationError: Error code: 401 - {'error': 'bad key'}" })
  })

  it('falls back to the last exception of a traceback, and to nothing', () => {
    expect(decisiveLine('Traceback\nKeyError: contents\nhelm.benchmark.runner.RunnerError: Failed runs: ["x"]')?.text).toBe(
      'KeyError: contents'
    )
    expect(decisiveLine('INFO all fine\nINFO Done.')).toBeNull()
  })
})

describe('groupByRootCause', () => {
  const exit = new HelmRunError('runner.exit', 'candidate: helm-run exited with 1; failed runs: simple_mcqa:m; see the candidate log', {
    file: '/o/logs/candidate.log',
    value: 'simple_mcqa:m'
  })
  const incomplete = new HelmRunError('runner.incomplete_run', 'candidate: run simple_mcqa:m did not complete', { file: '/o/c/x' })
  const missing = new HelmRunError('runner.run_missing', 'candidate: no complete run directory for entry simple_mcqa', {
    value: 'simple_mcqa'
  })
  const quote = { line: 101, text: 'httpcore.ConnectError: [Errno 111] Connection refused' }

  it('folds the symptoms into the cause and quotes the log: one cause, one error', () => {
    const [only, ...rest] = groupByRootCause([exit, incomplete, missing], quote, 'logs/candidate.log')
    expect(rest).toEqual([])
    expect(only).toBeInstanceOf(HelmRunError)
    expect(only.code).toBe('runner.exit')
    expect(only.location).toEqual(exit.location)
    expect(only.message).toBe(
      'candidate: helm-run exited with 1; failed runs: simple_mcqa:m; logs/candidate.log line 101: httpcore.ConnectError: [Errno 111] Connection refused; so 1 entry has no complete run: simple_mcqa'
    )
  })

  it('keeps errors of other causes, and a server error as it is', () => {
    const notReady = new ServerNotReadyError('server.not_ready', 'candidate server at u was not ready', {})
    const other = new HelmRunError('runner.other', 'something else', {})
    const grouped = groupByRootCause([notReady, other], null, 'logs/candidate.log')
    expect(grouped.map(e => e.message)).toEqual(['candidate server at u was not ready', 'something else'])
    expect(grouped[0]).toBeInstanceOf(ServerNotReadyError)
  })

  it('without a cause, the first symptom carries the quote and the rest stay', () => {
    const grouped = groupByRootCause([incomplete, missing], null, 'logs/candidate.log')
    expect(grouped.map(e => e.code)).toEqual(['runner.incomplete_run', 'runner.run_missing'])
    expect(grouped[0].message).toBe('candidate: run simple_mcqa:m did not complete; see logs/candidate.log')
  })
})
