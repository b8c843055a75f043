import { resolve, join } from 'node:path';
import { tmpdir, availableParallelism } from 'node:os';
import { m as redactUrl, t as twoSidedZ, M as MIN_BOOTSTRAP_UNITS, o as instancesNeeded, q as binarySd, s as tangoInterval, u as redactText, c as counted, G as GateError, p as parseArgs, P as PLAN_USAGE, r as requiredConfig, n as numberOption, l as loadGateConfig, g as gateSections, v as checkStoppingSchedule, x as measurementPlanLines, y as describeBand, z as describeCalibrationCheck, A as describeStopping } from './cli.js';
import { s as scheduleOf, r as routeUrl, m as makeRunPlan, p as planSides, c as childProcessEnv } from './cli-detect-fidelity-route.js';
import { P as PROD_ENV_FILES, e as redactedFiles, s as swapsNeeded, f as blockPlan, h as expandLaunch, p as prepareRun, j as pluginPythonPath, D as DEFAULT_READINESS_TIMEOUT_MS, k as measureSwap, n as refusalOf, m as measurementsFor, o as resolveHelmRun, q as checkPreparedMetricNames, t as displayCommand, u as countInstances, v as planStages } from './cli-measurements.js';
import 'node:fs/promises';
import 'node:crypto';
import 'node:fs';
import 'node:url';
import 'node:worker_threads';
import 'node:string_decoder';
import 'node:readline';
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

function runPlanLines(input) {
    const out = ['# run plan (made once before anything runs; run executes it):'];
    for (const side of ['baseline', 'candidate'])
        out.push(`#   ${side}: ${sideLine(input, side)}`);
    out.push(`#   measurements, in order: ${[input.quality, ...input.measurements].join('; then ')}`);
    return out;
}
function sideLine(input, side) {
    const { config, sides, selfCheck } = input;
    const from = selfCheck ? 'baseline' : side;
    const deployment = config.deployments?.[from];
    const same = from !== side ? ' (self-check: the baseline deployment)' : '';
    if (!deployment)
        return 'no deployment';
    if (deployment.kind === 'prod_env')
        return `HELM deployment ${deployment.deployment} from a prod_env${same}`;
    if (deployment.kind === 'command')
        return `a runner command (${deployment.output} output)${same}`;
    const endpoint = sides.endpoints[from];
    if (!endpoint)
        return 'no endpoint';
    const name = sides.keyVariables[from];
    const key = name ? `key ${name} (${endpoint.apiKey ? 'set' : 'NOT SET: run refuses it'})` : 'no key';
    const launch = config.launch?.sides[from];
    const up = launch ? `launched by helm-gate (${launch.field})` : 'always up (probed before the side runs)';
    return `${redactUrl(endpoint.baseUrl)} model ${endpoint.model}, api ${endpoint.api}, ${key}; ${up}${same}`;
}

