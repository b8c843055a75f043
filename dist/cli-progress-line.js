import path, { join } from 'node:path';
import { mkdir, readdir } from 'node:fs/promises';
import { D as DEFAULT_STATISTICS, G as GateError, b as newReport, d as compareServing, h as hostOf, f as runsByEntry, H as HOLISTIC_FAMILIES, T as TOXICITY_METRICS, i as perturbationFamilies, j as HELM_GATE_VERSION, k as compareOutputs, w as writeReportOutputs, e as exitCode, U as UsageError, c as counted } from './cli.js';
import { i as imageOf, w as writeManifest, l as loadTimelineOf, a as launchedLoadFor, r as runLoadHalf, b as loadOnlyReport, Q as QualityMeasurement, m as measurementsFor, c as manifestPath, d as applyStoppedChecks, g as guardOnCancel } from './cli-measurements.js';
import { p as planSides, m as makeRunPlan } from './cli-detect-fidelity-route.js';

const SIDES = ['baseline', 'candidate'];

/**
 * A report for a gate that could not compare at all (the gate file is invalid, helm-run could
 * not start, the shards are incomplete). It has the error verdict, so it blocks like a failure,
 * and it still goes through the renderers, so the PR comment says what went wrong.
 */
function issueFrom(error) {
    if (error instanceof GateError) {
        const issue = { code: error.code, message: error.message };
        if (error.location.file)
            issue.file = error.location.file;
        if (error.location.field)
            issue.field = error.location.field;
        if (error.location.value !== undefined)
            issue.value = String(error.location.value);
        return issue;
    }
    return { code: 'internal', message: error instanceof Error ? error.message : String(error) };
}
function errorReport(headline, errors, statistics = DEFAULT_STATISTICS) {
    return emptyReport('error', headline, errors, statistics);
}
/**
 * The report of a run that compares nothing (a shard, an archived baseline): pass only means
 * every side ran to completion, which is what mode run's `verdict` output promises.
 */
function runReport(sides, complete, errors, statistics) {
    const headline = complete
        ? `The ${sides.join(' and ')} ran to completion; nothing was compared here.`
        : `The ${sides.join(' and ')} did not run to completion: ${errors.map(e => issueFrom(e).message).join('; ') || 'see the logs'}`;
    return emptyReport(complete ? 'pass' : 'error', headline, errors, statistics);
}
function emptyReport(verdict, headline, errors, statistics) {
    return newReport(statistics, { verdict, headline, errors: errors.map(issueFrom) });
}

function sidesFailedReport(errors, statistics, baselinePath, candidatePath) {
    const report = errorReport(`The gate could not run both sides (${errors.length} error${errors.length === 1 ? '' : 's'}); nothing was compared, nothing passes.`, errors, statistics);
    report.baseline.path = baselinePath;
    report.candidate.path = candidatePath;
    return report;
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
        const serving = server.serving_config ?? null;
        if (version || entry.root || entry.max_model_len !== null || entry.owned_by || serving) {
            engine = { version, ...entry, ...(serving ? { serving } : {}) };
        }
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
    // The chat template and sampling defaults, compared once here for every renderer.
    const serving = compareServing(report.baseline.identity?.engine?.serving, report.candidate.identity?.engine?.serving);
    if (serving)
        report.context.serving = serving;
}

/**
 * The holistic grid (docs/report.md "The holistic grid"): what the gate measured of each run
 * entry, family by family, and what it left blank and why. HELM's own grid marks the
 * scenario-by-metric cells it did not measure, because an omitted measurement is a finding; here
 * a cell is the paired verdict of the report's own rows (never a new computation), and a cell the
 * gate file requires (`require:`, src/config/holistic-require.ts) that is not gated makes the
 * verdict error (fail closed). Pure: report and gate file in, grid out.
 */
