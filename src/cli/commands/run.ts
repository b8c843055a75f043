/**
 * `helm-gate run --config FILE`: run both deployments with helm-run (at the same time), compare
 * them and write report.json, report.md, the run directories and logs to the output folder.
 * Exit 0 pass, 1 fail or inconclusive, 2 error.
 */
import { counted } from '../../words.js'
import { join, resolve } from 'node:path'
import { loadGateConfig } from '../../config/load.js'
import { gateSections } from '../../pipeline/measurement-definitions.js'
import { UsageError } from '../../errors.js'
import type { Report } from '../../model/report.js'
import { runGate } from '../../pipeline/run-gate.js'
import type { ChangedAnswers } from '../../report/html.js'
import type { ChangedExample } from '../../model/report.js'
import { numberOption, parseArgs, requiredConfig, type ParsedArgs } from '../args.js'
import { runLoadOnly } from '../load-only.js'
import type { CliIo } from '../io.js'
import { exitCode } from '../../model/publication.js'
import { reportStreams, writeReportOutputs } from '../output.js'
import { assertFreshOutputFolder } from '../out-folder.js'
import { reportingUnfinished } from '../unfinished-report.js'
import { RUN_USAGE } from '../usage.js'
import { progressSink } from '../progress-line.js'

const SPECS = {
  config: { value: true },
  out: { value: true },
  'self-check': { value: false },
  sequential: { value: false },
  'baseline-ref': { value: true },
  'ready-timeout': { value: true },
  examples: { value: true },
  only: { value: true },
  json: { value: true },
  markdown: { value: true },
  html: { value: true },
  verbose: { value: false },
  quiet: { value: false },
  debug: { value: false },
  help: { value: false }
}

export async function runCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseArgs(argv, SPECS)
  if (args.flags.has('help')) {
    io.stdout(RUN_USAGE)
    return 0
  }
  if (args.positionals.length > 0)
    throw new UsageError('usage.positionals', `run takes no positional arguments\n\n${RUN_USAGE}`, { value: args.positionals.join(' ') })
  const configPath = requiredConfig(args, RUN_USAGE)
  const readySeconds = numberOption(args, 'ready-timeout', n => n > 0 && n <= 3600, 'seconds between 0 and 3600')
  const examples = numberOption(args, 'examples', n => Number.isInteger(n) && n >= 0 && n <= 100, 'an integer from 0 to 100')
  const quiet = args.flags.has('quiet')
  const selfCheck = args.flags.has('self-check')

  const only = args.options.get('only') ?? null
  if (only !== null && only !== 'quality' && only !== 'load') {
    throw new UsageError('usage.value', '--only must be quality or load', { field: '--only', value: only })
  }
  const { human, jsonStdout } = reportStreams(io, args.options.get('json'))
  const extraReports = (report: Report, changed?: ChangedAnswers): Promise<void> =>
    writeExtraReports(report, { ...args, json: args.options.get('json'), jsonStdout }, human, changed)
  const config = await loadGateConfig(resolve(io.cwd, configPath), { sections: gateSections() })
  const outDir = resolve(io.cwd, args.options.get('out') ?? join('helm-gate-runs', new Date().toISOString().replace(/[:.]/g, '-')))
  await assertFreshOutputFolder(outDir)
  const say = quiet ? () => {} : progressSink(human)
  return reportingUnfinished(outDir, config.statistics, human, only !== 'load', async cancel => {
    if (only === 'load') {
      if (selfCheck) throw new UsageError('usage.option', '--self-check measures the quality half; it does not combine with --only load')
      say(`helm-gate: load test only, baseline vs candidate, output in ${outDir}`)
      return await runLoadOnly(config, outDir, args, human, say, cancel, report => extraReports(report))
    }
    say(`helm-gate: ${selfCheck ? 'self-check (baseline against itself)' : 'baseline vs candidate'}, output in ${outDir}`)

    const changedAnswers = new Map<string, ChangedExample[]>()
    // The load half follows the quality half (while launched servers are up) when the gate file has load:.
    const wantsLoad = Boolean(config.load) && only !== 'quality' && !selfCheck
    const gate = await runGate({
      config,
      outDir,
      mode: selfCheck ? 'cli run --self-check' : 'cli run',
      selfCheck,
      sequential: args.flags.has('sequential'),
      baseRef: args.options.get('baseline-ref') ?? null,
      readinessTimeoutMs: readySeconds === undefined ? undefined : readySeconds * 1000,
      load: wantsLoad ? {} : null,
      examples: examples ?? 3,
      changedAnswers,
      log: args.flags.has('verbose') && !quiet ? say : undefined,
      progress: say,
      // The summary at the end lists every error; announcing them as they happen printed each twice.
      announceErrors: false,
      env: io.env,
      cwd: io.cwd
    })
    const report = gate.report
    // report.json and report.md outlive the console: without this they read as an ordinary gate
    // of two deployments, and the flip rate (the point of the self-check) would be lost.
    if (selfCheck) report.notes.unshift(...selfCheckNotes(report))
    await cancel.settle()
    await writeReportOutputs(report, {
      json: join(outDir, 'report.json'),
      markdown: join(outDir, 'report.md'),
      html: join(outDir, 'report.html'),
      changed: changedAnswers,
      quiet,
      io: human
    })
    await extraReports(report, changedAnswers)
    if (selfCheck && !quiet) human.stdout(noiseFloor(report))
    if (!quiet) human.stdout(budgetAdvice(report, config.helm?.maxEvalInstances ?? null))
    if (!quiet) {
      human.stdout(`\nrun directories, logs (logs/), manifest.json and report.{json,md,html}: ${outDir}\n`)
    }
    // A self-check is a measurement, not a gate: its verdict compares a server with itself, so
    // only an error (the runs or the comparison could not be made) is a failure.
    if (selfCheck) return report.verdict === 'error' ? exitCode('error') : 0
    return exitCode(report.verdict)
  })
}

