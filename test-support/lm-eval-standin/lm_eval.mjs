#!/usr/bin/env node
// A stand-in for `lm_eval` (lm-evaluation-harness 0.4.x) in the runner-command tests: it takes
// lm_eval's own arguments and writes what lm_eval writes, by replaying a committed real run
// (__tests__/fixtures/lm-eval-0.4.13/<side>/), so each side's output is real lm-eval output:
//
//   node test-support/lm-eval-standin/lm_eval.mjs --model local-chat-completions \
//        --model_args base_url=...,model=gate-model --tasks gate_arith,gate_arith_zeroshot \
//        --log_samples --output_path OUT [--limit N] [--seed S] --from FIXTURE_RUN
//
// --from (the stand-in's own flag) names the real run to replay: a folder holding one
// results_<date>.json (or one folder above it). What lm_eval does with the other arguments is
// done to that run:
// - OUT/<model, `/` as `__`>/results_<date>.json and, only with --log_samples,
//   samples_<task>_<date>.jsonl, with a new <date> (datetime.now().isoformat(), `:` as `-`);
// - only the tasks of --tasks (an unknown one exits 1, as lm_eval does);
// - --limit N keeps the first N documents of each task (n-samples.effective says so) and is
//   recorded in config.limit; --seed S sets the four seeds in config; --model and --model_args
//   are recorded in config as lm_eval records them.
// Real lm_eval in CI would need its venv built on every clean clone (docs/testing.md); the
// fixtures themselves are real output and regenerable (scripts/make-lm-eval-fixtures.sh).
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'

function fail(message) {
  process.stderr.write(`lm_eval stand-in: ${message}\n`)
  process.exit(1)
}

const { values } = parseArgs({
  options: {
    model: { type: 'string' },
    model_args: { type: 'string', default: '' },
    tasks: { type: 'string' },
    log_samples: { type: 'boolean', default: false },
    output_path: { type: 'string' },
    limit: { type: 'string' },
    seed: { type: 'string' },
    apply_chat_template: { type: 'boolean', default: false },
    include_path: { type: 'string' },
    from: { type: 'string' }
  },
  strict: true
})
if (!values.tasks) fail('--tasks is required')
if (!values.output_path) fail('--output_path is required')
if (!values.from) fail('--from (the real run to replay) is required')

/** The folder of the run to replay: --from itself or its one subfolder with a results file. */
function runFolder(dir) {
  const has = d => readdirSync(d).some(n => /^results_.+\.json$/.test(n))
  if (has(dir)) return dir
  const below = readdirSync(dir)
    .map(n => join(dir, n))
    .filter(d => statSync(d).isDirectory() && has(d))
  if (below.length !== 1) fail(`${dir} holds ${below.length} lm-eval runs; name one`)
  return below[0]
}

const source = runFolder(values.from)
const names = readdirSync(source)
const resultsName = names.find(n => /^results_.+\.json$/.test(n))
const sourceDate = /^results_(.+)\.json$/.exec(resultsName)[1]
const results = JSON.parse(readFileSync(join(source, resultsName), 'utf8'))

// lm_eval's simple_parse_args_string: k=v pairs, numbers and booleans converted.
const modelArgs = {}
for (const pair of values.model_args.split(',').filter(Boolean)) {
  const eq = pair.indexOf('=')
  const [k, v] = eq < 0 ? [pair, ''] : [pair.slice(0, eq), pair.slice(eq + 1)]
  modelArgs[k] = /^-?\d+$/.test(v) ? Number(v) : v === 'True' ? true : v === 'False' ? false : v
}
const tasks = values.tasks.split(',').filter(Boolean)
const unknown = tasks.filter(t => !(t in results.configs))
if (unknown.length) fail(`Tasks not found: ${unknown.join(', ')}`)
const limit = values.limit === undefined ? null : Number(values.limit)
if (limit !== null && !(Number.isInteger(limit) && limit > 0)) fail(`--limit ${values.limit} is not a positive integer`)

const keep = obj =>
  obj && typeof obj === 'object' ? Object.fromEntries(Object.entries(obj).filter(([task]) => tasks.includes(task))) : obj
for (const field of ['results', 'configs', 'versions', 'n-shot', 'higher_is_better', 'n-samples', 'task_hashes']) {
  if (field in results) results[field] = keep(results[field])
}
if (results.group_subtasks) results.group_subtasks = keep(results.group_subtasks)

const model = String(modelArgs.model ?? results.model_name ?? 'model')
const sanitized = model.replace(/\//g, '__')
const now = new Date()
const dateId = `${now.toISOString().slice(0, 19).replace(/:/g, '-')}.${String(now.getMilliseconds()).padStart(3, '0')}000`
results.config = {
  ...results.config,
  model: values.model ?? results.config.model,
  model_args: modelArgs,
  limit
}
if (values.seed !== undefined) {
  for (const seed of ['random_seed', 'numpy_seed', 'torch_seed', 'fewshot_seed']) results.config[seed] = Number(values.seed)
}
results.model_name = model
results.model_name_sanitized = sanitized
results.date = now.getTime() / 1000

const out = join(values.output_path, sanitized)
mkdirSync(out, { recursive: true })
for (const task of tasks) {
  const lines = readFileSync(join(source, `samples_${task}_${sourceDate}.jsonl`), 'utf8')
    .split('\n')
    .filter(Boolean)
  const kept = lines.filter(line => limit === null || JSON.parse(line).doc_id < limit)
  const docs = new Set(kept.map(line => JSON.parse(line).doc_id)).size
  const counts = results['n-samples']?.[task]
  if (counts) counts.effective = limit === null ? counts.effective : Math.min(counts.original, limit)
  if (values.log_samples) writeFileSync(join(out, `samples_${task}_${dateId}.jsonl`), kept.map(l => `${l}\n`).join(''))
  process.stdout.write(
    `lm_eval stand-in: ${task}: ${docs} documents${values.log_samples ? '' : ' (no --log_samples: samples not written)'}\n`
  )
}
writeFileSync(join(out, `results_${dateId}.json`), `${JSON.stringify(results, null, 2)}\n`)
process.stdout.write(`lm_eval stand-in: results written to ${join(out, `results_${dateId}.json`)}\n`)