const ORDER = ['pass', 'inconclusive', 'fail', 'error'];
const worst = (verdicts) => verdicts.reduce((w, v) => (ORDER.indexOf(v) > ORDER.indexOf(w) ? v : w), 'pass');
const count = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
const blank = (reason) => ({ state: 'blank', verdict: null, reason });
/** Gated when any row gates (the gated rows' verdict), shown otherwise (all rows' verdict). */
function fromRows(rows, what) {
    const gated = rows.filter(r => r.gated);
    const counted = gated.length > 0 ? gated : rows;
    return {
        state: gated.length > 0 ? 'gated' : 'shown',
        verdict: worst(counted.map(r => r.verdict)),
        reason: `${count(counted.length, what)}${gated.length > 0 ? '' : ', shown only'}`
    };
}
/** The cells of one entry from the report's rows of its runs. */
function entryCells(entry, at, report, config) {
    const comparisons = report.comparisons.filter(c => (c.entry ?? c.run) === entry);
    const runs = new Set(comparisons.map(c => c.run));
    const noRun = blank('no comparison of this entry (see the errors)');
    const clean = comparisons.filter(c => c.perturbation === null);
    const perturbed = (family) => {
        if (!perturbationFamilies(entry).includes(family))
            return blank(`perturbation not configured (data_augmentation=${family})`);
        const rows = comparisons.filter(c => c.perturbation !== null);
        return rows.length > 0 ? fromRows(rows, 'perturbed row') : blank('no perturbed instance was scored');
    };
    const calibrations = (report.calibrations ?? []).filter(r => runs.has(r.run));
    const chat = config.deployments && Object.values(config.deployments).some(d => d.kind === 'server' && d.api === 'chat');
    const checked = at.some(i => config.runs[i].calibration);
    const toxicity = comparisons.filter(c => TOXICITY_METRICS.includes(c.metric));
    const efficiency = report.efficiency.filter(e => runs.has(e.run));
    const lengths = (report.answer_lengths ?? []).filter(r => r.source !== 'traffic' && runs.has(r.run));
    return {
        accuracy: clean.length > 0 ? fromRows(clean, 'row') : noRun,
        calibration: calibrations.length > 0
            ? fromRows(calibrations, 'calibration row')
            : checked
                ? blank('the calibration check could not be computed (see the errors)')
                : chat
                    ? blank('needs probabilities the API did not return (a chat API gives none)')
                    : blank('not checked (runs[i].calibration)'),
        robustness: perturbed('robustness'),
        fairness: perturbed('fairness'),
        bias: blank("not paired: HELM's bias metrics are computed over a whole run, not per instance"),
        toxicity: toxicity.length > 0 ? fromRows(toxicity, 'toxicity row') : blank("not in this run's metric set"),
        efficiency: efficiency.length > 0
            ? {
                state: 'shown',
                verdict: null,
                reason: `request time, median ×${efficiency[0].median_ratio.estimate.toPrecision(3)}, shown only`
            }
            : blank('no request times recorded'),
        answer_length: lengths.length > 0 ? fromRows(lengths, 'answer-length row') : blank('no answers to measure'),
        fidelity: blank('measured for the gate as a whole')
    };
}
/** The grid of a report made from `config`. */
function holisticGrid(report, config) {
    const required = config.require ?? [];
    const families = [...HOLISTIC_FAMILIES];
    const cell = (family, part) => ({ family, ...part, required: required.includes(family) });
    const rows = [...runsByEntry(config.runs)].map(([entry, at]) => {
        const cells = entryCells(entry, at, report, config);
        return { entry, cells: families.filter(f => f !== 'fidelity').map(f => cell(f, cells[f])) };
    });
    const fidelity = report.fidelity;
    const gate = [
        cell('fidelity', fidelity && fidelity.checks.length > 0
            ? fromRows(fidelity.checks.map(c => ({ gated: true, verdict: c.verdict })), 'fidelity check')
            : config.fidelity
                ? blank('the fidelity measurement did not complete (see the errors)')
                : blank('not configured (fidelity:)'))
    ];
    return { families, rows, gate, required: [...required] };
}
/** Why a required cell does not count: blank, or measured but not gated. */
function requiredProblem(cell) {
    if (!cell.required || cell.state === 'gated')
        return null;
    return cell.state === 'blank' ? `it is blank: ${cell.reason}` : 'it was measured but not gated';
}
/**
 * The report with its grid, and an error for each required cell that is not gated (the gate
 * file's check at load makes that a run-time failure: a run that did not complete, a row that
 * could not be computed). The quality half's own verdict, when the report carries it, takes the
 * error too: the grid is part of the quality half.
 */
