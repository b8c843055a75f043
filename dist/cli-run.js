import path, { resolve, join } from 'node:path';
import { H as HELM_GATE_VERSION, c as compareOutputs, p as parseArgs, U as UsageError, r as requiredConfig, n as numberOption, l as loadGateConfig, w as writeReportOutputs, e as exitCode } from './cli.js';
import { mkdir } from 'node:fs/promises';
import { i as imageOf, r as runSides, m as manifestPath, f as fingerprint, w as writeManifest, l as launchesAny, L as LoadWhileUp } from './cli-run-sides.js';
import { e as errorReport, r as runReport, a as assertFreshOutputFolder, b as reportingUnfinished, c as runLoadOnly, d as runLoadHalf, f as attachLoad } from './cli-unfinished-report.js';
import 'node:string_decoder';
import 'node:crypto';
import 'node:fs';
import 'node:url';
import 'node:worker_threads';
import 'node:child_process';
import 'node:assert';
import 'node:net';
import 'node:http';
import 'node:stream';
import 'node:querystring';
import 'node:events';
import 'node:diagnostics_channel';
import 'node:util';
import 'node:buffer';
import 'node:tls';
import 'node:zlib';
import 'node:perf_hooks';
import 'node:util/types';
import 'node:async_hooks';
import 'node:console';
import 'node:timers';
import 'node:dns';
import 'node:os';
import 'node:readline';

const SIDES = ['baseline', 'candidate'];

function sidesFailedReport(errors, statistics, baselinePath, candidatePath) {
    const report = errorReport(`The gate could not run both sides (${errors.length} error${errors.length === 1 ? '' : 's'}); nothing was compared, nothing passes.`, errors, statistics);
    report.baseline.path = baselinePath;
    report.candidate.path = candidatePath;
    return report;
}

/** host[:port] of a base URL without user, password, path or query; null when it does not parse. */
function hostOf(baseUrl) {
    try {
        const url = new URL(baseUrl);
        return url.host || null;
    }
    catch {
        return null;
    }
}

/** The served model's entry in a /models answer: root, max_model_len, owned_by. */
function modelEntry(response, model) {
    const data = response?.data;
    const entry = Array.isArray(data)
        ? data.find(e => e?.id === model)
        : undefined;
    const text = (v) => (typeof v === 'string' && v !== '' ? v.slice(0, 200) : null);
    const details = llamaCppMeta(entry?.meta);
    return {
        root: text(entry?.root),
        max_model_len: typeof entry?.max_model_len === 'number' && Number.isFinite(entry.max_model_len) ? entry.max_model_len : null,
        owned_by: text(entry?.owned_by),
        ...(details ? { details } : {})
    };
}
/** llama.cpp's /models `meta` as one line: "Q4_0 · 1.25 M parameters · 0.8 MB"; null when absent. */
function llamaCppMeta(meta) {
    if (meta === null || typeof meta !== 'object')
        return null;
    const m = meta;
    const count = (v) => typeof v === 'number' && Number.isFinite(v) && v > 0;
    const parts = [];
    if (typeof m.ftype === 'string' && m.ftype !== '')
        parts.push(m.ftype.slice(0, 40));
    if (count(m.n_params))
        parts.push(`${compact(m.n_params)} parameters`);
    if (count(m.size))
        parts.push(`${compact(m.size, 'B')}`);
    return parts.length > 0 ? parts.join(' · ') : null;
}
function compact(n, unit = '') {
    const scale = unit
        ? [
            [1e9, ' GB'],
            [1e6, ' MB'],
            [1e3, ' kB']
        ]
        : [
            [1e9, ' B'],
            [1e6, ' M'],
            [1e3, ' k']
        ];
    for (const [size, suffix] of scale)
        if (n >= size)
            return `${(n / size).toFixed(n / size >= 100 ? 0 : 2)}${suffix}`;
    return `${n}${unit ? ' B' : ''}`;
}
/** What a manifest side record says the side is. */
function sideIdentity(record, manifest, side) {
    if (!record)
        return undefined;
    const deployment = (record.deployment ?? {});
    const model = typeof deployment.model === 'string' ? deployment.model : null;
    const server = record.server;
    let engine = null;
    if (server && model) {
        const entry = modelEntry(server.response, model);
        const version = typeof server.engine_version === 'string' ? server.engine_version : null;
        if (version || entry.root || entry.max_model_len !== null || entry.owned_by)
            engine = { version, ...entry };
    }
    const origin = record.source === 'archived' && manifest.baseline_origin ? { ...manifest.baseline_origin } : { kind: record.source };
    const identity = {
        model,
        host: typeof deployment.base_url === 'string' ? hostOf(deployment.base_url) : null,
        api: typeof deployment.api === 'string' ? deployment.api : null,
        engine,
        origin: origin
    };
    const docker = launchRecord(manifest, side)?.docker;
    if (docker)
        identity.image = imageOf(docker);
    const weights = launchRecord(manifest, side)?.weights;
    if (weights)
        identity.weights = { ...weights };
    return identity;
}
/** The launch record that served `side` (a self-check's candidate is the baseline's server). */
function launchRecord(manifest, side) {
    const sides = manifest.launch?.sides;
    return sides?.[side] ?? (manifest.self_check ? sides?.baseline : undefined);
}
/** Names the report's sides and context from the manifest (paths stay as they are, in the JSON). */
function attachIdentity(report, manifest) {
    for (const side of SIDES) {
        const identity = sideIdentity(manifest.sides[side], manifest, side);
        if (identity)
            report[side].identity = identity;
        if (!report[side].helm_version && manifest.helm_version)
            report[side].helm_version = manifest.helm_version;
    }
    // Both sides' helm-run at the same time on this machine: the request times share one client.
    const bothRun = manifest.sides.baseline?.source === 'run' && manifest.sides.candidate?.source === 'run';
    report.context = { fingerprint: manifest.fingerprint, concurrent: bothRun && manifest.schedule === 'concurrent' };
}