/** HELM's 0/1 accuracy metrics (exact-match family, with their `@k` variants). */
const BINARY_METRIC = /(^|_)(exact_match|exact_set_match|exact_match_indicator)(@\d+)?$/;
function isBinaryMetric(metric) {
    return BINARY_METRIC.test(metric);
}
/** The lower bound of the interval when no answer changed: the best a candidate can do. */
function bestCaseLowerBound(n, binary, confidence) {
    if (!binary)
        return n >= MIN_BOOTSTRAP_UNITS ? 0 : -Infinity;
    return tangoInterval({ both: n, wins: 0, losses: 0, neither: 0 }, confidence)[0];
}
/** The smallest n whose best case clears -margin (null when none below ten million does). */
function floorInstances(margin, binary, confidence) {
    if (!(margin > 0))
        return null;
    const clears = (n) => bestCaseLowerBound(n, true, confidence) > -margin;
    let high = 1;
    while (!clears(high)) {
        high *= 2;
        if (high > 10_000_000)
            return null;
    }
    let low = Math.floor(high / 2);
    while (high - low > 1) {
        const mid = Math.floor((low + high) / 2);
        if (clears(mid))
            high = mid;
        else
            low = mid;
    }
    return high;
}
function instanceLines(counts, config, options) {
    const confidence = config.statistics.confidence;
    const z = twoSidedZ(confidence);
    const lines = [];
    const warnings = [];
    for (const count of counts) {
        const { run } = count;
        const name = `${run.entry} ${run.metric}`;
        if (count.n === null || count.split === null) {
            const why = count.counts === null ? 'the dry run made no run for this entry' : 'several splits and no test split: set split';
            warnings.push(`${name}: cannot tell how many instances it will have (${why})`);
            continue;
        }
        const split = `split ${count.split}`;
        const perturbations = Object.entries(count.counts?.perturbed ?? {}).map(([p, k]) => `${p} ${k}`);
        const described = `n = ${count.n} (${split}${perturbations.length ? `; perturbed: ${perturbations.join(', ')}` : ''})`;
        if (run.maxDrop === null) {
            lines.push(`${name}: ${described}; max_relative_drop ${run.maxRelativeDrop} depends on the baseline mean`);
            continue;
        }
        const margin = run.maxDrop;
        const binary = isBinaryMetric(run.metric);
        const lowest = bestCaseLowerBound(count.n, binary, confidence);
        if (!(lowest > -margin)) {
            warnings.push(`${name}: ${described} cannot resolve max_drop ${margin}: ${floorReason(count, binary, lowest, margin, confidence, options)}`);
            continue;
        }
        if (!binary) {
            lines.push(`${name}: ${described}; at least ${MIN_BOOTSTRAP_UNITS} instances, so max_drop ${margin} can be resolved`);
            continue;
        }
        const tolerated = (count.n * margin * margin) / (z * z);
        lines.push(`${name}: ${described}; resolves max_drop ${margin} while at most about ${percent(tolerated)} of answers change (power approximation)`);
        if (options.discordance !== undefined) {
            const needed = instancesNeeded({ sd: binarySd(options.discordance), delta: 0, margin, confidence });
            if (needed !== null && needed > count.n) {
                warnings.push(`${name}: ${described} is too few for max_drop ${margin} if ${percent(options.discordance)} of answers change: about ${needed} needed${scaleAdvice(count, needed, options.maxEvalInstances)}`);
            }
        }
    }
    return { lines, warnings };
}
function floorReason(count, binary, lowest, margin, confidence, options) {
    if (!binary)
        return `a bootstrap interval on fewer than ${MIN_BOOTSTRAP_UNITS} instances never passes${scaleAdvice(count, MIN_BOOTSTRAP_UNITS, options.maxEvalInstances)}`;
    const needed = floorInstances(margin, true, confidence);
    const level = `${Number((confidence * 100).toPrecision(6))}%`;
    return (`even with no changed answer the ${level} interval reaches ${lowest.toPrecision(3)}, so every result is inconclusive at best` +
        (needed === null ? '' : `; about ${needed} instances needed${scaleAdvice(count, needed, options.maxEvalInstances)}`));
}
/** How to get `needed` instances in the comparison's split: a larger budget, if the scenario has them. */
function scaleAdvice(count, needed, maxEvalInstances) {
    const n = count.n;
    const evalTotal = Object.values(count.counts?.clean ?? {}).reduce((a, b) => a + b, 0);
    if (evalTotal < maxEvalInstances) {
        return ` (the scenario has only ${evalTotal} evaluation instances: a larger max_eval_instances cannot help)`;
    }
    if (n === 0)
        return '';
    return ` (raise helm.max_eval_instances from ${maxEvalInstances} to about ${Math.ceil((maxEvalInstances * needed) / n)})`;
}
function percent(rate) {
    return `${Number((rate * 100).toPrecision(2))}%`;
}