function withHolisticGrid(report, config) {
    const grid = holisticGrid(report, config);
    const issues = [];
    for (const row of grid.rows) {
        for (const cell of row.cells) {
            const problem = requiredProblem(cell);
            if (problem)
                issues.push(requiredIssue(config, `${cell.family} of ${row.entry}`, problem, cell.family));
        }
    }
    for (const cell of grid.gate) {
        const problem = requiredProblem(cell);
        if (problem)
            issues.push(requiredIssue(config, cell.family, problem, cell.family));
    }
    if (issues.length === 0)
        return { ...report, holistic: grid };
    const headline = `Error: ${count(issues.length, 'required cell')} of the holistic grid ${issues.length === 1 ? 'is' : 'are'} not gated (${issues[0].message}).`;
    return {
        ...report,
        verdict: 'error',
        headline,
        errors: [...report.errors, ...issues],
        ...(report.quality ? { quality: { verdict: 'error', errors: [...report.quality.errors, ...issues] } } : {}),
        holistic: grid
    };
}
function requiredIssue(config, what, problem, family) {
    const j = (config.require ?? []).indexOf(family);
    return {
        code: 'holistic.required_blank',
        message: `required cell ${what}: ${problem}`,
        file: config.source,
        field: `require[${j}]`,
        value: family
    };
}

/**
 * The pipeline, on one screen: run the sides that are not given, record how they were made,
 * compare, and load-test both deployments while they are up. `helm-gate run` and every action
 * mode go through here; each is a short adapter that says where the sides come from (helm-run, an
 * archived baseline, shard artifacts), whether the load half runs, and where the results go
 * (files, a PR comment, an artifact).
 *
 *   gate file ─► runGate: the run plan ─► the sides held on the schedule with every measurement
 *            (the quality half first: helm-run per side; then traffic, fidelity, the load half)
 *            ─► the measurements on servers always up ─► manifest.json ─► compareOutputs
 *            ─► each measurement joins its part (traffic, fidelity, the load half) ─► report
 *
 * The measurements (src/pipeline/measurements.ts) share one interface (src/model/measurement.ts);
 * where the load half is measured (while launched servers are up, on servers launched again for
 * it alone, or after the quality half) is its own decision (src/launch/load-measurement.ts).
 *
 * runLoadOnlyGate is the performance half alone (`helm-gate load`, `run --only load`).
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
    await mkdir(outDir, { recursive: true });
    const run = await measureSides(settings, outDir, wanted);
    const manifest = manifestOf(settings, { outDir, wanted, started, run });
    await writeManifest(outDir, manifest);
    const { errors, paths } = run;
    if (settings.compare === false)
        return { report: runReport(wanted, manifest.complete, errors, config.statistics), manifest, paths };
    const report = await measuredReport(settings, run, manifest);
    // The load half's blocks and the periods its sides were up, beside the launch records.
    const timeline = loadTimelineOf(report.load);
    if (timeline) {
        manifest.load_timeline = timeline;
        await writeManifest(outDir, manifest);
    }
    return { report, manifest, paths };
}
/**
 * The run plan, then the sides not given run on the schedule with every measurement held while
 * they are up (each side's log then handed to `sidesDone`), then the measurements on servers
 * always up. Problems of a side become errors of the run, announced unless `announceErrors` is
 * false; only the refusals before anything runs throw.
 */
