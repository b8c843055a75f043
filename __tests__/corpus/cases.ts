/**
 * The fault corpus: one row per case, each a damaged run directory, gate file, command line,
 * prod_env directory or model output, with the exit status and error code the bundled CLI must
 * give. Every case builds its own inputs in a fresh temporary directory from the committed
 * HELM 0.5.16 fixtures, so the corpus needs no files of its own and regenerates with them.
 */
import { expect } from '@jest/globals'
import { cpSync, linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ALTERED_SUITE, BASELINE_SUITE, MCQA_RUN } from '../helm/read/fixtures.js'
import { editJson } from '../support/fixture-copy.js'

export type Kind = 'run directory' | 'gate file' | 'command line' | 'prod_env' | 'markdown injection'

export interface Outcome {
  code: number | null
  stdout: string
  stderr: string
  /** report.json, when the command wrote one. */
  report: { verdict: string; errors: { code: string }[] } | null
  /** report.md, when the command wrote one. */
  markdown: string | null
}

export interface Case {
  name: string
  kind: Kind
  /** Exit status: 0 pass, 1 fail or inconclusive, 2 error. */
  exit: 0 | 1 | 2
  /** The error code that must be reported (report.json errors, or `[code]` at the end of stderr); null: none. */
  error: string | null
  /** Builds the inputs in `ws` and returns the CLI arguments. */
  args: (ws: Workspace) => string[]
  /** Text that must not appear in anything the CLI printed or wrote (secrets, raw injections). */
  absent?: string[]
  /** Further checks on the outcome. */
  check?: (outcome: Outcome) => void
}

export class Workspace {
  readonly dir = mkdtempSync(join(tmpdir(), 'helm-gate-corpus-'))
  readonly json = join(this.dir, 'report.json')
  readonly markdown = join(this.dir, 'report.md')

  /** A fresh copy of a fixture suite as one side. */
  side(name: 'baseline' | 'candidate', from = BASELINE_SUITE): string {
    const path = join(this.dir, name)
    cpSync(from, path, { recursive: true })
    return path
  }

  file(name: string, text: string): string {
    const path = join(this.dir, name)
    mkdirSync(join(path, '..'), { recursive: true })
    writeFileSync(path, text)
    return path
  }
}

type Side = 'baseline' | 'candidate'
type Damage = (sides: Record<Side, string>, ws: Workspace) => void

const stats = (dir: string): string => join(dir, MCQA_RUN, 'per_instance_stats.json')
const state = (dir: string): string => join(dir, MCQA_RUN, 'scenario_state.json')
const runFile = (dir: string, name: string): string => join(dir, MCQA_RUN, name)

interface Row {
  instance_id: string
  stats: { name: { name: string }; count: number; sum: unknown }[]
}
interface State {
  instance: { id: string; references?: { output: { text: string }; tags: string[] }[] }
  request: Record<string, unknown>
  result: Record<string, unknown> | null
}

function setMetric(file: string, rows: number[], value: unknown, metric = 'exact_match'): void {
  editJson<Row[]>(file, all => {
    for (const i of rows) for (const s of all[i].stats) if (s.name.name === metric) s.sum = value
  })
}

function editStates(file: string, edit: (states: State[]) => void): void {
  editJson<{ request_states: State[] }>(file, doc => edit(doc.request_states))
}

function rawReplace(file: string, from: string, to: string): void {
  writeFileSync(file, readFileSync(file, 'utf8').replace(from, to))
}

const deep = (n: number): string => `${'['.repeat(n)}${']'.repeat(n)}`