/**
 * The pipeline, on one screen: run the sides that are not given, record how they were made, and
 * compare. `helm-gate run` and every action mode go through here; each is a short adapter that
 * says where the sides come from (helm-run, an archived baseline, shard artifacts) and where the
 * results go (files, a PR comment, an artifact).
 *
 *   gate file ─► runGate: runSides (helm-run per side) ─► manifest.json ─► compareOutputs ─► report
 *
 * Problems of a side (server not ready, helm-run failed, incomplete output) never throw: they
 * become errors of the report, so a verdict (error) and the evidence always come out. A refusal
 * before anything runs is thrown (a GateError), for the adapter to report.
 */
async function runGate(settings) {
    const { config } = settings;
    const started = new Date();
    const outDir = path.resolve(settings.cwd ?? process.cwd(), settings.outDir);
    const wanted = settings.sides ?? [...SIDES];
    const given = settings.given ?? {};
    const toRun = wanted.filter(side => !given[side]);
    const errors = [...(settings.priorErrors ?? [])];
    await mkdir(outDir, { recursive: true });
    let outcome = null;
    if (toRun.length > 0) {
        // Refusals before anything runs (HELM version, same deployment, missing key, an output folder
        // in use) are thrown: there is nothing to record or compare, and stale files must not be.
        outcome = await runSides(config, {
            outDir,
            sides: toRun,
            runs: settings.runs,
            selfCheck: settings.selfCheck,
            sequential: settings.sequential,
            baseRef: settings.baseRef,
            readinessTimeoutMs: settings.readinessTimeoutMs,
            // Only the command line can change it (--ready-timeout); the action has no such input.
            readinessTimeoutHint: settings.mode.startsWith('cli') ? undefined : null,
            whileUp: settings.whileUp,
            log: settings.log,
            progress: settings.progress,
            env: settings.env,
            cwd: settings.cwd
        });
        errors.push(...outcome.errors);
        await settings.sidesDone?.(sideLogs(outcome, outDir));
    }
    if (settings.announceErrors !== false) {
        for (const error of errors.slice(settings.priorErrors?.length ?? 0))
            settings.progress?.(`helm-gate: ${error.describe()}`);
    }
    const sides = { ...outcome?.records };
    for (const side of wanted) {
        const taken = given[side];
        if (taken)
            sides[side] = { source: taken.source, output_path: manifestPath(outDir, taken.path), complete: true };
    }
    const complete = wanted.every(side => sides[side]?.complete === true) && errors.length === 0;
    const manifest = {
        schema: 'helm-gate-manifest/1',
        tool_version: HELM_GATE_VERSION,
        mode: settings.mode,
        config_source: settings.configSource ?? config.source,
        fingerprint: outcome?.fingerprint ?? fingerprint(config),
        helm_version: outcome?.helmVersion ?? config.helm?.version ?? null,
        entries: [...new Set((settings.runs ?? config.runs).map(run => run.entry))],
        self_check: Boolean(settings.selfCheck),
        concurrent: (outcome?.schedule ?? 'concurrent') === 'concurrent',
        schedule: outcome?.schedule ?? 'concurrent',
        launch: outcome?.launch ?? null,
        started_at: started.toISOString(),
        ended_at: new Date().toISOString(),
        sides,
        complete,
        baseline_origin: settings.baselineOrigin ?? null,
        shard: settings.shard ?? null,
        event: settings.event ?? null
    };
    await writeManifest(outDir, manifest);
    const sidePath = (side) => given[side]?.path ?? outcome?.paths[side] ?? path.join(outDir, side);
    const paths = { baseline: sidePath('baseline'), candidate: sidePath('candidate') };
    if (settings.compare === false)
        return { report: runReport(wanted, complete, errors, config.statistics), manifest, paths };
    // One cause, one error: a side that did not complete has already said why; reading its output
    // would only add symptoms (and a healthy side that never started would look empty).
    const report = (outcome?.errors.length ?? 0) > 0
        ? sidesFailedReport(errors, config.statistics, paths.baseline, paths.candidate)
        : await compareOutputs(paths.baseline, paths.candidate, config, {
            priorErrors: errors,
            examples: settings.examples,
            changedAnswers: settings.changedAnswers
        });
    report.notes.push(...(outcome?.notes ?? []));
    attachIdentity(report, manifest);
    return { report, manifest, paths };
}
function sideLogs(outcome, outDir) {
    const logs = [];
    for (const side of SIDES) {
        const ran = outcome.sides[side];
        if (ran)
            logs.push({ title: `${side} helm-run output`, prefix: `[${side}]`, file: ran.logFile });
    }
    for (const [side, record] of Object.entries(outcome.launch?.sides ?? {})) {
        if (record)
            logs.push({ title: `${side} server output`, prefix: `[${side} server]`, file: path.resolve(outDir, record.log_file) });
    }
    return logs;
}

