import path, { dirname, join, resolve } from 'node:path';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { D as DEFAULT_STATISTICS, G as GateError, a as newReport, I as InputError, C as ConfigError, b as GuardError, M as METRIC_SHAPE, d as decideVerdict, F as FIDELITY_METRICS, c as estimatePaired, s as showValue, f as ajvExports, g as smallSampleGuard, h as REPORTED_MARGINS, i as redactText, q as qualityVerdict, j as qualityHeadline, k as redactTree, m as answerLengthRow, T as TOKENS_UNIT, o as CHARACTERS_UNIT, H as HELM_GATE_VERSION, t as compareOutputs, w as writeReportOutputs, e as exitCode, U as UsageError } from './cli.js';
import { i as imageOf, w as worstVerdict, V as VERDICT_RANK, r as runLoad, b as beginLoad, a as isOutcome, p as probeLoadSide, c as workloadOf, d as connect, e as warmUp, m as measureBlock, S as SideDownError, s as sideDown, j as judgeProbes, f as finishLoad, g as withLauncher, h as SideHolder, F as FidelityError, k as detectClient, l as sharedPrefix, n as apiKeyOf, o as holdsOneAtATime, q as routeUrl, u as undiciExports, t as masker, v as secretValues, x as apiKeyValues, y as makeRunPlan, z as runSides, A as manifestPath, B as writeManifest, C as loadTimelineOf, D as guardOnCancel } from './cli-fidelity-client.js';
import { createWriteStream } from 'node:fs';

const SIDES$1 = ['baseline', 'candidate'];

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

/** The sampling settings named first in a cell, when the sides agree (the rest are in the JSON). */
const CORE_SAMPLING = ['temperature', 'top_k', 'top_p', 'min_p', 'repeat_penalty', 'seed', 'n_ctx'];
/**
 * The header rows for the serving configuration (pure): the chat template by name and hash
 * prefix, the sampling defaults by the settings that differ, or the core ones when none does.
 * Only values both sides reported are compared: an engine that reports nothing is not a change.
 */