/** `compare` on a passing pair (baseline and a copy, margin 0.5) with one damage applied. */
function runCase(name: string, error: string | null, damage: Damage, extra: string[] = [], exit: 0 | 1 | 2 = 2): Case {
  // Options given in `extra` replace the defaults (an option may be given only once).
  const defaults = ['--metric', 'exact_match', '--max-drop', '0.5'].filter((_, i, all) => !extra.includes(all[i - (i % 2)]))
  return {
    name,
    kind: 'run directory',
    exit,
    error,
    args: ws => {
      const sides = { baseline: ws.side('baseline'), candidate: ws.side('candidate') }
      damage(sides, ws)
      return ['compare', sides.baseline, sides.candidate, ...defaults, '--json', ws.json, ...extra]
    }
  }
}

const RUN_CASES: Case[] = [
  runCase('undamaged pair passes', null, () => {}, [], 0),
  runCase('candidate per_instance_stats.json truncated', 'input.malformed_json', s => rawReplace(stats(s.candidate), ']', '')),
  runCase('baseline per_instance_stats.json empty', 'input.malformed_json', s => writeFileSync(stats(s.baseline), '')),
  runCase('candidate scenario_state.json truncated', 'input.malformed_json', s =>
    writeFileSync(state(s.candidate), readFileSync(state(s.candidate), 'utf8').slice(0, 3000))
  ),
  runCase('candidate stats.json empty', 'input.incomplete_run', s => writeFileSync(runFile(s.candidate, 'stats.json'), '')),
  runCase('baseline stats.json an object', 'input.incomplete_run', s => writeFileSync(runFile(s.baseline, 'stats.json'), '{}')),
  runCase('candidate stats.json deleted', 'input.incomplete_run', s => rmSync(runFile(s.candidate, 'stats.json'))),
  runCase('candidate stats.json a list of numbers', 'input.incomplete_run', s =>
    writeFileSync(runFile(s.candidate, 'stats.json'), '[1,2]')
  ),
  runCase('candidate run_spec.json deleted', 'input.incomplete_run', s => rmSync(runFile(s.candidate, 'run_spec.json'))),
  runCase('an empty run directory next to the runs', 'input.incomplete_run', s => mkdirSync(join(s.candidate, 'failed_run'))),
  runCase('candidate exact_match of 4', 'guard.out_of_range', s => setMetric(stats(s.candidate), [3], 4)),
  runCase('baseline exact_match of -1', 'guard.out_of_range', s => setMetric(stats(s.baseline), [0], -1)),
  runCase('candidate exact_match 1e308 on ten instances', 'guard.out_of_range', s =>
    setMetric(stats(s.candidate), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 1e308)
  ),
  runCase('baseline num_output_tokens 1e308', 'guard.huge_value', s => setMetric(stats(s.baseline), [2], 1e308, 'num_output_tokens'), [
    '--metric',
    'num_output_tokens',
    '--max-drop',
    '1000',
    '--lower-is-better'
  ]),
  runCase('candidate exact_match Infinity with a count', 'guard.out_of_range', s => {
    setMetric(stats(s.candidate), [1], '__INF__')
    rawReplace(stats(s.candidate), '"__INF__"', 'Infinity')
  }),
  runCase('candidate score removed for a requested instance', 'guard.scoring_failure', s =>
    editJson<Row[]>(stats(s.candidate), rows => {
      rows[4].stats = rows[4].stats.filter(x => x.name.name !== 'exact_match')
    })
  ),
  runCase(
    'baseline count 0 for a requested instance, min_overlap 0.5',
    'guard.scoring_failure',
    s =>
      editJson<Row[]>(stats(s.baseline), rows => {
        for (const x of rows[2].stats) if (x.name.name === 'exact_match') x.count = 0
      }),
    ['--min-overlap', '0.5']
  ),
  runCase('candidate result null', 'guard.request_not_run', s => editStates(state(s.candidate), st => void (st[3].result = null))),
  runCase('candidate completions empty', 'guard.request_not_run', s =>
    editStates(state(s.candidate), st => void (st[3].result!.completions = []))
  ),
  runCase('baseline completion without text', 'guard.request_not_run', s =>
    editStates(state(s.baseline), st => void delete (st[5].result!.completions as { text?: string }[])[0].text)
  ),
  runCase('candidate temperature 0.9 on every request', 'guard.decoding_drift', s =>
    editStates(state(s.candidate), st => st.forEach(x => (x.request.temperature = 0.9)))
  ),
  runCase('candidate max_tokens 50 on every request', 'guard.decoding_drift', s =>
    editStates(state(s.candidate), st => st.forEach(x => (x.request.max_tokens = 50)))
  ),
  runCase('baseline stop sequences on one request', 'guard.decoding_drift', s =>
    editStates(state(s.baseline), st => void (st[2].request.stop_sequences = ['x']))
  ),
  runCase('candidate top_p 0.5', 'guard.decoding_drift', s =>
    editStates(state(s.candidate), st => st.forEach(x => (x.request.top_p = 0.5)))
  ),
  runCase('candidate echo_prompt', 'guard.decoding_drift', s =>
    editStates(state(s.candidate), st => st.forEach(x => (x.request.echo_prompt = true)))
  ),
  runCase('baseline num_completions 3', 'guard.decoding_drift', s =>
    editStates(state(s.baseline), st => st.forEach(x => (x.request.num_completions = 3)))
  ),
  runCase('candidate per_instance_stats.json symlinked to the baseline', 'sides.same_file', s => {
    unlinkSync(stats(s.candidate))
    symlinkSync(stats(s.baseline), stats(s.candidate))
  }),
  runCase('candidate scenario_state.json hard-linked to the baseline', 'sides.same_file', s => {
    unlinkSync(state(s.candidate))
    linkSync(state(s.baseline), state(s.candidate))
  }),
  {
    name: 'the same directory on both sides',
    kind: 'run directory',
    exit: 2,
    error: 'sides.same_file',
    args: ws => {
      const b = ws.side('baseline')
      return ['compare', b, b, '--metric', 'exact_match', '--max-drop', '0.5', '--json', ws.json]
    }
  },
  runCase('candidate run_spec.json 100,000 levels deep', 'input.too_deep', s =>
    rawReplace(runFile(s.candidate, 'run_spec.json'), '"args": {', `"args": {"x": ${deep(100_000)},`)
  ),
  runCase('baseline per_instance_stats.json 100,000 levels deep', 'input.too_deep', s =>
    rawReplace(stats(s.baseline), '"instance_id"', `"x": ${deep(100_000)}, "instance_id"`)
  ),
  runCase('candidate scenario_state.json 100,000 levels deep', 'input.too_deep', s =>
    rawReplace(state(s.candidate), '"instance": {', `"instance": {"x": ${deep(100_000)},`)
  ),
  runCase('candidate answers from the cache', 'guard.cached', s =>
    editStates(state(s.candidate), st => void (st[1].result!.cached = true))
  ),
  runCase('baseline failed request', 'guard.failed_requests', s =>
    editStates(state(s.baseline), st => void (st[1].result!.success = false))
  ),
  runCase('candidate prompt changed', 'guard.prompt_drift', s =>
    editStates(state(s.candidate), st => void (st[6].request.prompt = 'other'))
  ),
  runCase('candidate references changed (answer key)', 'guard.answer_key_drift', s =>
    editStates(state(s.candidate), st => void (st[6].instance.references![0].output.text = 'other'))
  ),
  runCase('candidate adapter temperature changed in run_spec.json', 'guard.adapter_drift', s =>
    editJson<{ adapter_spec: Record<string, unknown> }>(runFile(s.candidate, 'run_spec.json'), r => void (r.adapter_spec.temperature = 0.7))
  ),
  runCase('baseline metric specs changed', 'guard.scoring_drift', s =>
    editJson<{ metric_specs: { class_name: string }[] }>(
      runFile(s.baseline, 'run_spec.json'),
      r => void (r.metric_specs[0].class_name = 'x.Y')
    )
  ),
  runCase('candidate count written as a string', 'input.wrong_type', s =>
    editJson<Row[]>(stats(s.candidate), rows => void ((rows[1].stats[0] as { count: unknown }).count = '1'))
  ),
  runCase('baseline instance_id missing', 'input.wrong_type', s =>
    editJson<Row[]>(stats(s.baseline), rows => void delete (rows[0] as Partial<Row>).instance_id)
  ),
  runCase('candidate score without a request state', 'guard.no_request_state', s =>
    editStates(state(s.candidate), st => void st.splice(0, 1))
  ),
  runCase('candidate scenario_state.json deleted', 'guard.no_scenario_state', s => rmSync(state(s.candidate))),
  runCase('candidate stat repeated', 'guard.duplicate_stat', s =>
    editJson<Row[]>(stats(s.candidate), rows => void rows[0].stats.push({ ...rows[0].stats.find(x => x.name.name === 'exact_match')! }))
  ),
  runCase('candidate scenario changed (one-sided runs)', 'runs.one_sided', s =>
    editJson<{ scenario_spec: { args: Record<string, unknown> } }>(
      runFile(s.candidate, 'run_spec.json'),
      r => void (r.scenario_spec.args.extra = 1)
    )
  ),
  runCase('baseline per_instance_stats.json an object', 'input.wrong_type', s => writeFileSync(stats(s.baseline), '{"a": 1}')),
  runCase('candidate lower-case nan token', 'input.malformed_json', s => rawReplace(stats(s.candidate), '"sum": 0', '"sum": nan')),
  runCase('candidate scenario_state.json a top-level array', 'input.wrong_type', s => writeFileSync(state(s.candidate), '[]'))
]