/** Raised when the document's shape changes incompatibly. */
const PLAN_JSON_VERSION = 1;
function renderPlanJson(input) {
    const doc = {
        plan_json_version: PLAN_JSON_VERSION,
        config: input.source,
        helm_version: input.prepared.helm.version,
        max_eval_instances: input.prepared.helm.maxEvalInstances,
        fingerprint: 'value' in input.fingerprint ? input.fingerprint.value : null,
        fingerprint_problem: 'problem' in input.fingerprint ? input.fingerprint.problem : null,
        measurements: input.measurements,
        instances: instancesPart(input.counts),
        metric_names: input.names === null
            ? { checked: false, lines: [], refused: [] }
            : {
                checked: true,
                lines: input.names.lines,
                refused: input.names.refused.map(error => ({ code: error.code, message: error.message, ...error.location }))
            },
        sides: input.prepared.plans.map(plan => plan.runner
            ? {
                side: plan.side,
                made_by: 'runner command',
                working_directory: plan.workDir,
                invocations: plan.runner.map(call => ({ entry: call.entry, argv: [call.command, ...call.args] }))
            }
            : {
                side: plan.side,
                made_by: 'helm-run',
                deployment: plan.prodEnv.deployment,
                entries: plan.entries,
                argv: [plan.command, ...plan.args],
                env: { PYTHONPATH: input.pythonPath },
                prod_env: Object.fromEntries(PROD_ENV_FILES.map(name => [name, redactedFiles(plan.prodEnv)[name]]))
            }),
        lines: input.lines
    };
    // Every string through the one redactor (as the text plan is), then the whole text once more:
    // a credential in a command line or a template is hidden whatever field it sits in.
    return `${redactText(JSON.stringify(redactStrings(doc), null, 2))}\n`;
}
function instancesPart(counts) {
    if (counts === null)
        return { counted: false, problem: 'not counted' };
    if (!counts.ok)
        return { counted: false, problem: counts.problem };
    return {
        counted: true,
        comparisons: counts.counts.map(c => ({ entry: c.run.entry, metric: c.run.metric, split: c.split, n: c.n }))
    };
}
function redactStrings(value) {
    if (typeof value === 'string')
        return redactText(value);
    if (Array.isArray(value))
        return value.map(redactStrings);
    if (value !== null && typeof value === 'object') {
        return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactStrings(item)]));
    }
    return value;
}

/**
 * What `helm-gate plan` says about launching: the schedule, and per launched side the command as
 * it would be spawned (`${NAME}` filled from this environment, secrets masked), where it runs,
 * how long it may take to get ready and how it is stopped. Nothing is started.
 */
function scheduleLine(input) {
    const schedule = scheduleOf(input.settings, input.sequential);
    if (schedule === 'sequential') {
        const why = input.sequential ? '--sequential' : 'the gate file';
        return `# schedule: sequential (${why}): baseline up, measured, down; then the candidate (the quality half: drift between the two periods is not cancelled; the load half swaps the sides between blocks)`;
    }
    return '# schedule: concurrent: both sides at the same time (run --sequential to change)';
}
function launchLines(input) {
    const out = [];
    for (const side of ['baseline', 'candidate']) {
        const spec = input.settings?.sides[side];
        if (!spec)
            continue;
        out.push('', `## ${side}: launched by helm-gate (${spec.field})`, ...sideLines$1(spec, input.deployments[side], input));
    }
    return out;
}
function sideLines$1(spec, deployment, input) {
    const lines = [];
    let command = spec.command;
    let stopCommand = spec.stopCommand;
    let extraEnv = spec.env;
    let mask = (line) => line;
    try {
        const expanded = expandLaunch(spec, input.env, input.source, input.secrets);
        ({ command, stopCommand, extraEnv, mask } = expanded);
    }
    catch (error) {
        if (!(error instanceof GateError))
            throw error;
        lines.push(`# WARNING ${error.message}: run would stop here (shown unexpanded)`);
    }
    const show = (args) => mask(JSON.stringify(args));
    lines.push(`command: ${show(command)}`);
    lines.push(spec.checkout === 'base'
        ? `checkout: base (a git worktree of ${input.baseRef ? `--baseline-ref ${input.baseRef}` : "the pull request's base commit; on the command line --baseline-ref REF is required"})`
        : "checkout: head (the checked-out tree: the pull request's own files)");
    const env = Object.entries(extraEnv);
    if (env.length > 0)
        lines.push(`env: ${mask(env.map(([name, value]) => `${name}=${value}`).join(' '))}`);
    if (deployment.kind === 'server') {
        lines.push(`ready: GET ${redactUrl(safeRoute(deployment.baseUrl))} must list ${deployment.model} within ${spec.readyTimeoutSeconds} s (ready_timeout_seconds)`);
    }
    lines.push(`stop: ${spec.stop.signal} to the process group, SIGKILL after ${spec.stop.timeoutSeconds} s` +
        (stopCommand ? `, then stop_command ${show(stopCommand)}` : ''));
    return lines;
}
function safeRoute(baseUrl) {
    try {
        return routeUrl(baseUrl, 'models');
    }
    catch {
        return baseUrl;
    }
}
const SIDES = ['baseline', 'candidate'];
/**
 * What `plan` says about the load half's mode and why: both sides up at once (servers always up, a
 * concurrent schedule), swapped between blocks (launched on a sequential schedule), or one period
 * per side (a side that cannot be swapped). With `swapMs` (plan --measure-swap) also the swaps and
 * blocks load.swap_budget_seconds allows at that cost.
 */