/**
 * `helm-gate run --config FILE`: run both deployments with helm-run (at the same time), compare
 * them and write report.json, report.md, the run directories and logs to the output folder.
 * Exit 0 pass, 1 fail or inconclusive, 2 error.
 */
const RUN_USAGE = `usage: helm-gate run --config FILE [options]

Runs the gate file's entries against the baseline and the candidate with helm-run (both at
once), then compares them per instance.

  --config FILE          gate file (helm, deployments, runs)
  --out DIR              output folder (default: helm-gate-runs/<time>); must be new or empty
  --self-check           run the baseline against itself: the flip rate is the server's noise floor
                         (exit 0 unless the runs fail)
  --sequential           run the sides one after the other instead of at the same time
  --baseline-ref REF     the commit a launched baseline with checkout: base runs from, and where
                         fingerprint_paths are read (default HEAD); see docs/launch.md
  --ready-timeout SEC    wait this long for each server's GET /models (default 120); a launched server
                         has its own, ready_timeout_seconds
  --examples N           changed answers shown per comparison (default 3)
  --only quality|load    run one half only (default: quality, then the load half when the gate
                         file has load:)
  --json FILE            also write the JSON report to FILE (it is always in the output folder)
  --markdown FILE        also write the markdown report (the PR comment body) to FILE
  --html FILE            also write report.html (it is always in the output folder) to FILE
  --verbose              stream every helm-run log line (prefixed with its side)
  --quiet                print nothing but errors
  --debug                show stack traces
`;
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
};
async function runCommand(argv, io) {
    const args = parseArgs(argv, SPECS);
    if (args.flags.has('help')) {
        io.stdout(RUN_USAGE);
        return 0;
    }
    if (args.positionals.length > 0)
        throw new UsageError('usage.positionals', `run takes no positional arguments\n\n${RUN_USAGE}`, { value: args.positionals.join(' ') });
    const configPath = requiredConfig(args, RUN_USAGE);
    const readySeconds = numberOption(args, 'ready-timeout', n => n > 0 && n <= 3600, 'seconds between 0 and 3600');
    const examples = numberOption(args, 'examples', n => Number.isInteger(n) && n >= 0 && n <= 100, 'an integer from 0 to 100');
    const quiet = args.flags.has('quiet');
    const selfCheck = args.flags.has('self-check');
    const only = args.options.get('only') ?? null;
    if (only !== null && only !== 'quality' && only !== 'load') {
        throw new UsageError('usage.value', '--only must be quality or load', { field: '--only', value: only });
    }
    const config = await loadGateConfig(resolve(io.cwd, configPath));
    const outDir = resolve(io.cwd, args.options.get('out') ?? join('helm-gate-runs', new Date().toISOString().replace(/[:.]/g, '-')));
    await assertFreshOutputFolder(outDir);
    const say = quiet ? () => { } : (line) => io.stderr(`${line}\n`);
    return reportingUnfinished(outDir, config.statistics, io, only !== 'load', async (cancel) => {
        if (only === 'load') {
            if (selfCheck)
                throw new UsageError('usage.option', '--self-check measures the quality half; it does not combine with --only load');
            say(`helm-gate: load test only, baseline vs candidate, output in ${outDir}`);
            return await runLoadOnly(config, outDir, args, io, say, cancel);
        }
        say(`helm-gate: ${selfCheck ? 'self-check (baseline against itself)' : 'baseline vs candidate'}, output in ${outDir}`);
        const changedAnswers = new Map();
        const wantsLoad = Boolean(config.load) && only !== 'quality' && !selfCheck;
        // Launched servers are gone after the quality half: their load half runs while they are up.
        const whileUp = wantsLoad && launchesAny(config) ? new LoadWhileUp(config, { env: io.env, progress: say }) : null;
        const gate = await runGate({
            config,
            outDir,
            mode: selfCheck ? 'cli run --self-check' : 'cli run',
            selfCheck,
            sequential: args.flags.has('sequential'),
            baseRef: args.options.get('baseline-ref') ?? null,
            readinessTimeoutMs: readySeconds === undefined ? undefined : readySeconds * 1000,
            whileUp: whileUp?.hold,
            examples: examples ?? 3,
            changedAnswers,
            log: args.flags.has('verbose') && !quiet ? say : undefined,
            progress: say,
            // The summary at the end lists every error; announcing them as they happen printed each twice.
            announceErrors: false,
            env: io.env,
            cwd: io.cwd
        });
        let report = gate.report;
        // report.json and report.md outlive the console: without this they read as an ordinary gate
        // of two deployments, and the flip rate (the point of the self-check) would be lost.
        if (selfCheck)
            report.notes.unshift(...selfCheckNotes(report));
        // The performance half runs after the quality half, never at the same time (docs/load.md).
        if (wantsLoad) {
            if (!whileUp)
                say('helm-gate: quality half done; the load half starts');
            const measured = whileUp ? () => whileUp.result() : undefined;
            const loaded = await runLoadHalf(config, outDir, { env: io.env, progress: say, gateSetOutput: gate.paths.baseline, measured });
            report = attachLoad(report, loaded.report);
        }
        await cancel.settle();
        await writeReportOutputs(report, {
            json: join(outDir, 'report.json'),
            markdown: join(outDir, 'report.md'),
            html: join(outDir, 'report.html'),
            changed: changedAnswers,
            quiet,
            io
        });
        await writeExtraReports(report, args.options.get('json'), args.options.get('markdown'), io, args.options.get('html'), changedAnswers);
        if (selfCheck && !quiet)
            io.stdout(noiseFloor(report));
        if (!quiet)
            io.stdout(budgetAdvice(report, config.helm?.maxEvalInstances ?? null));
        if (!quiet) {
            io.stdout(`\nrun directories, logs (logs/), manifest.json and report.{json,md,html}: ${outDir}\n`);
        }
        // A self-check is a measurement, not a gate: its verdict compares a server with itself, so
        // only an error (the runs or the comparison could not be made) is a failure.
        if (selfCheck)
            return report.verdict === 'error' ? exitCode('error') : 0;
        return exitCode(report.verdict);
    });
}
/**
 * For inconclusive comparisons: the instance budget that would make them decisive, in the
 * setting's own units. `n_needed` counts instances of the comparison's split, but HELM draws
 * `max_eval_instances` from all evaluation splits together (docs/helm.md), so with 32 of 60 in
 * `test` the budget must grow by the split's share: 37 needed means about 70, not 37 (which
 * would be a cut). A smaller budget is a prefix of a larger one, so the share holds roughly.
 */