const GATE_HEAD = 'version: 1\nruns:\n  - { entry: simple_mcqa, metric: exact_match, max_drop: 0.5 }\n'

function gateCase(name: string, error: string, text: string, absent: string[] = []): Case {
  return {
    name,
    kind: 'gate file',
    exit: 2,
    error,
    absent,
    args: ws => ['compare', ws.side('baseline'), ws.side('candidate'), '--config', ws.file('gate.yml', text), '--json', ws.json]
  }
}

const KEY = 'sk-proj-corpus0123456789abcdefXYZ'
const SERVER = (extra: string): string =>
  `  baseline: { api: chat, base_url: "http://127.0.0.1:1/v1", model: a${extra} }\n  candidate: { api: chat, base_url: "http://127.0.0.1:2/v1", model: b }\n`

const GATE_CASES: Case[] = [
  gateCase('api_key instead of api_key_env', 'config.unknown_key', `${GATE_HEAD}deployments:\n${SERVER(`, api_key: "${KEY}"`)}`, [KEY]),
  gateCase('a list-typed api_key_env', 'config.invalid', `${GATE_HEAD}deployments:\n${SERVER(`, api_key_env: ["${KEY}"]`)}`, [KEY]),
  gateCase(
    'a key pasted into api_key_env',
    'config.invalid',
    `${GATE_HEAD}deployments:\n${SERVER(', api_key_env: ghp_0123456789abcdefABCDEF0123456789')}`,
    ['ghp_0123456789abcdef']
  ),
  gateCase(
    'a token under an unknown nested key',
    'config.unknown_key',
    `${GATE_HEAD}deployments:\n${SERVER(`, auth: { token: "${KEY}" }`)}`,
    [KEY]
  ),
  gateCase(
    'base_url with user:password',
    'config.invalid',
    `${GATE_HEAD}deployments:\n${SERVER('').replace('http://127.0.0.1:1', 'http://u:hunter2secret@127.0.0.1:1')}`,
    ['hunter2secret']
  ),
  gateCase(
    'a YAML alias bomb',
    'config.yaml',
    'a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n'
  ),
  gateCase('a duplicate key', 'config.yaml', `version: 1\n${GATE_HEAD}`),
  gateCase('a 100,000-deep flow sequence', 'config.yaml', `version: 1\nruns: ${deep(100_000)}\n`),
  gateCase('a tab indent', 'config.yaml', 'version: 1\nruns:\n\t- entry: x\n'),
  gateCase('an unclosed quote', 'config.yaml', 'version: "1\nruns: []\n'),
  gateCase('a list at the top', 'config.type', '- version: 1\n'),
  gateCase('version 2', 'config.invalid', GATE_HEAD.replace('version: 1', 'version: 2')),
  gateCase('no runs', 'config.missing', 'version: 1\nruns: []\n'),
  gateCase('a negative max_drop', 'config.invalid', GATE_HEAD.replace('max_drop: 0.5', 'max_drop: -0.1')),
  gateCase('max_drop and max_relative_drop', 'config.invalid', GATE_HEAD.replace('max_drop: 0.5', 'max_drop: 0.5, max_relative_drop: 0.1')),
  gateCase('an entry naming a model', 'config.invalid', GATE_HEAD.replace('entry: simple_mcqa', 'entry: "simple_mcqa:model=x"')),
  gateCase('confidence 1.5', 'config.invalid', `${GATE_HEAD}statistics: { confidence: 1.5 }\n`),
  gateCase('an unknown statistics key', 'config.unknown_key', `${GATE_HEAD}statistics: { confidance: 0.9 }\n`),
  {
    name: 'a gate file that does not exist',
    kind: 'gate file',
    exit: 2,
    error: 'config.unreadable',
    args: ws => ['compare', ws.side('baseline'), ws.side('candidate'), '--config', join(ws.dir, 'missing.yml')]
  }
]