function compareServing(b, c) {
    const template = (t) => t ? `${t.name ? `${t.name} · ` : ''}sha256 ${t.sha256.slice(0, 12)} · ${t.length} chars` : '';
    const bt = b?.chat_template;
    const ct = c?.chat_template;
    const chat_template = bt || ct ? { baseline: template(bt), candidate: template(ct), differs: Boolean(bt && ct && bt.sha256 !== ct.sha256) } : null;
    const bs = b?.sampling ?? null;
    const cs = c?.sampling ?? null;
    let sampling = null;
    if (bs || cs) {
        const differing = bs && cs ? [...new Set([...Object.keys(bs), ...Object.keys(cs)])].filter(k => bs[k] !== cs[k]).sort() : [];
        const keys = (own) => (differing.length > 0 ? differing : CORE_SAMPLING.filter(k => k in own));
        const cell = (own) => own
            ? keys(own)
                .map(k => `${k} ${k in own ? String(own[k]) : '(unset)'}`)
                .join(' · ')
            : '';
        sampling = { baseline: cell(bs), candidate: cell(cs), differs: differing.length > 0 };
    }
    return chat_template || sampling ? { chat_template, sampling } : null;
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
    for (const side of SIDES$1) {
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

function attachLoad(report, load) {
    const quality = report.verdict;
    const verdict = worstVerdict([quality, load.verdict]);
    let headline;
    if (verdict === 'pass')
        headline = `Both halves pass. Quality: ${report.headline} ${load.headline}`;
    else if (VERDICT_RANK[load.verdict] > VERDICT_RANK[quality])
        headline = `Decided by the performance half. ${load.headline} (Quality: ${quality}.)`;
    else if (VERDICT_RANK[quality] > VERDICT_RANK[load.verdict])
        headline = `Decided by the quality half. ${report.headline} (Performance: ${load.verdict}.)`;
    else
        headline = `Both halves: ${verdict}. Quality: ${report.headline} ${load.headline}`;
    const warnings = [...report.warnings, ...load.warnings.map(w => ({ ...w }))];
    const errors = [...report.errors, ...load.errors.map(e => ({ ...e }))];
    // The quality half as it stood before the join: the decision line (src/report/decision.ts)
    // names each half's verdict and reads it here instead of re-deriving it from the joined report.
    const qualityHalf = { verdict: quality, errors: report.errors.map(e => ({ ...e })) };
    return { ...report, verdict, headline, errors, warnings, load, quality: qualityHalf };
}
/** The report of `helm-gate load` (or `run --only load`): the performance half alone. */
function loadOnlyReport(config, load) {
    const side = (s) => {
        const d = config.deployments?.[s];
        return {
            path: d && d.kind === 'server' ? d.baseUrl : '',
            runs: [],
            deployment: d && d.kind === 'server' ? d.model : null,
            helm_version: null
        };
    };
    return newReport(config.statistics, {
        verdict: load.verdict,
        headline: `Performance half only. ${load.headline}`,
        errors: load.errors.map(e => ({ ...e })),
        warnings: load.warnings.map(w => ({ ...w })),
        baseline: side('baseline'),
        candidate: side('candidate'),
        notes: ['The quality half did not run (helm-gate load, or run --only load).'],
        load
    });
}

/** The raw per-request timings as JSONL in the output folder (and so in the evidence artifact). */
const TIMINGS_FILE = 'load-timings.jsonl';
const round = (x) => (x === null ? null : Math.round(x * 1000) / 1000);
async function writeTimings(file, timings) {
    try {
        await mkdir(dirname(file), { recursive: true });
        const out = createWriteStream(file);
        for (const t of timings) {
            const line = JSON.stringify({
                side: t.side,
                level: t.level,
                block: t.block,
                repetition: t.repetition,
                index: t.index,
                send_ms: round(t.send_ms),
                scheduled_ms: round(t.scheduled_ms ?? null),
                ttft_ms: round(t.ttft_ms),
                itl_ms: t.itl_ms.map(x => round(x)),
                latency_ms: round(t.latency_ms),
                output_tokens: t.output_tokens,
                tokens_from: t.tokens_from,
                prompt_tokens: t.prompt_tokens,
                status: t.status,
                error: t.error,
                id: t.id
            });
            if (!out.write(`${line}\n`))
                await new Promise(r => out.once('drain', () => r()));
        }
        await new Promise((resolvePromise, reject) => out.end((error) => (error ? reject(error) : resolvePromise())));
    }
    catch (error) {
        throw new InputError('output.unwritable', `cannot write ${file}: ${error.message}`, { file });
    }
}

/** The load half with its timings written into the output folder: for the CLI and the action. */
/** Runs the load half and writes its timings (load-timings.jsonl) into `outDir`. */
async function runLoadHalf(config, outDir, options) {
    if (!config.load) {
        throw new ConfigError('config.missing', 'the gate file has no load: section (the performance half)', {
            file: config.source,
            field: 'load'
        });
    }
    const outcome = options.measured ? await options.measured() : await runLoad(config, options);
    if (outcome.timings.length > 0) {
        await writeTimings(join(outDir, TIMINGS_FILE), outcome.timings);
        outcome.report.timings_file = TIMINGS_FILE;
    }
    return outcome;
}

const SIDES = ['baseline', 'candidate'];
class PerSideLoad {
    options;
    run;
    probes = {};
    periods = {};
    blocks = [];
    timings = [];
    /** The first problem that ends the load half (a workload that cannot be read, a side down). */
    stopped = null;
    constructor(config, options) {
        this.options = options;
        this.run = beginLoad(config, options);
    }
    /** All of `side`'s blocks, level by level, while it is up. A side that does not answer is recorded. */
    async measureSide(side, options = {}) {
        const run = this.run;
        if (isOutcome(run) || this.stopped || this.probes[side])
            return;
        const started = new Date().toISOString();
        const probe = await probeLoadSide(run, side);
        this.probes[side] = probe;
        if (probe.problem)
            return;
        const source = await workloadOf(run, { ...this.options, ...options });
        if (isOutcome(source)) {
            this.stopped = source;
            return;
        }
        const { load } = run;
        const offset = SIDES.indexOf(side) * load.repetitions;
        try {
            for (const [li, level] of load.levels.entries()) {
                const conn = connect(run.targets[side], load.mode === 'concurrency' ? level : null, run.timeoutMs);
                try {
                    await warmUp(run, conn, side, probe.ignoreEos, source, li, level);
                    for (let repetition = 0; repetition < load.repetitions; repetition++) {
                        const at = { side, level, li, repetition, position: offset + repetition, total: 2 * load.repetitions };
                        await measureBlock(run, conn, probe.ignoreEos, source, at, this.blocks, this.timings);
                    }
                }
                finally {
                    await conn.pool.close().catch(() => { });
                }
            }
        }
        catch (error) {
            // A side that stopped answering ends the load half: the other side is not measured.
            if (!(error instanceof SideDownError))
                throw error;
            this.stopped = sideDown(run, error, this.timings);
            return;
        }
        this.periods[side] = { started, ended: new Date().toISOString() };
    }
    /**
     * The compare step. A side that was never measured while up (its launch failed, or it is not
     * launched and nothing called for it) is probed now: if it is down that is the load half's
     * error (or a loud skip, with load.baseline: optional), never a silent pass.
     */
    async finish() {
        const run = this.run;
        if (isOutcome(run))
            return run;
        if (this.stopped)
            return this.stopped;
        for (const side of SIDES)
            if (!this.probes[side])
                await this.measureSide(side);
        if (this.stopped)
            return this.stopped;
        const judged = judgeProbes(run, this.probes);
        if (judged)
            return judged;
        run.report.interleaved = false;
        const periods = SIDES.map(side => `${side} ${this.periods[side]?.started ?? '?'} to ${this.periods[side]?.ended ?? '?'}`).join('; ');
        run.report.notes.unshift(`Not interleaved: the launched servers were up one at a time (sequential schedule), so all of the baseline's blocks ran while it was up, then all of the candidate's (${periods}). ` +
            'Block pairs are not adjacent in time: drift between the two periods (host load, thermal state) is not cancelled, and the intervals do not include it (nothing was widened for it).');
        return finishLoad(run, this.blocks, this.timings);
    }
}

/** Does the gate launch any side? Then its load half must run while the servers are up. */
function launchesAny(config) {
    return Object.keys(config.launch?.sides ?? {}).length > 0;
}
class LoadWhileUp {
    config;
    options;
    interleaved = null;
    perSide;
    constructor(config, options) {
        this.config = config;
        this.options = options;
        this.perSide = new PerSideLoad(config, options);
    }
    /** While the holder keeps `up` up: `up` are the sides up now; `outputs` their HELM output folders. */
    hold = async (up, outputs) => {
        const gateSetOutput = outputs.baseline ?? this.options.gateSetOutput ?? null;
        if (up.includes('baseline') && up.includes('candidate')) {
            this.interleaved ??= await runLoad(this.config, { ...this.options, gateSetOutput });
            return;
        }
        for (const side of up)
            await this.perSide.measureSide(side, { gateSetOutput });
    };
    /** The load half's outcome, once the servers are down. */
    async result() {
        return this.interleaved ?? (await this.perSide.finish());
    }
}

/**
 * The performance half alone (`helm-gate load`, `run --only load`, and a full run's load half when
 * the launched sides are up one at a time or were not left up) for a gate that launches its
 * servers: one measurement, the load half, while the one holder of the sides keeps them up
 * (src/launch/side-holder.ts): both launched on a sequential schedule, swapped between blocks
 * A B B A; otherwise each launched side started once and held up. Stopped on every path; the
 * report is the load half's own, never patched. No helm-run is involved.
 * A side that cannot be launched is an error of the load half (its message quotes the server's
 * log), never a pass.
 */
async function runLaunchedLoad(config, options) {
    const { cwd, env, progress, baseRef } = options;
    return withLauncher(config, { outDir: resolve(cwd, options.outDir), cwd, env, progress, baseRef }, launcher => {
        // One measurement while the holder keeps the sides up: swapped one at a time, or both held up.
        // A side that cannot be brought up is the load half's error, naming the side and the block.
        const holder = launcher ? new SideHolder(launcher, config, progress, options.sequential) : undefined;
        return runLoad(config, { env, progress }, holder);
    });
}
/** For `runLoadHalf`'s `measured`: the launched load half when the gate launches, else undefined. */
function launchedLoadFor(config, options) {
    return launchesAny(config) ? () => runLaunchedLoad(config, options) : undefined;
}

/**
 * The prompts fidelity scores: the traffic set's when the gate file has one (the team's own
 * requests), otherwise the gate set's, exactly as helm-run sent them (the baseline's
 * scenario_state.json files). Clean instances, first train trial, in file order.
 */
/** The last user message of a chat request (what a single-message chat carries), or its prompt text. */
function promptText(request) {
    if (typeof request.prompt === 'string' && request.prompt.length > 0 && !Array.isArray(request.messages))
        return request.prompt;
    const messages = request.messages;
    if (!Array.isArray(messages))
        return typeof request.prompt === 'string' && request.prompt.length > 0 ? request.prompt : null;
    const user = [...messages].reverse().find(m => m?.role === 'user');
    return typeof user?.content === 'string' && user.content.length > 0 ? user.content : null;
}
function trafficPrompts(instances) {
    const out = [];
    for (const instance of instances) {
        const text = promptText(instance.request);
        if (text !== null)
            out.push({ id: instance.id, text });
    }
    return out;
}
async function scenarioStates(dir) {
    const found = [];
    const walk = async (d, depth) => {
        if (depth > 6)
            return;
        for (const entry of (await readdir(d, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1))) {
            const full = path.join(d, entry.name);
            if (entry.isDirectory())
                await walk(full, depth + 1);
            else if (entry.name === 'scenario_state.json')
                found.push(full);
        }
    };
    await walk(dir, 0);
    return found;
}
/** Up to `limit` prompts from the baseline's HELM output (every run directory, in name order). */
async function gateSetPrompts(outputDir, limit) {
    const out = [];
    for (const file of await scenarioStates(outputDir)) {
        let parsed;
        try {
            parsed = JSON.parse(await readFile(file, 'utf8'));
        }
        catch (error) {
            throw new InputError('fidelity.unreadable_states', `fidelity: cannot read the prompts helm-run sent: ${error.message}`, {
                file
            });
        }
        const states = Array.isArray(parsed.request_states) ? parsed.request_states : [];
        const run = path.basename(path.dirname(file));
        for (const state of states) {
            const instance = state.instance;
            if (instance?.perturbation || (state.train_trial_index ?? 0) !== 0)
                continue;
            const text = promptText((state.request ?? {}));
            if (text === null)
                continue;
            out.push({ id: `${run}/${String(instance?.id ?? out.length)}`, text });
            if (out.length >= limit)
                return out;
        }
    }
    return out;
}

/** The per-instance value of a metric for the candidate and for the floor (null: not measured). */
function values(metric, s) {
    const perfect = METRIC_SHAPE[metric].perfect;
    if (metric === 'answer_length_ratio') {
        if (s.candidateTokens === null || s.baselineTokens === 0)
            return null;
        return {
            candidate: s.candidateTokens / s.baselineTokens,
            floor: s.rerunTokens === null ? perfect : s.rerunTokens / s.baselineTokens
        };
    }
    const pick = (f) => metric === 'top1_agreement' ? f.top1Agreement : metric === 'kld_mean' ? f.klMean : metric === 'kld_max' ? f.klMax : f.deltaPMean;
    return { candidate: pick(s.candidate), floor: s.floor === null ? perfect : pick(s.floor) };
}
function estimate(metric, rows, settings) {
    const pairs = rows.map(r => values(metric, r));
    if (pairs.length === 0 || pairs.some(p => p === null))
        return null;
    // Agreement is a share: where every instance's value is 0 or 1 (one-token answers, or all
    // agreeing), auto gives Tango's interval, as for exact match. The others are continuous: a KL of
    // exactly 0 on every instance is not a 0/1 outcome, so they always take the cluster bootstrap.
    return estimatePaired(pairs.map(p => ({ baseline: [p.floor], candidate: [p.candidate] })), { ...settings, interval: metric === 'top1_agreement' ? 'auto' : 'bootstrap' });
}
function fidelityFigure(metric, rows, settings) {
    const est = estimate(metric, rows, settings);
    if (est === null)
        return null;
    return figureOf(metric, est);
}
/** The values one instance can take, per metric. */
const METRIC_RANGE = {
    top1_agreement: { low: 0, high: 1 },
    kld_mean: { low: 0, high: Infinity },
    kld_max: { low: 0, high: Infinity },
    delta_p_mean: { low: -1, high: 1 },
    answer_length_ratio: { low: 0, high: Infinity }
};
function figureOf(metric, est) {
    const perfect = METRIC_SHAPE[metric].perfect;
    // Each instance's candidate - floor lies in [low - floor, high - floor], so their mean lies in
    // [low - F, high - F] for the floor's mean F. Tango's interval (and a bootstrap near the edge)
    // can reach past that: all-agreeing answers gave top-1 agreement [0.886, 1.114]. The shown
    // interval is cut to what the values can be; the verdict is decided on the interval as computed
    // (decideFidelityCheck), and a cut bound is one no threshold inside the range can lie beyond.
    const range = METRIC_RANGE[metric];
    const lowest = perfect + range.low - est.baselineMean;
    const highest = perfect + range.high - est.baselineMean;
    return {
        metric,
        candidate: est.candidateMean,
        floor: est.baselineMean,
        corrected: perfect + est.delta,
        ci: {
            low: Math.min(highest, Math.max(lowest, perfect + est.ci.low)),
            high: Math.max(lowest, Math.min(highest, perfect + est.ci.high)),
            level: est.ci.level
        }
    };
}
/**
 * One check: pass when the whole interval of the corrected value is on the good side of the
 * threshold, fail when it is all on the bad side, inconclusive otherwise (with the instances that
 * would resolve it), by the same rule and n_needed as every other comparison (stats/decide-verdict.ts).
 */
function decideFidelityCheck(check, rows, settings) {
    const est = estimate(check.metric, rows, settings);
    if (est === null) {
        throw new GuardError('fidelity.not_measured', `fidelity: ${check.metric} was not measured on every instance (the candidate's own answer is needed for answer_length_ratio)`, { field: 'fidelity.checks', value: check.metric });
    }
    const perfect = METRIC_SHAPE[check.metric].perfect;
    const margin = Math.abs(check.value - perfect);
    const decision = decideVerdict(est, margin, check.bound === 'min' ? 'higher' : 'lower', settings.confidence);
    const figure = figureOf(check.metric, est);
    const shown = `${fmt(figure.corrected)} [${fmt(figure.ci.low)}, ${fmt(figure.ci.high)}]`;
    const side = check.bound === 'min' ? 'at least' : 'at most';
    const reason = decision.verdict === 'pass'
        ? `${check.metric} ${shown}: the whole interval is within ${side} ${check.value}.`
        : decision.verdict === 'fail'
            ? `${check.metric} ${shown}: the whole interval is beyond ${check.value}; the candidate departs from the baseline more than tolerated.`
            : decision.nNeeded === null
                ? `${check.metric} ${shown}: the estimate itself is beyond ${check.value}; more instances would not make this pass.`
                : `${check.metric} ${shown} straddles ${check.value}: about ${decision.nNeeded} instances (now ${est.n}) would resolve it; use more instances, not a looser threshold.`;
    return {
        verdict: decision.verdict,
        metric: check.metric,
        bound: check.bound,
        threshold: check.value,
        figure,
        nNeeded: decision.nNeeded,
        reason
    };
}
/** Every figure that could be computed, in the order of FIDELITY_METRICS. */
function fidelityFigures(rows, settings) {
    const out = [];
    for (const metric of FIDELITY_METRICS) {
        const figure = fidelityFigure(metric, rows, settings);
        if (figure !== null)
            out.push(figure);
    }
    return out;
}
/** The instances with the largest mean KL (ties by id), for the reviewer to look at. */
function worstInstances(rows, count) {
    return [...rows]
        .sort((a, b) => b.candidate.klMean - a.candidate.klMean || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        .slice(0, count)
        .map(r => ({
        id: r.id,
        positions: r.candidate.positions,
        top1Agreement: r.candidate.top1Agreement,
        klMean: r.candidate.klMean,
        klMax: r.candidate.klMax,
        deltaPMean: r.candidate.deltaPMean,
        firstDivergence: r.candidate.firstDivergence,
        lengthRatio: r.candidateTokens === null ? null : r.candidateTokens / r.baselineTokens,
        ...(r.candidate.cells ? { tokens: r.candidate.cells } : {})
    }));
}
function fmt(x) {
    return Number(x.toPrecision(4)).toString();
}

/**
 * Token-level fidelity of one instance (docs/fidelity.md): the candidate scored on the baseline's
 * greedy answer, position by position. Pure: numbers in, numbers out.
 *
 * Servers report only the top-k of each next-token distribution. The KL divergence is taken over
 * the tokens both sides reported (the shared top-k) plus one bucket holding everything else on
 * each side (1 minus the reported mass). That bucketing is a deterministic merge of vocabulary
 * cells applied to both distributions alike, so by the data-processing inequality the bucketed KL
 * is a lower bound of the full KL(B || C). Tokens only one side reported go to the bucket: their
 * probability on the other side is unknown, and guessing it would make the figure neither exact
 * nor a bound.
 */
/**
 * The smallest rest mass the candidate side is taken to have. Reported probabilities are rounded
 * (llama.cpp sends floats), so 1 - sum can come out as 0 or a hair below while the baseline still
 * puts mass there; the floor keeps the bound finite. It is far below the masses that matter
 * (1e-9 of probability changes the KL by at most rB * ln(rB / 1e-9)).
 */
const REST_MASS_FLOOR = 1e-9;
function positionFidelity(baseline, candidate) {
    if (baseline.token !== candidate.token) {
        throw new RangeError(`the candidate was scored on token ${candidate.token}, not the baseline's ${baseline.token}`);
    }
    const bTop = argmax(baseline.top);
    const cTop = argmax(candidate.top);
    const cMap = new Map(candidate.top.map(e => [e.token, Math.exp(e.logprob)]));
    let kl = 0;
    let sharedB = 0;
    let sharedC = 0;
    const seen = new Set();
    for (const e of baseline.top) {
        if (seen.has(e.token))
            continue;
        seen.add(e.token);
        const pc = cMap.get(e.token);
        if (pc === undefined)
            continue;
        const pb = Math.exp(e.logprob);
        sharedB += pb;
        sharedC += pc;
        if (pb > 0)
            kl += pb * (e.logprob - Math.log(pc));
    }
    const restB = clamp01(1 - sharedB);
    const restC = Math.max(REST_MASS_FLOOR, clamp01(1 - sharedC));
    if (restB > REST_MASS_FLOOR)
        kl += restB * Math.log(restB / restC);
    return {
        top1: bTop !== null && bTop === cTop ? 1 : 0,
        // A sum of rounded terms can dip a hair below zero; the divergence itself never does.
        kl: Math.max(0, kl),
        deltaP: Math.exp(candidate.logprob) - Math.exp(baseline.logprob),
        restMass: restB
    };
}
/**
 * Per-instance means over positions (the instance, not the token, is the unit: tokens of one
 * answer are correlated). An answer with no tokens has nothing to score and is refused.
 */
function instanceFidelity(baseline, candidate) {
    if (baseline.length === 0)
        throw new RangeError('an empty answer has no positions to score');
    if (baseline.length !== candidate.length) {
        throw new RangeError(`the candidate was scored on ${candidate.length} positions, the baseline's answer has ${baseline.length}`);
    }
    let top1 = 0;
    let kl = 0;
    let klMax = 0;
    let dp = 0;
    let rest = 0;
    let firstDivergence = null;
    const cells = [];
    for (let t = 0; t < baseline.length; t++) {
        const p = positionFidelity(baseline[t], candidate[t]);
        const top = topEntry(candidate[t].top);
        cells.push({
            baseline: baseline[t].text ?? baseline[t].token,
            candidate: top === null ? null : (top.text ?? top.token),
            deltaP: p.deltaP
        });
        top1 += p.top1;
        kl += p.kl;
        klMax = Math.max(klMax, p.kl);
        dp += p.deltaP;
        rest += p.restMass;
        if (firstDivergence === null && argmax(candidate[t].top) !== baseline[t].token)
            firstDivergence = t;
    }
    const n = baseline.length;
    return {
        positions: n,
        top1Agreement: top1 / n,
        klMean: kl / n,
        klMax,
        deltaPMean: dp / n,
        restMassMean: rest / n,
        firstDivergence,
        cells
    };
}
/** The most likely reported token (the first of equals, as servers list them), or null for an empty list. */
function argmax(top) {
    return topEntry(top)?.token ?? null;
}
function topEntry(top) {
    let best = null;
    for (const e of top)
        if (best === null || e.logprob > best.logprob)
            best = e;
    return best;
}
function clamp01(x) {
    return x < 0 ? 0 : x > 1 ? 1 : x;
}

/** How many of the worst instances the report lists. */
const WORST_SHOWN = 5;
/**
 * The measurement in two passes, so it also runs when the sides are up one after the other (a
 * sequential schedule on one accelerator): `hold` with the sides that are up now, as the traffic
 * replay's hold is called; the baseline must have been up before (or with) the candidate, since
 * the candidate is scored on the baseline's answers.
 */
class FidelityMeasurement {
    input;
    prompts;
    timeoutMs;
    baselineClient = null;
    candidateClient = null;
    baselinePass = [];
    rows = null;
    seconds = { baseline: 0, candidate: 0 };
    constructor(input) {
        this.input = input;
        this.prompts = input.prompts.slice(0, input.settings.instances);
        if (this.prompts.length === 0) {
            throw new GuardError('fidelity.no_prompts', 'fidelity: there are no prompts to score (the gate set sent none, and there is no traffic set)', { field: 'fidelity.instances', value: input.settings.instances });
        }
        this.timeoutMs = input.settings.requestTimeoutSeconds * 1000;
        if (input.answers === 'reference') {
            const without = this.prompts.find(p => p.reference === undefined || p.reference.length === 0);
            if (without !== undefined) {
                throw new GuardError('fidelity.no_reference', `fidelity: prompt ${without.id} has no reference answer to teacher-force`, {
                    field: 'fidelity.answers',
                    value: without.id
                });
            }
        }
    }
    get reference() {
        return this.input.answers === 'reference';
    }
    /** The per-instance values behind the figures (after the candidate's pass), for benches that resample them. */
    instances() {
        return this.rows ?? [];
    }
    /** The prompt's reference answer as token ids, scored on the baseline (teacher forcing). */
    async referenceAnswer(client, prompt, topK) {
        const ref = prompt.reference;
        const ids = typeof ref === 'string' ? await client.tokenize(prompt, ref) : ref;
        const positions = await client.score(prompt, { positions: [], ids, length: ids.length }, topK);
        if (positions === null)
            throw this.notForced('baseline');
        return { positions, ids, length: ids.length };
    }
    notForced(side) {
        return new FidelityError('fidelity.capability_missing', `fidelity: the ${side} cannot be teacher-forced, so it cannot be scored on a reference answer`, { field: `deployments.${side}` });
    }
    /** Runs the pass of each side that is up now and has not run. */
    hold = async (up) => {
        if (up.includes('baseline') && this.baselineClient === null)
            await this.runBaseline();
        if (up.includes('candidate') && this.candidateClient === null) {
            if (this.baselineClient === null) {
                throw new GuardError('fidelity.baseline_first', "fidelity: the candidate was up before the baseline, but it is scored on the baseline's answers: bring the baseline up first", { field: 'schedule' });
            }
            await this.runCandidate();
        }
    };
    async timed(side, work) {
        const started = performance.now();
        try {
            return await work();
        }
        finally {
            this.seconds[side] += (performance.now() - started) / 1000;
        }
    }
    async runBaseline() {
        const { settings } = this.input;
        const client = await (this.input.clientFor ?? detectClient)(this.input.sides.baseline, this.timeoutMs);
        this.baselineClient = client;
        await this.timed('baseline', () => client.checkTopK(this.prompts[0], settings.topK));
        for (const [i, prompt] of this.prompts.entries()) {
            this.input.progress?.(`helm-gate: fidelity: baseline, instance ${i + 1} of ${this.prompts.length}`);
            const answer = await this.timed('baseline', () => this.reference
                ? this.referenceAnswer(client, prompt, settings.topK)
                : client.generate(prompt, settings.maxAnswerTokens, settings.topK));
            if (answer.length === 0) {
                this.baselinePass.push(null);
                continue;
            }
            const floor = { forced: null, rerun: null };
            if (settings.baselineReruns === 1) {
                // The A/A floor: the same procedure as the candidate's, on the baseline again.
                floor.forced = await this.timed('baseline', () => client.score(prompt, answer, settings.topK));
                if (floor.forced === null)
                    floor.rerun = await this.timed('baseline', () => client.generate(prompt, settings.maxAnswerTokens, settings.topK));
            }
            this.baselinePass.push({ answer, floor });
        }
    }
    async runCandidate() {
        const { settings } = this.input;
        const client = await (this.input.clientFor ?? detectClient)(this.input.sides.candidate, this.timeoutMs);
        this.candidateClient = client;
        await this.timed('candidate', () => client.checkTopK(this.prompts[0], settings.topK));
        const forced = this.forced();
        const rows = [];
        for (const [i, prompt] of this.prompts.entries()) {
            const pass = this.baselinePass[i];
            if (pass === null)
                continue;
            this.input.progress?.(`helm-gate: fidelity: candidate, instance ${i + 1} of ${this.prompts.length}`);
            const b1 = pass.answer;
            let candidate;
            let candidateTokens;
            if (forced) {
                const scored = await this.timed('candidate', () => client.score(prompt, b1, settings.topK));
                if (scored === null)
                    throw this.notForced('candidate');
                candidate = instanceFidelity(b1.positions, scored);
                // Its own greedy answer, for the length ratio only (none in reference mode: no side chose that answer).
                candidateTokens = this.reference
                    ? null
                    : (await this.timed('candidate', () => client.generate(prompt, settings.maxAnswerTokens, 1))).length;
            }
            else if (this.reference) {
                throw this.notForced('candidate');
            }
            else {
                const own = await this.timed('candidate', () => client.generate(prompt, settings.maxAnswerTokens, settings.topK));
                candidateTokens = own.length;
                candidate = prefixFidelity(b1, own);
            }
            const floor = pass.floor.forced !== null
                ? instanceFidelity(b1.positions, pass.floor.forced)
                : pass.floor.rerun !== null
                    ? prefixFidelity(b1, pass.floor.rerun)
                    : null;
            const rerunTokens = pass.floor.rerun?.length ?? null;
            rows.push({ id: prompt.id, candidate, floor, baselineTokens: b1.length, candidateTokens, rerunTokens });
        }
        this.rows = rows;
    }
    forced() {
        return this.baselineClient?.route !== 'greedy-prefix' && this.candidateClient?.route !== 'greedy-prefix';
    }
    /** The figures and checks; an error when a side never ran or nothing could be scored. */
    report() {
        const { settings } = this.input;
        for (const side of ['baseline', 'candidate']) {
            if ((side === 'baseline' ? this.baselineClient : this.candidateClient) === null) {
                throw new GuardError('fidelity.side_not_up', `fidelity: the ${side} was never up while the gate ran, so nothing was scored on it`, {
                    field: `deployments.${side}`
                });
            }
        }
        const rows = this.rows ?? [];
        if (rows.length === 0) {
            throw new GuardError('fidelity.no_answers', `fidelity: the baseline's answer was empty on all ${this.prompts.length} prompts: there is nothing to score`, { field: 'fidelity.instances', value: this.prompts.length });
        }
        const forced = this.forced();
        const positions = rows.reduce((s, r) => s + r.candidate.positions, 0);
        const restMass = rows.reduce((s, r) => s + r.candidate.restMassMean * r.candidate.positions, 0);
        const empty = this.baselinePass.filter(p => p === null).length;
        const notes = [];
        if (this.input.source)
            notes.push(`Prompts: ${this.input.source}, the first ${this.prompts.length}.`);
        if (!forced) {
            notes.push(`Not teacher-forced: ${this.baselineClient?.route === 'greedy-prefix' ? 'the baseline' : 'the candidate'} cannot score another side's answer, so the figures compare the two greedy answers along their shared prefix, up to the first position where they part.`);
        }
        if (this.reference)
            notes.push("Scored on each prompt's reference answer (teacher-forced on both sides), not on the baseline's greedy answer.");
        if (empty > 0)
            notes.push(`${empty} of ${this.prompts.length} prompts got an empty answer from the baseline and were not scored.`);
        if (settings.baselineReruns === 0)
            notes.push('No A/A floor (baseline_reruns: 0): the baseline is taken as deterministic.');
        return {
            route: forced ? this.candidateClient.route : 'greedy-prefix',
            teacherForced: forced,
            topK: settings.topK,
            instances: rows.length,
            positions,
            restMassMean: positions > 0 ? restMass / positions : 0,
            floorMeasured: settings.baselineReruns === 1,
            figures: fidelityFigures(rows, this.input.statistics),
            checks: settings.checks.map(check => decideFidelityCheck(check, rows, this.input.statistics)),
            worst: worstInstances(rows, WORST_SHOWN),
            cost: [
                { side: 'baseline', requests: this.baselineClient?.requests ?? 0, seconds: this.seconds.baseline },
                { side: 'candidate', requests: this.candidateClient?.requests ?? 0, seconds: this.seconds.candidate }
            ],
            notes
        };
    }
}
/** The greedy-prefix comparison of one instance (at least its first position, which both sides always share). */
function prefixFidelity(b, c) {
    const shared = sharedPrefix(b, c);
    if (shared.baseline.length === 0) {
        throw new FidelityError('fidelity.empty_answer', 'fidelity: the candidate gave an empty answer where the baseline did not; nothing can be compared');
    }
    return instanceFidelity(shared.baseline, shared.candidate);
}

class FidelityRun {
    config;
    options;
    measurement = null;
    errors = [];
    done = new Set();
    constructor(config, options) {
        this.config = config;
        this.options = options;
    }
    /** The sides as fidelity needs them; both are servers (the gate file's validation refuses anything else). */
    sides() {
        const of = (side) => {
            const d = this.config.deployments?.[side];
            if (!d || d.kind !== 'server')
                throw new GateError('fidelity.not_a_server', `fidelity: deployments.${side} is not a server`);
            return { side, baseUrl: d.baseUrl, model: d.model, apiKey: apiKeyOf(d, this.options.env), api: d.api };
        };
        return { baseline: of('baseline'), candidate: of('candidate') };
    }
    /** Called by the side holder while sides are up: the pass of each side that is up now; the baseline's HELM output gives the prompts. */
    hold = async (up, outputs = {}) => {
        const fresh = up.filter(side => !this.done.has(side));
        if (fresh.length === 0 || this.errors.length > 0)
            return;
        for (const side of fresh)
            this.done.add(side);
        try {
            if (this.measurement === null) {
                const settings = this.config.fidelity;
                const prompts = this.config.traffic
                    ? trafficPrompts(this.config.traffic.instances)
                    : outputs.baseline
                        ? await gateSetPrompts(outputs.baseline, settings.instances)
                        : [];
                this.measurement = new FidelityMeasurement({
                    sides: this.sides(),
                    prompts,
                    source: this.config.traffic
                        ? `the traffic set (${this.config.traffic.set})`
                        : "the gate set (the prompts helm-run sent, from the baseline's scenario_state.json)",
                    settings,
                    statistics: this.config.statistics,
                    progress: this.options.progress
                });
            }
            await this.measurement.hold(fresh);
        }
        catch (error) {
            if (!(error instanceof GateError))
                throw error;
            this.errors.push(error);
        }
    };
    /** After the HELM half: the sides no launch brings up are servers that are always up. */
    async holdAlwaysUp(outputs) {
        const up = ['baseline', 'candidate'].filter(side => !this.config.launch?.sides[side]);
        if (up.length > 0)
            await this.hold(up, outputs);
    }
    /** The report with its fidelity part; a failed or inconclusive check decides like any other. */
    attach(report) {
        let part;
        if (this.errors.length === 0 && this.measurement !== null) {
            try {
                part = this.measurement.report();
            }
            catch (error) {
                if (!(error instanceof GateError))
                    throw error;
                this.errors.push(error);
            }
        }
        else if (this.errors.length === 0) {
            this.errors.push(new GateError('fidelity.side_not_up', 'fidelity: no side was up while the gate ran, so nothing was scored'));
        }
        const errors = [
            ...report.errors,
            ...this.errors.map(e => ({
                code: e.code,
                message: e.message,
                ...(e.location.file ? { file: e.location.file } : {}),
                ...(e.location.field ? { field: e.location.field } : {}),
                ...(e.location.value !== undefined ? { value: showValue(e.location.value) } : {})
            }))
        ];
        const verdicts = part?.checks.map(c => c.verdict) ?? [];
        const own = this.errors.length > 0 ? 'error' : worst(verdicts);
        const verdict = worst([report.verdict, own]);
        const headline = verdict !== report.verdict && own === verdict
            ? `Fidelity decides: ${own === 'error' ? 'the measurement could not be completed' : `${verdicts.filter(v => v === own).length} of ${verdicts.length} fidelity checks ${own === 'fail' ? 'failed' : 'were inconclusive'}`}.`
            : report.headline;
        return { ...report, verdict, headline, errors, ...(part ? { fidelity: part } : {}) };
    }
}
const ORDER = ['pass', 'inconclusive', 'fail', 'error'];
/** The worst verdict of a list (pass for none): error > fail > inconclusive > pass. */
function worst(verdicts) {
    return verdicts.reduce((w, v) => (ORDER.indexOf(v) > ORDER.indexOf(w) ? v : w), 'pass');
}
/** Fidelity of a gate that has the section and compares (a shard or a baseline-only run measures nothing). */
function fidelityRunFor(config, compare, options) {
    if (!config.fidelity || !compare)
        return null;
    return new FidelityRun(config, options);
}

class LoadMeasurement {
    config;
    half;
    options;
    /** Launched sides left both up by the quality half: measured while they are. */
    whileUp;
    constructor(config, half, options) {
        this.config = config;
        this.half = half;
        this.options = options;
        // Launched sides up one at a time are swapped between load blocks after the quality half
        // (src/launch/side-holder.ts): measuring each while it is up for helm-run would not interleave.
        const leftUp = launchesAny(config) &&
            !holdsOneAtATime(config, options.sequential) &&
            ['baseline', 'candidate'].every(side => options.toRun.includes(side));
        this.whileUp = leftUp ? new LoadWhileUp(config, { env: options.env, progress: options.progress }) : null;
    }
    async hold(up, outputs) {
        await this.whileUp?.hold(up, outputs);
    }
    /** Servers that are always up are measured in `attach`, after the quality half is compared. */
    async holdAlwaysUp() { }
    /** The load half joined to the quality half's report: measured already, or measured now. */
    async attach(report, context) {
        const { config, options, whileUp } = this;
        const { env, progress } = options;
        // A launched gate whose quality half did not leave both servers up: launch them for the load half alone.
        const relaunch = !whileUp && launchesAny(config);
        if (relaunch)
            this.half.beforeRelaunch?.();
        const run = async () => {
            if (!whileUp)
                progress('helm-gate: quality half done; the load half starts (docs/load.md)');
            if (relaunch) {
                progress(holdsOneAtATime(config, options.sequential)
                    ? 'helm-gate: the launched servers are up one at a time (sequential schedule): the load half swaps them between blocks A B B A'
                    : 'helm-gate: the servers the gate file launches are not up after the quality half: launching both for the load half');
            }
            const measured = whileUp
                ? () => whileUp.result()
                : relaunch
                    ? () => runLaunchedLoad(config, {
                        // Server logs append to the output folder's logs/<side>-server.log, after the quality half's.
                        outDir: options.outDir,
                        cwd: options.cwd,
                        env,
                        progress,
                        baseRef: options.baseRef,
                        sequential: options.sequential
                    })
                    : undefined;
            const loaded = await runLoadHalf(config, options.outDir, { env, progress, gateSetOutput: context.paths.baseline, measured });
            return attachLoad(report, loaded.report);
        };
        return this.half.section ? this.half.section(run) : run();
    }
}
/** The load half of a gate that runs it (the adapter's `load`), or null. */
function loadMeasurementFor(config, half, options) {
    return half ? new LoadMeasurement(config, half, options) : null;
}

/**
 * The structural checks of one replayed answer (docs/traffic.md "Replay and judging"): the ones
 * that break first under a serving change (a chat template, a grammar backend, a quantised
 * model): JSON mode, tool calls, truncation at max_tokens, refusals. Pure functions.
 */
/** JSON mode: `json_object`, or `json_schema` with the schema to validate against. */
function jsonModeOf(request) {
    const format = request.response_format;
    if (!format || typeof format !== 'object')
        return null;
    if (format.type === 'json_object')
        return { schema: null };
    if (format.type === 'json_schema')
        return { schema: format.json_schema?.schema ?? null };
    return null;
}
/** The function tools offered, unless the request forbids calling them (`tool_choice: none`). */
function toolsOf(request) {
    if (!Array.isArray(request.tools) || request.tools.length === 0 || request.tool_choice === 'none')
        return null;
    return request.tools.flatMap(tool => {
        const fn = tool?.function;
        return fn && typeof fn.name === 'string' ? [{ name: fn.name, parameters: fn.parameters ?? null }] : [];
    });
}
/**
 * Compiles schemas once per judge (a set repeats the same few schemas on every request). Schemas
 * come from the team's own logs: one that does not compile is reported as such, never as a
 * failure of the answer.
 */
class SchemaCache {
    ajv = new ajvExports.Ajv({ strict: false, allErrors: false });
    compiled = new Map();
    validator(schema) {
        const key = JSON.stringify(schema);
        let found = this.compiled.get(key);
        if (found === undefined) {
            try {
                found = this.ajv.compile(schema);
            }
            catch (error) {
                found = `the schema does not compile: ${error.message}`;
            }
            this.compiled.set(key, found);
        }
        return found;
    }
}
function structuralChecks(request, answer, refusal, schemas) {
    const why = [];
    let invalidJson = null;
    const jsonMode = jsonModeOf(request);
    if (jsonMode) {
        const problem = jsonProblem(answer.content, jsonMode.schema, schemas);
        invalidJson = problem !== null;
        if (problem)
            why.push(`invalid JSON: ${problem}`);
    }
    let invalidTools = null;
    const tools = toolsOf(request);
    if (tools) {
        const problem = toolCallProblem(answer.tool_calls, tools, toolCallRequired(request), schemas);
        invalidTools = problem !== null;
        if (problem)
            why.push(`invalid tool call: ${problem}`);
    }
    const truncation = answer.finish_reason === 'length';
    if (truncation)
        why.push('truncated (finish_reason: length)');
    const refusals = answer.content !== null && refusal.some(pattern => pattern.test(answer.content));
    if (refusals)
        why.push('refusal pattern matched');
    return { invalid_json: invalidJson, invalid_tool_calls: invalidTools, truncation, refusals, why };
}
function jsonProblem(content, schema, schemas) {
    if (content === null || content.trim() === '')
        return 'no content';
    let value;
    try {
        value = JSON.parse(content);
    }
    catch (error) {
        return `does not parse (${error.message})`;
    }
    if (schema === null)
        return value !== null && typeof value === 'object' && !Array.isArray(value) ? null : 'not a JSON object';
    return schemaProblem(value, schema, schemas);
}
function schemaProblem(value, schema, schemas) {
    const validate = schemas.validator(schema);
    if (typeof validate === 'string')
        return null;
    if (validate(value))
        return null;
    const first = validate.errors?.[0];
    return `does not match the schema (${first?.instancePath || '/'} ${first?.message ?? ''})`.trim();
}
/**
 * Tool calls are judged only when the answer made some: an answer in plain text where a tool was
 * optional is not a broken call (a `required` tool_choice without a call is).
 */
function toolCallProblem(calls, tools, required, schemas) {
    if (!calls || calls.length === 0)
        return required ? 'tool_choice requires a call and none was made' : null;
    for (const call of calls) {
        const fn = call?.function;
        const name = fn?.name;
        const tool = tools.find(t => t.name === name);
        if (!tool)
            return `unknown tool ${JSON.stringify(name)}`;
        if (typeof fn?.arguments !== 'string')
            return `${tool.name}: arguments are not a string`;
        let args;
        try {
            args = JSON.parse(fn.arguments);
        }
        catch (error) {
            return `${tool.name}: arguments do not parse (${error.message})`;
        }
        if (tool.parameters) {
            const problem = schemaProblem(args, tool.parameters, schemas);
            if (problem)
                return `${tool.name}: arguments ${problem}`;
        }
    }
    return null;
}
/** A tool_choice that names a function or says `required` demands a call. */
function toolCallRequired(request) {
    return request.tool_choice === 'required' || (typeof request.tool_choice === 'object' && request.tool_choice !== null);
}

// Standard suffix manipulations.
/** @type {Record<string, string>} */
const step2list = {
  ational: 'ate',
  tional: 'tion',
  enci: 'ence',
  anci: 'ance',
  izer: 'ize',
  bli: 'ble',
  alli: 'al',
  entli: 'ent',
  eli: 'e',
  ousli: 'ous',
  ization: 'ize',
  ation: 'ate',
  ator: 'ate',
  alism: 'al',
  iveness: 'ive',
  fulness: 'ful',
  ousness: 'ous',
  aliti: 'al',
  iviti: 'ive',
  biliti: 'ble',
  logi: 'log'
};

/** @type {Record<string, string>} */
const step3list = {
  icate: 'ic',
  ative: '',
  alize: 'al',
  iciti: 'ic',
  ical: 'ic',
  ful: '',
  ness: ''
};

// Consonant-vowel sequences.
const consonant = '[^aeiou]';
const vowel = '[aeiouy]';
const consonants = '(' + consonant + '[^aeiouy]*)';
const vowels = '(' + vowel + '[aeiou]*)';

const gt0 = new RegExp('^' + consonants + '?' + vowels + consonants);
const eq1 = new RegExp(
  '^' + consonants + '?' + vowels + consonants + vowels + '?$'
);
const gt1 = new RegExp('^' + consonants + '?(' + vowels + consonants + '){2,}');
const vowelInStem = new RegExp('^' + consonants + '?' + vowel);
const consonantLike = new RegExp('^' + consonants + vowel + '[^aeiouwxy]$');

// Exception expressions.
const sfxLl = /ll$/;
const sfxE = /^(.+?)e$/;
const sfxY = /^(.+?)y$/;
const sfxIon = /^(.+?(s|t))(ion)$/;
const sfxEdOrIng = /^(.+?)(ed|ing)$/;
const sfxAtOrBlOrIz = /(at|bl|iz)$/;
const sfxEED = /^(.+?)eed$/;
const sfxS = /^.+?[^s]s$/;
const sfxSsesOrIes = /^.+?(ss|i)es$/;
const sfxMultiConsonantLike = /([^aeiouylsz])\1$/;
const step2 =
  /^(.+?)(ational|tional|enci|anci|izer|bli|alli|entli|eli|ousli|ization|ation|ator|alism|iveness|fulness|ousness|aliti|iviti|biliti|logi)$/;
const step3 = /^(.+?)(icate|ative|alize|iciti|ical|ful|ness)$/;
const step4 =
  /^(.+?)(al|ance|ence|er|ic|able|ible|ant|ement|ment|ent|ou|ism|ate|iti|ous|ive|ize)$/;

/**
 * Get the stem from a given value.
 *
 * @param {string} value
 *   Value to stem.
 * @returns {string}
 *   Stem for `value`
 */
// eslint-disable-next-line complexity
function stemmer(value) {
  let result = String(value).toLowerCase();

  // Exit early.
  if (result.length < 3) {
    return result
  }

  /** @type {boolean} */
  let firstCharacterWasLowerCaseY = false;

  // Detect initial `y`, make sure it never matches.
  if (
    result.codePointAt(0) === 121 // Lowercase Y
  ) {
    firstCharacterWasLowerCaseY = true;
    result = 'Y' + result.slice(1);
  }

  // Step 1a.
  if (sfxSsesOrIes.test(result)) {
    // Remove last two characters.
    result = result.slice(0, -2);
  } else if (sfxS.test(result)) {
    // Remove last character.
    result = result.slice(0, -1);
  }

  /** @type {RegExpMatchArray|null} */
  let match;

  // Step 1b.
  if ((match = sfxEED.exec(result))) {
    if (gt0.test(match[1])) {
      // Remove last character.
      result = result.slice(0, -1);
    }
  } else if ((match = sfxEdOrIng.exec(result)) && vowelInStem.test(match[1])) {
    result = match[1];

    if (sfxAtOrBlOrIz.test(result)) {
      // Append `e`.
      result += 'e';
    } else if (sfxMultiConsonantLike.test(result)) {
      // Remove last character.
      result = result.slice(0, -1);
    } else if (consonantLike.test(result)) {
      // Append `e`.
      result += 'e';
    }
  }

  // Step 1c.
  if ((match = sfxY.exec(result)) && vowelInStem.test(match[1])) {
    // Remove suffixing `y` and append `i`.
    result = match[1] + 'i';
  }

  // Step 2.
  if ((match = step2.exec(result)) && gt0.test(match[1])) {
    result = match[1] + step2list[match[2]];
  }

  // Step 3.
  if ((match = step3.exec(result)) && gt0.test(match[1])) {
    result = match[1] + step3list[match[2]];
  }

  // Step 4.
  if ((match = step4.exec(result))) {
    if (gt1.test(match[1])) {
      result = match[1];
    }
  } else if ((match = sfxIon.exec(result)) && gt1.test(match[1])) {
    result = match[1];
  }

  // Step 5.
  if (
    (match = sfxE.exec(result)) &&
    (gt1.test(match[1]) ||
      (eq1.test(match[1]) && !consonantLike.test(match[1])))
  ) {
    result = match[1];
  }

  if (sfxLl.test(result) && gt1.test(result)) {
    result = result.slice(0, -1);
  }

  // Turn initial `Y` back to `y`.
  if (firstCharacterWasLowerCaseY) {
    result = 'y' + result.slice(1);
  }

  return result
}

/**
 * HELM's answer metrics, ported so each replayed answer is scored where it is judged:
 * `normalize_text`, `exact_match`, `quasi_exact_match`, `f1_score` (helm/benchmark/metrics/
 * evaluate_reference_metrics.py) and ROUGE-L as HELM computes it (rouge_score's `rougeL` with
 * the Porter stemmer). __tests__/traffic/text-metrics.test.ts checks them against HELM's own
 * Python functions on a fixture. Pure functions.
 */
// Python's string.punctuation.
const PUNCTUATION = new Set('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~');
/** HELM's normalize_text: lower case, punctuation removed, articles removed, whitespace collapsed. */
function normalizeText(text, removeArticles = true) {
    let out = [...text.toLowerCase()].filter(ch => !PUNCTUATION.has(ch)).join('');
    if (removeArticles)
        out = out.replace(/\b(a|an|the)\b/g, ' ');
    return whitespaceFix(out);
}
/** Python's `" ".join(text.split())`: split on runs of whitespace, drop empty ends. */
function whitespaceFix(text) {
    return text.split(/\s+/u).filter(Boolean).join(' ');
}
function exactMatch(gold, pred) {
    if (!pred)
        return 0;
    return gold.trim() === pred.trim() ? 1 : 0;
}
function quasiExactMatch(gold, pred) {
    if (!pred)
        return 0;
    return normalizeText(gold) === normalizeText(pred) ? 1 : 0;
}
/** HELM's f1_score: F1 of the two *sets* of normalised tokens (0 when either is empty). */
function f1Score(gold, pred) {
    const g = new Set(normalizeText(gold).split(' ').filter(Boolean));
    const p = new Set(normalizeText(pred).split(' ').filter(Boolean));
    if (g.size === 0 || p.size === 0)
        return 0;
    let common = 0;
    for (const token of p)
        if (g.has(token))
            common += 1;
    if (common === 0)
        return 0;
    const precision = common / p.size;
    const recall = common / g.size;
    return (2 * precision * recall) / (precision + recall);
}
/** rouge_score's tokenizer: lower case, non-alphanumerics to spaces, words longer than 3 stemmed. */
function rougeTokens(text) {
    return text
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, ' ')
        .split(/\s+/)
        .map(token => (token.length > 3 ? stemmer(token) : token))
        .filter(token => /^[a-z0-9]+$/.test(token));
}
/** ROUGE-L F-measure (longest common subsequence of rouge tokens), as HELM's `rouge_l`. */
function rougeL(gold, pred) {
    const ref = rougeTokens(gold);
    const can = rougeTokens(pred);
    if (ref.length === 0 || can.length === 0)
        return 0;
    // One row at a time: the table's last cell is all that is needed.
    let previous = new Uint32Array(can.length + 1);
    let current = new Uint32Array(can.length + 1);
    for (let i = 1; i <= ref.length; i += 1) {
        for (let j = 1; j <= can.length; j += 1) {
            current[j] = ref[i - 1] === can[j - 1] ? previous[j - 1] + 1 : Math.max(previous[j], current[j - 1]);
        }
        [previous, current] = [current, previous];
    }
    const lcs = previous[can.length];
    if (lcs === 0)
        return 0;
    const precision = lcs / can.length;
    const recall = lcs / ref.length;
    return (2 * precision * recall) / (precision + recall);
}

/**
 * The text two answers are compared by: the content, then each tool call as `name(arguments)`
 * with the arguments re-serialised (key order and spacing are the server's, not the model's).
 */
function answerText(answer) {
    const calls = (answer.tool_calls ?? []).map(call => {
        const fn = call?.function;
        let args = typeof fn?.arguments === 'string' ? fn.arguments : '';
        try {
            args = JSON.stringify(sortKeys(JSON.parse(args)));
        }
        catch {
            // Arguments that do not parse are compared as sent (and fail the tool-call check).
        }
        return `${String(fn?.name)}(${args})`;
    });
    return [answer.content ?? '', ...calls].filter(Boolean).join('\n');
}
function sortKeys(value) {
    if (Array.isArray(value))
        return value.map(sortKeys);
    if (value && typeof value === 'object') {
        return Object.fromEntries(Object.keys(value)
            .sort()
            .map(key => [key, sortKeys(value[key])]));
    }
    return value;
}
/** The documented normalisation of agreement: whitespace collapsed, case folded when the gate file says. */
function normaliseAnswer(text, ignoreCase) {
    const collapsed = whitespaceFix(text);
    return ignoreCase ? collapsed.toLowerCase() : collapsed;
}
/** Similarity of two answers in [0, 1]; two answers equal after normalisation are 1 (HELM's F1 of two empty texts is 0). */
function similarity(a, b, measure, ignoreCase) {
    if (normaliseAnswer(a, ignoreCase) === normaliseAnswer(b, ignoreCase))
        return 1;
    return measure === 'rouge_l' ? rougeL(a, b) : f1Score(a, b);
}
const REFERENCE_METRICS = {
    exact_match: exactMatch,
    quasi_exact_match: quasiExactMatch,
    f1_score: f1Score,
    rouge_l: rougeL
};
function judgeTraffic(instances, replayed, traffic, statistics, examples) {
    const run = `traffic:${traffic.set}`;
    const refusal = traffic.refusalPatterns.map(p => new RegExp(p, 'i'));
    const schemas = new SchemaCache();
    const texts = {
        b1: replayed.b1.map(answerText),
        b2: replayed.b2?.map(answerText) ?? null,
        c: replayed.c.map(answerText)
    };
    const norm = (t) => normaliseAnswer(t, traffic.ignoreCase);
    const structB = instances.map((inst, i) => structuralChecks(inst.request, replayed.b1[i], refusal, schemas));
    const structC = instances.map((inst, i) => structuralChecks(inst.request, replayed.c[i], refusal, schemas));
    const rows = [];
    const changed = new Map();
    const notes = [];
    const ctx = { run, statistics, examples, rows, changed, instances, texts, margins: traffic.checks };
    // Disagreement against the noise floor: N_i = 1[B2 != B1], D_i = 1[C != B1].
    const noise = instances.map((_, i) => (texts.b2 && norm(texts.b2[i]) !== norm(texts.b1[i]) ? 1 : 0));
    const change = instances.map((_, i) => (norm(texts.c[i]) !== norm(texts.b1[i]) ? 1 : 0));
    addRow(ctx, 'disagreement', 'lower', instances.map((_, i) => i), noise, change, 'the excess of C-vs-B1 disagreement over B1-vs-B2');
    const floor = instances.map((_, i) => (texts.b2 ? similarity(texts.b2[i], texts.b1[i], traffic.similarity, traffic.ignoreCase) : 1));
    const kept = instances.map((_, i) => similarity(texts.c[i], texts.b1[i], traffic.similarity, traffic.ignoreCase));
    addRow(ctx, 'similarity', 'higher', instances.map((_, i) => i), floor, kept, `${traffic.similarity} to B1, C against B2`);
    if (texts.b2 === null) {
        notes.push('Traffic: the baseline was not rerun (baseline_reruns: 0), so the noise floor is taken as zero: any changed answer counts against the candidate.');
    }
    else if (noise.every(n => n === 0)) {
        notes.push(`Traffic: the baseline answered all ${instances.length} requests identically twice (a deterministic server): the noise floor is zero, so the disagreement check reduces to "did the candidate change answers".`);
    }
    // Structural failures: paired 0/1 outcomes between B1 and C, on the instances each applies to.
    for (const check of ['invalid_json', 'invalid_tool_calls', 'truncation', 'refusals']) {
        const applies = instances.map((_, i) => i).filter(i => structC[i][check] !== null && structB[i][check] !== null);
        if (applies.length === 0)
            continue;
        const flag = (s) => (s[check] ? 1 : 0);
        addRow(ctx, check, 'lower', applies, applies.map(i => flag(structB[i])), applies.map(i => flag(structC[i])), 'failure rate, C against B1', i => [...structB[i].why.map(w => `baseline: ${w}`), ...structC[i].why.map(w => `candidate: ${w}`)].join('; '));
    }
    // Reference metrics, on the instances whose record has a reference.
    const withReference = instances.map((_, i) => i).filter(i => instances[i].reference !== null);
    if (withReference.length > 0) {
        for (const [check, metric] of Object.entries(REFERENCE_METRICS)) {
            const gold = (i) => instances[i].reference;
            addRow(ctx, check, 'higher', withReference, withReference.map(i => metric(gold(i), texts.b1[i])), withReference.map(i => metric(gold(i), texts.c[i])), 'against the reference, C against B1');
        }
    }
    // The answer-length ratio is its own row with an interval (gate/answer-length.ts, run-traffic.ts).
    return { comparisons: rows, changed, notes };
}
/**
 * One row: `base` and `cand` are per-instance values over `indices` (the noise floor and the
 * candidate's change for the noise-floor rows, B1 and C otherwise).
 */
function addRow(ctx, check, direction, indices, base, cand, what, why = () => '') {
    const clusters = base.map((b, k) => ({ baseline: [b], candidate: [cand[k]] }));
    const margin = ctx.margins[check];
    const tolerated = margin ?? REPORTED_MARGINS[check];
    let estimate;
    try {
        estimate = estimatePaired(clusters, ctx.statistics);
    }
    catch (error) {
        if (error instanceof GateError)
            throw new GateError(error.code, `traffic ${check}: ${error.message}`, error.location);
        throw error;
    }
    const decision = smallSampleGuard(decideVerdict(estimate, tolerated, direction, ctx.statistics.confidence), estimate.n, estimate.ci.method);
    const id = [ctx.run, check, '', 'clean'].join(' | ');
    const all = [];
    indices.forEach((i, k) => {
        // The candidate's side got worse on this instance (for disagreement: it changed the answer).
        const tolerance = ctx.statistics.flipTolerance;
        const worse = direction === 'lower' ? cand[k] > base[k] + tolerance : cand[k] < base[k] - tolerance;
        if (!worse && !(check === 'disagreement' && cand[k] === 1))
            return;
        const instance = ctx.instances[i];
        const reason = why(i);
        const example = {
            instance_id: instance.id,
            train_trial_index: 0,
            // Shown in the report and the pull-request comment: credentials hidden as everywhere else.
            input: redactText(conversation(instance)),
            reference: redactText(instance.reference ?? ''),
            baseline_output: redactText(ctx.texts.b1[i]),
            candidate_output: redactText(ctx.texts.c[i]),
            baseline_value: base[k],
            candidate_value: cand[k]
        };
        if (reason)
            example.failed_check = reason;
        example.stratum = instance.stratum;
        all.push(example);
    });
    ctx.changed.set(id, all);
    ctx.rows.push({
        id,
        run: ctx.run,
        entry: 'traffic',
        metric: check,
        split: null,
        perturbation: null,
        gated: margin !== null,
        direction,
        binary: estimate.binary,
        n: estimate.n,
        pairs: estimate.pairs,
        unmatched: { baseline: 0, candidate: 0 },
        dropped: { baseline: 0, candidate: 0 },
        baseline_mean: estimate.baselineMean,
        candidate_mean: estimate.candidateMean,
        delta: estimate.delta,
        ci: { level: estimate.ci.level, low: estimate.ci.low, high: estimate.ci.high, method: estimate.ci.method },
        wins: estimate.wins,
        losses: estimate.losses,
        unchanged: estimate.unchanged,
        p_value: estimate.pValue,
        max_drop: tolerated,
        max_relative_drop: null,
        verdict: decision.verdict,
        n_needed: decision.nNeeded,
        reason: `${what}: ${decision.reason}`,
        examples: all.slice(0, ctx.examples)
    });
}
/** The conversation as one text for the report: each message as `role: content` (untrusted: renderers escape it). */
function conversation(instance) {
    return instance.request.messages
        .map(m => `${m.role}: ${typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? m.tool_calls ?? null)}`)
        .join('\n');
}

/**
 * Sends the traffic set to one side's chat API, as the traffic was sent: every message (system
 * prompt, every turn), and the request's own response_format, tools, tool_choice, stop and
 * length settings, with `model` set to the side's and the temperature the gate file asks for
 * (0 unless it says otherwise). Each request and its response are kept as a request state in
 * HELM's shape (scenario_state.json: instance, request, result), so the evidence reads like the
 * HELM half's.
 *
 * Why the product's own client and not HELM: HELM 0.5.16's OpenAI chat client builds its
 * `messages` from one prompt (or a `messages` list without tool messages), never sends `tools`,
 * `tool_choice` or `response_format`, and keeps only the text of a completion (no tool calls), so
 * it cannot replay a tool-calling or JSON-mode request faithfully (docs/traffic.md).
 *
 * No retries, no cache: a request that fails (HTTP error, timeout, unreadable answer) is a failed
 * request, recorded with its error, and the traffic gate's verdict is error (fail closed).
 */
/** The body sent for one instance: the logged request with the side's model and the gate's temperature. */
function replayBody(instanceRequest, model, temperature) {
    const body = { ...instanceRequest, model, stream: false };
    // Options of a stream that is no longer requested: servers reject them without `stream: true`.
    delete body.stream_options;
    if (temperature !== null)
        body.temperature = temperature;
    return body;
}
async function replaySide(instances, target, options) {
    const url = routeUrl(target.baseUrl, 'chat/completions');
    const dispatcher = new undiciExports.Agent({ connections: options.concurrency, headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs });
    const states = new Array(instances.length);
    let next = 0;
    // A fixed number of workers taking the next instance: at most `concurrency` requests in flight.
    const worker = async () => {
        while (next < instances.length) {
            const index = next;
            next += 1;
            states[index] = await replayOne(instances[index], url, target, options, dispatcher);
        }
    };
    try {
        await Promise.all(Array.from({ length: Math.min(options.concurrency, instances.length) }, worker));
    }
    finally {
        await dispatcher.close();
    }
    return states;
}
async function replayOne(instance, url, target, options, dispatcher) {
    const body = replayBody(instance.request, target.model, options.temperature);
    const started = performance.now();
    const state = (httpStatus, completions, error, response = null) => ({
        instance: { id: instance.id, stratum: instance.stratum, tag: instance.tag },
        train_trial_index: 0,
        request: body,
        result: {
            success: error === null,
            completions,
            request_time: (performance.now() - started) / 1000,
            cached: false,
            http_status: httpStatus,
            error,
            response
        }
    });
    const headers = { 'content-type': 'application/json' };
    if (target.apiKey)
        headers.authorization = `Bearer ${target.apiKey}`;
    let status = 0;
    try {
        const response = await undiciExports.request(url, {
            method: 'POST',
            body: JSON.stringify(body),
            headers,
            dispatcher,
            signal: AbortSignal.timeout(options.timeoutMs)
        });
        status = response.statusCode;
        const text = await response.body.text();
        const kept = parsedOrText(text);
        if (status < 200 || status >= 300)
            return state(status, [], `HTTP ${status}: ${text.slice(0, 300)}`, kept);
        const answer = readAnswer(text);
        if (typeof answer === 'string')
            return state(status, [], answer, kept);
        return state(status, [{ text: answer.content ?? '', finish_reason: { reason: answer.finish_reason }, tool_calls: answer.tool_calls }], null, kept);
    }
    catch (error) {
        const err = error;
        const why = err.name === 'TimeoutError' || /timeout/i.test(err.message) ? `timed out after ${options.timeoutMs} ms` : err.message;
        return state(status, [], redactText(why));
    }
}
function parsedOrText(text) {
    try {
        return JSON.parse(text);
    }
    catch {
        return text;
    }
}
/** The first choice of a chat completion, or why it cannot be read. */
function readAnswer(text) {
    let parsed;
    try {
        parsed = JSON.parse(text);
    }
    catch {
        return 'the answer is not JSON';
    }
    const choice = parsed?.choices?.[0];
    if (!choice || typeof choice !== 'object' || !choice.message || typeof choice.message !== 'object') {
        return 'the answer has no choices[0].message';
    }
    const { content, tool_calls } = choice.message;
    if (content !== null && content !== undefined && typeof content !== 'string')
        return 'choices[0].message.content is not a string';
    return {
        content: typeof content === 'string' ? content : null,
        tool_calls: Array.isArray(tool_calls) && tool_calls.length > 0 ? tool_calls : null,
        finish_reason: typeof choice.finish_reason === 'string' ? choice.finish_reason : null
    };
}
/** A recorded state back to the answer it holds (null for a failed request). */
function answerOf(state) {
    const first = state.result.success ? state.result.completions[0] : undefined;
    if (!first)
        return null;
    return { content: first.text, tool_calls: first.tool_calls, finish_reason: first.finish_reason.reason };
}

/**
 * The traffic gate inside the one pipeline (src/pipeline/run-gate.ts): the set is replayed on
 * each side while it is up (B1 and B2 on the baseline, C on the candidate), every request state
 * is written to `<out>/traffic/<replay>/scenario_state.json`, and the judged rows join the quality
 * half's report. It is a measurement (src/model/measurement.ts): a launched side replays while the
 * holder keeps it up (src/launch/side-holder.ts), before the load half; a server that is always up
 * replays after the HELM half.
 *
 * Fail closed: a failed request, a side that was never up, or a replay that could not run makes
 * the report's verdict error; the states of the requests that did run are kept as evidence.
 */
class TrafficReplay {
    config;
    options;
    states = new Map();
    done = new Set();
    errors = [];
    /** The deployments' API keys and secret-named variables, masked wherever a replay's text is kept. */
    mask;
    constructor(config, options) {
        this.config = config;
        this.options = options;
        const deployments = Object.values(config.deployments ?? {});
        this.mask = masker(secretValues(options.env, apiKeyValues(deployments, options.env)));
    }
    /** While launched sides are held up: replay each side that is up now and has not replayed. */
    hold = async (up) => {
        for (const side of up)
            await this.replay(side);
    };
    /** After the HELM half: the sides no launch brings up are servers that are always up. */
    async holdAlwaysUp() {
        for (const side of ['baseline', 'candidate']) {
            if (!this.config.launch?.sides[side])
                await this.replay(side);
        }
    }
    /** Judges the replays and adds the traffic rows, errors and notes to the quality half's report. */
    attach(report, context = {}) {
        const { changedAnswers, examples = 3 } = context;
        const traffic = this.config.traffic;
        for (const side of ['baseline', 'candidate']) {
            if (!this.done.has(side)) {
                this.errors.push(new GateError('traffic.side_not_up', `traffic: the ${side} was never up while the gate ran, so the set was not replayed on it`, {
                    field: `deployments.${side}`
                }));
            }
        }
        const errors = [...report.errors, ...this.errors.map(e => ({ code: e.code, message: e.message, ...where(e) }))];
        const notes = [...report.notes];
        const comparisons = [...report.comparisons];
        const answerLengths = [...(report.answer_lengths ?? [])];
        const warnings = [...report.warnings];
        if (this.errors.length === 0) {
            try {
                const answers = (name) => (this.states.get(name) ?? []).map(s => answerOf(s));
                const judged = judgeTraffic(traffic.instances, { b1: answers('baseline-1'), b2: traffic.baselineReruns ? answers('baseline-2') : null, c: answers('candidate') }, traffic, this.config.statistics, examples);
                comparisons.push(...judged.comparisons);
                notes.push(...judged.notes);
                for (const [id, list] of judged.changed)
                    changedAnswers?.set(id, list);
            }
            catch (error) {
                if (!(error instanceof GateError))
                    throw error;
                errors.push({ code: error.code, message: error.message, ...where(error) });
            }
            // Reported always; a failure to measure is an error only when its band gates (fail closed).
            try {
                answerLengths.push(trafficAnswerLength(this.states.get('baseline-1') ?? [], this.states.get('candidate') ?? [], traffic, this.config.statistics));
            }
            catch (error) {
                if (!(error instanceof GateError))
                    throw error;
                if (traffic.answerLength)
                    errors.push({ code: error.code, message: error.message, ...where(error) });
                else
                    warnings.push({ code: error.code, message: error.message, ...where(error) });
            }
        }
        // A report that was an error stays one; otherwise the verdict is re-derived with the traffic rows.
        const verdict = report.verdict === 'error' ? 'error' : qualityVerdict(comparisons, errors.length, answerLengths);
        const headline = verdict === report.verdict && comparisons.length === report.comparisons.length
            ? report.headline
            : qualityHeadline(verdict, comparisons, errors.length, answerLengths);
        return {
            ...report,
            verdict,
            headline,
            errors,
            warnings,
            comparisons,
            notes,
            ...(answerLengths.length > 0 ? { answer_lengths: answerLengths } : {})
        };
    }
    async replay(side) {
        if (this.done.has(side))
            return;
        this.done.add(side);
        const traffic = this.config.traffic;
        const deployment = this.config.deployments?.[side];
        if (!deployment || deployment.kind !== 'server')
            return; // refused by the gate file's validation
        const names = side === 'candidate' ? ['candidate'] : traffic.baselineReruns ? ['baseline-1', 'baseline-2'] : ['baseline-1'];
        for (const name of names) {
            this.options.progress(`helm-gate: traffic: replaying ${traffic.instances.length} requests on the ${side} (${name})`);
            let states;
            try {
                states = await replaySide(traffic.instances, { baseUrl: deployment.baseUrl, model: deployment.model, apiKey: apiKeyOf(deployment, this.options.env) }, { temperature: traffic.temperature, concurrency: traffic.concurrency, timeoutMs: traffic.requestTimeoutSeconds * 1000 });
            }
            catch (error) {
                this.errors.push(new GateError('traffic.replay_failed', `traffic: the replay on the ${side} (${name}) could not run: ${error.message}`));
                return;
            }
            this.states.set(name, states);
            const file = await this.writeEvidence(name, states);
            const failed = states.filter(s => !s.result.success);
            if (failed.length > 0) {
                const first = failed[0];
                this.errors.push(new GateError('traffic.request_failed', `traffic: ${failed.length} of ${states.length} requests failed on the ${side} (${name}); a failed request is never judged, so nothing passes`, { file, field: `instance ${first.instance.id}`, value: this.mask(first.result.error ?? 'failed') }));
            }
        }
    }
    /**
     * HELM's shape, one file per replay: credential-like keys hidden, every string through the one
     * redactor, and the API keys masked wherever they appear (a prompt or a server's answer may echo one; the request sends it
     * only in a header, which is not kept).
     */
    async writeEvidence(name, states) {
        const dir = path.join(this.options.outDir, 'traffic', name);
        await mkdir(dir, { recursive: true });
        const file = path.join(dir, 'scenario_state.json');
        await writeFile(file, `${JSON.stringify(redactTree({ request_states: states }, 32, this.mask), null, 1)}\n`);
        return file;
    }
}
function where(error) {
    const out = {};
    if (error.location.file)
        out.file = error.location.file;
    if (error.location.field)
        out.field = error.location.field;
    if (error.location.value !== undefined)
        out.value = showValue(error.location.value);
    return out;
}
/** The traffic replay of a gate that has one and compares (a shard or a baseline-only run replays nothing). */
function trafficReplayFor(config, compare, options) {
    if (!config.traffic || !compare)
        return null;
    return new TrafficReplay(config, options);
}
/** The server's own count of an answer's tokens (`usage.completion_tokens`), or null when it sent none. */
function completionTokens(state) {
    const response = state.result.response;
    if (response === null || typeof response !== 'object')
        return null;
    const usage = response.usage;
    const tokens = usage !== null && typeof usage === 'object' ? usage.completion_tokens : undefined;
    return typeof tokens === 'number' && Number.isInteger(tokens) && tokens >= 0 ? tokens : null;
}
/**
 * The traffic answer-length row, B1 against C: the servers' `usage.completion_tokens` when every
 * answer on both sides has it, else code points of the answers' text (said in the row's unit).
 */
function trafficAnswerLength(b1, c, traffic, statistics) {
    // A server that sends 0 for a non-empty answer does not count tokens: use the fallback for both sides.
    const counted = [...b1, ...c].every(s => {
        const t = completionTokens(s);
        return t !== null && (t > 0 || (s.result.completions[0]?.text ?? '') === '');
    });
    const length = (s) => counted ? completionTokens(s) : Array.from(s.result.completions[0]?.text ?? '').length;
    return answerLengthRow('traffic', 'traffic', counted ? `${TOKENS_UNIT} (the servers' usage.completion_tokens)` : `${CHARACTERS_UNIT.replace('recorded', 'sent by a server')}`, b1.map(length), c.map(length), traffic.answerLength ?? null, statistics);
}

function measurementsFor(config, s) {
    const { compare, outDir, env, progress } = s;
    const measurements = [
        trafficReplayFor(config, compare, { outDir, env, progress }),
        fidelityRunFor(config, compare, { env, progress }),
        loadMeasurementFor(config, compare ? s.load : null, s)
    ];
    return measurements.filter((m) => m !== null);
}

/**
 * The pipeline, on one screen: run the sides that are not given, record how they were made,
 * compare, and load-test both deployments while they are up. `helm-gate run` and every action
 * mode go through here; each is a short adapter that says where the sides come from (helm-run, an
 * archived baseline, shard artifacts), whether the load half runs, and where the results go
 * (files, a PR comment, an artifact).
 *
 *   gate file ─► runGate: runSides (helm-run per side; the measurements while launched servers are up)
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
    const wanted = settings.sides ?? [...SIDES$1];
    const given = settings.given ?? {};
    const toRun = wanted.filter(side => !given[side]);
    const errors = [...(settings.priorErrors ?? [])];
    await mkdir(outDir, { recursive: true });
    // Made once, before anything runs (src/plan/run-plan.ts): the fingerprint the manifest records.
    const plan = await makeRunPlan(config, {
        env: settings.env ?? process.env,
        cwd: settings.cwd ?? process.cwd(),
        baseRef: settings.baseRef ?? null,
        sequential: settings.sequential,
        fingerprint: settings.fingerprint
    });
    // The measurements beside the quality half (traffic replay, fidelity, the load half), each run
    // while its sides are up and joining its own part of the report (src/pipeline/measurements.ts).
    const measurements = measurementsFor(config, {
        compare: settings.compare !== false,
        load: settings.load ?? null,
        outDir,
        cwd: settings.cwd ?? process.cwd(),
        env: settings.env ?? process.env,
        progress: settings.progress ?? (() => { }),
        baseRef: settings.baseRef ?? null,
        sequential: settings.sequential,
        toRun
    });
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
            fingerprint: plan.fingerprint,
            baseRef: settings.baseRef,
            readinessTimeoutMs: settings.readinessTimeoutMs,
            // Only the command line can change it (--ready-timeout); the action has no such input.
            readinessTimeoutHint: settings.mode.startsWith('cli') ? undefined : null,
            measurements,
            log: settings.log,
            progress: settings.progress,
            env: settings.env,
            cwd: settings.cwd
        });
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
        // The run plan's, fingerprint_paths included, whether or not a side ran here (merged shards).
        fingerprint: plan.fingerprint,
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
    if (settings.compare === false)
        return { report: runReport(wanted, complete, errors, config.statistics), manifest, paths };
    // One cause, one error: a side that did not complete has already said why; reading its output
    // would only add symptoms (and a healthy side that never started would look empty).
    const quality = (outcome?.errors.length ?? 0) > 0
        ? sidesFailedReport(errors, config.statistics, paths.baseline, paths.candidate)
        : await compareOutputs(paths.baseline, paths.candidate, config, {
            priorErrors: errors,
            examples: settings.examples,
            changedAnswers: settings.changedAnswers
        });
    let report = quality;
    for (const measurement of measurements) {
        report = await measurement.attach(report, { paths, changedAnswers: settings.changedAnswers, examples: settings.examples });
    }
    report.notes.push(...(outcome?.notes ?? []));
    attachIdentity(report, manifest);
    // The load half's blocks and the periods its sides were up, beside the launch records.
    const timeline = loadTimelineOf(report.load);
    if (timeline) {
        manifest.load_timeline = timeline;
        await writeManifest(outDir, manifest);
    }
    return { report, manifest, paths };
}
/**
 * The performance half alone (`helm-gate load`, `run --only load`): launched servers are started,
 * load-tested while up and stopped (src/launch/launched-load.ts); servers that are always up are
 * load-tested as they are. The report says the quality half did not run.
 */
async function runLoadOnlyGate(config, options) {
    const measured = launchedLoadFor(config, options);
    const outcome = await runLoadHalf(config, options.outDir, {
        env: options.env,
        progress: options.progress,
        gateSetOutput: null,
        measured
    });
    return loadOnlyReport(config, outcome.report);
}
function sideLogs(outcome, outDir) {
    const logs = [];
    for (const side of SIDES$1) {
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
async function runLoadOnly(config, outDir, args, io, say, cancel) {
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
    throw new UsageError('usage.out_not_empty', `--out ${dir} is not empty: it holds ${own ? 'an earlier helm-gate output' : `${names.length} ${names.length === 1 ? 'entry' : 'entries'}`} (${shown}); give a new or empty folder`, { field: '--out', value: dir });
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

export { assertFreshOutputFolder as a, runLoadOnly as b, runGate as c, reportingUnfinished as r };