/**
 * For inconclusive comparisons: the instance budget that would make them decisive, in the
 * setting's own units. `n_needed` counts instances of the comparison's split, but HELM draws
 * `max_eval_instances` from all evaluation splits together (docs/helm.md), so with 32 of 60 in
 * `test` the budget must grow by the split's share: 37 needed means about 70, not 37 (which
 * would be a cut). A smaller budget is a prefix of a larger one, so the share holds roughly.
 */
export function budgetAdvice(report: Report, current: number | null): string {
  const lines: string[] = []
  for (const c of report.comparisons) {
    if (!c.gated || c.verdict !== 'inconclusive') continue
    const name = `${c.run} ${c.metric}${c.perturbation ? ` [${c.perturbation}]` : ''}`
    if (c.n_needed === null) {
      lines.push(`  ${name}: the observed drop is already at the tolerated drop; more instances will not make it pass`)
      continue
    }
    const split = c.split ? `in ${c.split}` : 'in its split'
    lines.push(
      `  ${name}: about ${counted(c.n_needed, 'instance')} needed ${split} (now ${c.n}); ${budgetTarget(c.n, c.n_needed, current, split)}`
    )
  }
  return lines.length ? `\nInconclusive: more instances, not a looser threshold\n${lines.join('\n')}\n` : ''
}

function budgetTarget(n: number, needed: number, current: number | null, split: string): string {
  if (current === null || n === 0) return `raise helm.max_eval_instances until about ${needed} instances fall ${split}`
  if (n >= current) return `raise helm.max_eval_instances from ${current} to at least ${Math.max(needed, current + 1)}`
  // The budget was shared with other splits (or the scenario has fewer instances than asked for).
  const target = Math.max(Math.ceil((current * needed) / n), current + 1)
  return (
    `HELM spreads helm.max_eval_instances over all evaluation splits and ${n} of ${current} fell ${split}, ` +
    `so raise it from ${current} to about ${target} (if the scenario has that many; helm-gate plan counts them)`
  )
}

interface FlipRate {
  name: string
  changed: number
  pairs: number
  rate: number
}

function flipRates(report: Report): FlipRate[] {
  return report.comparisons.map(c => {
    const changed = c.wins + c.losses
    return {
      name: `${c.run} ${c.metric}${c.perturbation ? ` [${c.perturbation}]` : ''}`,
      changed,
      pairs: c.pairs,
      rate: c.pairs > 0 ? changed / c.pairs : 0
    }
  })
}

/** The flip rates as report notes, so the written report says what it measured. */
export function selfCheckNotes(report: Report): string[] {
  return [
    'Self-check: both sides ran the baseline deployment; every changed answer is noise of that server, not a regression.',
    ...flipRates(report).map(
      f => `Flip rate ${f.name}: ${f.changed}/${f.pairs} answers changed between identical runs (${(f.rate * 100).toFixed(1)}%).`
    )
  ]
}

/** The self-check's point: how many answers change when nothing changed. */
export function noiseFloor(report: Report): string {
  const lines = ['', 'Self-check: the baseline against itself (noise floor of this server)']
  const rates = flipRates(report)
  for (const [i, c] of report.comparisons.entries()) {
    const { name, changed, rate } = rates[i]
    const margin = c.max_drop
    const verdict = rate === 0 ? 'deterministic' : `${(rate * 100).toFixed(1)}% of answers flip between identical runs`
    lines.push(`  ${name}: ${changed}/${c.pairs} changed, ${verdict}; tolerated drop ${margin}`)
    if (rate > 0 && margin > 0 && rate >= margin) {
      lines.push(`    the flip rate is at least the tolerated drop: expect inconclusive results unless max_eval_instances grows`)
    }
  }
  return `${lines.join('\n')}\n`
}

/**
 * `--json FILE` (or `-`: standard output), `--markdown FILE` and `--html FILE`: the same report,
 * where compare would write it.
 */
async function writeExtraReports(
  report: Report,
  wanted: ParsedArgs & { json: string | undefined; jsonStdout: ((s: string) => void) | null },
  io: CliIo,
  changed?: ChangedAnswers
): Promise<void> {
  const markdown = wanted.options.get('markdown')
  const html = wanted.options.get('html')
  if (wanted.json === undefined && markdown === undefined && html === undefined) return
  await writeReportOutputs(report, {
    json: wanted.json === undefined || wanted.jsonStdout ? null : resolve(io.cwd, wanted.json),
    jsonStdout: wanted.jsonStdout,
    markdown: markdown === undefined ? null : resolve(io.cwd, markdown),
    html: html === undefined ? null : resolve(io.cwd, html),
    changed,
    quiet: true,
    io
  })
}