function cliCase(name: string, exit: 0 | 1 | 2, error: string | null, args: (ws: Workspace) => string[]): Case {
  return { name, kind: 'command line', exit, error, args }
}

const CLI_CASES: Case[] = [
  cliCase('no arguments', 2, null, () => []),
  cliCase('an unknown command', 2, null, () => ['comapre']),
  cliCase('compare with one path', 2, 'usage.positionals', ws => [
    'compare',
    ws.side('baseline'),
    '--metric',
    'exact_match',
    '--max-drop',
    '0.1',
    '--json',
    ws.json
  ]),
  cliCase('an unknown option', 2, 'usage.option', () => ['compare', 'a', 'b', '--max-dorp', '0.1']),
  cliCase('--max-drop not a number', 2, 'usage.value', () => ['compare', 'a', 'b', '--metric', 'm', '--max-drop', 'abc']),
  cliCase('--confidence 2', 2, 'usage.value', () => ['compare', 'a', 'b', '--metric', 'm', '--max-drop', '0.1', '--confidence', '2']),
  cliCase('--resamples 5', 2, 'usage.value', () => ['compare', 'a', 'b', '--metric', 'm', '--max-drop', '0.1', '--resamples', '5']),
  cliCase('--interval foo', 2, 'usage.value', () => ['compare', 'a', 'b', '--metric', 'm', '--max-drop', '0.1', '--interval', 'foo']),
  cliCase('--max-drop with --max-relative-drop', 2, 'usage.conflict', () => [
    'compare',
    'a',
    'b',
    '--metric',
    'm',
    '--max-drop',
    '0.1',
    '--max-relative-drop',
    '0.1'
  ]),
  cliCase('no --metric', 2, 'usage.missing', () => ['compare', 'a', 'b', '--max-drop', '0.1']),
  cliCase('a baseline path that does not exist', 2, 'input.not_found', ws => [
    'compare',
    join(ws.dir, 'nope'),
    ws.side('candidate'),
    '--metric',
    'exact_match',
    '--max-drop',
    '0.1',
    '--json',
    ws.json
  ]),
  cliCase('a candidate path that is a file', 2, 'input.not_a_directory', ws => [
    'compare',
    ws.side('baseline'),
    ws.file('plain.txt', 'x'),
    '--metric',
    'exact_match',
    '--max-drop',
    '0.1',
    '--json',
    ws.json
  ]),
  cliCase('--json under a file', 2, 'output.unwritable', ws => [
    'compare',
    ws.side('baseline'),
    ws.side('candidate'),
    '--metric',
    'exact_match',
    '--max-drop',
    '0.5',
    '--json',
    join(ws.file('blocker', 'x'), 'r.json')
  ]),
  cliCase('--min-overlap 0', 2, 'usage.value', () => ['compare', 'a', 'b', '--metric', 'm', '--max-drop', '0.1', '--min-overlap', '0']),
  cliCase('plan without --config', 2, 'usage.missing', () => ['plan'])
]