function loadModeLines(config, sequential, cores, swapMs) {
    const load = config.load;
    if (!load)
        return [];
    const sides = config.launch?.sides ?? {};
    const launched = SIDES.filter(side => sides[side]);
    const schedule = scheduleOf(config.launch, sequential);
    if (launched.length === 0)
        return ['# load half: both up (the servers are always up): blocks alternate A B B A'];
    if (launched.length === 1) {
        const always = SIDES.find(side => !sides[side]);
        return [`# load half: both up (the ${always} is always up, the ${launched[0]} while launched): blocks alternate A B B A`];
    }
    const threads = threadSplit(config);
    if (schedule === 'concurrent') {
        return [
            `# load half: both up at once (schedule: concurrent): blocks alternate A B B A with no swap; the two servers share the host${threads ? ` (--threads ${threads.baseline} + ${threads.candidate} of ${cores} cores)` : ': split its cores (--threads) or its accelerator memory between them'}`
        ];
    }
    const lines = [];
    const fixed = launched.find(side => sides[side]?.switch === 'none');
    const needed = swapsNeeded(blockPlan(load, 'swapped'));
    if (fixed) {
        lines.push(`# load half: one period per side (deployments.${fixed}.launch.switch is none: swapping is impossible): drift between the periods is not cancelled, and the decision line says so`);
    }
    else {
        const how = SIDES.map(side => `${side} ${sides[side]?.switch ?? 'restart'}`).join(', ');
        lines.push(`# load half: swapped (schedule: sequential, one side up at a time): blocks alternate A B B A with ${counted(needed, 'swap')} between them (switch: ${how}); after each swap the side is probed for readiness and warmed up again, outside the figures`);
        const budget = load.swapBudgetSeconds;
        if (swapMs === null) {
            lines.push(`#   swap cost: measured by run at the start of the load half (plan --measure-swap measures it now); load.swap_budget_seconds ${budget} s`);
        }
        else {
            const allowed = swapMs > 0 ? Math.floor((budget * 1000) / swapMs) : Infinity;
            const most = mostRepetitions(load, allowed);
            lines.push(`#   swap cost: ${(swapMs / 1000).toFixed(1)} s (measured now: one side stopped or put to sleep, the other up and ready); load.swap_budget_seconds ${budget} s allows ${Number.isFinite(allowed) ? allowed : 'any number of'} swaps: ` +
                (most === null
                    ? 'fewer than the fewest blocks (repetitions 3)'
                    : `at most ${2 * most * load.levels.length} blocks (repetitions ${most}${most >= 1000 ? ' or more' : ''})`) +
                `; this plan needs ${needed} for ${2 * load.repetitions * load.levels.length} blocks`);
            if (needed * swapMs > budget * 1000) {
                lines.push('# WARNING over the swap budget: run would measure each side in its own period (not interleaved), and say so in the decision line');
            }
        }
    }
    if (threads && threads.baseline + threads.candidate <= cores) {
        lines.push(`#   this host could hold both at once (--threads ${threads.baseline} + ${threads.candidate} <= ${cores} cores): schedule: concurrent, each side on its own port, measures them both up without swaps`);
    }
    return lines;
}
/** The most repetitions (3 to 1000) whose A B B A plan needs at most `allowed` swaps; null if none. */
function mostRepetitions(load, allowed) {
    let most = null;
    for (let repetitions = 3; repetitions <= 1000; repetitions++) {
        if (swapsNeeded(blockPlan({ ...load, repetitions }, 'swapped')) > allowed)
            break;
        most = repetitions;
    }
    return most;
}
/** Each launched side's `--threads N` (`-t N`), when both give one: CPU engines that split the host. */
function threadSplit(config) {
    const of = (side) => {
        const command = config.launch?.sides[side]?.command ?? [];
        const at = command.findIndex(arg => arg === '--threads' || arg === '-t');
        const value = at >= 0 ? Number(command[at + 1]) : NaN;
        return Number.isInteger(value) && value > 0 ? value : null;
    };
    const baseline = of('baseline');
    const candidate = of('candidate');
    return baseline !== null && candidate !== null ? { baseline, candidate } : null;
}