async function measureSides(settings, outDir, wanted) {
    const { config } = settings;
    const given = settings.given ?? {};
    const toRun = wanted.filter(side => !given[side]);
    const errors = [...(settings.priorErrors ?? [])];
    // Made once, before anything runs (src/plan/run-plan.ts): the fingerprint the manifest records.
    const plan = await makeRunPlan(config, {
        env: settings.env ?? process.env,
        cwd: settings.cwd ?? process.cwd(),
        baseRef: settings.baseRef ?? null,
        sequential: settings.sequential,
        fingerprint: settings.fingerprint
    });
    // Refusals before anything runs (HELM version, same deployment, missing key, an output folder
    // in use) are thrown by the quality half's run: there is nothing to record or compare, and stale
    // files must not be.
    const quality = toRun.length > 0
        ? new QualityMeasurement(config, {
            outDir,
            sides: toRun,
            runs: settings.runs,
            selfCheck: settings.selfCheck,
            sequential: settings.sequential,
            plan,
            baseRef: settings.baseRef,
            readinessTimeoutMs: settings.readinessTimeoutMs,
            // Only the command line can change it (--ready-timeout); the action has no such input.
            readinessTimeoutHint: settings.mode.startsWith('cli') ? undefined : null,
            log: settings.log,
            progress: settings.progress,
            env: settings.env,
            cwd: settings.cwd
        })
        : null;
    // Every measurement, the quality half first, each run while its sides are up and joining its own
    // part of the report (src/pipeline/measurements.ts).
    const measurements = measurementsFor(config, {
        compare: settings.compare !== false,
        load: settings.load ?? null,
        outDir,
        cwd: settings.cwd ?? process.cwd(),
        env: settings.env ?? process.env,
        progress: settings.progress ?? (() => { }),
        baseRef: settings.baseRef ?? null,
        sequential: settings.sequential,
        toRun,
        plan,
        quality
    });
    let outcome = null;
    if (quality) {
        outcome = await quality.run(measurements);
        errors.push(...outcome.errors);
        await settings.sidesDone?.(sideLogs(outcome, outDir));
    }
    const sidePath = (side) => given[side]?.path ?? outcome?.paths[side] ?? path.join(outDir, side);
    const paths = { baseline: sidePath('baseline'), candidate: sidePath('candidate') };
    // The sides no launch brings up are servers that are always up: measured now.
    for (const measurement of measurements)
        await measurement.holdAlwaysUp(paths);
    if (settings.announceErrors !== false) {
        for (const error of errors.slice(settings.priorErrors?.length ?? 0))
            settings.progress?.(`helm-gate: ${error.describe()}`);
    }
    return { plan, measurements, outcome, paths, errors };
}
/** manifest.json: how each side was made (or where it was taken from) and what the gate set is. */
function manifestOf(settings, { outDir, wanted, started, run }) {
    const { config } = settings;
    const { outcome } = run;
    const given = settings.given ?? {};
    const sides = { ...outcome?.records };
    for (const side of wanted) {
        const taken = given[side];
        if (taken)
            sides[side] = { source: taken.source, output_path: manifestPath(outDir, taken.path), complete: true };
    }
    const complete = wanted.every(side => sides[side]?.complete === true) && run.errors.length === 0;
    return {
        schema: 'helm-gate-manifest/1',
        tool_version: HELM_GATE_VERSION,
        mode: settings.mode,
        config_source: settings.configSource ?? config.source,
        // The run plan's, fingerprint_paths included, whether or not a side ran here (merged shards).
        fingerprint: run.plan.fingerprint,
        helm_version: outcome?.helmVersion ?? config.helm?.version ?? null,
        entries: [...new Set((settings.runs ?? config.runs).map(gated => gated.entry))],
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
}
/** The comparison of the two sides' outputs, with every measurement's part joined, then the identity and the grid. */
async function measuredReport(settings, run, manifest) {
    const { config } = settings;
    const { outcome, errors, paths } = run;
    // One cause, one error: a side that did not complete has already said why; reading its output
    // would only add symptoms (and a healthy side that never started would look empty).
    const compared = (outcome?.errors.length ?? 0) > 0
        ? sidesFailedReport(errors, config.statistics, paths.baseline, paths.candidate)
        : await compareOutputs(paths.baseline, paths.candidate, config, {
            priorErrors: errors,
            examples: settings.examples,
            changedAnswers: settings.changedAnswers
        });
    // A sequential gate's rows take the confidence sequence's decisions (docs/method.md "Sequential verdicts").
    // With the section and no stage outcome (nothing decided), every gated row is an error.
    let report = config.stopping ? applyStoppedChecks(compared, config, outcome?.stopped ?? []) : compared;
    for (const measurement of run.measurements) {
        report = await measurement.attach(report, { paths, changedAnswers: settings.changedAnswers, examples: settings.examples });
    }
    report.notes.push(...(outcome?.notes ?? []));
    attachIdentity(report, manifest);
    // Last, once every measurement has joined its rows: the grid reads them all.
    return withHolisticGrid(report, config);
}
/**
 * The performance half alone (`helm-gate load`, `run --only load`): launched servers are started,
 * load-tested while up and stopped (src/launch/launched-load.ts); servers that are always up are
 * load-tested as they are. The report says the quality half did not run.
 */
async function runLoadOnlyGate(config, options) {
    // The plan's sides, made once (no fingerprint: nothing is recorded for the load half alone).
    const plan = options.plan ?? planSides(config, options.env);
    const measured = launchedLoadFor(config, { ...options, plan });
    const outcome = await runLoadHalf(config, options.outDir, {
        env: options.env,
        progress: options.progress,
        gateSetOutput: null,
        endpoints: plan.endpoints,
        measured
    });
    return loadOnlyReport(config, outcome.report);
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
 * `load` and `run --only load`: the performance half alone (runLoadOnlyGate, src/pipeline/), from
 * the CLI's options; the report goes to the output folder.
 */
/** Runs the load half into `outDir` and writes its report; returns the exit status. */
async function runLoadOnly(config, outDir, args, io, say, cancel, 
/** `run --only load`'s --json/--markdown/--html copies, once the folder's report is written. */
extraReports) {
    const report = await runLoadOnlyGate(config, {
        outDir,
        cwd: io.cwd,
        env: io.env,
        progress: say,
        baseRef: args.options.get('baseline-ref') ?? null,
        sequential: args.flags.has('sequential')
    });
    await cancel.settle();
    await writeReportOutputs(report, {
        json: join(outDir, 'report.json'),
        markdown: join(outDir, 'report.md'),
        quiet: args.flags.has('quiet'),
        io
    });
    await extraReports?.(report);
    return exitCode(report.verdict);
}

/**
 * `run --out DIR` writes report.json, report.md, manifest.json, logs/ and one folder per side.
 * A folder that already holds anything would be partly overwritten and partly mixed with the new
 * run, so only a new or empty folder is accepted; the refusal names what is there, and says when
 * it is an earlier helm-gate output (which must not be overwritten either: it is evidence).
 */
/** Files that only a helm-gate run writes at the top of its output folder. */
const OWN_MARKERS = ['run-manifest.json', 'manifest.json'];
const SHOWN = 6;
async function assertFreshOutputFolder(dir) {
    let entries;
    try {
        entries = await readdir(dir, { withFileTypes: true });
    }
    catch (error) {
        if (error.code === 'ENOENT')
            return;
        if (error.code === 'ENOTDIR') {
            throw new UsageError('usage.out_not_folder', `--out ${dir} is a file, not a folder`, { field: '--out', value: dir });
        }
        throw error;
    }
    if (entries.length === 0)
        return;
    const names = entries.map(entry => (entry.isDirectory() ? `${entry.name}/` : entry.name)).sort();
    const shown = names.length > SHOWN ? `${names.slice(0, SHOWN).join(', ')} and ${names.length - SHOWN} more` : names.join(', ');
    const own = names.some(name => OWN_MARKERS.includes(name));
    throw new UsageError('usage.out_not_empty', `--out ${dir} is not empty: it holds ${own ? 'an earlier helm-gate output' : counted(names.length, 'entry', 'entries')} (${shown}); give a new or empty folder`, { field: '--out', value: dir });
}

/**
 * Every way `helm-gate run` / `load` can end leaves an output folder that says what happened, once
 * the folder holds anything of the run (a server's log, a side's folder).
 *
 * Ctrl-C (SIGINT) or SIGTERM: the signal handler (src/process/registry.ts) first stops every
 * helm-run and launched server and removes the temporary files; then the hook below writes an
 * error report saying the run was cancelled next to the logs written so far (named by their place
 * in the output folder, as everywhere in the report), so the folder never reads as a gate that is still
 * running or that silently ended, and the exit status is 128 + the signal's number.
 */
function reportOnCancel(outDir, statistics, io, html) {
    return guardOnCancel(async (signal) => {
        const cancelled = new GateError('run.cancelled', `helm-gate received ${signal} before the gate finished: every helm-run and launched server was stopped and the temporary files (prod_env, the base commit's worktree) removed; nothing was compared, and the logs written until then are in logs/ of the output folder`);
        const report = errorReport(`Cancelled: helm-gate received ${signal} before the gate finished.`, [cancelled], statistics);
        // The summary of a cancelled run is its one error: printed as --quiet prints errors.
        await writeInto(outDir, report, io, html, true);
        io.stderr(`helm-gate: cancelled; ${join(outDir, 'report.json')} says so\n`);
    });
}
/**
 * An error that stopped the run (a launch refused because something already answers at the
 * address, a side that could not start): report.json, report.md and report.html (for `run`) hold
 * it next to the logs. Only into a folder the run has started to fill and has not yet reported
 * in: a refusal before that (a usage error) leaves no folder behind. The error is printed once,
 * by the command line's top level.
 */
async function reportFailure(outDir, error, statistics, io, html) {
    const entries = await readdir(outDir).catch(() => []);
    // A report already written (the run finished; a later copy, --json FILE, failed) is the
    // evidence of what was measured: it is never replaced by the error of its copy.
    if (entries.length === 0 || entries.includes('report.json'))
        return;
    const report = errorReport(`Error: the gate stopped before comparing: ${issueFrom(error).message}`, [error], statistics);
    try {
        await writeInto(outDir, report, io, html, false);
    }
    catch {
        // The error being reported is the one that matters; the top level prints it either way.
    }
}
/**
 * Runs a command's work with both guards: the cancelled report on a signal, the error report on
 * an error (which is still thrown, for the top level to print). `work` calls `cancel.settle()`
 * before writing its own reports.
 */
async function reportingUnfinished(outDir, statistics, io, html, work) {
    const cancel = reportOnCancel(outDir, statistics, io, html);
    try {
        return await work(cancel);
    }
    catch (error) {
        // Unless helm-gate is being cancelled: then the cancelled report is the one written, and
        // settle() waits for the signal handler to exit.
        await cancel.settle();
        await reportFailure(outDir, error, statistics, io, html);
        throw error;
    }
}
function writeInto(outDir, report, io, html, printErrors) {
    return writeReportOutputs(report, {
        json: join(outDir, 'report.json'),
        markdown: join(outDir, 'report.md'),
        html: html ? join(outDir, 'report.html') : null,
        quiet: true,
        print: printErrors,
        io
    });
}

const COUNTED = /^(.*), (\d+) of (\d+) /;
function progressSink(io) {
    /** What the counted line on screen counts (the text before the count), while it is unfinished. */
    let shown = null;
    return line => {
        const counted = io.stderrIsTerminal ? COUNTED.exec(line) : null;
        if (counted === null) {
            io.stderr(`${shown !== null ? '\n' : ''}${line}\n`);
            shown = null;
            return;
        }
        const finished = counted[2] === counted[3];
        const start = shown === null ? '' : shown === counted[1] ? '\r\x1b[2K' : '\n';
        io.stderr(`${start}${line}${finished ? '\n' : ''}`);
        shown = finished ? null : counted[1];
    };
}

export { assertFreshOutputFolder as a, runLoadOnly as b, runGate as c, progressSink as p, reportingUnfinished as r };