const HELM = 'helm: { version: "0.5.16", max_eval_instances: 10 }\n'

/** `plan` with a user prod_env on the baseline side; the secrets must never be printed. */
function prodEnvCase(name: string, files: Record<string, string>, secrets: string[], exit: 0 | 2 = 0, error: string | null = null): Case {
  return {
    name,
    kind: 'prod_env',
    exit,
    error,
    absent: secrets,
    args: ws => {
      for (const [file, text] of Object.entries(files)) ws.file(join('prod_env', file), text)
      const gate = `${GATE_HEAD}${HELM}deployments:\n  baseline: { prod_env: ${JSON.stringify(join(ws.dir, 'prod_env'))}, deployment: acme/m }\n  candidate: { api: chat, base_url: "http://127.0.0.1:2/v1", model: b }\n`
      return ['plan', '--config', ws.file('gate.yml', gate)]
    }
  }
}

const DEPLOYMENTS = (args: string): string =>
  `model_deployments:\n  - name: acme/m\n    model_name: acme/m\n    tokenizer_name: simple/tokenizer1\n    max_sequence_length: 4096\n    client_spec:\n      class_name: helm.clients.openai_client.OpenAIClient\n      args:\n${args}\n`

const PROD_ENV_CASES: Case[] = [
  prodEnvCase(
    'an old key in a credentials.conf comment',
    {
      'model_deployments.yaml': DEPLOYMENTS('        x: 1'),
      'credentials.conf': '# openaiApiKey: sk-old0123456789abcdef\nopenaiApiKey: "sk-new0123456789abcdef"\n'
    },
    ['sk-old0123456789', 'sk-new0123456789']
  ),
  prodEnvCase('client_spec.args.api_key', { 'model_deployments.yaml': DEPLOYMENTS('        api_key: plainvalue-not-a-pattern') }, [
    'plainvalue-not-a-pattern'
  ]),
  prodEnvCase('a key in a YAML comment', { 'model_deployments.yaml': `# sk-yamlcomment0123456789abc\n${DEPLOYMENTS('        x: 1')}` }, [
    'sk-yamlcomment'
  ]),
  prodEnvCase(
    'a key in the base_url query',
    { 'model_deployments.yaml': DEPLOYMENTS('        base_url: "https://h.example/v1?api-key=querysecret42"') },
    ['querysecret42']
  ),
  prodEnvCase(
    'userinfo in the base_url',
    { 'model_deployments.yaml': DEPLOYMENTS('        base_url: "https://me:userinfosecret@h.example/v1"') },
    ['userinfosecret']
  ),
  prodEnvCase(
    'a JSON credentials.conf',
    { 'model_deployments.yaml': DEPLOYMENTS('        x: 1'), 'credentials.conf': '{"acmeApiKey": "sk-json0123456789abcdef"}\n' },
    ['sk-json0123456789']
  ),
  prodEnvCase('a broken model_deployments.yaml', { 'model_deployments.yaml': 'model_deployments:\n  - name: [\n' }, [], 2, 'config.yaml'),
  prodEnvCase(
    'an alias bomb in model_deployments.yaml',
    {
      'model_deployments.yaml':
        'a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nmodel_deployments: [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n'
    },
    [],
    2,
    'config.yaml'
  ),
  prodEnvCase(
    'a deployment that is not there',
    { 'model_deployments.yaml': DEPLOYMENTS('        x: 1').replace('name: acme/m', 'name: other/m') },
    [],
    2,
    'config.prod_env'
  ),
  {
    // Refused (HELM would send the route after the query), without echoing the key.
    name: 'a key in the gate file base_url query',
    kind: 'prod_env',
    exit: 2,
    error: 'config.invalid',
    absent: ['gatequerysecret7'],
    args: ws => {
      const gate = `${GATE_HEAD}${HELM}deployments:\n${SERVER('').replace('http://127.0.0.1:1/v1', 'http://127.0.0.1:1/v1?key=gatequerysecret7')}`
      return ['plan', '--config', ws.file('gate.yml', gate)]
    }
  }
]