/**
 * `helm-gate plan --config FILE`: print the run plan (src/plan/run-plan.ts, made as run makes
 * it: each side's endpoint and key variable, launch, the schedule, the fingerprint, the
 * measurements in order), the prod_env files each side would get (secrets redacted) and the exact
 * helm-run commands, without running anything.
 */
const SPECS = {
    config: { value: true },
    out: { value: true },
    'self-check': { value: false },
    'ready-timeout': { value: true },
    discordance: { value: true },
    'no-count': { value: false },
    'measure-swap': { value: false },
    sequential: { value: false },
    'baseline-ref': { value: true },
    json: { value: false },
    debug: { value: false },
    help: { value: false }
};
async function planCommand(argv, io) {
    const args = parseArgs(argv, SPECS);
    if (args.flags.has('help')) {
        io.stdout(PLAN_USAGE);
        return 0;
    }
    const configPath = requiredConfig(args, PLAN_USAGE);
    const readySeconds = numberOption(args, 'ready-timeout', n => n > 0 && n <= 3600, 'seconds between 0 and 3600');
    const discordance = numberOption(args, 'discordance', n => n > 0 && n <= 1, 'a rate in (0, 1]');
    const config = await loadGateConfig(resolve(io.cwd, configPath), { sections: gateSections() });
    const outDir = resolve(io.cwd, args.options.get('out') ?? join('helm-gate-runs', 'TIMESTAMP'));
    // The real run uses a fresh private temporary directory; show where it would be.
    const tempDir = join(tmpdir(), 'helm-gate-XXXXXX');
    const prepared = await prepareRun(config, {
        outDir,
        sides: ['baseline', 'candidate'],
        selfCheck: args.flags.has('self-check'),
        tempDir,
        stamp: 'TIMESTAMP'
    });
    let pythonPath;
    try {
        pythonPath = await pluginPythonPath(io.env);
    }
    catch {
        pythonPath = '<helm-gate>/python';
    }
    const runnerSides = prepared.plans.filter(plan => plan.runner !== null).map(plan => plan.side);
    const out = headerLines(config, prepared, runnerSides);
    const baseRef = args.options.get('baseline-ref') ?? null;
    const sequential = args.flags.has('sequential');
    const selfCheck = args.flags.has('self-check');
    const { sides, fingerprint } = await shownPlan(config, io, baseRef, sequential);
    checkStoppingSchedule(config.stopping, config.source, scheduleOf(config.launch, sequential));
    out.push('value' in fingerprint
        ? `# fingerprint ${fingerprint.value}`
        : `# fingerprint: could not be computed: ${fingerprint.problem} (run would stop here)`);
    const launchInput = launchPlanInput(config, prepared, io.env, sides, sequential, baseRef);
    out.push(scheduleLine(launchInput));
    const planned = measurementNames(config, prepared, sides, io, { baseRef, sequential, selfCheck });
    out.push(...runPlanLines({ config, sides, selfCheck, ...planned }));
    out.push('# cache disabled; fresh suite per side');
    out.push(...readinessLines(prepared, config, readySeconds ?? DEFAULT_READINESS_TIMEOUT_MS / 1000, args.flags.has('self-check')));
    out.push(...launchLines(launchInput));
    if (config.load) {
        const swapMs = args.flags.has('measure-swap')
            ? await measureSwap(config, { cwd: io.cwd, env: io.env, baseRef, progress: line => io.stderr(`${line}\n`), sides })
            : null;
        out.push('', ...loadModeLines(config, sequential, availableParallelism(), swapMs));
    }
    out.push(...checkLines(config));
    // Each measurement's own lines (src/pipeline/measurement-definitions.ts), in the order they run.
    out.push(...(await measurementPlanLines(config, { env: io.env, endpoints: sides.endpoints })));
    const counts = args.flags.has('no-count') ? null : await countSection(config, prepared, io, runnerSides.length > 0, discordance);
    if (counts)
        out.push(...counts.lines);
    // The gated metric names, checked as run checks them before it spends anything.
    const names = args.flags.has('no-count') || runnerSides.length === prepared.plans.length ? null : await metricNames(prepared, config, io);
    if (names) {
        out.push("# gated metric names (each run spec's metrics asked what they write; no scenario is built):");
        out.push(...names.lines.map(line => `#   ${line}`));
    }
    const refusal = refusalOf(names);
    out.push(...sideLines(config, prepared, pythonPath));
    const measurements = [planned.quality, ...planned.measurements];
    const shown = { source: config.source, prepared, fingerprint, measurements, counts: counts?.result ?? null, names, pythonPath };
    printPlan(io, args.flags.has('json'), { ...shown, lines: out });
    // The plan is printed either way; a gate file run would refuse exits 2 with run's own error.
    if (refusal)
        throw refusal;
    return 0;
}
/** The plan as --json asks, or as text with every credential the one redactor knows hidden. */
function printPlan(io, asJson, plan) {
    if (asJson) {
        io.stdout(renderPlanJson(plan));
        return;
    }
    // The prod_env files are redacted by structure above; the whole plan then goes through the one
    // redactor, so a credential in a command line, a launch template or a comment is hidden too.
    io.stdout(`${redactText(plan.lines.join('\n'))}\n`);
}
/** The plan's first lines: the gate file, the HELM version run insists on, and who makes each side's output. */
function headerLines(config, prepared, runnerSides) {
    const out = [`# helm-gate plan for ${config.source}`];
    if (runnerSides.length < prepared.plans.length) {
        out.push(`# crfm-helm ${prepared.helm.version} (the run refuses any other installed version)`);
    }
    // Both sides write the same kind of output (the gate file's validation saw to it).
    const lmEvalOutput = prepared.plans.some(plan => plan.runner !== null && lmEvalSide(config, plan.side));
    if (runnerSides.length > 0) {
        out.push(lmEvalOutput
            ? `# ${runnerSides.join(' and ')}: made by a runner command writing lm-eval output (command_output: lm-eval), once per side for all entries (--tasks), in a private working directory`
            : `# ${runnerSides.join(' and ')}: made by a runner command, once per entry, in a private working directory; the command brings its own HELM`);
    }
    return out;
}
/** The gate file's extra checks: answer length, calibration, sequential stopping, the required grid. */
function checkLines(config) {
    const out = [];
    const lengthBands = config.runs.filter(run => run.answerLength).map(run => `${run.entry} ${describeBand(run.answerLength)}`);
    if (lengthBands.length > 0)
        out.push(`# answer_length_ratio (candidate/baseline mean answer length): ${lengthBands.join('; ')}`);
    const calibrationChecks = config.runs.flatMap(run => run.calibration ? [`${run.entry} ${describeCalibrationCheck(run.calibration)}`] : []);
    if (calibrationChecks.length > 0) {
        out.push(`# calibration (candidate minus baseline, paired over instances; needs max_prob from log-probabilities): ${calibrationChecks.join('; ')}`);
    }
    if (config.stopping) {
        for (const entry of new Set(config.runs.map(run => run.entry)))
            out.push(`# sequential: ${entry} ${describeStopping(config.stopping)}`);
    }
    if (config.require && config.require.length > 0) {
        out.push(`# holistic grid: required (gated for every entry, blank is an error): ${config.require.join(', ')}`);
    }
    return out;
}
/** Each side's section: a runner command's calls, or HELM's prod_env files (redacted) and helm-run command. */
function sideLines(config, prepared, pythonPath) {
    const out = [];
    for (const plan of prepared.plans) {
        if (plan.runner) {
            const count = counted(plan.entries.length, 'entry', 'entries');
            out.push('', `## ${plan.side}: runner command, ${lmEvalSide(config, plan.side) ? `lm-eval output, ${count} in one invocation` : count}`);
            out.push(`## working directory ${plan.workDir} (temporary, removed after the run)`);
            for (const call of plan.runner)
                out.push('', `### ${call.entry}`, displayCommand(call.command, call.args));
            continue;
        }
        out.push('', `## ${plan.side}: HELM deployment ${plan.prodEnv.deployment}`, `## --local-path ${plan.localPath} (temporary, removed after the run)`);
        const files = redactedFiles(plan.prodEnv);
        for (const name of PROD_ENV_FILES) {
            out.push('', `### ${name}`, files[name].trimEnd() || '(empty)');
        }
        out.push('', `### command`, displayCommand(plan.command, plan.args, { PYTHONPATH: pythonPath }));
    }
    return out;
}
function lmEvalSide(config, side) {
    const deployment = config.deployments?.[side];
    return deployment?.kind === 'command' && deployment.output === 'lm-eval';
}
/**
 * What run waits for before starting helm-run, per side, with the timeout that applies to it: a
 * launched server's own ready_timeout_seconds, else --ready-timeout (one header value would be
 * wrong for one of them).
 */