function budgetAdvice(report, current) {
    const lines = [];
    for (const c of report.comparisons) {
        if (!c.gated || c.verdict !== 'inconclusive')
            continue;
        const name = `${c.run} ${c.metric}${c.perturbation ? ` [${c.perturbation}]` : ''}`;
        if (c.n_needed === null) {
            lines.push(`  ${name}: the observed drop is already at the tolerated drop; more instances will not make it pass`);
            continue;
        }
        const split = c.split ? `in ${c.split}` : 'in its split';
        lines.push(`  ${name}: about ${c.n_needed} instances needed ${split} (now ${c.n}); ${budgetTarget(c.n, c.n_needed, current, split)}`);
    }
    return lines.length ? `\nInconclusive: more instances, not a looser threshold\n${lines.join('\n')}\n` : '';
}
function budgetTarget(n, needed, current, split) {
    if (current === null || n === 0)
        return `raise helm.max_eval_instances until about ${needed} instances fall ${split}`;
    if (n >= current)
        return `raise helm.max_eval_instances from ${current} to at least ${Math.max(needed, current + 1)}`;
    // The budget was shared with other splits (or the scenario has fewer instances than asked for).
    const target = Math.max(Math.ceil((current * needed) / n), current + 1);
    return (`HELM spreads helm.max_eval_instances over all evaluation splits and ${n} of ${current} fell ${split}, ` +
        `so raise it from ${current} to about ${target} (if the scenario has that many; helm-gate plan counts them)`);
}
function flipRates(report) {
    return report.comparisons.map(c => {
        const changed = c.wins + c.losses;
        return {
            name: `${c.run} ${c.metric}${c.perturbation ? ` [${c.perturbation}]` : ''}`,
            changed,
            pairs: c.pairs,
            rate: c.pairs > 0 ? changed / c.pairs : 0
        };
    });
}
/** The flip rates as report notes, so the written report says what it measured. */
function selfCheckNotes(report) {
    return [
        'Self-check: both sides ran the baseline deployment; every changed answer is noise of that server, not a regression.',
        ...flipRates(report).map(f => `Flip rate ${f.name}: ${f.changed}/${f.pairs} answers changed between identical runs (${(f.rate * 100).toFixed(1)}%).`)
    ];
}
/** The self-check's point: how many answers change when nothing changed. */
function noiseFloor(report) {
    const lines = ['', 'Self-check: the baseline against itself (noise floor of this server)'];
    const rates = flipRates(report);
    for (const [i, c] of report.comparisons.entries()) {
        const { name, changed, rate } = rates[i];
        const margin = c.max_drop;
        const verdict = rate === 0 ? 'deterministic' : `${(rate * 100).toFixed(1)}% of answers flip between identical runs`;
        lines.push(`  ${name}: ${changed}/${c.pairs} changed, ${verdict}; tolerated drop ${margin}`);
        if (rate > 0 && margin > 0 && rate >= margin) {
            lines.push(`    the flip rate is at least the tolerated drop: expect inconclusive results unless max_eval_instances grows`);
        }
    }
    return `${lines.join('\n')}\n`;
}
/** `--json FILE`, `--markdown FILE` and `--html FILE`: the same report, where compare would write it. */
async function writeExtraReports(report, json, markdown, io, html, changed) {
    if (json === undefined && markdown === undefined && html === undefined)
        return;
    await writeReportOutputs(report, {
        json: json === undefined ? null : resolve(io.cwd, json),
        markdown: markdown === undefined ? null : resolve(io.cwd, markdown),
        html: html === undefined ? null : resolve(io.cwd, html),
        changed,
        quiet: true,
        io
    });
}

export { RUN_USAGE, budgetAdvice, noiseFloor, runCommand, selfCheckNotes };