/**
 * A regression (altered -> simple_model1) whose candidate answers carry the injection: the
 * markdown (the PR comment body) must not hold it raw. report.json keeps the text as data.
 */
function injectionCase(name: string, text: string, absent: string[], absentOutsideCode: string[] = []): Case {
  return {
    name,
    kind: 'markdown injection',
    exit: 1,
    error: null,
    check: outcome => {
      const markdown = outcome.markdown ?? ''
      expect(markdown).toContain(text.includes('\n') ? 'Candidate output' : 'Changed answers')
      for (const raw of absent) expect(markdown).not.toContain(raw)
      // Inside code, HTML, links and references are inert; outside it they must not survive.
      const prose = outsideCode(markdown)
      for (const raw of absentOutsideCode) expect(prose).not.toContain(raw)
    },
    args: ws => {
      const baseline = ws.side('baseline', ALTERED_SUITE)
      const candidate = ws.side('candidate', BASELINE_SUITE)
      for (const run of [
        MCQA_RUN,
        'simple_mcqa_model=simple_model1,data_augmentation=robustness',
        'synthetic_reasoning_mode=pattern_match,model=simple_model1'
      ]) {
        editStates(join(candidate, run, 'scenario_state.json'), st => {
          for (const s of st) for (const c of (s.result?.completions ?? []) as { text: string }[]) c.text = text
        })
      }
      return [
        'compare',
        baseline,
        candidate,
        '--metric',
        'exact_match',
        '--max-drop',
        '0.05',
        '--json',
        ws.json,
        '--markdown',
        ws.markdown,
        '--quiet'
      ]
    }
  }
}