function readinessLines(prepared, config, seconds, selfCheck) {
    const servers = Object.entries(prepared.deployments).flatMap(([side, d]) => {
        if (d.kind !== 'server')
            return [];
        // A self-check runs the baseline's server on both sides, launched as the baseline's.
        const launch = config.launch?.sides[selfCheck ? 'baseline' : side];
        const within = launch
            ? `${launch.readyTimeoutSeconds} s (launched: ${launch.field}.ready_timeout_seconds; a progress line every 30 s)`
            : `${seconds} s (run --ready-timeout SEC; a progress line every 10 s)`;
        return [`#   ${side}: GET ${redactUrl(d.baseUrl.replace(/\/+$/, ''))}/models must list ${d.model} within ${within}`];
    });
    if (servers.length === 0)
        return [];
    return ['# readiness: before helm-run starts, each server must answer:', ...servers];
}
/**
 * The run plan as run makes it (src/plan/run-plan.ts), and the fingerprint run records and
 * archived baselines are looked up by: with fingerprint_paths, the selected files' digests at the
 * base commit join it, exactly as in run and the action. A fingerprint that cannot be computed is
 * shown as the problem (run stops there) beside the plan's sides.
 */
async function shownPlan(config, io, baseRef, sequential) {
    try {
        const plan = await makeRunPlan(config, { env: io.env, cwd: io.cwd, baseRef, sequential });
        return { sides: plan, fingerprint: { value: plan.fingerprint } };
    }
    catch (error) {
        if (!(error instanceof GateError))
            throw error;
        return { sides: planSides(config, io.env), fingerprint: { problem: error.describe() } };
    }
}
/**
 * The measurements run would take, in order, named by themselves (src/pipeline/measurements.ts
 * lists them; nothing is measured here): the quality half first, then each of the others. The
 * load half follows a full run when the gate file has load: (not with --self-check, as in run).
 */
function measurementNames(config, prepared, sides, io, run) {
    const makers = [...new Set(prepared.plans.map(plan => (plan.runner ? 'a runner command' : 'helm-run')))];
    const measurements = measurementsFor(config, {
        compare: true,
        load: config.load && !run.selfCheck ? {} : null,
        outDir: io.cwd,
        cwd: io.cwd,
        env: io.env,
        progress: () => { },
        baseRef: run.baseRef,
        sequential: run.sequential,
        toRun: ['baseline', 'candidate'],
        plan: sides
    });
    return { quality: `the quality half (${makers.join(' or ')} on each side)`, measurements: measurements.map(m => m.name) };
}
/** Instances per comparison, counted by a helm-run dry run; a failure to count is a note, not an error. */
async function countAll(prepared, io) {
    try {
        const helmRun = await resolveHelmRun(prepared.helm.command, io.env, io.cwd);
        return await countInstances(prepared.plans[0], prepared.runs, { helmRun, pluginPath: await pluginPythonPath(io.env), env: io.env });
    }
    catch (error) {
        return { ok: false, problem: error instanceof Error ? error.message : String(error) };
    }
}
async function metricNames(prepared, config, io) {
    try {
        const helmRun = await resolveHelmRun(prepared.helm.command, io.env, io.cwd);
        const pluginPath = await pluginPythonPath(io.env);
        return ((await checkPreparedMetricNames(prepared, { helmRun, pluginPath, env: io.env, source: config.source })) ?? { lines: [], refused: [] });
    }
    catch (error) {
        return { lines: [`not checked: ${error instanceof Error ? error.message : String(error)}`], refused: [] };
    }
}
/**
 * The instance counts' lines; no count when a side is a runner command. A sequential schedule the
 * counts cannot stage is refused here, as at run start.
 */