/** The markdown with fenced code blocks and code spans removed. */
function outsideCode(markdown: string): string {
  return markdown.replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1`*$/gm, '').replace(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g, '')
}

const MARKER = '<!-- helm-gate:sticky-comment -->'
const MARKDOWN_CASES: Case[] = [
  injectionCase('the sticky-comment marker', MARKER, [MARKER, '<!--']),
  injectionCase('the marker in a code fence', `\`\`\`\n${MARKER}\n\`\`\``, [MARKER, '<!--']),
  injectionCase('an @mention', 'cc @octocat please', [], ['@octocat']),
  injectionCase('a script tag', '</details><script>alert(1)</script>', [], ['<script>', '</details>\n<script']),
  injectionCase('a markdown link', '[click](https://evil.example/x)', [], ['](https://evil.example', 'https://evil']),
  injectionCase('an issue reference', 'fixes #123', [], ['#123']),
  injectionCase('a table breaker', '| a | b |\n|---|---|', [], ['| a | b |']),
  injectionCase('an unbalanced fence', '````\n</details>\n<!-- x', ['<!-- x'], ['</details>\n<!--'])
]

export const CASES: Case[] = [...RUN_CASES, ...GATE_CASES, ...CLI_CASES, ...PROD_ENV_CASES, ...MARKDOWN_CASES]