async function countSection(config, prepared, io, runnerSide, discordance) {
    if (runnerSide) {
        return {
            result: null,
            lines: [
                '# instances per comparison: not counted (helm-run --dry-run cannot speak for a runner command); at most helm.max_eval_instances'
            ]
        };
    }
    const result = await countAll(prepared, io);
    const lines = countLines(result, config, prepared, discordance);
    if (config.stopping && result.ok)
        refuseUnstageable(config, result.counts);
    return { result, lines };
}
function countLines(result, config, prepared, discordance) {
    const head = '# instances per comparison (helm-run --dry-run with the same entries; no request sent):';
    if (!result.ok)
        return [head, `#   could not count them: ${result.problem} (plan --no-count skips this)`];
    const { lines, warnings } = instanceLines(result.counts, config, { maxEvalInstances: prepared.helm.maxEvalInstances, discordance });
    return [head, ...lines.map(line => `#   ${line}`), ...warnings.map(line => `# WARNING ${line}`)];
}
/** The launch part of the plan sees what run would: the environment without the runner's credentials. */
function launchPlanInput(config, prepared, env, sides, sequential, baseRef) {
    return {
        settings: config.launch,
        deployments: prepared.deployments,
        source: config.source,
        env: childProcessEnv(env, sides.keyNames),
        secrets: sides.secrets,
        sequential,
        baseRef
    };
}
/**
 * A sequential schedule whose looks pass an entry's instances is refused here as at run start
 * (src/sequential/stages.ts). A count at helm.max_eval_instances may be that cap, not the entry's
 * size (run counts without the cap), so only a count below it can refuse.
 */
function refuseUnstageable(config, counts) {
    const stopping = config.stopping;
    const cap = config.helm?.maxEvalInstances ?? Infinity;
    if (!stopping)
        return;
    for (const count of counts) {
        if (count.n === null || count.n >= cap || !count.counts)
            continue;
        const evalInstances = Object.values(count.counts.clean).reduce((a, b) => a + b, 0);
        planStages({ entry: count.run.entry, evalInstances, comparedInstances: count.n }, { looks: stopping.looks, budget: stopping.budget }, { file: config.source, field: 'sequential' });
    }
}

export { planCommand };
