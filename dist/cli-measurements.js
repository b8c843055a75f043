import { u as redactText, C as ConfigError, m as redactUrl, S as ServerNotReadyError, B as LaunchError, G as GateError, E as parseYamlFile, F as parseDocument, I as visit, J as isScalar, K as redactString, N as looksLikeSecret, O as isCredentialKey, Q as Scalar, V as HIDDEN, W as stringify, X as HelmRunError, Y as expandRunnerCommand, Z as closestWords, _ as checkDistinctDeployments, c as counted, $ as looksLikeLmEvalOutput, a0 as readLmEvalOutput, a1 as InputError, a2 as taskMatchesEntry, a3 as RUN_FILES, a4 as readRunDirectory, a5 as runMatchesEntry, a6 as runnerCommandName, a7 as isFiniteNumber, U as UsageError, a8 as isInteger, a9 as max, aa as min, ab as log, ac as sqrt, ad as log1p, ae as GuardError, af as createRandom, ag as streamJson, ah as helmHarness, ai as IssueLog, aj as resolveSplit, ak as qualityVerdict, al as qualityHeadline, v as checkStoppingSchedule, am as exp, an as abs, ao as quantileSorted, b as newReport, ap as readTrafficSet, aq as discoverRuns, ar as METRIC_SHAPE, as as decideVerdict, at as FIDELITY_METRICS, au as estimatePaired, av as SURE_MARGIN, aw as showValue, ax as ajvExports, ay as pairedDecision, az as comparisonRow, aA as REPORTED_MARGINS, aB as redactTree, aC as answerLengthRow, aD as TOKENS_UNIT, aE as CHARACTERS_UNIT } from './cli.js';
import path, { basename, resolve, join, dirname, relative, isAbsolute, delimiter } from 'node:path';
import { r as routeUrl, u as undiciExports, a as probeServingConfig, b as probeEngineVersion, d as resolveCommit, g as git, p as planSides, e as rootRouteUrl, f as repositoryRoot, c as childProcessEnv, s as scheduleOf, m as makeRunPlan, h as requireKeys, i as endpointFor, F as FidelityError, j as detectClient, k as sharedPrefix } from './cli-detect-fidelity-route.js';
import { execFile, execFileSync, spawn } from 'node:child_process';
import { writeFile, stat, rm, mkdir, realpath, readFile, access, constants as constants$1, open, readdir, cp } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createReadStream, mkdtempSync, rmSync, readdirSync, readFileSync, createWriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { tmpdir, constants, availableParallelism } from 'node:os';
import { createHash } from 'node:crypto';

/**
 * manifest.json: the one record of how the run directories next to it were made, written by
 * runGate at the root of every output folder (the CLI's `--out`, the action's evidence artifact,
 * an archived baseline, a shard). A result can be traced from it to the exact HELM version,
 * commands, servers and gate-set fingerprint; an archived baseline or a shard is only taken back
 * when its fingerprint, HELM version and completeness match. Never holds a secret: commands
 * carry none, prod_env files are redacted, API keys appear only as variable names.
 */
const MANIFEST_FILE = 'manifest.json';
/** The load report's timeline with its blocks' times, for the manifest; null without a timeline. */
function loadTimelineOf(load) {
    if (!load?.timeline)
        return null;
    return {
        ...load.timeline,
        blocks: load.blocks.map(b => ({
            side: b.side,
            level: b.level,
            position: b.position,
            started_at: b.started_at ?? null,
            ended_at: b.ended_at ?? null
        }))
    };
}
async function writeManifest(dir, manifest) {
    const file = path.join(dir, MANIFEST_FILE);
    await writeFile(file, `${JSON.stringify(manifest, null, 2)}\n`);
    return file;
}
/** `to` relative to `dir` with `/` separators, or null when it lies outside `dir`. */
function manifestPath(dir, to) {
    const relative = path.relative(dir, to);
    if (relative.startsWith('..') || path.isAbsolute(relative))
        return null;
    return relative.split(path.sep).join('/');
}

/**
 * For a `docker run` launch command: which image is really running. A tag (`vllm-openai:latest`)
 * says little; the digest says exactly which engine build answered. Information only: a failure
 * to ask docker is recorded, never a gate error.
 */
/** Flags of `docker run` that take no value; every other long flag takes one. */
const BOOLEAN_LONG = new Set([
    '--rm',
    '--detach',
    '--interactive',
    '--tty',
    '--privileged',
    '--init',
    '--read-only',
    '--publish-all',
    '--no-healthcheck',
    '--oom-kill-disable',
    '--disable-content-trust',
    '--quiet',
    '--sig-proxy',
    '--use-api-socket',
    '--help'
]);
const BOOLEAN_SHORT = new Set(['d', 'i', 't', 'P', 'q']);
/** The image and `--name` of a `docker run` (or `docker container run`) command, else null. */
function dockerRun(command) {
    if (!['docker', 'podman'].includes(basename(command[0])))
        return null;
    let i = 1;
    // Global options before the subcommand (e.g. --context x) all take a value except --debug/-D.
    while (i < command.length && command[i].startsWith('-'))
        i += command[i] === '--debug' || command[i] === '-D' || command[i].includes('=') ? 1 : 2;
    if (command[i] === 'container')
        i++;
    if (command[i] !== 'run')
        return null;
    let name = null;
    for (i++; i < command.length; i++) {
        const arg = command[i];
        if (arg === '--')
            return command[i + 1] ? { image: command[i + 1], name } : null;
        if (!arg.startsWith('-') || arg === '-')
            return { image: arg, name };
        if (arg.startsWith('--')) {
            const [flag, attached] = arg.split(/=(.*)/s);
            if (flag === '--name')
                name = attached ?? command[i + 1] ?? null;
            if (attached === undefined && !BOOLEAN_LONG.has(flag))
                i++;
            continue;
        }
        const cluster = arg.slice(1);
        if ([...cluster].every(c => BOOLEAN_SHORT.has(c)))
            continue;
        if (cluster.length === 1)
            i++; // `-p 8000:8000`; `-p8000:8000` carries its value
    }
    return null;
}
async function dockerIdentity(command, env, cwd) {
    const run = dockerRun(command);
    if (!run)
        return null;
    const program = command[0];
    const identity = { image: run.image, container_name: run.name, image_id: null, repo_digests: [], error: null };
    try {
        if (run.name)
            identity.image_id = (await exec(program, ['container', 'inspect', '--format', '{{.Image}}', run.name], env, cwd)).trim() || null;
        const target = identity.image_id ?? run.image;
        const out = await exec(program, ['image', 'inspect', '--format', '{{.Id}} {{json .RepoDigests}}', target], env, cwd);
        const space = out.indexOf(' ');
        identity.image_id ??= out.slice(0, space).trim() || null;
        const digests = JSON.parse(out.slice(space + 1).trim() || '[]');
        identity.repo_digests = Array.isArray(digests) ? digests.filter((d) => typeof d === 'string') : [];
    }
    catch (error) {
        identity.error = error.message.split('\n')[0].slice(0, 300);
    }
    return identity;
}
function exec(program, args, env, cwd) {
    return new Promise((resolve, reject) => {
        execFile(program, args, { env, cwd, timeout: 30_000 }, (error, stdout, stderr) => error ? reject(new Error(`${program} ${args.slice(0, 2).join(' ')}: ${(stderr || error.message).trim()}`)) : resolve(stdout));
    });
}
/**
 * What the report names: the image and its registry digest. Of the repo digests (one per registry
 * the image was pulled from or pushed to) the one of the named repository is preferred.
 */
function imageOf(docker) {
    const repository = repositoryOf(docker.image);
    const digests = docker.repo_digests.filter(d => d.includes('@'));
    const chosen = digests.find(d => d.slice(0, d.lastIndexOf('@')) === repository) ?? digests[0] ?? null;
    const pinned = docker.image.includes('@') ? docker.image.slice(docker.image.lastIndexOf('@') + 1) : null;
    return {
        name: docker.image,
        digest: chosen ? chosen.slice(chosen.lastIndexOf('@') + 1) : pinned,
        id: docker.image_id,
        error: docker.error
    };
}
/** `vllm/vllm-openai:v0.11.0` -> `vllm/vllm-openai`; a registry's port is not a tag. */
function repositoryOf(image) {
    const name = image.includes('@') ? image.slice(0, image.lastIndexOf('@')) : image;
    const colon = name.lastIndexOf(':');
    return colon > name.lastIndexOf('/') ? name.slice(0, colon) : name;
}

/**
 * The weights file a launched server was started with, by content: llama.cpp's server (and other
 * single-file engines) take `--model FILE` / `-m FILE`, and two quantizations of one model are
 * told apart by the file, not by the served name. When that argument names a regular file (read
 * from the launch directory), its size and sha256 are recorded in the launch manifest and shown
 * in the report's Weights row. A directory or a hub id (vLLM's `--model`) records nothing.
 * Information only: a file that cannot be read is recorded with its error, never a gate error.
 */
/** Above this, hashing would hold the gate up for minutes; the size alone is recorded. */
const MAX_HASHED_BYTES = 32 * 1024 ** 3;
/** The value of `--model`, `--model=` or `-m` in a launch command, or null. */
function modelArgument(command) {
    for (let i = 1; i < command.length; i++) {
        const arg = command[i];
        if ((arg === '--model' || arg === '-m') && i + 1 < command.length)
            return command[i + 1];
        if (arg.startsWith('--model='))
            return arg.slice('--model='.length);
    }
    return null;
}
async function weightsIdentity(command, cwd, maxBytes = MAX_HASHED_BYTES) {
    const file = modelArgument(command);
    if (!file)
        return null;
    const path = resolve(cwd, file);
    let info;
    try {
        info = await stat(path);
    }
    catch {
        return null; // a hub id or a path inside a container: nothing on this machine to hash
    }
    if (!info.isFile())
        return null;
    if (info.size > maxBytes)
        return { file, bytes: info.size, sha256: null, error: `larger than ${maxBytes} bytes: not hashed` };
    try {
        const hash = createHash('sha256');
        for await (const chunk of createReadStream(path))
            hash.update(chunk);
        return { file, bytes: info.size, sha256: hash.digest('hex'), error: null };
    }
    catch (error) {
        return { file, bytes: info.size, sha256: null, error: error.message };
    }
}

/**
 * Masks secrets in log lines before they are written (helm-run's output, a launched server's, the
 * replayed traffic's stored states): a server that prints its configuration (vLLM does, with
 * --api-key) must not put the key into the evidence artifact. The known secrets (the deployments'
 * API keys and the values of environment variables whose names say they are secret: HF_TOKEN,
 * OPENAI_API_KEY, ..., inherited or set by the gate file) are masked by value first, whatever
 * their shape; then the one redactor (redact.ts) hides any other credential the line holds.
 */
const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH)/i;
/** Shorter values would mask ordinary words. */
const MIN_SECRET_LENGTH = 4;
function secretValues(env, extra = []) {
    const values = Object.entries(env)
        .filter(([name, value]) => SECRET_NAME.test(name) && typeof value === 'string')
        .map(([, value]) => value);
    return [...new Set([...values, ...extra.filter((v) => typeof v === 'string')])]
        .filter(value => value.length >= MIN_SECRET_LENGTH)
        .sort((a, b) => b.length - a.length); // a longer secret containing a shorter one is masked whole
}
function masker(secrets) {
    const known = secrets.filter(value => value.length >= MIN_SECRET_LENGTH);
    return line => redactText(known.reduce((text, secret) => text.split(secret).join('***'), line));
}

/**
 * @param at the key path for messages, e.g. `deployments.baseline.launch.command[5]`
 * @param source the gate file, for messages
 */
function expandTemplate(text, env, at, source) {
    let out = '';
    const used = [];
    for (let i = 0; i < text.length; i++) {
        const char = text[i];
        if (char !== '$') {
            out += char;
            continue;
        }
        if (text[i + 1] === '$') {
            out += '$';
            i++;
            continue;
        }
        if (text[i + 1] !== '{') {
            out += char;
            continue;
        }
        const end = text.indexOf('}', i + 2);
        const name = end < 0 ? '' : text.slice(i + 2, end);
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
            throw new ConfigError('launch.template', `${at} has a malformed variable reference; write \${NAME} (or $$ for a literal $)`, {
                file: source,
                field: at,
                value: text
            });
        }
        const value = env[name];
        if (value === undefined) {
            throw new ConfigError('launch.variable_missing', `${at} uses \${${name}}, which is not set in the environment`, {
                file: source,
                field: at,
                value: name
            });
        }
        out += value;
        used.push(name);
        i = end;
    }
    return { text: out, used };
}
/**
 * Expands a side's launch. Throws the first missing or malformed variable (a ConfigError naming
 * its key path). `secrets`: the deployments' API keys and URL credentials.
 */
function expandLaunch(spec, env, source, secrets = []) {
    const expand = (text, at) => expandTemplate(text, env, at, source).text;
    const extraEnv = Object.fromEntries(Object.entries(spec.env).map(([name, value]) => [name, expand(value, `${spec.field}.env.${name}`)]));
    return {
        command: spec.command.map((arg, i) => expand(arg, `${spec.field}.command[${i}]`)),
        extraEnv,
        stopCommand: spec.stopCommand?.map((arg, i) => expand(arg, `${spec.field}.stop_command[${i}]`)) ?? null,
        mask: masker(secretValues({ ...env, ...extraEnv }, secrets))
    };
}

/**
 * Pre-flight: is the server up and does it serve the model the gate file names? HELM itself
 * never calls /models (docs/helm.md "What the server sees"), so a wrong model name would only show up as failed
 * requests in the middle of a run. The answer is kept as the server's identity in the manifest.
 */
const ATTEMPT_TIMEOUT_MS = 5_000;
const PROGRESS_EVERY_MS = 10_000;
const MAX_RECORDED_BYTES = 64 * 1024;
/**
 * One `GET {baseUrl}/models`. A wrong key or a missing model is thrown (ServerNotReadyError):
 * waiting cannot fix them. Anything else (refused, HTTP 503 while loading) is returned as the
 * problem of this attempt, for the caller's retry loop and its message.
 */
async function probeOnce(settings) {
    const url = routeUrl(settings.baseUrl, 'models');
    // What messages and the manifest show: userinfo and query values hidden.
    const shown = redactUrl(url);
    try {
        const response = await undiciExports.request(url, {
            method: 'GET',
            headers: settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {},
            headersTimeout: ATTEMPT_TIMEOUT_MS,
            bodyTimeout: ATTEMPT_TIMEOUT_MS
        });
        const text = await response.body.text();
        if (response.statusCode === 401 || response.statusCode === 403) {
            // Retrying cannot fix a wrong key.
            throw new ServerNotReadyError('server.unauthorized', `${settings.side} server at ${shown} refused the API key (HTTP ${response.statusCode})`, { field: `deployments.${settings.side}.api_key_env`, value: shown });
        }
        if (response.statusCode !== 200)
            return { ok: false, problem: `HTTP ${response.statusCode}` };
        const body = parseJson(text);
        const models = modelIds(body);
        if (!models.includes(settings.model)) {
            throw new ServerNotReadyError('server.model_missing', `${settings.side} server at ${shown} does not serve model ${JSON.stringify(settings.model)} (it lists ${JSON.stringify(models)})`, { field: `deployments.${settings.side}.model`, value: settings.model });
        }
        return {
            ok: true,
            result: {
                url: shown,
                status: response.statusCode,
                attempts: 1,
                elapsedMs: 0,
                models,
                response: text.length <= MAX_RECORDED_BYTES ? body : { truncated: true, models },
                engine_version: await probeEngineVersion(settings.baseUrl, settings.apiKey),
                serving_config: await probeServingConfig(settings.baseUrl, settings.apiKey)
            }
        };
    }
    catch (error) {
        if (error instanceof ServerNotReadyError)
            throw error;
        return { ok: false, problem: redactText(error.message || String(error)) };
    }
}
async function probeServer(settings) {
    const shown = redactUrl(routeUrl(settings.baseUrl, 'models'));
    const started = Date.now();
    let delay = settings.initialDelayMs ?? 250;
    const maxDelay = settings.maxDelayMs ?? 5_000;
    let attempts = 0;
    const progressEvery = settings.progressEveryMs ?? PROGRESS_EVERY_MS;
    let nextProgress = progressEvery;
    for (;;) {
        attempts++;
        const attempt = await probeOnce(settings);
        if (attempt.ok)
            return { ...attempt.result, attempts, elapsedMs: Date.now() - started };
        const lastProblem = attempt.problem;
        const elapsed = Date.now() - started;
        // The last attempt is made at the deadline, so the whole timeout is used.
        if (elapsed >= settings.timeoutMs) {
            const hint = settings.timeoutHint === null ? '' : ` (${settings.timeoutHint ?? 'run --ready-timeout SEC'})`;
            throw new ServerNotReadyError('server.not_ready', `${settings.side} server at ${shown} was not ready after ${Math.round(elapsed / 1000)} s and ${attempts} attempts (last: ${lastProblem}); the readiness timeout is ${seconds$2(settings.timeoutMs)} s${hint}`, { field: `deployments.${settings.side}.base_url`, value: redactUrl(settings.baseUrl) });
        }
        if (elapsed >= nextProgress) {
            settings.log?.(`${settings.side} server at ${shown} not ready after ${seconds$2(elapsed)} s (${lastProblem}); waiting up to ${seconds$2(settings.timeoutMs)} s`);
            while (nextProgress <= elapsed)
                nextProgress += progressEvery;
        }
        // Wake up at the next progress mark too, so a line comes every interval whatever the back-off.
        const wait = Math.min(delay, settings.timeoutMs - elapsed, Math.max(0, nextProgress - elapsed));
        await new Promise(resolve => setTimeout(resolve, wait));
        delay = Math.min(delay * 2, maxDelay);
    }
}
function parseJson(text) {
    try {
        return JSON.parse(text);
    }
    catch {
        return null;
    }
}
/** OpenAI's shape: `{ data: [{ id }] }`. */
function modelIds(body) {
    const data = body?.data;
    if (!Array.isArray(data))
        return [];
    return data.map(item => item?.id).filter((id) => typeof id === 'string');
}
function seconds$2(ms) {
    return Math.round(ms / 1000);
}

/**
 * Readiness of a launched server: GET {base_url}/models must list the model (the runner's probe,
 * one attempt at a time) while the process is watched. A process that exits before it is ready
 * is an error quoting the last lines of its log; so is a server still not ready after
 * `ready_timeout_seconds`. A command that exits 0 while a `stop_command` is configured started
 * something detached (`docker run -d`): then only the probe decides.
 */
const MAX_WAIT_MS = 2_000;
async function waitUntilReady(server, settings) {
    const started = Date.now();
    let wait = 100;
    let attempts = 0;
    let lastProblem;
    let lastReport = started;
    for (;;) {
        const exit = server.exit;
        if (exit && !(settings.detachedAllowed && exit.code === 0 && exit.spawnError === null)) {
            const how = exit.spawnError ? `could not be started (${exit.spawnError})` : `exited with ${exit.signal ?? `status ${exit.code}`}`;
            throw new LaunchError('launch.exited_before_ready', `${settings.side} server ${how} before it was ready, after ${seconds$1(Date.now() - started)} s; last lines of ${settings.logName}:${quote(server.lastLines())}`, { field: `deployments.${settings.side}.launch.command`, value: settings.logName });
        }
        attempts++;
        // One attempt at a time: the launched server's own timeout (ready_timeout_seconds) is this
        // loop's, so the attempt's problem is kept as it is for the message below.
        const attempt = await probeOnce(settings);
        if (attempt.ok)
            return { ...attempt.result, attempts, elapsedMs: Date.now() - started };
        lastProblem = attempt.problem;
        const elapsed = Date.now() - started;
        if (elapsed >= settings.timeoutMs) {
            throw new LaunchError('launch.ready_timeout', `${settings.side} server was not ready after ${seconds$1(elapsed)} s: its readiness timeout is ${seconds$1(settings.timeoutMs).replace(/\.0$/, '')} s (deployments.${settings.side}.launch.ready_timeout_seconds; last probe: ${lastProblem}); last lines of ${settings.logName}:${quote(server.lastLines())}`, { field: `deployments.${settings.side}.launch.ready_timeout_seconds`, value: Math.round(settings.timeoutMs / 1000) });
        }
        if (Date.now() - lastReport >= 30_000) {
            lastReport = Date.now();
            settings.log?.(`[${settings.side}] server starting for ${seconds$1(elapsed)} s (${lastProblem})`);
        }
        await sleepUnlessExited(server, Math.min(wait, settings.timeoutMs - elapsed));
        wait = Math.min(wait * 2, MAX_WAIT_MS);
    }
}
/**
 * Before launching: nothing may answer at the address yet. With a sequential schedule both
 * sides usually use the same port; a leftover server there (the previous side's container that
 * ignored its stop, someone else's) would be probed and measured in place of the launched one.
 */
async function addressAnswers(baseUrl) {
    try {
        const response = await undiciExports.request(routeUrl(baseUrl, 'models'), { method: 'GET', headersTimeout: 2_000, bodyTimeout: 2_000 });
        await response.body.dump();
        return response.statusCode;
    }
    catch {
        return null;
    }
}
async function sleepUnlessExited(server, ms) {
    let timer;
    await Promise.race([server.exited, new Promise(resolve => (timer = setTimeout(resolve, Math.max(ms, 0))))]);
    clearTimeout(timer);
}
function quote(lines) {
    return lines.length === 0 ? ' (empty)' : `\n${lines.map(line => `  ${line}`).join('\n')}`;
}
function seconds$1(ms) {
    return (ms / 1000).toFixed(1);
}

/**
 * Every process group helm-gate started and has not yet seen die (launched servers and helm-run),
 * and every file it must not leave behind (the temporary folder that holds each side's prod_env
 * with credentials.conf, the base commit's worktree and its `git worktree` registration).
 *
 * Cancellation has one path (docs/trust-model.md, "What is removed"). On SIGINT or SIGTERM (a
 * cancelled job, Ctrl-C), in this order: every group is stopped, because each lives in its own
 * process group and would otherwise survive us and keep the GPU; every leftover is removed (the
 * newest first: the worktree inside the temporary folder before the folder); the cancel hooks
 * write (and upload) the cancelled report; the process exits with 128 + the signal's number. The
 * command's own path keeps running meanwhile, and its `finally` blocks call the same removals,
 * which are shared, so neither can cut the other short. A second signal kills the groups and
 * removes the leftovers synchronously, then exits; so does the process exiting for any other
 * reason (the 'exit' handler).
 *
 * GitHub cancels a job with SIGINT, then SIGTERM 7.5 s later, then SIGKILL 2.5 s after that, so the
 * urgent stop used here is short (registered stop functions get `urgent: true`).
 */
const live = new Map();
/** Registration order: the newest is removed first. */
const leftovers = [];
/** Leftovers present at (or registered after) the first signal: swept again right before exiting. */
const sweep = new Set();
const hooks = new Set();
let armed = false;
let stopping = null;
let received = null;
/** How long the removals may take before the synchronous sweep does the rest. */
const LEFTOVERS_LIMIT_MS = 3_000;
/** How long the cancel hooks may take in all (GitHub kills the job 10 s after its SIGINT). */
const HOOKS_LIMIT_MS = 6_000;
/** After a second signal the hooks get this long before the process exits. */
const SECOND_SIGNAL_GRACE_MS = 1_500;
const SIGNALS = ['SIGINT', 'SIGTERM'];
/** Messages of the signal path; stderr by default (the action's log). */
let say = line => process.stderr.write(`${line}\n`);
/** Tracks a group until the returned function is called (after it is known to be gone). */
function trackGroup(group) {
    live.set(group.pgid, group);
    arm();
    // Started while helm-gate is being cancelled (the sequential schedule's next side, a helm-run
    // that was about to start): stopped at once.
    if (received)
        void group.stop(true).catch(() => { });
    return () => {
        if (live.get(group.pgid) === group)
            live.delete(group.pgid);
        disarmWhenIdle();
    };
}
/**
 * Tracks a leftover until the returned function is called (after it is removed). Registered while
 * helm-gate is being cancelled: removed at once.
 */
function trackLeftover(item) {
    leftovers.push(item);
    arm();
    if (received) {
        sweep.add(item);
        void item.remove();
    }
    return () => {
        const at = leftovers.indexOf(item);
        if (at >= 0)
            leftovers.splice(at, 1);
        disarmWhenIdle();
    };
}
/**
 * A private temporary folder (mode 0700, under TMPDIR) that is removed on every path: by `remove`
 * in the owner's `finally`, by the signal path, or by the 'exit' handler. Created synchronously,
 * so no signal can come between its creation and its registration.
 */
function trackedTempDir(prefix = 'helm-gate-') {
    const path = mkdtempSync(join(tmpdir(), prefix));
    let removing = null;
    let release = () => { };
    const item = {
        label: path,
        remove: () => (removing ??= (async () => {
            await rm(path, { recursive: true, force: true, maxRetries: 3 }).catch(() => { });
            // A write that raced the removal (a file created while the folder was being emptied)
            // leaves it behind: the synchronous pass removes what is left.
            removeDirNow(path);
            release();
        })()),
        removeNow: () => removeDirNow(path)
    };
    release = trackLeftover(item);
    return { path, remove: item.remove };
}
function removeDirNow(path) {
    try {
        rmSync(path, { recursive: true, force: true, maxRetries: 3 });
    }
    catch {
        // nothing more can be done here; the caller reports what it can
    }
}
/** Runs a command synchronously, ignoring its failure (the signal path's last resort). */
function runNow(command, args, cwd, env) {
    try {
        execFileSync(command, args, { cwd, env, stdio: 'ignore', timeout: 5_000 });
    }
    catch {
        // best effort
    }
}
/**
 * Registers what to do when helm-gate is cancelled (SIGINT/SIGTERM): after every group is
 * stopped, `hook` runs (all hooks together within a few seconds), then the process exits with
 * 128 + the signal number. While a hook is registered the signals are handled even when no group
 * is alive. Returns the function that unregisters it.
 */
function onCancel(hook) {
    hooks.add(hook);
    arm();
    return () => {
        hooks.delete(hook);
        disarmWhenIdle();
    };
}
/** `onCancel` for a unit of work that ends in a report: the hook writes the cancelled one. */
function guardOnCancel(hook) {
    const release = onCancel(hook);
    return {
        settle: () => {
            if (received)
                return new Promise(() => { });
            release();
            return Promise.resolve();
        }
    };
}
/** The signal that is cancelling helm-gate, or null. New launches refuse to start once it is set. */
function cancelledBy() {
    return received;
}
/** Stops every tracked group (used on signals; the normal path stops each launch itself). */
async function stopAllGroups(urgent) {
    await Promise.all([...live.values()].map(group => group.stop(urgent).catch(() => { })));
}
/**
 * Live (non-zombie) processes of group `pgid`. On Linux read from /proc, because a zombie
 * (exited, not yet reaped by its parent) still answers kill(0) but holds nothing; elsewhere
 * kill(-pgid, 0) is the best available answer.
 */
function groupMembers(pgid) {
    let entries;
    try {
        entries = readdirSync('/proc').filter(name => /^\d+$/.test(name));
    }
    catch {
        return signalable(pgid) ? [pgid] : [];
    }
    const members = [];
    for (const name of entries) {
        try {
            const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
            // pid (comm) state ppid pgrp ...; comm may hold spaces and parentheses.
            const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
            if (Number(fields[2]) === pgid && fields[0] !== 'Z')
                members.push(Number(name));
        }
        catch {
            // exited while we looked
        }
    }
    return members;
}
/** Is any process of group `pgid` still alive? */
function groupAlive(pgid) {
    return groupMembers(pgid).length > 0;
}
function signalable(pgid) {
    try {
        process.kill(-pgid, 0);
        return true;
    }
    catch (error) {
        // EPERM: something exists in that group that we may not signal; count it as alive.
        return error.code === 'EPERM';
    }
}
function killGroupNow(pgid, signal = 'SIGKILL') {
    try {
        process.kill(-pgid, signal);
    }
    catch {
        // already gone
    }
}
function onSignal(signal) {
    const code = 128 + (constants.signals[signal] ?? 15);
    if (stopping) {
        say(`helm-gate: ${signal} again; killing ${live.size} process group(s) and exiting`);
        for (const pgid of live.keys())
            killGroupNow(pgid);
        // The credentials go first, whatever else is cut short.
        sweepNow();
        // The evidence upload may be nearly done: a moment more, then exit whatever it is doing.
        setTimeout(() => process.exit(code), SECOND_SIGNAL_GRACE_MS).unref();
        return;
    }
    received = signal;
    for (const item of leftovers)
        sweep.add(item);
    say(`helm-gate: ${signal} received; stopping ${live.size} launched process group(s) before exiting`);
    stopping = (async () => {
        await stopAllGroups(true);
        await withinLimit(removeLeftovers(), LEFTOVERS_LIMIT_MS);
        const all = Promise.all([...hooks].map(hook => hook(signal).catch(error => say(`helm-gate: on ${signal}: ${String(error)}`))));
        await withinLimit(all, HOOKS_LIMIT_MS);
    })().finally(() => {
        for (const pgid of live.keys())
            killGroupNow(pgid);
        // Whatever the command's own path made while the hooks ran, and anything a removal missed.
        sweepNow();
        process.exit(code);
    });
}
/** The newest first: a worktree inside the temporary folder goes before the folder. */
async function removeLeftovers() {
    for (;;) {
        const pending = [...sweep].reverse();
        for (const item of pending)
            await item.remove().catch(() => { });
        // Removals registered meanwhile (a launch that was starting) are removed too.
        if ([...sweep].every(item => pending.includes(item)))
            return;
    }
}
function sweepNow() {
    for (const item of [...leftovers, ...sweep].reverse())
        item.removeNow();
}
async function withinLimit(work, ms) {
    let timer;
    await Promise.race([work, new Promise(resolve => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
}
/** Last resort when the process exits with groups or leftovers still tracked (an uncaught error, process.exit). */
function onExit() {
    for (const pgid of live.keys())
        killGroupNow(pgid);
    for (const item of [...leftovers].reverse())
        item.removeNow();
}
function arm() {
    if (armed)
        return;
    armed = true;
    for (const signal of SIGNALS)
        process.on(signal, onSignal);
    process.on('exit', onExit);
}
function disarmWhenIdle() {
    if (live.size === 0 && hooks.size === 0 && leftovers.length === 0 && !stopping)
        disarm();
}
function disarm() {
    if (!armed)
        return;
    armed = false;
    for (const signal of SIGNALS)
        process.off(signal, onSignal);
    process.off('exit', onExit);
}

/**
 * One launched server process: spawned with an argument array in its own process group, its
 * output streamed to `logs/<side>-server.log` with secrets masked, the last lines kept for error
 * messages, and a stop that always ends with the whole group gone: the configured signal, a
 * wait, SIGKILL to the group, then `stop_command` (for containers started detached).
 */
const TAIL_LINES = 20;
/** Urgent stops (a signal to helm-gate) wait at most this long before SIGKILL. */
const URGENT_GRACE_MS = 3_000;
const STOP_COMMAND_TIMEOUT_MS = 120_000;
const URGENT_STOP_COMMAND_TIMEOUT_MS = 5_000;
class ServerProcess {
    settings;
    pid;
    startedAt;
    /** Resolves when the leader exits (or could not start). */
    exited;
    exit = null;
    tail = [];
    file;
    readers;
    stopping = null;
    release;
    constructor(settings, file) {
        this.settings = settings;
        this.file = file;
        this.startedAt = new Date();
        this.writeLine(`helm-gate: starting ${settings.label} server: ${settings.mask(JSON.stringify(settings.command))} in ${settings.cwd}`);
        const child = spawn(settings.command[0], settings.command.slice(1), {
            cwd: settings.cwd,
            env: settings.env,
            stdio: ['ignore', 'pipe', 'pipe'],
            detached: true
        });
        this.pid = child.pid ?? null;
        this.readers = [child.stdout, child.stderr].map(stream => {
            const reader = createInterface({ input: stream, crlfDelay: Infinity });
            reader.on('line', line => this.onLine(line));
            return new Promise(resolve => reader.on('close', resolve));
        });
        this.exited = new Promise(resolve => {
            child.once('error', error => resolve({ code: null, signal: null, spawnError: error.message }));
            child.once('exit', (code, signal) => resolve({ code, signal, spawnError: null }));
        }).then(exit => {
            this.exit = exit;
            this.writeLine(exit.spawnError
                ? `helm-gate: could not start ${settings.command[0]}: ${exit.spawnError}`
                : `helm-gate: ${settings.label} server process exited (${exit.signal ?? `status ${exit.code}`})`);
            return exit;
        });
        const pgid = this.pid;
        this.release =
            pgid === null ? () => { } : trackGroup({ pgid, label: `${settings.label} server`, stop: urgent => this.stop(urgent).then(() => { }) });
    }
    static async start(settings) {
        await mkdir(dirname(settings.logFile), { recursive: true });
        const file = createWriteStream(settings.logFile, { flags: 'a' });
        return new ServerProcess(settings, file);
    }
    /** helm-gate asked the server to stop (an exit after that is no death). */
    get stopRequested() {
        return this.stopping !== null;
    }
    /** The last lines of the log (masked), for "exited before ready" messages. */
    lastLines(count = TAIL_LINES) {
        return this.tail.slice(-count);
    }
    /**
     * Stops the server; every later call returns the same promise. Never throws: a stop that
     * cannot finish cleanly still kills the group and says so in the log.
     */
    stop(urgent = false) {
        this.stopping ??= this.doStop(urgent);
        return this.stopping;
    }
    async doStop(urgent) {
        const requested = new Date();
        let killed = false;
        const pgid = this.pid;
        if (pgid !== null && this.exit === null) {
            const signal = this.settings.stop.signal;
            this.writeLine(`helm-gate: stopping the ${this.settings.label} server: ${signal} to process group ${pgid}`);
            killGroupNow(pgid, signal);
            const grace = urgent ? Math.min(URGENT_GRACE_MS, this.settings.stop.timeoutSeconds * 1000) : this.settings.stop.timeoutSeconds * 1000;
            const exitedInTime = await settlesWithin(this.exited, grace);
            if (!exitedInTime) {
                this.writeLine(`helm-gate: the ${this.settings.label} server did not exit within ${Math.round(grace / 1000)} s; SIGKILL to the group`);
                killed = true;
            }
        }
        const exitedAt = new Date();
        // Children that outlived the leader (or ignored the signal) go with the group, always.
        if (pgid !== null) {
            if (groupAlive(pgid))
                killed = true;
            killGroupNow(pgid, 'SIGKILL');
            await waitUntilGone(pgid, 5_000);
        }
        await this.exited;
        await Promise.all(this.readers);
        let stopCommandExit = null;
        if (this.settings.stopCommand) {
            stopCommandExit = await this.runStopCommand(urgent ? URGENT_STOP_COMMAND_TIMEOUT_MS : STOP_COMMAND_TIMEOUT_MS);
        }
        this.release();
        const stopped = new Date();
        this.writeLine(`helm-gate: ${this.settings.label} server stopped`);
        await new Promise(resolve => this.file.end(resolve));
        return {
            requested_at: requested.toISOString(),
            exited_at: exitedAt.toISOString(),
            killed,
            stop_command_exit: stopCommandExit,
            stopped_at: stopped.toISOString()
        };
    }
    async runStopCommand(timeoutMs) {
        const [program, ...args] = this.settings.stopCommand;
        this.writeLine(`helm-gate: running stop_command ${this.settings.mask(JSON.stringify(this.settings.stopCommand))}`);
        const child = spawn(program, args, {
            cwd: this.settings.cwd,
            env: this.settings.env,
            stdio: ['ignore', 'pipe', 'pipe'],
            detached: true
        });
        const release = child.pid
            ? trackGroup({ pgid: child.pid, label: 'stop_command', stop: async () => killGroupNow(child.pid) })
            : () => { };
        const readers = [child.stdout, child.stderr].map(stream => {
            const reader = createInterface({ input: stream, crlfDelay: Infinity });
            reader.on('line', line => this.onLine(line));
            return new Promise(resolve => reader.on('close', resolve));
        });
        const timer = setTimeout(() => child.pid && killGroupNow(child.pid), timeoutMs);
        const result = await new Promise(resolve => {
            child.once('error', error => resolve(`could not start: ${error.message}`));
            child.once('exit', (code, signal) => resolve(code ?? `killed by ${signal}`));
        });
        clearTimeout(timer);
        if (child.pid)
            killGroupNow(child.pid);
        await Promise.all(readers);
        release();
        this.writeLine(`helm-gate: stop_command finished: ${result}`);
        return result;
    }
    onLine(raw) {
        const line = this.settings.mask(raw);
        this.tail.push(line);
        if (this.tail.length > TAIL_LINES * 2)
            this.tail.splice(0, this.tail.length - TAIL_LINES);
        this.file.write(`${line}\n`);
        this.settings.echo?.(line);
    }
    writeLine(line) {
        if (!this.file.writableEnded)
            this.file.write(`${line}\n`);
        this.settings.echo?.(line);
    }
}
async function waitUntilGone(pgid, timeoutMs) {
    const deadline = Date.now() + timeoutMs;
    while (groupAlive(pgid) && Date.now() < deadline)
        await delay(25);
}
/** True when `promise` settles within `ms`; the timer never outlives the answer. */
async function settlesWithin(promise, ms) {
    let timer;
    const timeout = new Promise(resolve => {
        timer = setTimeout(() => resolve(false), ms);
    });
    try {
        return await Promise.race([promise.then(() => true), timeout]);
    }
    finally {
        clearTimeout(timer);
    }
}
function delay(ms) {
    return new Promise(resolve => setTimeout(resolve, ms));
}

/**
 * `checkout: base`: the baseline's launch command runs in a worktree of the base commit, so a pull
 * request that changes `serving/` is measured before (base files) and after (its own files)
 * without a second workflow. The worktree is detached, outside the uploaded output, and removed
 * afterwards whatever happened.
 */
async function addBaseWorktree(root, ref, env, log, parent = tmpdir()) {
    const sha = await resolveCommit(root, ref, env, log);
    // Created and registered in one step (no await between), before git adds the worktree, so a
    // signal at any moment from here on finds it: the signal path waits for the add, then removes
    // the worktree and its registration (src/process/registry.ts).
    const holder = mkdtempSync(join(parent, 'helm-gate-base-'));
    const dir = join(holder, 'tree');
    const gitEnv = { ...(env ?? process.env), GIT_TERMINAL_PROMPT: '0' };
    let adding = Promise.resolve();
    let removed = null;
    let release = () => { };
    const remove = () => (removed ??= (async () => {
        await adding.catch(() => { });
        try {
            await git(root, ['worktree', 'remove', '--force', dir], env);
        }
        catch {
            // fall through: delete the files and let prune drop the registration
        }
        await rm(holder, { recursive: true, force: true, maxRetries: 3 }).catch(() => { });
        await git(root, ['worktree', 'prune'], env).catch(() => { });
        release();
    })());
    release = trackLeftover({
        label: `worktree ${dir}`,
        remove,
        removeNow: () => {
            runNow('git', ['worktree', 'remove', '--force', dir], root, gitEnv);
            removeDirNow(holder);
            runNow('git', ['worktree', 'prune'], root, gitEnv);
        }
    });
    adding = git(root, ['worktree', 'add', '--detach', dir, sha], env);
    try {
        await adding;
    }
    catch (error) {
        await remove();
        throw error;
    }
    log?.(`base commit ${sha.slice(0, 12)} checked out in ${dir}`);
    return { dir, sha, remove };
}

/**
 * The launched deployments of one run: what to start for each side, where (the checked-out
 * tree or a worktree of the base commit), and the records that go into manifest.json.
 * `up` starts a side's server and waits until it serves the model; `down` stops it; `close`
 * stops whatever is still up and removes the worktree. The runner calls them on a schedule
 * (side-schedule.ts) and `close` in a finally, so nothing outlives the run.
 */
class Launcher {
    options;
    settings;
    prepared;
    worktree = null;
    constructor(options, settings, prepared) {
        this.options = options;
        this.settings = settings;
        this.prepared = prepared;
    }
    /** Null when the gate file launches nothing. Checks every template now, before anything starts. */
    static async open(options) {
        const settings = options.config.launch;
        if (!settings || Object.keys(settings.sides).length === 0)
            return null;
        const source = options.config.source;
        const deployments = options.config.deployments;
        if (!deployments)
            return null;
        const prepared = {};
        const endpoints = options.endpoints ?? planSides(options.config, options.env).endpoints;
        for (const side of ['baseline', 'candidate']) {
            const spec = settings.sides[side];
            if (!spec)
                continue;
            const endpoint = endpoints[side];
            if (deployments[side].kind !== 'server' || !endpoint) {
                throw new ConfigError('config.invalid', `${spec.field} needs a server deployment`, { file: source, field: spec.field });
            }
            if (spec.checkout === 'base' && !options.baseRef) {
                throw new ConfigError('launch.base_ref_missing', `${spec.field}.checkout is base but no base commit is known: outside a pull request give --baseline-ref REF`, { file: source, field: `${spec.field}.checkout`, value: 'base' });
            }
            const expanded = expandLaunch(spec, options.env, source, options.secrets ?? []);
            const env = { ...options.env, ...expanded.extraEnv };
            const { command, stopCommand, mask } = expanded;
            const logFile = resolve(options.outDir, 'logs', `${side}-server.log`);
            prepared[side] = {
                spec,
                endpoint,
                command,
                env,
                stopCommand,
                mask,
                cwd: options.cwd,
                server: null,
                users: 0,
                record: {
                    side,
                    command: spec.command,
                    checkout: spec.checkout,
                    commit: null,
                    log_file: relative(options.outDir, logFile),
                    pid: null,
                    started_at: null,
                    ready_at: null,
                    ready_ms: null,
                    stop: null,
                    exit: null,
                    docker: null,
                    errors: []
                }
            };
        }
        const launcher = new Launcher(options, settings, prepared);
        try {
            await launcher.checkoutBase();
        }
        catch (error) {
            await launcher.close();
            throw error;
        }
        return launcher;
    }
    get schedule() {
        return this.settings.schedule;
    }
    /** Does `side` run against a server this launcher starts? */
    launches(side) {
        return this.entry(side) !== null;
    }
    /** Starts the side's server (once, however many sides use it) and waits until it is ready. */
    async up(side) {
        const entry = this.entry(side);
        if (!entry)
            throw new LaunchError('launch.none', `${side} is not launched`);
        const key = this.keyOf(side);
        const signal = cancelledBy();
        if (signal)
            throw new LaunchError('launch.cancelled', `helm-gate received ${signal} (cancelled): the ${key} server was not launched`);
        entry.users++;
        if (entry.users > 1 && entry.server)
            return this.ready(entry, key);
        const progress = this.options.progress ?? (() => { });
        const logName = entry.record.log_file;
        try {
            const busy = await addressAnswers(entry.endpoint.baseUrl);
            if (busy !== null) {
                throw new LaunchError('launch.address_in_use', `something already answers at ${redactUrl(entry.endpoint.baseUrl)} (HTTP ${busy}) before the ${key} server was launched; stop it first, or it would be measured in place of the launched server`, { field: `deployments.${key}.base_url`, value: redactUrl(entry.endpoint.baseUrl) });
            }
            progress(`[${key}] launching the server (${entry.spec.checkout === 'base' ? `base commit ${this.worktree?.sha.slice(0, 12)}` : 'checked-out tree'}; log: ${logName})`);
            entry.server = await ServerProcess.start({
                label: key,
                command: entry.command,
                cwd: entry.cwd,
                env: entry.env,
                logFile: resolve(this.options.outDir, logName),
                mask: entry.mask,
                stop: entry.spec.stop,
                stopCommand: entry.stopCommand,
                echo: this.options.echo ? line => this.options.echo?.(`[${key} server] ${line}`) : undefined
            });
            entry.record.pid = entry.server.pid;
            entry.record.started_at = entry.server.startedAt.toISOString();
            const result = await waitUntilReady(entry.server, { ...this.readySettings(entry, key), log: progress });
            const readyAt = new Date();
            entry.record.ready_at = readyAt.toISOString();
            entry.record.ready_ms = readyAt.getTime() - entry.server.startedAt.getTime();
            entry.record.docker = await dockerIdentity(entry.command, entry.env, entry.cwd);
            entry.record.weights = await weightsIdentity(entry.command, entry.cwd);
            progress(`[${key}] server ready after ${(entry.record.ready_ms / 1000).toFixed(1)} s: ${result.url} lists ${entry.endpoint.model}`);
            return result;
        }
        catch (error) {
            if (error instanceof GateError)
                entry.record.errors.push({ code: error.code, message: error.message });
            throw error;
        }
    }
    /**
     * The side's server exited by itself while in use, not stopped by helm-gate: an error naming
     * the signal or exit status and the server log's last lines, which is the cause of whatever the
     * client saw next ("Connection refused"); null while it is up. A launch command that detaches
     * (a stop command is set and it exited with status 0) did not die.
     */
    diedWhileUp(side) {
        const entry = this.entry(side);
        const server = entry?.server;
        const exit = server?.exit;
        if (!entry || !server || !exit || server.stopRequested)
            return null;
        if (entry.stopCommand !== null && exit.code === 0 && exit.spawnError === null)
            return null;
        const key = this.keyOf(side);
        const how = exit.signal ? `was killed by ${exit.signal}` : `exited with status ${exit.code}`;
        const lines = server.lastLines(5);
        const error = new LaunchError('launch.server_died', `${key} server ${how} while the ${side} side was measured; last lines of ${entry.record.log_file}:${lines.length === 0 ? ' (empty)' : `\n${lines.map(line => `  ${line}`).join('\n')}`}`, { file: entry.record.log_file, field: `deployments.${key}.launch.command`, value: exit.signal ?? `status ${exit.code}` });
        if (!entry.record.errors.some(e => e.code === error.code))
            entry.record.errors.push({ code: error.code, message: error.message });
        return error;
    }
    /**
     * vLLM's sleep mode (`switch: sleep`): `POST /sleep?level=1` frees the accelerator while the
     * server stays resident; `wake` takes it back and waits until the model is listed again. A
     * refusal (a server started without --enable-sleep-mode, or without VLLM_SERVER_DEV_MODE=1,
     * answers 404) is an error naming the side.
     */
    async sleep(side) {
        await this.switchCall(side, 'sleep', 'put to sleep', { level: '1' });
    }
    async wake(side) {
        const key = this.keyOf(side);
        const signal = cancelledBy();
        if (signal)
            throw new LaunchError('launch.cancelled', `helm-gate received ${signal} (cancelled): the ${key} server was not woken`);
        await this.switchCall(side, 'wake_up', 'woken');
        const entry = this.entry(side);
        return this.ready(entry, key);
    }
    async switchCall(side, route, what, query = {}) {
        const entry = this.entry(side);
        const key = this.keyOf(side);
        if (!entry?.server)
            throw new LaunchError('launch.none', `the ${key} server is not running: it cannot be ${what}`);
        const target = new URL(rootRouteUrl(entry.endpoint.baseUrl, route));
        for (const [name, value] of Object.entries(query))
            target.searchParams.set(name, value);
        const url = target.href;
        const apiKey = entry.endpoint.apiKey;
        let problem = null;
        try {
            const answer = await undiciExports.request(url, {
                method: 'POST',
                headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
                headersTimeout: entry.spec.readyTimeoutSeconds * 1000,
                bodyTimeout: entry.spec.readyTimeoutSeconds * 1000
            });
            await answer.body.dump();
            if (answer.statusCode >= 300)
                problem = `HTTP ${answer.statusCode}`;
        }
        catch (error) {
            problem = error.message;
        }
        if (problem !== null) {
            throw new LaunchError('launch.switch_failed', `the ${key} server could not be ${what} (POST ${redactUrl(url)}: ${problem}); switch: sleep needs vLLM started with --enable-sleep-mode and VLLM_SERVER_DEV_MODE=1; its output is in ${entry.record.log_file}`, { field: `${entry.spec.field}.switch`, value: 'sleep' });
        }
    }
    /** Stops the side's server when no other side still uses it. Never throws. */
    async down(side) {
        const entry = this.entry(side);
        if (!entry)
            return;
        entry.users = Math.max(0, entry.users - 1);
        if (entry.users > 0)
            return;
        await this.stop(entry);
    }
    /** Stops everything still up and removes the base worktree. */
    async close() {
        await Promise.all(Object.values(this.prepared).map(entry => this.stop(entry)));
        await this.worktree?.remove();
    }
    manifest() {
        return {
            schedule: this.settings.schedule,
            interleaving_possible: this.settings.schedule === 'concurrent',
            base_commit: this.worktree?.sha ?? null,
            sides: Object.fromEntries(Object.entries(this.prepared).map(([side, entry]) => [side, entry.record]))
        };
    }
    async stop(entry) {
        const server = entry.server;
        if (!server)
            return;
        const progress = this.options.progress ?? (() => { });
        const stop = await server.stop(false);
        if (!entry.record.stop) {
            entry.record.stop = stop;
            entry.record.exit = server.exit ? { code: server.exit.code, signal: server.exit.signal } : null;
            progress(`[${entry.record.side}] server stopped${stop.killed ? ' (killed)' : ''}`);
        }
    }
    async ready(entry, key) {
        // The second user of a shared server (self-check): it is up already; ask it again.
        return waitUntilReady(entry.server, this.readySettings(entry, key));
    }
    /** What waiting for a side's server needs, for the first start and for the second user alike. */
    readySettings(entry, key) {
        return {
            ...entry.endpoint,
            side: key,
            timeoutMs: entry.spec.readyTimeoutSeconds * 1000,
            detachedAllowed: entry.stopCommand !== null,
            logName: entry.record.log_file
        };
    }
    keyOf(side) {
        return this.options.selfCheck ? 'baseline' : side;
    }
    entry(side) {
        return this.prepared[this.keyOf(side)] ?? null;
    }
    async checkoutBase() {
        const base = Object.values(this.prepared).filter(entry => entry.spec.checkout === 'base');
        if (base.length === 0)
            return;
        const root = await repositoryRoot(this.options.cwd, this.options.env);
        this.worktree = await addBaseWorktree(root, this.options.baseRef, this.options.env, this.options.progress, this.options.tempDir);
        // The same place in the base tree as the working directory in the checked-out one.
        const cwd = resolve(this.worktree.dir, relative(root, await realpath(resolve(this.options.cwd))));
        for (const entry of base) {
            entry.cwd = cwd;
            entry.record.commit = this.worktree.sha;
        }
    }
}

/**
 * Both sides launched from different commands, environments or checkouts: different servers even
 * at the same address and model name (the usual sequential set-up: two images on port 8000).
 */
function launchesDiffer(config) {
    const { baseline, candidate } = config.launch?.sides ?? {};
    if (!baseline || !candidate)
        return false;
    const identity = (spec) => JSON.stringify([spec.command, spec.env, spec.checkout]);
    return identity(baseline) !== identity(candidate);
}
/**
 * The quality half's schedule only: the load half says its own (swapped between blocks, or one
 * period per side and why) in its section, so this note claims nothing about it.
 */
function scheduleNotes(schedule, launch) {
    if (schedule !== 'sequential')
        return [];
    const periods = Object.values(launch?.sides ?? {})
        .filter(record => record.started_at)
        .map(record => `${record.side} up ${record.started_at} to ${record.stop?.stopped_at ?? 'unknown'}`);
    return [
        'Sequential schedule: the quality half measured the sides one after the other' +
            (periods.length ? ` (${periods.join('; ')})` : '') +
            '. Pairing removes instance difficulty, not drift between the two periods (host load, thermal state).'
    ];
}

async function runOnSchedule(items, schedule, steps) {
    if (schedule === 'sequential') {
        for (const item of items) {
            let ok;
            try {
                ok = await steps.up(item);
                if (ok)
                    await steps.measure?.(item);
                if (ok)
                    await steps.hold?.([item]);
            }
            finally {
                await steps.down(item);
            }
            if (!ok)
                return;
        }
        return;
    }
    let failure = null;
    try {
        const ups = await Promise.allSettled(items.map(item => steps.up(item)));
        const rejected = ups.find((u) => u.status === 'rejected');
        if (rejected)
            throw rejected.reason;
        if (ups.every(u => u.status === 'fulfilled' && u.value)) {
            const measured = await Promise.allSettled(items.map(async (item) => steps.measure?.(item)));
            const thrown = measured.find((m) => m.status === 'rejected');
            if (thrown)
                throw thrown.reason;
            await steps.hold?.(items);
        }
    }
    catch (error) {
        failure = error;
    }
    const downs = await Promise.allSettled(items.map(item => steps.down(item)));
    if (failure !== null)
        throw failure;
    const thrown = downs.find((d) => d.status === 'rejected');
    if (thrown)
        throw thrown.reason;
}

const SIDES = ['baseline', 'candidate'];
class SideHolder {
    launcher;
    progress;
    switches;
    /** One side up at a time (both launched, sequential): swapped; otherwise each stays up once brought up. */
    oneAtATime;
    upNow = null;
    /** Both up at once: the launched sides brought up so far. */
    held = new Set();
    /** Sides started and now asleep (switch: sleep): woken, not started, when brought up again. */
    asleep = new Set();
    up = { baseline: [], candidate: [] };
    constructor(launcher, config, progress, sequential) {
        this.launcher = launcher;
        this.progress = progress;
        const kind = (side) => launcher.launches(side) ? (config.launch?.sides[side]?.switch ?? 'restart') : null;
        this.switches = { baseline: kind('baseline'), candidate: kind('candidate') };
        this.oneAtATime = holdsOneAtATime(config, sequential);
    }
    async bringUp(side, stage) {
        if (!this.oneAtATime)
            return this.holdUp(side);
        if (this.upNow === side)
            return;
        if (this.upNow !== null)
            await this.takeDown(this.upNow);
        const from = new Date().toISOString();
        if (this.asleep.has(side)) {
            this.progress(`[${side}] waking the server for ${stage}`);
            await this.launcher.wake(side);
            this.asleep.delete(side);
        }
        else {
            await this.launcher.up(side);
        }
        this.up[side].push({ from, ready: new Date().toISOString(), to: null });
        this.upNow = side;
    }
    /** Takes what is up down at the end (the launcher's close stops what is asleep). */
    async release() {
        if (this.upNow !== null)
            await this.takeDown(this.upNow, true);
        for (const side of this.held) {
            await this.launcher.down(side);
            this.closePeriod(side);
        }
        this.held.clear();
    }
    periods() {
        return { baseline: this.up.baseline.map(p => ({ ...p })), candidate: this.up.candidate.map(p => ({ ...p })) };
    }
    /** Both up at once: a launched side is started once and stays up until the release; one not launched is always up. */
    async holdUp(side) {
        if (this.switches[side] === null || this.held.has(side))
            return;
        const from = new Date().toISOString();
        // Held before it is ready: a failed start is still stopped by the release.
        this.held.add(side);
        await this.launcher.up(side);
        this.up[side].push({ from, ready: new Date().toISOString(), to: null });
    }
    async takeDown(side, last = false) {
        try {
            // Asleep between blocks keeps the weights off the accelerator but the server resident; at
            // the end there is nothing to wake for, so it is stopped.
            if (this.switches[side] === 'sleep' && !last) {
                await this.launcher.sleep(side);
                this.asleep.add(side);
            }
            else {
                await this.launcher.down(side);
            }
        }
        finally {
            this.closePeriod(side);
            this.upNow = null;
        }
    }
    closePeriod(side) {
        const periods = this.up[side];
        const open = periods[periods.length - 1];
        if (open && open.to === null)
            open.to = new Date().toISOString();
    }
}
/** Does the load half hold the launched sides up one at a time (both launched, sequential)? */
function holdsOneAtATime(config, sequential) {
    const sides = config.launch?.sides ?? {};
    return scheduleOf(config.launch, sequential) === 'sequential' && SIDES.every(side => sides[side] !== undefined);
}
/**
 * The sides on the schedule, in order: each launched side is started and waited for, held while
 * every measurement takes its part (the quality half first: helm-run or the runner command, whose
 * output folders the others are given), and stopped on every path. A measurement held on every
 * side (`everySide`, the quality half) gets the sides just brought up, always-up servers included;
 * the others get the sides up while a launched side is held (those, plus every side that is not
 * launched) and take servers that are always up after the quality half (`holdAlwaysUp`). A side
 * that could not come up stops a sequential schedule. Returns what it saw of each launched side.
 */
async function holdOnSchedule(launcher, sides, schedule, measurements) {
    const launched = (side) => launcher?.launches(side) ?? false;
    const outputs = Object.fromEntries(sides.map(s => [s.side, s.output]));
    const seen = {};
    await runOnSchedule(sides.map(s => s.side), schedule, {
        up: async (side) => {
            if (!launcher || !launched(side))
                return true;
            try {
                seen[side] = { probe: await launcher.up(side) };
                return true;
            }
            catch (error) {
                if (!(error instanceof GateError))
                    throw error;
                seen[side] = { error };
                return false;
            }
        },
        hold: async (held) => {
            const launchedUp = sidesUpWhileHeld(held.filter(launched), launched);
            for (const measurement of measurements) {
                const up = measurement.everySide ? held : launchedUp;
                if (up.length > 0)
                    await measurement.hold(up, outputs);
            }
        },
        down: async (side) => {
            if (launcher && launched(side))
                await launcher.down(side);
        }
    });
    return seen;
}
/**
 * The sides up while `held` (launched sides between their measurement and their stop) are held:
 * those, plus every side that is not launched (a server that is always up).
 */
function sidesUpWhileHeld(held, launched) {
    if (held.length === 0)
        return [];
    const always = ['baseline', 'candidate'].filter(side => !launched(side) && !held.includes(side));
    return [...held, ...always];
}
/**
 * The launcher of the gate file's launched sides, open while `use` runs (null when nothing is
 * launched), with the deployments' API keys masked in the servers' logs and kept out of their
 * environment; every server stopped and the temporary folder removed on every path.
 */
async function withLauncher(config, options, use) {
    const sides = options.sides ?? planSides(config, options.env);
    const temp = trackedTempDir();
    let launcher = null;
    try {
        launcher = await Launcher.open({
            config,
            endpoints: sides.endpoints,
            cwd: options.cwd,
            env: childProcessEnv(options.env, sides.keyNames),
            baseRef: options.baseRef,
            outDir: options.outDir ?? temp.path,
            secrets: sides.secrets,
            progress: options.progress,
            tempDir: temp.path
        });
        return await use(launcher);
    }
    finally {
        await launcher?.close();
        await temp.remove();
    }
}
/**
 * `plan --measure-swap`: the cost of one swap as the load half pays it, measured now with the
 * gate file's own launch commands: the candidate brought up, then the baseline (the candidate
 * stopped or put to sleep, the baseline started or woken and ready). Everything is stopped after,
 * and the servers' logs go to a temporary folder that is removed.
 */
async function measureSwap(config, options) {
    return withLauncher(config, options, async (launcher) => {
        if (!launcher || !holdsOneAtATime(config, true))
            throw new ConfigError('plan.measure_swap', '--measure-swap needs both sides launched', { file: config.source, field: 'deployments' });
        const holder = new SideHolder(launcher, config, options.progress, true);
        try {
            await holder.bringUp('candidate', 'the swap measurement');
            const started = performance.now();
            await holder.bringUp('baseline', 'the swap measurement');
            return Math.round(performance.now() - started);
        }
        finally {
            await holder.release();
        }
    });
}

/**
 * The `--local-path` directory (HELM's "prod_env") generated for one side. Each side gets its own
 * directory so the two can never share HELM's request cache (docs/helm.md "The request cache"), and both sides
 * get the same HELM model name, tags, tokenizer and lengths so run specs and prompts are identical
 * and only the server differs.
 *
 * Clients are helm-gate's plugin classes (python/helm_gate_plugins/clients.py): HELM 0.5.16's
 * VLLMClient cannot be instantiated and VLLMChatClient cannot send an API key (docs/helm.md "Clients and the plugin").
 * No secret is ever written: the plugin reads the key from the environment variable named by
 * `api_key_env`, so credentials.conf stays empty.
 */
/** The HELM model and deployment name on both sides; the host org `helm-gate` names the cache shard. */
const GATED_MODEL = 'helm-gate/gated-model';
const LOCAL_TOKENIZER = 'helm-gate/local-tokenizer';
/**
 * OpenAI SDK retries for 5xx, 429 and connection errors (with its own short back-off). Kept
 * small: the plugin makes HELM's own 5 x (10-80 s) retry loop stop at the first failure, so a
 * dead server ends the run within seconds and a hung one within (1 + retries) x request timeout.
 */
const SDK_MAX_RETRIES = 2;
const PROD_ENV_FILES = ['model_metadata.yaml', 'model_deployments.yaml', 'tokenizer_configs.yaml', 'credentials.conf'];
const PLUGIN_CLASSES = {
    chat: 'helm_gate_plugins.clients.GateChatClient',
    completions: 'helm_gate_plugins.clients.GateCompletionsClient'
};
/** prod_env for a server deployment described in the gate file. */
function serverProdEnv(deployment) {
    const localTokenizer = isLocalTokenizerDirectory(deployment.tokenizer);
    const tokenizerName = localTokenizer ? LOCAL_TOKENIZER : deployment.tokenizer;
    const args = {
        base_url: deployment.baseUrl,
        served_model_name: deployment.model,
        timeout: deployment.requestTimeoutSeconds,
        max_retries: SDK_MAX_RETRIES
    };
    if (deployment.apiKeyEnv)
        args.api_key_env = deployment.apiKeyEnv;
    const metadata = {
        models: [
            {
                name: GATED_MODEL,
                display_name: 'helm-gate gated model',
                description: 'The deployment under test (baseline or candidate); generated by helm-gate.',
                creator_organization_name: 'helm-gate',
                access: 'open',
                release_date: '2024-01-01',
                // The tags decide run-spec rewrites (docs/helm.md "prod_env"); identical on both sides by construction.
                tags: ['TEXT_MODEL_TAG', 'FULL_FUNCTIONALITY_TEXT_MODEL_TAG'],
                deployment_names: [GATED_MODEL]
            }
        ]
    };
    const deployments = {
        model_deployments: [
            {
                name: GATED_MODEL,
                model_name: GATED_MODEL,
                tokenizer_name: tokenizerName,
                // Without it HELM crashes when a tokenizer is set (docs/helm.md "prod_env").
                max_sequence_length: deployment.maxSequenceLength,
                client_spec: { class_name: PLUGIN_CLASSES[deployment.api], args }
            }
        ]
    };
    const tokenizers = {
        tokenizer_configs: localTokenizer
            ? [
                {
                    name: LOCAL_TOKENIZER,
                    tokenizer_spec: {
                        class_name: 'helm.tokenizers.huggingface_tokenizer.HuggingFaceTokenizer',
                        args: { pretrained_model_name_or_path: deployment.tokenizer }
                    },
                    end_of_text_token: '',
                    prefix_token: ''
                }
            ]
            : []
    };
    return {
        files: {
            'model_metadata.yaml': yamlWithHeader(metadata, { dateKeys: true }),
            'model_deployments.yaml': yamlWithHeader(deployments),
            'tokenizer_configs.yaml': yamlWithHeader(tokenizers),
            'credentials.conf': '# Generated by helm-gate. Empty on purpose: API keys are read from the environment (api_key_env).\n'
        },
        modelArgs: `model=${GATED_MODEL}`,
        deployment: GATED_MODEL,
        credentialsAreSecret: false
    };
}
/**
 * prod_env for a deployment the user already describes in their own prod_env directory: its
 * files are copied into the side's own local path (so caches stay apart) and the deployment is
 * named explicitly in the entry, which avoids HELM's "last registered deployment" rule.
 */
async function userProdEnv(localPath, deploymentName) {
    const read = async (name) => {
        try {
            return await readFile(join(localPath, name), 'utf8');
        }
        catch {
            return null;
        }
    };
    const deploymentsText = await read('model_deployments.yaml');
    if (deploymentsText === null) {
        throw new ConfigError('config.prod_env', `the prod_env directory has no model_deployments.yaml`, {
            file: localPath,
            field: 'deployments.*.prod_env'
        });
    }
    const deploymentsFile = join(localPath, 'model_deployments.yaml');
    const parsed = parseYamlFile(deploymentsText, deploymentsFile, 'model_deployments.yaml');
    const list = Array.isArray(parsed?.model_deployments) ? parsed.model_deployments : [];
    const found = list.find(item => item?.name === deploymentName);
    if (!found) {
        throw new ConfigError('config.prod_env', `deployment ${deploymentName} is not in model_deployments.yaml`, {
            file: join(localPath, 'model_deployments.yaml'),
            field: 'deployments.*.deployment',
            value: deploymentName
        });
    }
    const credentials = await read('credentials.conf');
    // HELM would stop on a broken file only after starting; name the file now.
    const metadataText = await read('model_metadata.yaml');
    const tokenizersText = await read('tokenizer_configs.yaml');
    if (metadataText !== null)
        parseYamlFile(metadataText, join(localPath, 'model_metadata.yaml'), 'model_metadata.yaml');
    if (tokenizersText !== null)
        parseYamlFile(tokenizersText, join(localPath, 'tokenizer_configs.yaml'), 'tokenizer_configs.yaml');
    const modelName = typeof found.model_name === 'string' ? found.model_name : deploymentName;
    return {
        files: {
            'model_metadata.yaml': metadataText ?? 'models: []\n',
            'model_deployments.yaml': deploymentsText,
            'tokenizer_configs.yaml': tokenizersText ?? 'tokenizer_configs: []\n',
            'credentials.conf': credentials ?? ''
        },
        modelArgs: `model=${modelName},model_deployment=${deploymentName}`,
        deployment: deploymentName,
        credentialsAreSecret: (credentials ?? '').trim().length > 0
    };
}
async function prodEnvFor(deployment) {
    if (deployment.kind === 'command')
        return commandProdEnv();
    return deployment.kind === 'server' ? serverProdEnv(deployment) : userProdEnv(deployment.localPath, deployment.deployment);
}
/** A runner command brings its own HELM and configuration: its prod_env is empty and unused. */
function commandProdEnv() {
    return {
        files: { 'model_metadata.yaml': '', 'model_deployments.yaml': '', 'tokenizer_configs.yaml': '', 'credentials.conf': '' },
        modelArgs: '',
        deployment: 'runner command',
        credentialsAreSecret: false
    };
}
/** A Hugging Face tokenizer directory (absolute or relative path), as opposed to a HELM tokenizer name. */
function isLocalTokenizerDirectory(tokenizer) {
    return tokenizer.startsWith('/') || tokenizer.startsWith('./') || tokenizer.startsWith('../');
}
/**
 * Shows prod_env files with anything secret hidden (`plan`, logs, run-manifest.json), by
 * structure: in the YAML files every value under a credential-like key (for example
 * `client_spec.args.api_key`), every key-looking string and the userinfo and query values of every
 * URL, with all comments dropped; in a user's credentials.conf every value and every comment
 * line (an old key left in a comment is still a key).
 */
function redactedFiles(env) {
    return {
        'model_metadata.yaml': redactYaml(env.files['model_metadata.yaml']),
        'model_deployments.yaml': redactYaml(env.files['model_deployments.yaml']),
        'tokenizer_configs.yaml': redactYaml(env.files['tokenizer_configs.yaml']),
        'credentials.conf': env.credentialsAreSecret ? redactCredentials(env.files['credentials.conf']) : env.files['credentials.conf']
    };
}
const REDACTED_YAML_HEADER = '# helm-gate: shown with comments removed and credentials hidden\n';
/** A YAML file with credentials hidden and comments removed (see redactedFiles). */
function redactYaml(text) {
    if (text.trim() === '')
        return text;
    let doc;
    try {
        doc = parseDocument(text, { uniqueKeys: false });
    }
    catch {
        return '# (not valid YAML; hidden)\n';
    }
    if (doc.errors.length > 0)
        return '# (not valid YAML; hidden)\n';
    doc.commentBefore = null;
    doc.comment = null;
    visit(doc, {
        Pair(_, pair) {
            const key = isScalar(pair.key) ? String(pair.key.value) : '';
            const value = isScalar(pair.value) ? pair.value.value : undefined;
            const variable = /_env$/i.test(key) && typeof value === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(value) && !looksLikeSecret(value);
            if (isCredentialKey(key) &&
                !variable &&
                pair.value !== null &&
                !(isScalar(pair.value) && (pair.value.value === null || pair.value.value === ''))) {
                pair.value = new Scalar(HIDDEN);
            }
        },
        Node(_, node) {
            node.comment = null;
            node.commentBefore = null;
            if (isScalar(node) && typeof node.value === 'string')
                node.value = redactString(node.value);
        }
    });
    return REDACTED_YAML_HEADER + doc.toString({ lineWidth: 0 });
}
/**
 * Keeps HOCON keys, hides values: `openaiApiKey: "sk-..."` becomes `openaiApiKey: "***"`. Any
 * other line that is not pure structure (`key {`, `}`) is hidden whole: HOCON also allows
 * one-line JSON objects and multi-line `"""` strings, whose values the per-line rule cannot see.
 * Comment lines are hidden too: an old key is often left behind in a comment.
 */
function redactCredentials(text) {
    return text
        .split('\n')
        .map(line => {
        const trimmed = line.trim();
        const indent = line.slice(0, line.length - line.trimStart().length);
        if (trimmed === '')
            return line;
        if (trimmed.startsWith('#') || trimmed.startsWith('//'))
            return `${indent}${trimmed.startsWith('#') ? '#' : '//'} (comment hidden)`;
        if (/^[{}[\],\s]*$/.test(trimmed) || /^"?[A-Za-z0-9_.\-/ ]+"?\s*\{$/.test(trimmed))
            return line;
        const match = /^(\s*"?[A-Za-z0-9_.\-/ ]+"?\s*[:=]\s*)(.+)$/.exec(line);
        if (!match)
            return `${indent}***`;
        if (match[2].trim() === '{')
            return line;
        return `${match[1]}"***"`;
    })
        .join('\n');
}
function yamlWithHeader(value, options = {}) {
    let text = stringify(value, { lineWidth: 0 });
    // HELM's dacite loader wants release_date as a YAML date, not a quoted string.
    if (options.dateKeys)
        text = text.replace(/release_date: "?(\d{4}-\d{2}-\d{2})"?/g, 'release_date: $1');
    return `# Generated by helm-gate for one side of the gate; do not edit.\n${text}`;
}

/**
 * Finding the installed helm-run, its Python, the installed crfm-helm version and the plugin
 * package helm-gate ships. Nothing in HELM's output records its version (docs/helm.md "The HELM version"),
 * so it is read from the package metadata and recorded in the manifest.
 */
/** Resolves `helm.command` (a path, or a name looked up on PATH) to an executable file. */
async function resolveHelmRun(command, env, cwd) {
    const candidates = command.includes('/')
        ? [isAbsolute(command) ? command : resolve(cwd, command)]
        : (env.PATH ?? '')
            .split(delimiter)
            .filter(Boolean)
            .map(dir => join(dir, command));
    for (const candidate of candidates) {
        try {
            await access(candidate, constants$1.X_OK);
            if ((await stat(candidate)).isFile())
                return candidate;
        }
        catch {
            // not this one
        }
    }
    throw new HelmRunError('runner.helm_missing', `helm-run was not found (${command}); create the environment with scripts/python-env.sh or set helm.command`, { field: 'helm.command', value: command });
}
/**
 * The Python interpreter that runs helm-run: pip writes console scripts with a `#!/path/python`
 * line. Falls back to `python` next to the script (a venv's bin directory).
 */
async function pythonFor(helmRun) {
    let firstLine;
    try {
        const handle = await open(helmRun, 'r');
        try {
            const buffer = Buffer.alloc(512);
            const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
            firstLine = buffer.subarray(0, bytesRead).toString('utf8').split('\n')[0];
        }
        finally {
            await handle.close();
        }
    }
    catch {
        firstLine = '';
    }
    if (firstLine.startsWith('#!')) {
        const parts = firstLine.slice(2).trim().split(/\s+/).filter(Boolean);
        if (parts.length > 0 && /python/.test(parts[parts.length - 1]))
            return parts;
    }
    return [join(dirname(helmRun), 'python')];
}
/** The installed crfm-helm version, read with importlib.metadata through helm-run's Python. */
async function installedHelmVersion(python, env) {
    const [file, ...prefix] = python;
    const code = 'import importlib.metadata as m; print(m.version("crfm-helm"))';
    return new Promise((resolvePromise, reject) => {
        execFile(file, [...prefix, '-c', code], { env, timeout: 60_000 }, (error, stdout, stderr) => {
            if (error) {
                reject(new HelmRunError('runner.helm_version_unknown', `cannot read the installed crfm-helm version: ${firstLineOf(stderr) || error.message}`, {
                    value: python.join(' ')
                }));
                return;
            }
            resolvePromise(stdout.trim());
        });
    });
}
/** Refuses to run a HELM other than the pinned one: results would not be comparable with the archive. */
function assertPinnedVersion(installed, pinned, source) {
    if (installed !== pinned) {
        throw new HelmRunError('runner.helm_version', `installed crfm-helm is ${installed} but the gate file pins ${pinned}; install the pinned version or change helm.version`, { file: source, field: 'helm.version', value: installed });
    }
}
/**
 * The directory that holds `helm_gate_plugins/` (put on PYTHONPATH of helm-run). Searched upwards
 * from this module, so it works from src/ (tests), dist/ (the action and CLI bundles) alike;
 * HELM_GATE_PYTHONPATH overrides it.
 */
async function pluginPythonPath(env) {
    const override = env.HELM_GATE_PYTHONPATH;
    const starts = override ? [override] : ancestors(dirname(fileURLToPath(import.meta.url)), 5).map(dir => join(dir, 'python'));
    for (const dir of starts) {
        try {
            await access(join(dir, 'helm_gate_plugins', 'clients.py'), constants$1.R_OK);
            return dir;
        }
        catch {
            // keep looking
        }
    }
    throw new HelmRunError('runner.plugins_missing', 'the helm_gate_plugins Python package was not found next to helm-gate', {
        value: starts[0]
    });
}
function ancestors(dir, count) {
    const out = [dir];
    for (let i = 0; i < count; i++)
        out.push(dirname(out[out.length - 1]));
    return [...new Set(out)];
}
function firstLineOf(text) {
    return text.trim().split('\n').filter(Boolean).pop() ?? '';
}

/**
 * What one side's helm-run invocation will be: its entries, argument array, directories and
 * environment. Pure, so `plan` can print exactly what `run` executes.
 */
/** The module helm-run imports (`--plugins`) to mark each request for the stall watch. */
const PROGRESS_PLUGIN = 'helm_gate_plugins.progress';
function planSide(input) {
    if (input.runner)
        return planRunnerSide(input, input.runner);
    const entries = uniqueEntries(input.runs).map(entry => withModel(resolveEntryPaths(entry, input.cwd), input.prodEnv.modelArgs));
    const suite = `${input.side}-${input.stamp}`;
    const outputPath = join(input.outDir, input.side);
    const localPath = join(input.tempDir, input.side, 'prod_env');
    const args = [
        '--run-entries',
        ...entries,
        '--suite',
        suite,
        '--output-path',
        outputPath,
        '--local-path',
        localPath,
        '--max-eval-instances',
        String(input.helm.maxEvalInstances),
        '--num-train-trials',
        String(input.helm.numTrainTrials),
        '--num-threads',
        String(input.helm.numThreads),
        // Always: HELM's request cache keys ignore the server, so a cache could hand the candidate
        // the baseline's answers (docs/helm.md "The request cache").
        '--disable-cache',
        // Marks each request's start and end for the stall watch (docs/helm.md "A server that stops
        // answering"; python/helm_gate_plugins/progress.py).
        '--plugins',
        PROGRESS_PLUGIN
    ];
    return {
        side: input.side,
        prodEnv: input.prodEnv,
        localPath,
        outputPath,
        suite,
        logFile: join(input.outDir, 'logs', `${input.side}.log`),
        entries,
        command: input.command,
        args,
        runner: null,
        workDir: join(input.tempDir, input.side, 'work')
    };
}
/**
 * A runner command side: the command once per entry, its placeholders filled. `{output}` is the
 * suite folder helm-run would have made (`<outputPath>/runs/<suite>/`), so the run directories are
 * checked and compared the same way. A command with lm-eval output runs once for all entries and
 * writes into `<outputPath>` itself (lm-eval adds `<model>/results_<date>.json` below it). The command runs in a private working directory (FlexLLMGen
 * writes the scenario's data into `data/` there), so arguments starting with `./` or `../` are
 * resolved against the directory helm-gate runs in, as `path=` values in entries are.
 */
function planRunnerSide(input, runner) {
    const suite = `${input.side}-${input.stamp}`;
    const outputPath = join(input.outDir, input.side);
    const suiteDir = join(outputPath, 'runs', suite);
    const entries = uniqueEntries(input.runs).map(entry => resolveEntryPaths(entry, input.cwd));
    // lm-eval: one invocation for all the side's tasks (`--tasks a,b`), writing one run into the
    // side's output folder, which is what the comparison reads (a second invocation would write a
    // second results file there, and two runs on one side are refused as ambiguous).
    const lmEval = runner.output === 'lm-eval';
    const calls = lmEval ? [entries.join(',')] : entries;
    const runnerCalls = calls.map(entry => {
        const [command, ...args] = expandRunnerCommand(runner.command, {
            entry,
            model: runner.model ?? '',
            output: lmEval ? outputPath : suiteDir,
            max_eval_instances: String(input.helm.maxEvalInstances),
            seed: String(runner.seed)
        }).map(arg => (isRelativePath(arg) ? resolve(input.cwd, arg) : arg));
        return { entry, command, args };
    });
    return {
        side: input.side,
        prodEnv: input.prodEnv,
        localPath: join(input.tempDir, input.side, 'prod_env'),
        outputPath,
        suite,
        logFile: join(input.outDir, 'logs', `${input.side}.log`),
        entries,
        command: runnerCalls[0]?.command ?? runner.command[0],
        args: runnerCalls[0]?.args ?? [],
        runner: runnerCalls,
        workDir: join(input.tempDir, input.side, 'work')
    };
}
/** Gate-file entries never name a model (the config loader refuses it); add this side's. */
function withModel(entry, modelArgs) {
    return entry.includes(':') ? `${entry},${modelArgs}` : `${entry}:${modelArgs}`;
}
/**
 * `custom_mcqa:path=./data/gate.jsonl`: HELM joins a relative `path=` to its own output folder
 * (`<output>/scenarios/custom_mcqa/`), so a gate file could only name its data by an absolute
 * path, different on every machine and clone. A value that starts with `./` or `../` is resolved
 * here against the directory helm-gate runs in, as a local tokenizer folder is; the gate file
 * (and so the fingerprint) keeps the relative form, and run matching accepts either.
 */
function resolveEntryPaths(entry, cwd) {
    const colon = entry.indexOf(':');
    if (colon < 0)
        return entry;
    const args = entry
        .slice(colon + 1)
        .split(',')
        .map(part => {
        const eq = part.indexOf('=');
        if (eq < 0 || part.slice(0, eq) !== 'path')
            return part;
        const value = part.slice(eq + 1);
        return isRelativePath(value) ? `path=${resolve(cwd, value)}` : part;
    });
    return `${entry.slice(0, colon)}:${args.join(',')}`;
}
/** `./x` or `../x`: a path the gate file means relative to where helm-gate runs. */
function isRelativePath(value) {
    return value.startsWith('./') || value.startsWith('../');
}
/** Several gated comparisons may read the same run (different metrics): run it once. */
function uniqueEntries(runs) {
    return [...new Set(runs.map(run => run.entry))];
}
/** The command as one line for people to read or paste (arguments quoted when needed). */
function displayCommand(command, args, env = {}) {
    const quote = (text) => (/^[A-Za-z0-9_./:=,@%+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`);
    const prefix = Object.entries(env).map(([name, value]) => `${name}=${quote(value)}`);
    return [...prefix, quote(command), ...args.map(quote)].join(' ');
}

/**
 * Gated metric names checked before anything is spent (docs/helm.md "Metric names before the
 * run"): helm-gate's Python helper (python/helm_gate_plugins/metric_names.py) builds each run
 * entry's run specs as helm-run does and asks their metrics which names they declare, without
 * building the scenario. `plan` prints the result; `run` refuses an undeclared name before it
 * launches or runs anything, with the closest declared names. A name that could not be checked
 * (the helper failed, a metric declares nothing) is said so and left to guard.metric_missing,
 * which still reads the names the runs wrote.
 */
/** HELM's import and the run specs take about 6 s on a busy 2-core machine; this bounds a hang. */
const HELPER_TIMEOUT_MS = 120_000;
/** Asks the helper, with the side's entries and prod_env (written to a private folder, removed on every path). */
async function declaredMetricNames(plan, settings) {
    const temp = trackedTempDir('helm-gate-metrics-');
    try {
        const localPath = join(temp.path, 'prod_env');
        await mkdir(localPath, { recursive: true });
        for (const name of PROD_ENV_FILES)
            await writeFile(join(localPath, name), plan.prodEnv.files[name], { mode: 0o600 });
        const [file, ...prefix] = settings.python;
        const args = [...prefix, '-m', 'helm_gate_plugins.metric_names', '--local-path', localPath, ...plan.entries];
        const env = { ...settings.env, PYTHONPATH: [settings.pluginPath, settings.env.PYTHONPATH].filter(Boolean).join(delimiter) };
        const finished = await runBounded(file, args, env);
        if (finished.problem)
            return { ok: false, problem: finished.problem };
        return parseHelperOutput(finished.stdout);
    }
    finally {
        await temp.remove();
    }
}
/** The helper's JSON, checked for its shape; anything else is a problem, never a pass. */
function parseHelperOutput(stdout) {
    let parsed;
    try {
        parsed = JSON.parse(stdout);
    }
    catch {
        return { ok: false, problem: `the metric-name helper printed no JSON (${JSON.stringify(stdout.slice(0, 120))})` };
    }
    const entries = parsed.entries;
    if (!Array.isArray(entries))
        return { ok: false, problem: 'the metric-name helper printed no entries' };
    const out = [];
    for (const item of entries) {
        if (typeof item?.entry !== 'string')
            return { ok: false, problem: 'the metric-name helper printed an entry without its name' };
        if (typeof item.error === 'string') {
            out.push({ entry: item.entry, error: item.error });
            continue;
        }
        if (!Array.isArray(item.run_specs))
            return { ok: false, problem: `the metric-name helper printed no run specs for ${item.entry}` };
        out.push({
            entry: item.entry,
            runSpecs: item.run_specs.map(spec => ({
                name: String(spec.name),
                numOutputs: Number(spec.num_outputs),
                declared: Array.isArray(spec.declared) ? spec.declared.map(String) : [],
                undeclared: Array.isArray(spec.undeclared) ? spec.undeclared.map(String) : []
            }))
        });
    }
    return { ok: true, entries: out };
}
/**
 * Each gated run's metric against the names its entry's run specs declare. HELM writes
 * `<name>@<k>` beside `<name>` when a run asks for k > 1 outputs per instance (simple_mcqa: 5), so
 * that form is accepted exactly for the run specs' own k (for every declared name: the check only
 * refuses what cannot be written, and guard.metric_missing still reads what was).
 */
function checkMetricNames(runs, declared, source) {
    if (!declared.ok)
        return { lines: [`not checked: ${declared.problem}`], refused: [] };
    const lines = [];
    const refused = [];
    for (const [index, run] of runs.entries()) {
        const found = declared.byEntry.get(run.entry);
        const name = `${run.entry} ${run.metric}`;
        if (!found) {
            lines.push(`${name}: not checked (the helper did not answer for this entry)`);
            continue;
        }
        if ('error' in found) {
            lines.push(`${name}: not checked (HELM could not build the run spec: ${found.error})`);
            continue;
        }
        const names = new Set(found.runSpecs.flatMap(spec => spec.declared));
        const outputs = [...new Set(found.runSpecs.map(spec => spec.numOutputs).filter(k => k > 1))];
        const withOutputs = [...names].flatMap(metric => outputs.map(k => `${metric}@${k}`));
        if (names.has(run.metric) || withOutputs.includes(run.metric)) {
            lines.push(`${name}: declared by the run spec`);
            continue;
        }
        const silent = [...new Set(found.runSpecs.flatMap(spec => spec.undeclared))];
        if (silent.length > 0) {
            lines.push(`${name}: not checked (${silent.join(', ')} declares no names; the run's own output is checked)`);
            continue;
        }
        const near = closestWords(run.metric, [...names, ...withOutputs]);
        const hint = near.length > 0 ? `; did you mean ${near.join(' or ')}?` : '';
        const alsoAt = outputs.length > 0 ? `, each also as <name>@${outputs.join(' or @')}` : '';
        lines.push(`${name}: NOT among the names its metrics write${hint}`);
        refused.push(new ConfigError('config.metric_unknown', `run ${run.entry}: HELM's metrics for this entry write no metric ${run.metric}${hint} (they write ${[...names].sort().join(', ')}${alsoAt})`, { file: source, field: `runs[${index}].metric`, value: run.metric }));
    }
    return { lines, refused };
}
/**
 * The check for a prepared run: asked of the first side helm-run makes (both sides run the same
 * entries; only the model differs). null when no side is made by helm-run (a runner command
 * brings its own HELM, whose names this helper cannot speak for).
 */
async function checkPreparedMetricNames(prepared, settings) {
    const plan = prepared.plans.find(side => side.runner === null);
    if (!plan)
        return null;
    let declared;
    try {
        declared = await declaredMetricNames(plan, {
            python: await pythonFor(settings.helmRun),
            pluginPath: settings.pluginPath,
            env: settings.env
        });
    }
    catch (error) {
        declared = { ok: false, problem: error.message };
    }
    return checkMetricNames(prepared.runs, byGateEntry(prepared.runs, plan.entries, declared), settings.source);
}
/**
 * The helper's answers keyed by the gate file's entry. The side plan's entries are the gate
 * file's unique entries in order, each with the side's model added (side-plan.ts), and the helper
 * answers in the order it was asked; an answer out of that order is a problem, never a guess.
 */
function byGateEntry(runs, fullEntries, declared) {
    if (!declared.ok)
        return declared;
    const unique = uniqueEntries(runs);
    if (unique.length !== fullEntries.length || declared.entries.some((answer, i) => answer.entry !== fullEntries[i])) {
        return { ok: false, problem: 'the metric-name helper answered for other entries than it was asked' };
    }
    return { ok: true, byEntry: new Map(unique.map((entry, i) => [entry, declared.entries[i]])) };
}
/** Every refusal as one error (the first one's location), so a gate file is fixed in one pass. */
function refusalOf(check) {
    if (!check || check.refused.length === 0)
        return null;
    const [first, ...rest] = check.refused;
    if (rest.length === 0)
        return first;
    return new ConfigError(first.code, check.refused.map(error => error.message).join('; '), first.location);
}
async function runBounded(file, args, env) {
    return new Promise(resolve => {
        let stdout = '';
        let stderr = '';
        let child;
        try {
            child = spawn(file, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
        }
        catch (error) {
            resolve({ stdout: '', problem: `could not start ${file}: ${error.message}` });
            return;
        }
        const pgid = child.pid;
        const release = pgid ? trackGroup({ pgid, label: 'metric-name helper', stop: async () => killGroupNow(pgid) }) : () => { };
        const timer = setTimeout(() => pgid && killGroupNow(pgid), HELPER_TIMEOUT_MS);
        child.stdout.on('data', chunk => (stdout += chunk));
        child.stderr.on('data', chunk => (stderr = (stderr + chunk).slice(-4e3)));
        child.on('error', error => {
            clearTimeout(timer);
            release();
            resolve({ stdout: '', problem: `could not start ${file}: ${error.message}` });
        });
        child.on('close', (code, signal) => {
            clearTimeout(timer);
            release();
            if (code === 0) {
                resolve({ stdout });
                return;
            }
            const last = stderr.trim().split('\n').filter(Boolean).pop() ?? '';
            resolve({ stdout, problem: `the metric-name helper exited with ${code ?? signal}${last ? `: ${last}` : ''}` });
        });
    });
}

/**
 * Everything about a run of the sides that is decided before anything runs: the checked helm-run
 * install, the deployments and each side's plan (`plan` prints these), and each side's fresh
 * output and prod_env folders.
 */
/** Everything about the invocation that can be decided without running anything (used by `plan`). */
async function prepareRun(config, opts) {
    const helm = helmSection(config);
    if (!config.deployments) {
        throw new ConfigError('config.missing', 'the gate file needs deployments.baseline and deployments.candidate to run HELM', {
            file: config.source,
            field: 'deployments'
        });
    }
    const runs = opts.runs ?? config.runs;
    if (runs.length === 0)
        throw new ConfigError('config.missing', 'there are no runs to execute', { file: config.source, field: 'runs' });
    if (opts.sides.length === 0)
        throw new ConfigError('config.missing', 'no side to run', { file: config.source });
    const deployments = {
        baseline: config.deployments.baseline,
        candidate: opts.selfCheck ? config.deployments.baseline : config.deployments.candidate
    };
    if (!opts.selfCheck && opts.sides.includes('baseline') && opts.sides.includes('candidate') && !launchesDiffer(config)) {
        checkDistinctDeployments(deployments.baseline, deployments.candidate, config.source);
    }
    const plans = [];
    for (const side of opts.sides) {
        plans.push(planSide({
            side,
            prodEnv: await prodEnvFor(deployments[side]),
            helm,
            runs,
            outDir: resolve(opts.outDir),
            tempDir: opts.tempDir,
            stamp: opts.stamp,
            command: opts.command ?? helm.command,
            cwd: opts.cwd ?? process.cwd(),
            runner: deployments[side].kind === 'command' ? deployments[side] : undefined
        }));
    }
    return { helm, runs, plans, deployments };
}
/** What the manifest says for the HELM version of sides made by runner commands. */
const RUNNER_COMMAND_VERSION = 'runner command';
/**
 * The helm-run the gate file names, refused unless it is the pinned HELM version. Not looked for
 * when every side is a runner command: those bring their own HELM (FlexLLMGen calls 0.2.1's API).
 */
async function checkHelmInstall(config, env, cwd) {
    const helm = helmSection(config);
    const deployments = config.deployments ? [config.deployments.baseline, config.deployments.candidate] : [];
    if (deployments.length > 0 && deployments.every(d => d.kind === 'command')) {
        return { helmRun: helm.command, version: RUNNER_COMMAND_VERSION, pluginPath: '' };
    }
    const helmRun = await resolveHelmRun(helm.command, env, cwd);
    const version = await installedHelmVersion(await pythonFor(helmRun), env);
    assertPinnedVersion(version, helm.version, config.source);
    return { helmRun, version, pluginPath: await pluginPythonPath(env) };
}
function helmSection(config) {
    if (!config.helm)
        throw new ConfigError('config.missing', 'the gate file needs a helm section to run HELM', { file: config.source, field: 'helm' });
    return config.helm;
}
/** Each side's output folder (fresh) and prod_env folder (with the side's files), before anything runs. */
async function prepareSideFolders(outDir, plans) {
    await mkdir(outDir, { recursive: true });
    for (const plan of plans)
        await prepareSideFolder(plan);
}
async function prepareSideFolder(plan) {
    // A fresh output path per invocation: stale files from an earlier run must never be compared.
    let existing;
    try {
        existing = await readdir(plan.outputPath);
    }
    catch {
        existing = [];
    }
    if (existing.length > 0) {
        throw new HelmRunError('runner.output_exists', `the ${plan.side} output directory is not empty; choose a new output folder`, {
            file: plan.outputPath
        });
    }
    await mkdir(plan.outputPath, { recursive: true });
    // Not recursive: once the temporary folder is removed (helm-gate is being cancelled) this fails
    // instead of making it again and writing credentials.conf into a folder nothing would remove.
    await mkdir(dirname(plan.localPath));
    await mkdir(plan.localPath);
    for (const name of PROD_ENV_FILES) {
        await writeFile(join(plan.localPath, name), plan.prodEnv.files[name], { mode: 0o600 });
    }
}
/** A suite name's unique part: the invocation's start, to the second (suites are never reused). */
function stampOf(date) {
    return date
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d+Z$/, 'Z');
}

/**
 * One helm-run process: spawned with an argument array in its own process group (so a timeout
 * can kill HELM's worker threads and any children at once), its output streamed line by line
 * to a log file and to the caller with a side prefix, with progress read from HELM's own log.
 *
 * The stall watch: helm-run marks each request's start and end on an inherited pipe (fd 3,
 * python/helm_gate_plugins/progress.py). When requests are waiting and none has completed for
 * `stallMs`, the server has stopped answering (a hung engine keeps its connections open, so no
 * client error comes for as long as the client's own timeouts and retries allow): helm-run is
 * stopped, and the result says so (docs/helm.md "A server that stops answering").
 */
const KILL_GRACE_MS = 5_000;
/** The file descriptor helm-run's progress plugin writes its request marks to. */
const PROGRESS_FD = 3;
const STALL_CHECK_MS = 1_000;
async function runHelmProcess(settings) {
    await mkdir(dirname(settings.logFile), { recursive: true });
    const file = createWriteStream(settings.logFile, { flags: 'a' });
    const started = Date.now();
    const state = { requests: 0, runsStarted: [], failedRuns: [] };
    const watchStalls = settings.stallMs !== undefined && settings.stallMs !== null;
    const child = spawn(settings.command, settings.args, {
        cwd: settings.cwd,
        env: watchStalls ? { ...settings.env, HELM_GATE_PROGRESS_FD: String(PROGRESS_FD) } : settings.env,
        stdio: watchStalls ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'],
        detached: true
    });
    // A signal to helm-gate (a cancelled job) must not leave helm-run running in its own group.
    const pgid = child.pid;
    const release = pgid ? trackGroup({ pgid, label: `${settings.side} helm-run`, stop: async () => killGroup(pgid, 'SIGKILL') }) : () => { };
    const onLine = outputLineReader(settings, state, line => file.write(`${line}\n`));
    const readers = [child.stdout, child.stderr].map(stream => {
        const reader = createInterface({ input: stream, crlfDelay: Infinity });
        reader.on('line', onLine);
        return new Promise(resolve => reader.on('close', resolve));
    });
    const group = new GroupStopper(child.pid);
    let timedOut = false;
    const stall = watchStalls ? new StallWatch(child.stdio[PROGRESS_FD]) : null;
    stall?.start(settings.stallMs, () => timedOut, (idle, waiting) => {
        onLine(`helm-gate: ${settings.side}: no request completed for ${Math.round(idle / 1000)} s while ${waiting} waited; the server stopped answering; stopping process group ${child.pid}`);
        group.stop();
    });
    const timeout = setTimeout(() => {
        if (stall?.stalled)
            return;
        timedOut = true;
        onLine(`helm-gate: ${settings.side} exceeded its timeout of ${Math.round(settings.timeoutMs / 1000)} s; killing process group ${child.pid}`);
        group.stop();
    }, settings.timeoutMs);
    const heartbeat = setInterval(() => {
        const seconds = Math.round((Date.now() - started) / 1000);
        settings.progress?.(`[${settings.side}] still running after ${seconds} s: run ${state.runsStarted.length}/${settings.expectedRuns}, ${counted(state.requests, 'request')} done`);
    }, settings.heartbeatMs ?? 30_000);
    const exit = await exitOf(child);
    clearTimeout(timeout);
    clearInterval(heartbeat);
    stall?.stop();
    group.cancelKill();
    // Children of helm-run that outlived it (none expected) must not keep running after the gate,
    // nor hold its output pipes open.
    killGroup(child.pid, 'SIGKILL');
    release();
    if (exit.spawnError === null)
        await Promise.all(readers);
    const ended = Date.now();
    if (exit.spawnError)
        onLine(`helm-gate: could not start ${settings.command}: ${exit.spawnError}`);
    await new Promise(resolve => file.end(resolve));
    return {
        exitCode: exit.code,
        signal: exit.signal,
        timedOut,
        startedAt: new Date(started).toISOString(),
        endedAt: new Date(ended).toISOString(),
        durationMs: ended - started,
        ...state,
        spawnError: exit.spawnError,
        stalled: stall?.stalled ?? null
    };
}
/**
 * Every output line, redacted, goes to the log file and the caller's log; the lines HELM writes
 * when a run starts, when requests are processed and when runs failed update `state`.
 */
function outputLineReader(settings, state, toFile) {
    const redact = masker(settings.secrets ?? []);
    const prefix = `[${settings.side}]`;
    return raw => {
        const line = redact(raw);
        toFile(line);
        settings.log?.(`${prefix} ${line}`);
        const running = /\bRunning (\S.*) \{\s*$/.exec(line);
        if (running) {
            state.runsStarted.push(running[1]);
            settings.progress?.(`${prefix} run ${state.runsStarted.length}/${settings.expectedRuns}: ${running[1]}`);
        }
        const processed = /\bProcessed (\d+) requests\b/.exec(line);
        if (processed) {
            state.requests += Number(processed[1]);
            settings.progress?.(`${prefix} ${counted(state.requests, 'request')} done`);
        }
        const failed = /Failed runs: \[(.*)\]/.exec(line);
        if (failed)
            state.failedRuns = [...failed[1].matchAll(/"([^"]*)"/g)].map(m => m[1]);
    };
}
/** SIGTERM to the process group once, then SIGKILL after a grace period unless it exited. */
class GroupStopper {
    pid;
    killTimer;
    constructor(pid) {
        this.pid = pid;
    }
    stop() {
        if (this.killTimer)
            return;
        killGroup(this.pid, 'SIGTERM');
        this.killTimer = setTimeout(() => killGroup(this.pid, 'SIGKILL'), KILL_GRACE_MS);
    }
    cancelKill() {
        if (this.killTimer)
            clearTimeout(this.killTimer);
    }
}
/** The stall watch: request marks from helm-run's progress plugin (`s` started, `e` ended). */
class StallWatch {
    pipe;
    stalled = null;
    waiting = 0;
    completed = 0;
    since = Date.now();
    timer;
    constructor(pipe) {
        this.pipe = pipe;
        pipe?.on('data', (chunk) => this.read(chunk));
        pipe?.on('error', () => { });
    }
    read(chunk) {
        for (const byte of chunk) {
            if (byte === 0x73) {
                // The wait starts with the first request of an idle spell, not at helm-run's start-up.
                if (this.waiting === 0)
                    this.since = Date.now();
                this.waiting++;
            }
            else if (byte === 0x65) {
                this.waiting = Math.max(0, this.waiting - 1);
                this.completed++;
                this.since = Date.now();
            }
        }
    }
    /** Checks every second; `onStall` once, when requests wait and none completed for `stallMs`. */
    start(stallMs, timedOut, onStall) {
        this.timer = setInterval(() => {
            const idle = Date.now() - this.since;
            if (this.stalled || timedOut() || this.waiting === 0 || idle < stallMs)
                return;
            this.stalled = { idleMs: idle, waiting: this.waiting, completed: this.completed };
            onStall(idle, this.waiting);
        }, STALL_CHECK_MS);
    }
    stop() {
        clearInterval(this.timer);
        // A grandchild that inherited the pipe must not keep this process's reader open.
        this.pipe?.destroy();
    }
}
function exitOf(child) {
    return new Promise(resolve => {
        child.once('error', error => resolve({ code: null, signal: null, spawnError: error.message }));
        child.once('exit', (code, signal) => resolve({ code, signal, spawnError: null }));
    });
}
function killGroup(pid, signal) {
    if (!pid)
        return;
    try {
        process.kill(-pid, signal);
    }
    catch {
        // already gone
    }
}

/**
 * Produces a side's run directories: the one place that decides how. Today that is helm-run
 * against the side's deployment, one process for all of the side's entries. A second kind (a
 * runner command run once per entry, for example) is a second branch of `produceSideRuns`
 * returning the same result, so that what follows it (the checks in side-outcome.ts, the manifest
 * record, the comparison) stays one.
 */
/** Runs what makes `plan.outputPath/runs/<suite>/<run>` for each of the plan's entries. */
async function produceSideRuns(plan, context) {
    if (plan.runner)
        return runRunnerCommand(plan, plan.runner, context);
    return runHelmProcess({
        side: plan.side,
        command: plan.command,
        args: plan.args,
        env: context.env,
        logFile: plan.logFile,
        timeoutMs: context.timeoutMs,
        expectedRuns: plan.entries.length,
        log: context.log,
        progress: context.progress,
        secrets: context.secrets,
        stallMs: stallLimitMs(context.deployment)
    });
}
/** Slack over one request attempt's timeout before a side with requests waiting counts as stalled. */
const STALL_SLACK_SECONDS = 30;
/** A prod_env deployment's client and timeouts are HELM's own (HELM retries 5 times, 10-80 s apart). */
const PROD_ENV_STALL_SECONDS = 600;
/**
 * How long helm-run may go without completing a request while some wait before it is stopped:
 * one attempt's timeout (request_timeout_seconds; the plugin client's SDK retries each attempt
 * twice more) plus 30 s, or 10 minutes for a prod_env deployment. A server that answers at all
 * completes one request of several waiting within one timeout; one that answers none has stopped.
 */
function stallLimitMs(deployment) {
    return (deployment.kind === 'server' ? deployment.requestTimeoutSeconds + STALL_SLACK_SECONDS : PROD_ENV_STALL_SECONDS) * 1000;
}
/**
 * A runner command side: the command once per entry, one after the other, each in the side's
 * process group machinery of helm-run (log, timeout, group kill on cancel), under one limit for the
 * whole side. The first failure stops the side (fail closed: the rest could not pass anyway). It
 * has no request marks, so no stall watch: the side's timeout is the limit.
 */
async function runRunnerCommand(plan, calls, context) {
    await mkdir(plan.workDir, { recursive: true });
    const started = Date.now();
    let last;
    let requests = 0;
    const runsStarted = [];
    for (const [i, call] of calls.entries()) {
        const left = context.timeoutMs - (Date.now() - started);
        context.progress(`[${plan.side}] runner command ${i + 1}/${calls.length}: ${call.entry}`);
        const result = await runHelmProcess({
            side: plan.side,
            command: call.command,
            args: call.args,
            env: context.env,
            cwd: plan.workDir,
            logFile: plan.logFile,
            timeoutMs: Math.max(left, 1),
            expectedRuns: calls.length,
            log: context.log,
            progress: context.progress,
            secrets: context.secrets,
            stallMs: null
        });
        runsStarted.push(call.entry);
        requests += result.requests;
        last = {
            ...result,
            startedAt: new Date(started).toISOString(),
            durationMs: Date.now() - started,
            requests,
            runsStarted: [...runsStarted],
            failedRuns: result.exitCode !== 0 || result.timedOut ? [call.entry] : []
        };
        if (result.spawnError || result.timedOut || result.exitCode !== 0)
            break;
    }
    return last;
}

/**
 * One cause, one error. When a side fails, the runner finds several symptoms of the same cause
 * (helm-run exited 1, its run directory is incomplete, the gate's entry has no complete run), and
 * none of them says why: that is only in the side's log, among thousands of lines. This folds the
 * symptoms of a side into its root cause and quotes the decisive line of the log (the client
 * error: a refused connection, a timeout, a 401) in the error itself.
 */
/** Errors that say why a side failed. */
const ROOT_CAUSES = /^(server\.|runner\.(spawn|timeout|stalled|exit)$)/;
/** Errors that only say what is missing because of it (an lm-eval side's unreadable output too). */
const SYMPTOMS = new Set(['runner.incomplete_run', 'runner.run_missing', 'runner.nothing_ran', 'runner.lmeval_output']);
/**
 * What to quote from a helm-run log, most telling first. HELM logs each failed request's
 * exception with its chained causes; the lowest-level cause names the real problem ("Connection
 * refused"), where the OpenAI SDK only says "Connection error.".
 */
const DECISIVE = [
    // helm-gate's client plugin: an exception of the client itself (a missing API key variable).
    /helm-gate client error: .+/,
    // The transport under the OpenAI SDK: refused, reset, timed out, DNS.
    /\b(?:httpx|httpcore|urllib3|requests|aiohttp)\.\w+: .+/,
    /\[Errno -?\d+\] .+/,
    // The SDK's own classification: 401, 404, 429, 5xx, timeouts.
    /\bopenai\.\w+: .+/,
    // HELM's summary of a failed request.
    /\bOpenAI error: .+/,
    // Any other exception that ended the run (not HELM's final "Failed runs" summary).
    /^(?!.*RunnerError)(?:[\w.]+\.)?\w+(?:Error|Exception): .+/
];
const MAX_LOG_BYTES = 8 * 1024 * 1024;
const MAX_QUOTE = 300;
/** The decisive line of a helm-run log, or null when it holds nothing telling. */
function decisiveLine(log, patterns = DECISIVE.length) {
    const lines = log.split('\n');
    for (const pattern of DECISIVE.slice(0, patterns)) {
        for (let i = 0; i < lines.length; i++) {
            const match = pattern.exec(lines[i]);
            if (match) {
                const text = match[0].trim();
                return { line: i + 1, text: text.length > MAX_QUOTE ? `${text.slice(0, MAX_QUOTE - 1)}…` : text };
            }
        }
    }
    return null;
}
/**
 * A side's errors grouped by root cause: the first root cause absorbs the symptoms (named in one
 * clause) and quotes the log; other errors are kept as they are. Without a root cause the first
 * symptom quotes the log instead.
 */
function groupByRootCause(errors, quote, logName) {
    const root = errors.find(error => ROOT_CAUSES.test(error.code));
    const symptoms = root ? errors.filter(error => SYMPTOMS.has(error.code)) : [];
    const lead = root ?? errors.find(error => SYMPTOMS.has(error.code));
    if (!lead)
        return [...errors];
    const parts = [lead.message.replace(/; see the \w+ log$/, '')];
    if (quote)
        parts.push(`${logName} line ${quote.line}: ${quote.text}`);
    else if (lead.code.startsWith('runner.'))
        parts.push(`see ${logName}`);
    const consequence = consequences(symptoms);
    if (consequence)
        parts.push(consequence);
    // Same class and code as the cause, so callers that check either still recognise it.
    const Kind = lead.constructor;
    const grouped = new Kind(lead.code, parts.join('; '), lead.location);
    return errors.flatMap(error => (error === lead ? [grouped] : symptoms.includes(error) ? [] : [error]));
}
function consequences(symptoms) {
    const entries = symptoms.filter(s => s.code === 'runner.run_missing').map(s => String(s.location.value));
    const incomplete = symptoms.filter(s => s.code === 'runner.incomplete_run').length;
    if (entries.length > 0)
        return `so ${counted(entries.length, 'entry has', 'entries have')} no complete run: ${entries.join(', ')}`;
    if (incomplete > 0)
        return `so ${counted(incomplete, 'run is', 'runs are')} incomplete`;
    return '';
}
/** The tail of a log file (the whole file up to a bound), or '' when it cannot be read. */
async function readLogTail(file) {
    let handle;
    try {
        handle = await open(file, 'r');
        const { size } = await handle.stat();
        const length = Math.min(size, MAX_LOG_BYTES);
        const buffer = Buffer.alloc(length);
        await handle.read(buffer, 0, length, size - length);
        return buffer.toString('utf8');
    }
    catch {
        return '';
    }
    finally {
        await handle?.close();
    }
}
/**
 * A runner command's log is not HELM's: after a client error of the kinds above (which name the
 * lowest cause, as for helm-run), its last meaningful line is the decisive one (a Python
 * program's final exception line, a shell script's last message); traceback frames and
 * helm-gate's own lines are skipped.
 */
function runnerDecisiveLine(log) {
    const client = decisiveLine(log, DECISIVE.length - 1);
    if (client)
        return client;
    const lines = log.split('\n');
    for (let i = lines.length - 1; i >= 0; i--) {
        const text = lines[i].trim();
        if (text === '' || text.startsWith('helm-gate:') || /^(?:File "|Traceback \(most recent call last\)|\^+$|~+)/.test(text))
            continue;
        if (/^\s/.test(lines[i]) && i > 0 && /^\s*File "/.test(lines[i - 1]))
            continue;
        return { line: i + 1, text: text.length > MAX_QUOTE ? `${text.slice(0, MAX_QUOTE - 1)}…` : text };
    }
    return null;
}
/** groupByRootCause with the quote read from the side's log (named relative to `outDir`). */
async function explainSideErrors(errors, logFile, outDir, runner = false) {
    if (errors.length === 0)
        return errors;
    const log = await readLogTail(logFile);
    const quote = runner ? runnerDecisiveLine(log) : decisiveLine(log);
    return groupByRootCause(errors, quote, relative(outDir, logFile) || logFile);
}

/**
 * After helm-run: did every expected run really complete? helm-run exits 0 when filters left
 * nothing to run, and leaves an empty directory for a failed run (docs/helm.md "Exit codes and failed runs"); neither
 * may pass silently.
 */
const NOT_RUNS = new Set(['eval_cache', 'groups']);
/** `program` names what made the side in messages: helm-run, or the runner command by its name. */
async function verifySideOutput(side, outputPath, suite, gated, program = 'helm-run') {
    const suiteDir = join(outputPath, 'runs', suite);
    const errors = [];
    let names;
    try {
        names = (await readdir(suiteDir, { withFileTypes: true }))
            .filter(entry => entry.isDirectory() && !NOT_RUNS.has(entry.name))
            .map(entry => entry.name)
            .sort();
    }
    catch {
        names = [];
    }
    const runs = [];
    for (const name of names) {
        const dir = join(suiteDir, name);
        const present = new Set(await readdir(dir));
        const missing = Object.values(RUN_FILES).filter(file => !present.has(file));
        if (missing.length > 0) {
            errors.push(new HelmRunError('runner.incomplete_run', `${side}: run ${name} did not complete (missing ${missing.join(', ')}); see the ${side} log`, { file: dir }));
            continue;
        }
        runs.push(await readRunDirectory(dir));
    }
    if (names.length === 0) {
        errors.push(new HelmRunError('runner.nothing_ran', `${side}: ${program} produced no run directory (nothing ran)`, { file: suiteDir }));
        return { runs, errors };
    }
    for (const run of gated) {
        if (!runs.some(dir => runMatchesEntry(dir, run))) {
            const failedHere = errors.length > 0 ? ' (it may be one of the incomplete runs)' : '';
            errors.push(new HelmRunError('runner.run_missing', `${side}: no complete run directory for entry ${run.entry}${failedHere}`, {
                file: suiteDir,
                value: run.entry
            }));
        }
    }
    return { runs, errors };
}
/**
 * After a runner command with lm-eval output (`command_output: lm-eval`): the side's folder must
 * hold one finished lm-eval run, its results file and a samples file for every task it lists
 * (lm-eval writes samples only with --log_samples, and the results file only when the run ends),
 * with a task for every gate entry. Whatever the reader refuses is named here, as the side's
 * error, and stops the gate before anything is compared.
 */
async function verifyLmEvalSideOutput(side, outputPath, gated, program = 'the runner command') {
    if (!(await looksLikeLmEvalOutput(outputPath))) {
        return {
            errors: [
                new HelmRunError('runner.nothing_ran', `${side}: ${program} wrote no lm-eval output (no results_<date>.json or samples_<task>_<date>.jsonl in its {output} folder or one below); see the ${side} log`, { file: outputPath })
            ]
        };
    }
    let tasks;
    let resultsFile;
    try {
        const output = await readLmEvalOutput(outputPath);
        tasks = output.tasks.map(task => task.name);
        resultsFile = output.resultsFile;
    }
    catch (error) {
        if (!(error instanceof InputError))
            throw error;
        return {
            errors: [
                new HelmRunError('runner.lmeval_output', `${side}: ${program} did not leave a complete lm-eval run (run lm_eval with --log_samples --output_path {output}): ${error.message}; see the ${side} log`, { file: error.location.file ?? outputPath, field: error.location.field, value: error.location.value })
            ]
        };
    }
    const errors = [];
    for (const run of gated) {
        if (tasks.some(task => taskMatchesEntry(task, run)))
            continue;
        errors.push(new HelmRunError('runner.run_missing', `${side}: the lm-eval run has no task for entry ${run.entry} (it ran ${tasks.join(', ')})`, {
            file: resultsFile,
            value: run.entry
        }));
    }
    return { errors };
}

/**
 * What happened on one side: built up while the side runs (its server probe, its process's
 * result, the check of its run directories), then written to the manifest as the side's record.
 */
/** A side before anything has run: not complete, no errors yet. */
function emptyOutcome(plan) {
    return {
        side: plan.side,
        outputPath: plan.outputPath,
        suite: plan.suite,
        logFile: plan.logFile,
        exitCode: null,
        signal: null,
        timedOut: false,
        startedAt: null,
        endedAt: null,
        durationMs: null,
        requests: 0,
        server: null,
        complete: false,
        errors: []
    };
}
/**
 * Records the side's process result and its errors (could not start, stalled, hung, failed), then
 * checks every expected run directory: the side is complete only when nothing went wrong.
 */
async function finishSide(plan, result, outcome, runs, deployment) {
    outcome.exitCode = result.exitCode;
    outcome.signal = result.signal;
    outcome.timedOut = result.timedOut;
    outcome.startedAt = result.startedAt;
    outcome.endedAt = result.endedAt;
    outcome.durationMs = result.durationMs;
    outcome.requests = result.requests;
    const where = { file: plan.logFile };
    // A runner command is named as itself: "helm-run" in its errors would send a reader to the wrong program.
    const program = plan.runner ? `the runner command ${runnerCommandName([plan.command, ...plan.args])}` : 'helm-run';
    if (result.spawnError) {
        outcome.errors.push(new HelmRunError('runner.spawn', `${plan.side}: could not start ${program}: ${result.spawnError}`, { ...where, value: plan.command }));
        return;
    }
    if (result.stalled) {
        const { idleMs, waiting } = result.stalled;
        outcome.errors.push(new HelmRunError('runner.stalled', `${plan.side}: the ${plan.side} server stopped answering: no request completed for ${Math.round(idleMs / 1000)} s while ${waiting} waited, so helm-run was stopped (the limit is ${Math.round(stallLimitMs(deployment) / 1000)} s; docs/helm.md "A server that stops answering")`, where));
    }
    else if (result.timedOut) {
        const at = result.runsStarted.at(-1);
        outcome.errors.push(new HelmRunError('runner.timeout', `${plan.side}: ${program} hung and was killed after ${Math.round(result.durationMs / 1000)} s${at ? ` during run ${at}` : ''} (helm.timeout_minutes)`, where));
    }
    else if (result.exitCode !== 0) {
        const runsNamed = result.failedRuns.length ? `; failed runs: ${result.failedRuns.join(', ')}` : '';
        outcome.errors.push(new HelmRunError('runner.exit', `${plan.side}: ${program} exited with ${result.exitCode ?? result.signal}${runsNamed}; see the ${plan.side} log`, { ...where, value: result.failedRuns[0] }));
    }
    const verification = deployment.kind === 'command' && deployment.output === 'lm-eval'
        ? await verifyLmEvalSideOutput(plan.side, plan.outputPath, runs, program)
        : await verifySideOutput(plan.side, plan.outputPath, plan.suite, runs, program);
    outcome.errors.push(...verification.errors);
    outcome.complete = outcome.errors.length === 0;
    outcome.errors = await explainSideErrors(outcome.errors, plan.logFile, dirname(plan.outputPath), plan.runner !== null);
}
/**
 * The side's launched server died while it was measured: that is the cause, so it comes first,
 * and what the client saw (helm-run's "Connection refused", already grouped) follows as the
 * symptom. Even a side whose run completed is not complete: its server's death is a doubt.
 */
function serverDied(outcome, cause) {
    outcome.errors = [cause, ...outcome.errors];
    outcome.complete = false;
}
/** The side's manifest record, paths relative to outDir. */
function sideRecord(plan, outcome, deployment, outDir) {
    const described = deployment.kind === 'server'
        ? {
            kind: 'server',
            api: deployment.api,
            base_url: redactUrl(deployment.baseUrl),
            model: deployment.model,
            tokenizer: deployment.tokenizer,
            max_sequence_length: deployment.maxSequenceLength,
            api_key_env: deployment.apiKeyEnv,
            request_timeout_seconds: deployment.requestTimeoutSeconds
        }
        : deployment.kind === 'command'
            ? {
                kind: 'command',
                command: deployment.command,
                model: deployment.model,
                seed: deployment.seed,
                command_output: deployment.output
            }
            : { kind: 'prod_env', prod_env: deployment.localPath, deployment: deployment.deployment };
    // The manifest is uploaded as evidence: no credential, not even inside a URL or an error.
    return {
        source: 'run',
        helm_deployment: plan.prodEnv.deployment,
        deployment: described,
        server: outcome.server,
        output_path: manifestPath(outDir, plan.outputPath),
        suite: plan.suite,
        log_file: manifestPath(outDir, plan.logFile) ?? plan.logFile,
        entries: plan.entries,
        command: [plan.command, ...plan.args],
        prod_env: redactedFiles(plan.prodEnv),
        started_at: outcome.startedAt,
        ended_at: outcome.endedAt,
        duration_ms: outcome.durationMs,
        exit_code: outcome.exitCode,
        signal: outcome.signal,
        timed_out: outcome.timedOut,
        requests: outcome.requests,
        complete: outcome.complete,
        errors: outcome.errors.map(error => ({ code: error.code, message: redactText(error.message) }))
    };
}

/**
 * An anytime-valid confidence sequence for the mean of values in [0, 1], by betting
 * (docs/method.md "Sequential verdicts"): Waudby-Smith and Ramdas, "Estimating means of bounded
 * random variables by betting", JRSS-B 2024 (the hedged capital process with predictable plug-in
 * bets), and, for a frozen set of N items drawn in random order without replacement, their
 * "Confidence sequences for sampling without replacement", NeurIPS 2020.
 *
 * A gambler bets against each candidate mean m; under the true mean the capital is a nonnegative
 * martingale, so by Ville's inequality it ever reaches 1/a with probability at most a. The
 * interval at time t holds every m whose capital has not reached that level. Because the bound
 * holds over all t at once, the interval may be looked at after every instance and the look may
 * stop the gate, which a fixed-n interval does not allow.
 */
const DEFAULT_ALPHA = 0.05;
// Waudby-Smith and Ramdas's default: a bet never risks more than half the capital.
const DEFAULT_TRUNCATION = 0.5;
// Bisection steps on [0, 1]: 2^-40 is far below any margin a gate can state.
const STEPS = 40;
/**
 * The predictable plug-in bets lambda_i (before truncation), i = 1..n: each uses only the values
 * before it. lambda_i = sqrt(2 log(2/alpha) / (var_{i-1} * i * log(1 + i))), with the running
 * variance var_i = (1/4 + sum_{j<=i} (x_j - mean_j)^2) / (i + 1) and mean_i = (1/2 + sum_{j<=i}
 * x_j) / (i + 1): one fictitious observation with mean 1/2 and variance 1/4 starts both, so the
 * first bet is defined.
 */
function plugInBets(values, alpha, horizon) {
    const level = log(2 / alpha);
    const bets = [];
    let sum = 0;
    let squares = 0;
    let variance = 0.25;
    for (let i = 1; i <= values.length; i++) {
        bets.push(sqrt((2 * level) / (variance * (horizon ?? i * log(1 + i)))));
        const x = values[i - 1];
        sum += x;
        const mean = (0.5 + sum) / (i + 1);
        squares += (x - mean) * (x - mean);
        variance = (0.25 + squares) / (i + 1);
    }
    return bets;
}
/**
 * The running log capital, after each value, of the bettor on "the mean is above m" (side +1) or
 * "below m" (side -1): log K_t = sum_{i<=t} log(1 + side * bet_i * (x_i - m_i)), with the bet
 * truncated so a factor never falls below 1 - truncation. For a finite population the bet is on
 * the mean of the items not yet drawn, which the candidate mean m fixes:
 * m_i = (N m - sum_{j<i} x_j) / (N - i + 1).
 */
function runningLogCapital(values, bets, m, side, c, population) {
    const out = [];
    let total = 0;
    let sum = 0;
    for (let i = 0; i < values.length; i++) {
        const x = values[i];
        const mi = population === undefined ? m : (population * m - sum) / (population - i);
        const room = side === 1 ? mi : 1 - mi;
        const bet = room > 0 ? min(bets[i], c / room) : bets[i];
        total += log1p(side * bet * (x - mi));
        sum += x;
        out.push(total);
    }
    return out;
}
function logCapital(values, bets, m, side, c, population) {
    const running = runningLogCapital(values, bets, m, side, c, population);
    return running.length === 0 ? 0 : running[running.length - 1];
}
/**
 * The confidence sequence's interval for the mean of `values` (each in [0, 1], in the order they
 * were drawn) after all of them. Each side is a one-sided sequence at alpha / 2, which is the
 * hedged process max(K+/2, K-/2) >= 1/alpha of the paper. The capital for "above m" only falls as m
 * rises (each factor 1 + bet (x - m) does, truncation included), and the capital for "below m" only
 * rises, so each bound is found by bisection. A finite population also bounds the mean for sure:
 * the items not drawn are between 0 and 1, so at n = N the interval is the exact mean.
 */
function bettingInterval(values, options = {}) {
    const { alpha, population, c, horizon } = checkOptions(options, values.length);
    checkUnitValues(values);
    const n = values.length;
    let low = 0;
    let high = 1;
    if (population !== undefined) {
        const sum = values.reduce((a, b) => a + b, 0);
        low = sum / population;
        high = (sum + population - n) / population;
    }
    if (n === 0 || high - low <= 0)
        return { n, low, high };
    const bets = plugInBets(values, alpha, horizon);
    const threshold = log(2 / alpha);
    const excludedBelow = (m) => logCapital(values, bets, m, 1, c, population) >= threshold;
    const excludedAbove = (m) => logCapital(values, bets, m, -1, c, population) >= threshold;
    const lowBound = excludedBelow(low) ? bisect(low, high, excludedBelow, true) : low;
    const highBound = excludedAbove(high) ? bisect(low, high, excludedAbove, false) : high;
    // Both sides exclude everything only in a sample that is wrong on both sides at once (chance
    // below alpha): keep one point between them rather than an empty interval.
    if (lowBound > highBound) {
        const mid = (lowBound + highBound) / 2;
        return { n, low: mid, high: mid };
    }
    return { n, low: lowBound, high: highBound };
}
/**
 * The boundary of an excluded region, rounded towards the included side (a wider interval, never
 * a narrower one). `fromBelow`: `excluded` holds at `a` and up to the boundary.
 */
function bisect(a, b, excluded, fromBelow) {
    let lo = a;
    let hi = b;
    for (let k = 0; k < STEPS; k++) {
        const mid = (lo + hi) / 2;
        if (excluded(mid) === fromBelow)
            lo = mid;
        else
            hi = mid;
    }
    return fromBelow ? hi : lo;
}
/**
 * The interval for the mean of paired differences candidate - baseline, each in [-1, 1] (a 0/1
 * metric's differences, or a score in [0, 1]'s): the values are rescaled to (d + 1) / 2, and the
 * interval back.
 */
function pairedSequenceInterval(diffs, options = {}) {
    const { n, low, high } = bettingInterval(unitDifferences(diffs), options);
    return { n, low: max(-1, 2 * low - 1), high: min(1, 2 * high - 1) };
}
function checkOptions(options, n) {
    const alpha = options.alpha ?? DEFAULT_ALPHA;
    const c = options.truncation ?? DEFAULT_TRUNCATION;
    if (!isFiniteNumber(alpha) || alpha <= 0 || alpha >= 1)
        throw new UsageError('sequential.bad_alpha', 'alpha must be a number strictly between 0 and 1.', { field: 'alpha', value: alpha });
    if (!isFiniteNumber(c) || c <= 0 || c >= 1)
        throw new UsageError('sequential.bad_truncation', 'The bet truncation must be strictly between 0 and 1.', {
            field: 'truncation',
            value: c
        });
    const population = options.population;
    if (population !== undefined && (!isInteger(population) || population < max(1, n)))
        throw new UsageError('sequential.bad_population', `The population must be a whole number of items, at least the ${n} drawn.`, {
            field: 'population',
            value: population
        });
    const horizon = options.horizon;
    if (horizon !== undefined && (!isInteger(horizon) || horizon < 1))
        throw new UsageError('sequential.bad_horizon', 'The horizon the bets are tuned for must be a whole number, at least 1.', {
            field: 'horizon',
            value: horizon
        });
    return { alpha, population, c, horizon };
}
/** Each value a number in [0, 1]: a bet is only safe on bounded values. */
function checkUnitValues(values) {
    for (let i = 0; i < values.length; i++) {
        const x = values[i];
        if (!isFiniteNumber(x) || x < 0 || x > 1)
            throw new UsageError('sequential.value_out_of_bounds', 'Each value of a confidence sequence must be a number in [0, 1].', {
                field: `values[${i}]`,
                value: x
            });
    }
}
/** Paired differences in [-1, 1] rescaled to (d + 1) / 2 in [0, 1]. */
function unitDifferences(diffs) {
    return diffs.map((d, i) => {
        if (!isFiniteNumber(d) || d < -1 || d > 1)
            throw new UsageError('sequential.difference_out_of_bounds', 'Each paired difference must be a number in [-1, 1].', {
                field: `differences[${i}]`,
                value: d
            });
        return (d + 1) / 2;
    });
}

/**
 * When a sequential gate looks at its confidence sequence: after each of increasing sample sizes,
 * and at the latest at the budget. The statistics allow any schedule (the sequence is valid at
 * every n); the schedule says where a measurement can stop, e.g. after each helm-run stage.
 */
/** A look schedule that cannot be run: names the field and the value. */
class LookScheduleError extends ConfigError {
}
/**
 * The schedule checked and completed: the looks strictly increasing positive whole numbers, the
 * budget a whole number at least the first look and at most `population` (when given), looks past
 * the budget refused, and the budget added as the last look when the schedule stops short of it.
 */
function checkLookSchedule(schedule, population, field = 'sequential') {
    const { looks, budget } = schedule;
    if (!Array.isArray(looks) || looks.length === 0)
        throw new LookScheduleError('sequential.no_looks', 'The look schedule needs at least one look.', {
            field: `${field}.looks`,
            value: looks
        });
    looks.forEach((look, i) => {
        if (!isInteger(look) || look < 1)
            throw new LookScheduleError('sequential.bad_look', 'Each look must be a whole number of instances, at least 1.', {
                field: `${field}.looks[${i}]`,
                value: look
            });
        if (i > 0 && look <= looks[i - 1])
            throw new LookScheduleError('sequential.looks_not_increasing', `The looks must increase: look ${i + 1} is not above look ${i} (${looks[i - 1]}).`, {
                field: `${field}.looks[${i}]`,
                value: look
            });
    });
    if (!isInteger(budget) || budget < 1)
        throw new LookScheduleError('sequential.bad_budget', 'The budget must be a whole number of instances, at least 1.', {
            field: `${field}.budget`,
            value: budget
        });
    if (budget < looks[0])
        throw new LookScheduleError('sequential.budget_below_first_look', `The budget is below the first look (${looks[0]}).`, {
            field: `${field}.budget`,
            value: budget
        });
    const beyond = looks.findIndex(look => look > budget);
    if (beyond >= 0)
        throw new LookScheduleError('sequential.look_beyond_budget', `A look is past the budget (${budget}).`, {
            field: `${field}.looks[${beyond}]`,
            value: looks[beyond]
        });
    if (population !== undefined && budget > population)
        throw new LookScheduleError('sequential.budget_above_population', `The budget is above the ${population} instances there are.`, {
            field: `${field}.budget`,
            value: budget
        });
    return { looks: looks[looks.length - 1] === budget ? [...looks] : [...looks, budget], budget };
}

/**
 * The verdict of a sequential gate (docs/method.md "Sequential verdicts"): at each look, pass when
 * the whole confidence-sequence interval of the paired difference is above -margin, fail when it
 * is wholly below, continue otherwise; inconclusive when the budget is spent undecided.
 */
/**
 * Runs the looks of `schedule` over `diffs` (candidate - baseline per instance, in the seeded
 * order the instances were measured in) and stops at the first decided look.
 *
 * The decision is the sequence's own test of the margin, exact rather than through a bisected
 * bound: -margin is outside the interval from below exactly when the capital bet on "the mean is
 * above -margin" has reached 2/alpha (the capital only falls as the candidate mean rises), or, for
 * a finite population, when the items already measured put the mean above it for sure. That is
 * one pass over the differences, whatever the number of looks. Since each interval holds the mean
 * at every n at once (with probability 1 - alpha), the first look that excludes -margin may stop
 * the gate; fail is checked first, so a sample that excludes both sides (chance below alpha) fails
 * closed. The bets are tuned for the budget unless `horizon` says otherwise. With `trace`, every look's interval is computed (for the report's plot) and intersected
 * with the earlier ones, which the same guarantee allows.
 */
function runSequentialGate(diffs, schedule, margin, options = {}) {
    checkMargin(margin);
    const { looks, budget } = checkLookSchedule(schedule, options.population);
    if (diffs.length < budget)
        throw new UsageError('sequential.too_few_differences', `The budget needs ${budget} paired differences.`, {
            field: 'differences',
            value: diffs.length
        });
    // Bets tuned for the budget by default: the gate's hardest look is its last.
    const tuned = { ...options, horizon: options.horizon ?? budget };
    const { alpha, population, c, horizon } = checkOptions(tuned, budget);
    const values = unitDifferences(diffs.slice(0, budget));
    const bets = plugInBets(values, alpha, horizon);
    const m0 = (1 - margin) / 2;
    const above = runningLogCapital(values, bets, m0, 1, c, population);
    const below = runningLogCapital(values, bets, m0, -1, c, population);
    const threshold = log(2 / alpha);
    const seen = [];
    let low = -1;
    let high = 1;
    let sum = 0;
    let counted = 0;
    for (const n of looks) {
        for (; counted < n; counted++)
            sum += values[counted];
        // For a finite population the unmeasured items lie in [0, 1]: sure bounds on the mean.
        const sureLow = population === undefined ? 0 : sum / population;
        const sureHigh = population === undefined ? 1 : (sum + population - n) / population;
        const failed = below[n - 1] >= threshold || sureHigh < m0;
        const passed = above[n - 1] >= threshold || sureLow > m0;
        const decision = failed ? 'fail' : passed ? 'pass' : n === budget ? 'inconclusive' : 'continue';
        const look = { n, decision };
        if (options.trace === true || decision !== 'continue') {
            const interval = pairedSequenceInterval(diffs.slice(0, n), tuned);
            low = max(low, interval.low);
            high = min(high, interval.high);
            look.interval = options.trace === true ? { n, low, high } : interval;
        }
        seen.push(look);
        if (decision !== 'continue')
            return { verdict: decision, stoppedAt: n, budget, looks: seen, interval: look.interval };
    }
    // checkLookSchedule ends every schedule at the budget, so the loop always returns.
    throw new Error('unreachable: the last look is at the budget');
}
function checkMargin(margin) {
    if (!isFiniteNumber(margin) || margin < 0 || margin >= 1)
        throw new UsageError('sequential.bad_margin', 'The margin (the tolerated drop) must be a number in [0, 1).', {
            field: 'max_drop',
            value: margin
        });
}

/**
 * The stages of a sequential gate's quality half (docs/helm.md "Staged runs (sequential
 * verdicts)"): helm-run once per look, each stage with `--max-eval-instances` at the look, so that
 * each stage's instances are a superset of the stage before and the same on both sides. HELM
 * 0.5.16 draws the evaluation instances as the first n of one permutation seeded with 0, so the
 * sets nest for every n (measured on real runs: that section of docs/helm.md). What the gate cannot take on
 * trust, it checks after each stage (`stageOrder`): the sets nest, have the looked-for size and are
 * the same on both sides; then it gives the order the paired differences are taken in.
 *
 * Pure: no process is started here. The runner plugs it in (not yet).
 */
/** A sequential schedule that cannot be staged with helm-run: names the file, field and value. */
class StagePlanError extends ConfigError {
}
/** A stage's run directories do not hold the instances the plan asked for: the stages cannot be paired. */
class StagedRunError extends GuardError {
}
/**
 * The stages for one entry: one per look of the checked schedule, at most the instances there
 * are. Refused: a schedule `checkLookSchedule` refuses (not increasing, a budget below the first
 * look or above N), an unknown or empty population, and an entry whose evaluation instances span
 * several splits, where `--max-eval-instances n` gives an unknown number of the compared split.
 */
function planStages(population, schedule, where = {}) {
    const field = where.field ?? 'sequential';
    const { evalInstances, comparedInstances, entry } = population;
    if (evalInstances === null || comparedInstances === null || !isInteger(comparedInstances) || comparedInstances < 1)
        throw new StagePlanError('sequential.unknown_population', `Run entry ${entry} cannot be staged: how many instances it has is not known (a dry run of helm-run counts them).`, { file: where.file, field: `${field}.budget`, value: comparedInstances });
    if (evalInstances !== comparedInstances)
        throw new StagePlanError('sequential.split_cannot_stage', `Run entry ${entry} cannot be staged: --max-eval-instances draws from all its evaluation splits (${evalInstances} instances) and the comparison reads ${comparedInstances} of them, so a stage's size in the compared split is not known in advance.`, { file: where.file, field: `${field}.looks`, value: schedule.looks });
    let checked;
    try {
        checked = checkLookSchedule(schedule, comparedInstances, field);
    }
    catch (error) {
        // The schedule's own refusal, with the gate file it came from.
        if (error instanceof LookScheduleError && where.file !== undefined)
            throw new LookScheduleError(error.code, error.message, { ...error.location, file: where.file });
        throw error;
    }
    const stages = checked.looks.map((look, i) => ({
        index: i + 1,
        look,
        maxEvalInstances: look,
        args: ['--max-eval-instances', String(look)]
    }));
    return { entry, population: comparedInstances, schedule: checked, stages };
}
/**
 * A side's helm-run arguments for one stage: `--max-eval-instances` set to the stage's, and the
 * suite named after the stage, so each stage's run directories are new (HELM would otherwise
 * write over the stage before in the same suite folder). Every other argument is kept in order.
 */
function stageArgs(args, stage) {
    const out = [];
    let sawMax = false;
    for (let i = 0; i < args.length; i++) {
        const arg = args[i];
        if (arg === '--max-eval-instances' && i + 1 < args.length) {
            if (!sawMax)
                out.push(...stage.args);
            sawMax = true;
            i++;
        }
        else if (arg === '--suite' && i + 1 < args.length) {
            out.push(arg, `${args[i + 1]}-stage${stage.index}`);
            i++;
        }
        else
            out.push(arg);
    }
    if (!sawMax)
        out.push(...stage.args);
    return out;
}
/**
 * The order the paired differences are taken in, from the ids each stage's runs hold: stage 1's
 * ids, then each later stage's new ids, each stage's own in a seeded random order (the sequence is
 * valid when each next instance is a uniform draw from those not yet measured; HELM lists the
 * last stage in the data's order when it keeps every instance, so its listing is not used).
 * Refused, naming the stage and an id: a stage of another size than its look, a repeated id, a
 * stage that drops an id of the stage before, or sides that hold different ids.
 */
function stageOrder(plan, sides, seed) {
    const stages = Math.max(sides.baseline.length, sides.candidate.length);
    if (stages > plan.stages.length)
        throw new StagedRunError('sequential.too_many_stages', `Run entry ${plan.entry} has more stages than its plan (${plan.stages.length}).`, {
            field: 'stages',
            value: stages
        });
    const order = [];
    const seen = new Set();
    for (let k = 0; k < stages; k++) {
        const stage = plan.stages[k];
        const baseline = checkedStage(plan, stage, 'baseline', sides.baseline[k]);
        const candidate = checkedStage(plan, stage, 'candidate', sides.candidate[k]);
        const onlyOne = [...baseline].find(id => !candidate.has(id)) ?? [...candidate].find(id => !baseline.has(id));
        if (onlyOne !== undefined)
            throw new StagedRunError('sequential.sides_differ', `Stage ${stage.index} of run entry ${plan.entry} holds different instances on the two sides.`, { field: `stages[${k}]`, value: onlyOne });
        const dropped = [...seen].find(id => !baseline.has(id));
        if (dropped !== undefined)
            throw new StagedRunError('sequential.stages_not_nested', `Stage ${stage.index} of run entry ${plan.entry} does not hold every instance of stage ${stage.index - 1}.`, { field: `stages[${k}]`, value: dropped });
        const fresh = [...baseline].filter(id => !seen.has(id)).sort();
        for (const id of shuffled(fresh, seed, stage.index)) {
            order.push(id);
            seen.add(id);
        }
    }
    return order;
}
function checkedStage(plan, stage, side, ids) {
    const field = `${side}.stages[${stage.index - 1}]`;
    if (ids === undefined)
        throw new StagedRunError('sequential.stage_missing', `Stage ${stage.index} of run entry ${plan.entry} did not run on the ${side}.`, {
            field
        });
    const set = new Set(ids);
    if (set.size !== ids.length) {
        const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
        throw new StagedRunError('sequential.repeated_instance', `Stage ${stage.index} of run entry ${plan.entry} lists an instance twice.`, {
            field,
            value: repeated
        });
    }
    if (set.size !== stage.look)
        throw new StagedRunError('sequential.stage_size', `Stage ${stage.index} of run entry ${plan.entry} holds ${set.size} instances, not the ${stage.look} of its look.`, { field, value: set.size });
    return set;
}
/** Fisher-Yates with the statistics seed, one stream per stage. */
function shuffled(ids, seed, stage) {
    const random = createRandom(seed, `helm-stage-${stage}`);
    const out = [...ids];
    for (let i = out.length - 1; i > 0; i--) {
        const j = random.below(i + 1);
        const swap = out[i];
        out[i] = out[j];
        out[j] = swap;
    }
    return out;
}

/**
 * The stop-or-continue loop of a sequential gate's quality half over helm-run stages
 * (docs/method.md "Sequential verdicts", docs/helm.md "Staged runs (sequential verdicts)"): stage
 * k runs every run entry that still has an undecided gated check, the stage's instances are
 * checked and ordered (`stageOrder`), each undecided check's paired differences go through the
 * confidence sequence at the looks so far, and an entry whose every check is decided runs no more
 * stages. Undecided at the budget is inconclusive.
 *
 * Pure: the process running is the caller's (`runStage`), so the loop is tested without helm-run.
 * A stage the caller could not run or read is thrown (a StagedRunError or the caller's own
 * error), never turned into a decision: the caller reports it as an error verdict.
 */
/** Runs the stages until every check is decided or the budget is spent. */
async function runStagedGate(input) {
    const { plans, checks, alpha, seed, runStage } = input;
    const stageCount = plans[0]?.stages.length ?? 0;
    for (const plan of plans)
        if (plan.stages.length !== stageCount || plan.stages.some((stage, i) => stage.look !== plans[0].stages[i].look))
            throw new StagedRunError('sequential.plans_differ', `Run entry ${plan.entry} has other looks than run entry ${plans[0].entry}.`, {
                field: 'looks',
                value: plan.stages.map(stage => stage.look)
            });
    const byEntry = new Map(plans.map(plan => [plan.entry, plan]));
    for (const check of checks)
        if (!byEntry.has(check.entry))
            throw new StagedRunError('sequential.no_plan', `Check ${check.key} names run entry ${check.entry}, which has no stage plan.`, {
                field: check.key,
                value: check.entry
            });
    const seen = new Map(plans.map(plan => [plan.entry, { baseline: [], candidate: [] }]));
    const stopped = new Map();
    const lastStage = new Map();
    for (let k = 1; k <= stageCount; k++) {
        const active = plans.filter(plan => checks.some(check => check.entry === plan.entry && !stopped.has(check.key))).map(p => p.entry);
        if (active.length === 0)
            break;
        const reading = await runStage(k, active);
        for (const entry of active) {
            const plan = byEntry.get(entry);
            const read = reading.get(entry);
            if (!read)
                throw new StagedRunError('sequential.stage_unread', `Stage ${k} of run entry ${entry} gave no values.`, {
                    field: `stages[${k - 1}]`
                });
            const sides = seen.get(entry);
            sides.baseline.push([...read.baseline.ids]);
            sides.candidate.push([...read.candidate.ids]);
            lastStage.set(entry, k);
            const order = stageOrder(plan, sides, seed);
            for (const check of checks.filter(c => c.entry === entry && !stopped.has(c.key))) {
                const outcome = decideCheck(check, plan, k, pairedDiffs(check, k, order, read), alpha);
                if (outcome)
                    stopped.set(check.key, outcome);
            }
        }
    }
    return { checks: checks.map(check => stopped.get(check.key)), lastStage };
}
/** The check's outcome after stage k, or null to go on to the next stage. */
function decideCheck(check, plan, k, diffs, alpha) {
    const looks = plan.stages.slice(0, k).map(stage => stage.look);
    const n = looks[looks.length - 1];
    const atBudget = k === plan.stages.length;
    // The looks so far as a schedule that ends here; the bets stay tuned for the real budget, so
    // each earlier look's capital is the one it had then (bets use only the values before them).
    const outcome = runSequentialGate(diffs, { looks, budget: n }, check.margin, {
        alpha,
        population: plan.population,
        horizon: plan.schedule.budget,
        trace: true
    });
    if (outcome.verdict === 'inconclusive' && !atBudget)
        return null;
    const spent = 2 * looks.reduce((a, b) => a + b, 0);
    return {
        key: check.key,
        entry: check.entry,
        metric: check.metric,
        decision: outcome.verdict,
        certain: outcome.verdict !== 'inconclusive',
        stoppedAt: n,
        budget: plan.schedule.budget,
        looks: outcome.looks.map(look => ({
            n: look.n,
            low: look.interval?.low ?? -1,
            high: look.interval?.high ?? 1,
            decision: look.n === n ? outcome.verdict : 'continue'
        })),
        requestsSpent: spent,
        requestsFixed: 2 * plan.schedule.budget
    };
}
/**
 * The check's paired differences in the stage order, each in [-1, 1]: a value outside [0, 1] on
 * either side (a metric that is not 0/1-bounded per instance) or a missing one is refused.
 */
function pairedDiffs(check, k, order, read) {
    const valueOf = (side, id) => {
        const value = read[side].values.get(check.key)?.get(id);
        if (value === undefined)
            throw new StagedRunError('sequential.value_missing', `Stage ${k}: the ${side} has no ${check.metric} value for instance ${id} of run entry ${check.entry}.`, { field: `${check.key}.metric`, value: id });
        if (!isFiniteNumber(value) || value < 0 || value > 1)
            throw new StagedRunError('sequential.metric_not_bounded', `Stage ${k}: ${check.metric} of instance ${id} on the ${side} is ${value}, outside [0, 1]: a sequential verdict needs a metric bounded in [0, 1] per instance (docs/method.md "Sequential verdicts").`, { field: `${check.key}.metric`, value: check.metric });
        return value;
    };
    return order.map(id => {
        const d = valueOf('candidate', id) - valueOf('baseline', id);
        return check.direction === 'lower' ? -d : d;
    });
}

/**
 * How many instances each gated comparison will have, asked of HELM itself: `helm-run --dry-run`
 * with the baseline side's exact entries and prod_env, into a temporary folder. A dry run sends
 * no request, but it builds the scenarios and down-samples them exactly as the real run will.
 * The count cannot be derived from max_eval_instances alone: HELM draws that many instances from
 * all evaluation splits together, and a comparison reads one split (docs/helm.md "Offline
 * scenarios"): 200 on synthetic_reasoning gives 99 test instances.
 */
const DRY_RUN_TIMEOUT_MS = 10 * 60_000;
/** Runs the dry run for `plan` (one side's plan; both sides run the same entries). */
async function countInstances(plan, runs, settings) {
    // It holds the prod_env (credentials.conf included): removed on every path, a signal too.
    const temp = trackedTempDir('helm-gate-count-');
    const dir = temp.path;
    try {
        const localPath = join(dir, 'prod_env');
        const outputPath = join(dir, 'out');
        await mkdir(localPath, { recursive: true });
        for (const name of PROD_ENV_FILES)
            await writeFile(join(localPath, name), plan.prodEnv.files[name], { mode: 0o600 });
        const args = replaceOptions(plan.args, { '--output-path': outputPath, '--local-path': localPath, '--suite': 'count' });
        const logFile = join(dir, 'dry-run.log');
        const result = await runHelmProcess({
            side: 'count',
            command: settings.helmRun,
            args: [...args, '--dry-run'],
            env: { ...settings.env, PYTHONPATH: [settings.pluginPath, settings.env.PYTHONPATH].filter(Boolean).join(delimiter) },
            logFile,
            timeoutMs: DRY_RUN_TIMEOUT_MS,
            expectedRuns: plan.entries.length
        });
        if (result.spawnError)
            return { ok: false, problem: `could not start ${settings.helmRun}: ${result.spawnError}` };
        if (result.exitCode !== 0) {
            const quote = decisiveLine(await readLogTail(logFile));
            return { ok: false, problem: `helm-run --dry-run exited with ${result.exitCode ?? result.signal}${quote ? `: ${quote.text}` : ''}` };
        }
        const suite = join(outputPath, 'runs', 'count');
        const dirs = await Promise.all((await readdir(suite, { withFileTypes: true }))
            .filter(entry => entry.isDirectory() && entry.name !== 'eval_cache')
            .map(entry => readRunDirectory(join(suite, entry.name))));
        const counts = [];
        for (const run of runs) {
            const found = dirs.find(d => d.files.scenarioState && runMatchesEntry(d, run));
            if (!found) {
                counts.push({ run, split: null, n: null, counts: null });
                continue;
            }
            const splitCounts = await countScenarioState(join(found.path, 'scenario_state.json'));
            const split = comparisonSplit(run, splitCounts);
            counts.push({ run, split, n: split === null ? null : (splitCounts.clean[split] ?? 0), counts: splitCounts });
        }
        return { ok: true, counts };
    }
    finally {
        await temp.remove();
    }
}
/** The split a comparison reads: the configured one, else the only one, else test (as compare does). */
function comparisonSplit(run, counts) {
    if (run.split !== null)
        return run.split;
    const splits = Object.keys(counts.clean).sort();
    if (splits.length === 1)
        return splits[0];
    return splits.includes('test') ? 'test' : null;
}
/** Distinct instances per split (clean) and per perturbation, from scenario_state.json. */
async function countScenarioState(file) {
    const clean = new Map();
    const perturbed = new Map();
    const plan = (path) => {
        if (path.length === 0)
            return 'descend';
        if (path[0] !== 'request_states')
            return 'skip';
        if (path.length <= 2)
            return 'descend';
        return path[2] === 'instance' && path.length === 3 ? 'descend' : path[2] === 'instance' && isCounted(path[3]) ? 'emit' : 'skip';
    };
    const current = new Map();
    for await (const event of streamJson(file, { plan })) {
        if (event.kind !== 'value' || event.path.length !== 4)
            continue;
        const index = event.path[1];
        const entry = current.get(index) ?? {};
        current.set(index, entry);
        const value = event.value;
        if (event.path[3] === 'id' && typeof value === 'string')
            entry.id = value;
        if (event.path[3] === 'split' && typeof value === 'string')
            entry.split = value;
        if (event.path[3] === 'perturbation' && typeof value === 'object' && value !== null)
            entry.perturbation = String(value.name);
    }
    for (const { id, split, perturbation } of current.values()) {
        if (id === undefined || split === undefined || split === 'train')
            continue;
        const into = perturbation === undefined ? clean : perturbed;
        const key = perturbation ?? split;
        let set = into.get(key);
        if (!set)
            into.set(key, (set = new Set()));
        set.add(id);
    }
    const sizes = (map) => Object.fromEntries([...map].sort(([a], [b]) => a.localeCompare(b)).map(([key, set]) => [key, set.size]));
    return { clean: sizes(clean), perturbed: sizes(perturbed) };
}
function isCounted(segment) {
    return segment === 'id' || segment === 'split' || segment === 'perturbation';
}
function replaceOptions(args, values) {
    const out = [...args];
    for (const [flag, value] of Object.entries(values)) {
        const at = out.indexOf(flag);
        if (at >= 0)
            out[at + 1] = value;
    }
    return out;
}

/**
 * The real stage runner of a sequential gate's quality half (src/sequential/staged-gate.ts's
 * `StageRunner`): stage k is helm-run on both sides at once, each with its side plan's arguments
 * for the entries still undecided, `--max-eval-instances` at the look and a suite of its own
 * (`stageArgs`), written below `<outDir>/stages/<side>/` so the side's own output folder holds
 * only what the final comparison reads. The stage's per-instance values are read by the
 * comparison's own reader (the HELM harness: its pairing, opening and split choice), so a stage
 * is read exactly as the report reads the last one. Any failure (helm-run exit, timeout, stall,
 * a comparison issue) is a StagedRunError: fail closed, never a decision.
 *
 * helm-run runs through runHelmProcess: its own process group, tracked by the cancel registry, so
 * a stop or a signal leaves none running.
 */
/** The check key of a gated run: its place in the gate file. */
function checkKey(config, run) {
    return `runs[${config.runs.indexOf(run)}]`;
}
/** Where stage k of a side is written: its own output folder and suite. */
function stageOutput(plan, stage) {
    const outputPath = join(dirname(plan.outputPath), 'stages', plan.side);
    return { outputPath, suiteDir: join(outputPath, 'runs', `${plan.suite}-stage${stage.index}`) };
}
/**
 * The side's helm-run arguments for stage `stage` over `entries` (gate-file entries): the run
 * entries cut to those, the output folder the stage's, then `stageArgs`.
 */
function stagedSideArgs(plan, config, entries, stage) {
    const gateEntries = uniqueEntries(config.runs);
    const full = plan.entries.filter((_, i) => entries.includes(gateEntries[i]));
    const args = [];
    for (let i = 0; i < plan.args.length; i++) {
        const arg = plan.args[i];
        if (arg === '--run-entries') {
            args.push(arg, ...full);
            while (i + 1 < plan.args.length && !plan.args[i + 1].startsWith('--'))
                i++;
        }
        else if (arg === '--output-path' && i + 1 < plan.args.length) {
            args.push(arg, stageOutput(plan, stage).outputPath);
            i++;
        }
        else
            args.push(arg);
    }
    return stageArgs(args, stage);
}
/** The StageRunner over real helm-run. `results` collects each side's helm-run results, stage by stage. */
function helmStageRunner(settings, results) {
    const { config, plans, stages } = settings;
    const started = Date.now();
    return async (index, entries) => {
        const stage = stages[index - 1];
        settings.progress?.(`helm-gate: sequential stage ${index}/${stages.length}: ${entries.length} entries at n = ${stage.look}`);
        const sides = ['baseline', 'candidate'];
        const ran = await Promise.all(sides.map(side => runHelmProcess({
            side: side,
            command: plans[side].command,
            args: stagedSideArgs(plans[side], config, entries, stage),
            env: settings.env,
            logFile: plans[side].logFile,
            // The stages share the side's one limit: a later stage gets what the earlier left.
            timeoutMs: Math.max(settings.timeoutMs - (Date.now() - started), 1),
            expectedRuns: entries.length,
            log: settings.log,
            progress: settings.progress,
            secrets: settings.secrets,
            stallMs: settings.stallMs[side]
        })));
        sides.forEach((side, i) => {
            results[side].push(ran[i]);
            const result = ran[i];
            if (result.spawnError || result.timedOut || result.stalled || result.exitCode !== 0 || result.failedRuns.length > 0)
                throw new StagedRunError('sequential.stage_failed', `Stage ${index} (n = ${stage.look}): helm-run on the ${side} ${result.spawnError ? `could not start: ${result.spawnError}` : result.timedOut ? 'timed out' : result.stalled ? 'stalled' : `exited with ${result.exitCode ?? result.signal}`}.`, { file: plans[side].logFile });
        });
        return readStage(config, entries, {
            baseline: stageOutput(plans.baseline, stage).suiteDir,
            candidate: stageOutput(plans.candidate, stage).suiteDir
        });
    };
}
/**
 * A stage's per-instance values of every gated check of `entries`, read as the comparison reads
 * them (the HELM harness's pairing, opening and split choice); an issue it logs is a refusal.
 */
async function readStage(config, entries, dirs) {
    const runs = config.runs.filter(run => entries.includes(run.entry));
    const log = new IssueLog();
    const out = new Map();
    try {
        const [baseline, candidate] = await Promise.all([helmHarness.read(dirs.baseline), helmHarness.read(dirs.candidate)]);
        for (const unit of await helmHarness.pair(baseline, candidate, { ...config, runs }, null, log)) {
            const opened = await unit.open(log);
            if (!opened)
                continue;
            const split = resolveSplit(unit.name, unit.gated, opened.baseline, opened.candidate, log);
            if (split === undefined)
                continue;
            const key = checkKey(config, unit.gated);
            const entry = out.get(unit.gated.entry) ?? { baseline: emptySide(), candidate: emptySide() };
            for (const side of ['baseline', 'candidate']) {
                const clean = opened[side].values(unit.gated.metric, split).filter(v => v.perturbation === null && v.trainTrialIndex === 0);
                const values = new Map();
                for (const v of clean)
                    if (v.value !== null)
                        values.set(v.instanceId, v.value);
                const ids = [...new Set(clean.map(v => v.instanceId))];
                entry[side] = { ids, values: new Map([...entry[side].values, [key, values]]) };
            }
            out.set(unit.gated.entry, entry);
        }
    }
    catch (error) {
        if (!(error instanceof GateError))
            throw error;
        log.fromError(error);
    }
    const first = log.errors[0];
    if (first)
        throw new StagedRunError('sequential.stage_unreadable', `A stage's runs cannot be compared: ${first.message}`, {
            file: first.file ?? dirs.baseline,
            value: first.code
        });
    return out;
}
function emptySide() {
    return { ids: [], values: new Map() };
}
/**
 * Each entry's last stage's run directories copied into the side's own suite folder
 * (`<outputPath>/runs/<suite>/`), where the final comparison and the run checks read them.
 */
async function keepLastStages(plan, config, last, stages) {
    const target = join(plan.outputPath, 'runs', plan.suite);
    await mkdir(target, { recursive: true });
    const byStage = new Map();
    for (const [entry, k] of last)
        byStage.set(k, [...(byStage.get(k) ?? []), entry]);
    for (const [k, entries] of byStage) {
        const source = stageOutput(plan, stages[k - 1]).suiteDir;
        const side = await helmHarness.read(source);
        for (const run of side.runs) {
            const wanted = config.runs.some(gated => entries.includes(gated.entry) && runMatchesEntry(run, gated));
            if (wanted)
                await cp(run.path, join(target, basename(run.path)), { recursive: true });
        }
    }
}

// The dry run counts the whole set HELM draws from, not the fixed design's cap: the sequence's
// finite population is every instance the nested subsets are cut from.
const UNCAPPED = '100000000';
/** Each entry's stages, from a dry run's counts; refusals name the gate file and `sequential.*`. */
async function planStagedQuality(config, settings, prepared, install, env) {
    const plan = prepared.plans[0];
    const args = plan.args.map((arg, i) => (plan.args[i - 1] === '--max-eval-instances' ? UNCAPPED : arg));
    const counted = await countInstances({ ...plan, args }, config.runs, { ...install, env });
    if (!counted.ok)
        throw new ConfigError('sequential.unknown_population', `the sequential section needs each entry's instance count: ${counted.problem}`, {
            file: config.source,
            field: 'sequential'
        });
    const plans = new Map();
    for (const count of counted.counts) {
        if (plans.has(count.run.entry))
            continue;
        const evalInstances = count.counts ? Object.values(count.counts.clean).reduce((a, b) => a + b, 0) : null;
        plans.set(count.run.entry, planStages({ entry: count.run.entry, evalInstances, comparedInstances: count.n }, { looks: settings.looks, budget: settings.budget }, { file: config.source, field: 'sequential' }));
    }
    return [...plans.values()];
}
/**
 * The stages on both sides, then each side finished as one run of its last stages. A stage that
 * fails or cannot be read is an error of both sides' outcomes (an error verdict); null then.
 */
async function runStagedSides(config, settings, stagePlans, prepared, outcomes, context) {
    const plans = Object.fromEntries(prepared.plans.map(plan => [plan.side, plan]));
    const results = { baseline: [], candidate: [] };
    const stages = stagePlans[0]?.stages ?? [];
    const runStage = helmStageRunner({
        config,
        plans,
        stages,
        env: context.env,
        secrets: context.secrets,
        timeoutMs: prepared.helm.timeoutMinutes * 60_000,
        stallMs: { baseline: stallLimitMs(prepared.deployments.baseline), candidate: stallLimitMs(prepared.deployments.candidate) },
        log: context.log,
        progress: context.progress
    }, results);
    const checks = config.runs.map(run => ({
        key: checkKey(config, run),
        entry: run.entry,
        metric: run.metric,
        margin: run.maxDrop ?? 0,
        direction: run.direction
    }));
    let stopped = null;
    let failure = null;
    try {
        const outcome = await runStagedGate({
            plans: stagePlans,
            checks,
            alpha: settings.alpha,
            seed: settings.seed ?? config.statistics.seed,
            runStage
        });
        for (const plan of prepared.plans)
            await keepLastStages(plan, config, outcome.lastStage, stages);
        stopped = outcome.checks;
    }
    catch (error) {
        if (!(error instanceof GateError))
            throw error;
        failure = error;
    }
    for (const plan of prepared.plans) {
        const outcome = outcomes.get(plan.side);
        if (failure) {
            outcome.errors.push(failure);
            continue;
        }
        await finishSide(plan, joined(results[plan.side]), outcome, prepared.runs, prepared.deployments[plan.side]);
    }
    return stopped;
}
/** A side's stages as one helm-run result: every request counted, from the first start to the last end. */
function joined(results) {
    const first = results[0];
    const last = results[results.length - 1];
    return {
        ...last,
        startedAt: first.startedAt,
        durationMs: results.reduce((a, r) => a + r.durationMs, 0),
        requests: results.reduce((a, r) => a + r.requests, 0),
        runsStarted: [...new Set(results.flatMap(r => r.runsStarted))],
        failedRuns: [...new Set(results.flatMap(r => r.failedRuns))]
    };
}
/**
 * The sequence's decisions on the report's rows: each gated clean row of a check takes the
 * decision and its `sequential` record, and the quality verdict and headline follow from them.
 */
function applyStoppedChecks(report, config, checks) {
    for (const check of checks) {
        const run = config.runs[Number(/\d+/.exec(check.key)?.[0])];
        const row = report.comparisons.find(c => c.gated && c.perturbation === null && c.entry === run.entry && c.metric === run.metric);
        if (!row)
            continue;
        row.verdict = check.decision;
        row.reason = `${row.reason} The verdict is the confidence sequence's (docs/method.md "Sequential verdicts"), not this interval's.`;
        row.sequential = {
            stopped_at: check.stoppedAt,
            budget: check.budget,
            decision: check.decision,
            certain: check.certain,
            looks: check.looks,
            requests_spent: check.requestsSpent,
            requests_fixed: check.requestsFixed
        };
    }
    // Fail closed: in a sequential gate a gated row without the sequence's decision would keep the
    // fixed-n interval at the stop, the peeking the study shows is invalid (a check with no stage
    // outcome, a row no stage decided).
    for (const row of report.comparisons.filter(c => c.gated && !c.sequential)) {
        report.errors.push({
            code: 'sequential.row_undecided',
            message: `${row.run} ${row.metric}: no confidence-sequence decision reached this gated row, so its fixed-n interval cannot stand as a sequential verdict`,
            field: 'sequential'
        });
    }
    const others = [...(report.answer_lengths ?? []), ...(report.calibrations ?? [])];
    report.verdict = qualityVerdict(report.comparisons, report.errors.length, others);
    report.headline = qualityHeadline(report.verdict, report.comparisons, report.errors.length, others);
    return report;
}

/**
 * Runs the gate's run entries against the baseline and candidate deployments with the real
 * helm-run: one process per side, at the same time unless asked otherwise, each with its own
 * generated prod_env, fresh suite and output path and cache disabled. Then checks that every
 * expected run directory is complete.
 *
 * The quality half is the first measurement (`QualityMeasurement`, src/model/measurement.ts): this file is
 * the order of things (check HELM, prepare, open the launcher, probe the servers already up, hand
 * the sides and the measurements, this one first, to the one holder of the sides
 * (src/launch/side-holder.ts), collect); the parts are prepare-run.ts,
 * produce-side.ts (how a side's run directories are made) and side-outcome.ts (what a side did).
 *
 * Problems found before anything runs (bad config, wrong HELM version) are thrown; problems of a
 * side (server not ready, helm-run failed, hung or left incomplete runs) are returned as errors
 * so the caller can still compare, report and upload the evidence. What each side did is returned
 * as its manifest record; runGate (pipeline/run-gate.ts) writes the manifest.
 */
const DEFAULT_READINESS_TIMEOUT_MS = 120_000;
/**
 * The quality half as the first measurement (src/model/measurement.ts): `run` is its pre-flight
 * (refusals thrown before anything is held: HELM's version, keys, an output folder in use; the
 * servers that are always up probed first), then the one holder of the sides with every
 * measurement, this one first, then each side's outcome. Its `hold` runs helm-run or the runner
 * command on the sides just brought up that it has not run yet (at once when several) and records
 * a launched server that died while it ran. Its part of the report is the run outcome `run`
 * returns (records, errors, notes), which runGate compares.
 */
class QualityMeasurement {
    config;
    opts;
    name = 'the quality half (helm-run or the runner command on each side)';
    everySide = true;
    running = null;
    ran = new Set();
    stopped = null;
    constructor(config, opts) {
        this.config = config;
        this.opts = opts;
    }
    /** The sides run on the schedule with `measurements` (this quality half first), then collected. */
    async run(measurements) {
        if (measurements[0] !== this)
            throw new Error('the quality half must be the first measurement held');
        const { config, opts } = this;
        const env = opts.env ?? process.env;
        const cwd = opts.cwd ?? process.cwd();
        const log = opts.log ?? (() => { });
        const progress = opts.progress ?? log;
        const started = new Date();
        const outDir = resolve(cwd, opts.outDir);
        const sides = [...new Set(opts.sides)];
        const install = await checkHelmInstall(config, env, cwd);
        const plan = opts.plan ?? (await makeRunPlan(config, { env, cwd, baseRef: opts.baseRef ?? null, sequential: opts.sequential }));
        // Holds each side's prod_env (credentials.conf) and the base commit's worktree.
        const temp = trackedTempDir();
        const schedule = plan.schedule;
        let launcher = null;
        try {
            const { prepared, stages } = await this.preflight(install, plan, { outDir, tempDir: temp.path, started, cwd, env, progress });
            const outcomes = new Map(prepared.plans.map(plan => [plan.side, emptyOutcome(plan)]));
            // A side about to run whose key variable is named but not set is refused before anything starts.
            requireKeys(plan, sides, config.source, opts.selfCheck);
            const { secrets, keyNames } = plan;
            launcher = await Launcher.open({
                config,
                endpoints: plan.endpoints,
                cwd,
                env: childProcessEnv(env, keyNames),
                baseRef: opts.baseRef ?? null,
                outDir,
                selfCheck: opts.selfCheck,
                secrets,
                progress,
                echo: opts.log === undefined ? undefined : log,
                tempDir: temp.path
            });
            const opened = launcher;
            await probeServersUp(prepared, outcomes, side => opened?.launches(side) ?? false, plan, opts, progress);
            if ([...outcomes.values()].every(outcome => outcome.errors.length === 0)) {
                const childEnv = {
                    ...childProcessEnv(env, keyNames),
                    PYTHONPATH: [install.pluginPath, env.PYTHONPATH].filter(Boolean).join(delimiter)
                };
                this.running = { prepared, outcomes, launcher, context: { env: childEnv, secrets, log, progress }, stages };
                const scheduled = prepared.plans.map(plan => ({ side: plan.side, output: plan.outputPath }));
                const seen = await holdOnSchedule(launcher, scheduled, schedule, measurements);
                // Each launched side's readiness, or its launch's own error (code and location), is its outcome's.
                for (const [side, saw] of Object.entries(seen)) {
                    const outcome = outcomes.get(side);
                    if (saw.error)
                        outcome.errors.push(saw.error);
                    else
                        outcome.server = saw.probe;
                }
            }
            await launcher?.close();
            const ended = new Date();
            const collected = collectOutcome(prepared, outcomes, {
                outDir,
                fingerprint: plan.fingerprint,
                helmVersion: install.version,
                started,
                ended,
                schedule,
                launch: launcher?.manifest() ?? null
            });
            return this.stopped ? { ...collected, stopped: this.stopped } : collected;
        }
        finally {
            this.running = null;
            // Every path: a thrown error, a failed side. Stopping twice is harmless.
            await launcher?.close();
            // The local paths may hold a copy of the user's credentials.conf: never leave it behind. The
            // signal path shares this removal (src/process/registry.ts).
            await temp.remove();
        }
    }
    /**
     * The pre-flight before any server is held: the run prepared and each side's folders made, the
     * gated metric names checked (a refusal thrown here), and a sequential gate's stages planned.
     */
    async preflight(install, plan, where) {
        const { config, opts } = this;
        const { outDir, started, cwd, env, progress } = where;
        const sides = [...new Set(opts.sides)];
        const prepared = await prepareRun(config, {
            outDir,
            sides,
            runs: opts.runs,
            selfCheck: opts.selfCheck,
            tempDir: where.tempDir,
            stamp: stampOf(started),
            command: install.helmRun,
            cwd
        });
        await prepareSideFolders(outDir, prepared.plans);
        // A gated metric no run spec declares is refused now, before any server or helm-run is
        // spent on it (docs/helm.md "Metric names before the run").
        const names = await checkPreparedMetricNames(prepared, { ...install, env, source: config.source });
        const refusal = refusalOf(names);
        if (refusal)
            throw refusal;
        for (const line of names?.lines.filter(text => text.includes('not checked')) ?? [])
            progress(`helm-gate: metric names: ${line}`);
        const stages = config.stopping
            ? await stagedPreflight(config, prepared, install, env, { schedule: plan.schedule, sides, runs: opts.runs })
            : null;
        return { prepared, stages };
    }
    /** helm-run or the runner command on the sides of `up` not run yet, at once when several. */
    async hold(up) {
        const running = this.running;
        if (!running)
            throw new Error('the quality half is held only by its own run');
        const plans = running.prepared.plans.filter(plan => up.includes(plan.side) && !this.ran.has(plan.side));
        for (const plan of plans)
            this.ran.add(plan.side);
        if (running.stages && plans.length > 0)
            return this.holdStaged(running, running.stages, plans);
        // Every side finishes before a thrown error (a bug, not a side's problem) is passed on.
        const settled = await Promise.allSettled(plans.map(plan => this.runOne(plan, running)));
        const thrown = settled.find((s) => s.status === 'rejected');
        if (thrown)
            throw thrown.reason;
    }
    /** It runs every side while it is held: nothing is left for servers that are always up. */
    async holdAlwaysUp() { }
    /** Its part is the run outcome (`run`), which runGate compares (compareOutputs) or reports failed. */
    attach(report) {
        return report;
    }
    /** A sequential gate's stages: both sides at once, each stage helm-run on both (src/runner/staged-quality.ts). */
    async holdStaged(running, stages, plans) {
        const { prepared, outcomes, launcher, context } = running;
        const settings = this.config.stopping;
        if (!settings)
            throw new Error('staged without a sequential section');
        // The pre-flight refuses a schedule that holds one side at a time; a hold of one side is a bug.
        if (plans.length !== prepared.plans.length)
            throw new Error('a sequential gate holds both sides at once');
        this.stopped = await runStagedSides(this.config, settings, stages, prepared, outcomes, context);
        for (const plan of plans) {
            const died = launcher?.diedWhileUp(plan.side);
            if (died)
                serverDied(outcomes.get(plan.side), died);
        }
    }
    async runOne(plan, running) {
        const { prepared, outcomes, launcher, context } = running;
        const outcome = outcomes.get(plan.side);
        const deployment = prepared.deployments[plan.side];
        const timeoutMs = prepared.helm.timeoutMinutes * 60_000;
        await runSide(plan, outcome, prepared, { ...context, deployment, timeoutMs });
        // A launched server that died is the cause; helm-run's "Connection refused" follows it.
        const died = launcher?.diedWhileUp(plan.side);
        if (died)
            serverDied(outcome, died);
    }
}
/** One side's run: its run directories made (produce-side.ts), then checked and recorded. */
async function runSide(plan, outcome, prepared, context) {
    context.progress(`[${plan.side}] starting ${plan.runner ? 'the runner command' : 'helm-run'} (${counted(plan.entries.length, 'entry', 'entries')}, log: ${plan.logFile})`);
    const result = await produceSideRuns(plan, context);
    await finishSide(plan, result, outcome, prepared.runs, context.deployment);
    context.progress(`[${plan.side}] ${outcome.complete ? 'complete' : 'FAILED'} in ${Math.round((result.durationMs ?? 0) / 100) / 10} s, ${counted(result.requests, 'request')}`);
}
/**
 * A sequential gate's pre-flight: both sides at once, every entry, each entry's stages planned
 * from its counted instances (a look above them refused now, before any server starts).
 */
async function stagedPreflight(config, prepared, install, env, how) {
    const refuse = (field, why, value) => {
        throw new ConfigError('sequential.cannot_stage', `the sequential section cannot stage ${why}`, { file: config.source, field, value });
    };
    checkStoppingSchedule(config.stopping, config.source, how.schedule);
    if (how.sides.length !== 2)
        refuse('sequential', 'one side alone: each stage pairs both sides', how.sides.join(', '));
    if (how.runs && how.runs.length !== config.runs.length)
        refuse('sequential', 'a share of the run entries (a shard)', how.runs.length);
    if (prepared.plans.some(plan => plan.runner))
        refuse('deployments', 'a runner command (stages are helm-run arguments)');
    return planStagedQuality(config, config.stopping, prepared, install, env);
}
/**
 * Pre-flight: servers that are already up must answer before either side starts, so a dead one
 * costs seconds. Launched servers are probed when they are started (holdOnSchedule).
 */
async function probeServersUp(prepared, outcomes, launched, run, opts, progress) {
    await Promise.all(prepared.plans.map(async (plan) => {
        const outcome = outcomes.get(plan.side);
        // The side's deployment as the runner has it: a self-check runs the baseline's on both sides.
        const endpoint = endpointFor(run, plan.side, opts.selfCheck);
        if (!endpoint || launched(plan.side))
            return;
        try {
            outcome.server = await probeServer({
                ...endpoint,
                timeoutMs: opts.readinessTimeoutMs ?? DEFAULT_READINESS_TIMEOUT_MS,
                timeoutHint: opts.readinessTimeoutHint,
                log: progress
            });
            progress(`[${plan.side}] server ready: ${outcome.server.url} lists ${endpoint.model}`);
        }
        catch (error) {
            if (!(error instanceof GateError))
                throw error;
            outcome.errors.push(error);
        }
    }));
}
/** The invocation's outcome from each side's: paths, records, errors and the schedule's caveats. */
function collectOutcome(prepared, outcomes, run) {
    const all = [...outcomes.values()];
    return {
        paths: Object.fromEntries(prepared.plans.map(plan => [plan.side, plan.outputPath])),
        completed: all.filter(outcome => outcome.complete).map(outcome => outcome.side),
        errors: all.flatMap(outcome => outcome.errors),
        sides: Object.fromEntries(outcomes),
        records: Object.fromEntries(prepared.plans.map(plan => [
            plan.side,
            sideRecord(plan, outcomes.get(plan.side), prepared.deployments[plan.side], run.outDir)
        ])),
        fingerprint: run.fingerprint,
        helmVersion: run.helmVersion,
        startedAt: run.started.toISOString(),
        endedAt: run.ended.toISOString(),
        durationMs: run.ended.getTime() - run.started.getTime(),
        schedule: run.schedule,
        launch: run.launch,
        notes: scheduleNotes(run.schedule, run.launch)
    };
}

/**
 * Student's t distribution: the CDF from the regularized incomplete beta function (continued
 * fraction, modified Lentz) and the quantile by bisection on it. Accurate to about 1e-12, which is
 * far below anything a 95% interval over a handful of block pairs can resolve.
 */
const LANCZOS = [
    676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.6150291621406, 12.507343278686905, -0.13857109526572012,
    9.9843695780195716e-6, 1.5056327351493116e-7
];
/** log Gamma(x) for x > 0 (Lanczos, g = 7, n = 9: relative error about 1e-15). */
function logGamma(x) {
    if (x < 0.5)
        return log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
    const z = x - 1;
    let a = 0.99999999999980993;
    const t = z + 7.5;
    for (let i = 0; i < LANCZOS.length; i++)
        a += LANCZOS[i] / (z + i + 1);
    return 0.5 * log(2 * Math.PI) + (z + 0.5) * log(t) - t + log(a);
}
function betaContinuedFraction(x, a, b) {
    const tiny = 1e-300;
    let c = 1;
    let d = 1 - ((a + b) * x) / (a + 1);
    if (abs(d) < tiny)
        d = tiny;
    d = 1 / d;
    let h = d;
    for (let m = 1; m <= 10_000; m++) {
        const m2 = 2 * m;
        let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
        d = 1 + aa * d;
        if (abs(d) < tiny)
            d = tiny;
        c = 1 + aa / c;
        if (abs(c) < tiny)
            c = tiny;
        d = 1 / d;
        h *= d * c;
        aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
        d = 1 + aa * d;
        if (abs(d) < tiny)
            d = tiny;
        c = 1 + aa / c;
        if (abs(c) < tiny)
            c = tiny;
        d = 1 / d;
        const delta = d * c;
        h *= delta;
        if (abs(delta - 1) < 1e-15)
            break;
    }
    return h;
}
/** The regularized incomplete beta function I_x(a, b). */
function regularizedBeta(x, a, b) {
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    const front = exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * log(x) + b * log(1 - x));
    if (x < (a + 1) / (a + b + 2))
        return (front * betaContinuedFraction(x, a, b)) / a;
    return 1 - (front * betaContinuedFraction(1 - x, b, a)) / b;
}
/** P(T <= t) for Student's t with `df` degrees of freedom. */
function studentTCdf(t, df) {
    const tail = 0.5 * regularizedBeta(df / (df + t * t), df / 2, 0.5);
    return t >= 0 ? 1 - tail : tail;
}
/** The p-quantile of Student's t with `df` degrees of freedom (df >= 1). */
function studentTQuantile(p, df) {
    if (!(p > 0 && p < 1) || !(df >= 1))
        return NaN;
    if (p === 0.5)
        return 0;
    if (p < 0.5)
        return -studentTQuantile(1 - p, df);
    let high = 1;
    while (studentTCdf(high, df) < p)
        high *= 2;
    let low = 0;
    for (let i = 0; i < 200 && high - low > 1e-13 * high; i++) {
        const mid = (low + high) / 2;
        if (studentTCdf(mid, df) < p)
            low = mid;
        else
            high = mid;
    }
    return (low + high) / 2;
}
/** The two-sided critical value: t such that P(|T| <= t) = confidence. */
function twoSidedT(confidence, df) {
    return studentTQuantile(1 - (1 - confidence) / 2, df);
}

/**
 * The candidate/baseline ratio of a load metric, with an interval from the blocks (docs/load.md,
 * "How the sides are compared"). Each adjacent (baseline, candidate) pair of blocks gives one
 * observation log(candidate / baseline); the interval is exp of a Student t interval over those
 * observations. Blocks, not requests, are the unit: requests within a block share the block's
 * drift, so resampling requests would give intervals that are too narrow.
 */
const LOG_RATIO_METHOD = 'block-pair log-ratio t interval';
/** Fewer pairs than this give no interval (a t interval on 2 pairs has 1 degree of freedom). */
const MIN_PAIRS = 3;
/** `baseline[i]` and `candidate[i]` are the i-th adjacent pair of blocks. */
function blockPairRatio(baseline, candidate, confidence) {
    const k = baseline.length;
    if (k !== candidate.length)
        return { ok: false, reason: `unequal block counts (${k} baseline, ${candidate.length} candidate)` };
    if (k < MIN_PAIRS)
        return { ok: false, reason: `${k} block pairs; an interval needs at least ${MIN_PAIRS}` };
    const logs = [];
    for (let i = 0; i < k; i++) {
        const b = baseline[i];
        const c = candidate[i];
        if (!isFiniteNumber(b) || !isFiniteNumber(c))
            return { ok: false, reason: `block pair ${i + 1} has no value on one side` };
        if (!(b > 0))
            return { ok: false, reason: `the baseline is ${b} in block pair ${i + 1}, so a ratio is undefined` };
        if (!(c > 0))
            return { ok: false, reason: `the candidate is ${c} in block pair ${i + 1}, so a ratio is undefined` };
        logs.push(log(c / b));
    }
    const meanLog = logs.reduce((s, x) => s + x, 0) / k;
    const variance = logs.reduce((s, x) => s + (x - meanLog) * (x - meanLog), 0) / (k - 1);
    const sdLog = sqrt(variance);
    const half = (twoSidedT(confidence, k - 1) * sdLog) / sqrt(k);
    return { ok: true, ratio: { estimate: exp(meanLog), low: exp(meanLog - half), high: exp(meanLog + half), pairs: k, meanLog, sdLog } };
}
/**
 * The smallest number of pairs whose interval, with the observed mean and spread of the log
 * ratios, would lie entirely on one side of `threshold`; null when the estimate sits on the
 * threshold (more pairs cannot resolve it) or more than `maxPairs` would be needed.
 */
function pairsToResolve(ratio, threshold, confidence, maxPairs = 1000) {
    const distance = Math.abs(ratio.meanLog - log(threshold));
    if (!(distance > 0))
        return null;
    if (ratio.sdLog === 0)
        return ratio.pairs;
    for (let k = Math.max(MIN_PAIRS, ratio.pairs); k <= maxPairs; k++) {
        if ((twoSidedT(confidence, k - 1) * ratio.sdLog) / sqrt(k) < distance)
            return k;
    }
    return null;
}

const PERCENTILE_METHOD = 'Hyndman-Fan type 7 (linear interpolation), over successful requests';
function percentiles(values) {
    if (values.length === 0)
        return { p50: null, p90: null, p99: null, mean: null };
    const sorted = Float64Array.from(values).sort();
    let sum = 0;
    for (const v of values)
        sum += v;
    return {
        p50: quantileSorted(sorted, 0.5),
        p90: quantileSorted(sorted, 0.9),
        p99: quantileSorted(sorted, 0.99),
        mean: sum / values.length
    };
}
/** TPOT of one request: (latency - TTFT) / (output tokens - 1); null for one-token answers. */
function tpotOf(t) {
    if (t.status !== 'ok' || t.ttft_ms === null || t.latency_ms === null || t.output_tokens < 2)
        return null;
    return (t.latency_ms - t.ttft_ms) / (t.output_tokens - 1);
}
/** Whether a successful request meets every SLO bound. */
function meetsSlo(t, slo) {
    if (t.status !== 'ok')
        return false;
    for (const bound of slo) {
        let value;
        if (bound.metric === 'ttft')
            value = t.ttft_ms;
        else if (bound.metric === 'latency')
            value = t.latency_ms;
        else if (bound.metric === 'tpot')
            value = tpotOf(t);
        else
            value = t.itl_ms.length === 0 ? 0 : quantileSorted(Float64Array.from(t.itl_ms).sort(), bound.percentile / 100);
        if (value === null || !(value <= bound.maxMs)) {
            // A one-token answer has no TPOT: it cannot violate a TPOT bound.
            if (bound.metric === 'tpot' && value === null && t.output_tokens < 2)
                continue;
            return false;
        }
    }
    return true;
}
/**
 * `durationS`: the wall time the requests occupied (a block's, or the sum of a side's blocks'
 * when pooling), so throughputs are per second of load, not per second of the whole run.
 */
function figures(timings, durationS, slo) {
    const ok = timings.filter(t => t.status === 'ok');
    const ttft = [];
    const itl = [];
    const tpot = [];
    const latency = [];
    let tokens = 0;
    let good = 0;
    for (const t of ok) {
        if (t.ttft_ms !== null)
            ttft.push(t.ttft_ms);
        if (t.latency_ms !== null)
            latency.push(t.latency_ms);
        for (const gap of t.itl_ms)
            itl.push(gap);
        const p = tpotOf(t);
        if (p !== null)
            tpot.push(p);
        tokens += t.output_tokens;
        if (slo.length > 0 && meetsSlo(t, slo))
            good++;
    }
    const timedOut = timings.filter(t => t.status === 'timeout').length;
    const per = (n) => (durationS > 0 ? n / durationS : 0);
    return {
        requests: timings.length,
        ok: ok.length,
        failed: timings.length - ok.length,
        timed_out: timedOut,
        duration_s: durationS,
        request_throughput: per(ok.length),
        output_tokens_per_second: per(tokens),
        goodput: slo.length > 0 ? per(good) : null,
        error_rate: timings.length > 0 ? (timings.length - ok.length) / timings.length : 0,
        output_tokens: tokens,
        mean_output_tokens: ok.length > 0 ? tokens / ok.length : null,
        ttft_ms: percentiles(ttft),
        itl_ms: percentiles(itl),
        tpot_ms: percentiles(tpot),
        latency_ms: percentiles(latency)
    };
}
/** The value of a named check metric (`ttft_p99`, `goodput`, ...) in a set of figures. */
function metricValue(f, metric) {
    switch (metric) {
        case 'output_tokens_per_second':
            return f.output_tokens_per_second;
        case 'request_throughput':
            return f.request_throughput;
        case 'goodput':
            return f.goodput;
        case 'error_rate':
            return f.error_rate;
    }
    const match = /^(ttft|itl|tpot|latency)_(p50|p90|p99)$/.exec(metric);
    if (!match)
        return null;
    const group = f[`${match[1]}_ms`];
    return group[match[2]];
}

/** The ratios the report always shows, per level (checks may add others). */
const REPORTED_RATIOS = [
    'output_tokens_per_second',
    'request_throughput',
    'ttft_p50',
    'ttft_p99',
    'itl_p50',
    'itl_p99',
    'latency_p50'
];
function pairedValues(blocks, level, metric) {
    const at = blocks.filter(b => b.level === level);
    const side = (s) => at
        .filter(b => b.side === s)
        .sort((x, y) => x.repetition - y.repetition)
        .map(b => metricValue(b, metric) ?? NaN);
    return { baseline: side('baseline'), candidate: side('candidate') };
}
/** The pooled values of a metric at a level and the block-pair ratio (with the number of pairs). */
function measured(blocks, summary, metric, confidence) {
    const { baseline, candidate } = pairedValues(blocks, summary.level, metric);
    return {
        pooled: {
            level: summary.level,
            baseline: metricValue(summary.baseline, metric),
            candidate: metricValue(summary.candidate, metric)
        },
        outcome: blockPairRatio(baseline, candidate, confidence),
        pairs: Math.min(baseline.length, candidate.length)
    };
}
function ratioAt(blocks, summary, metric, confidence) {
    const { pooled, outcome, pairs } = measured(blocks, summary, metric, confidence);
    return {
        ...pooled,
        metric,
        ratio: outcome.ok ? interval(outcome.ratio) : null,
        pairs,
        reason: outcome.ok ? null : outcome.reason
    };
}
function interval(r) {
    return { estimate: r.estimate, low: r.low, high: r.high };
}
function reportedRatios(blocks, summary, checks, confidence) {
    const out = [];
    for (const s of summary) {
        const metrics = new Set(REPORTED_RATIOS);
        if (s.baseline.goodput !== null)
            metrics.add('goodput');
        for (const c of checks)
            if ((c.minRatio !== null || c.maxRatio !== null) && (c.level === null || c.level === s.level))
                metrics.add(c.metric);
        for (const metric of metrics)
            out.push(ratioAt(blocks, s, metric, confidence));
    }
    return out;
}
function fmt$1(x) {
    return Number.isInteger(x) ? String(x) : x.toPrecision(3);
}
function evaluateCheck(check, blocks, summary, confidence) {
    const { pooled, outcome, pairs } = measured(blocks, summary, check.metric, confidence);
    const base = { metric: check.metric, ...pooled };
    if (check.min !== null || check.max !== null) {
        const kind = check.min !== null ? 'min' : 'max';
        const threshold = (check.min ?? check.max);
        const value = base.candidate;
        if (value === null || !Number.isFinite(value)) {
            return {
                ...base,
                kind,
                threshold,
                ratio: null,
                pairs: 0,
                verdict: 'error',
                pairs_needed: null,
                reason: `the candidate's ${check.metric} could not be measured (no successful request)`
            };
        }
        const good = kind === 'max' ? value <= threshold : value >= threshold;
        return {
            ...base,
            kind,
            threshold,
            ratio: null,
            pairs: 0,
            verdict: good ? 'pass' : 'fail',
            pairs_needed: null,
            reason: `candidate ${fmt$1(value)} ${good ? (kind === 'max' ? '<=' : '>=') : kind === 'max' ? '>' : '<'} ${fmt$1(threshold)}`
        };
    }
    const kind = check.minRatio !== null ? 'min_ratio' : 'max_ratio';
    const threshold = (check.minRatio ?? check.maxRatio);
    if (!outcome.ok) {
        return {
            ...base,
            kind,
            threshold,
            ratio: null,
            pairs,
            verdict: 'error',
            pairs_needed: null,
            reason: `no ratio: ${outcome.reason}`
        };
    }
    const r = outcome.ratio;
    let verdict;
    if (kind === 'min_ratio')
        verdict = r.low > threshold ? 'pass' : r.high < threshold ? 'fail' : 'inconclusive';
    else
        verdict = r.high < threshold ? 'pass' : r.low > threshold ? 'fail' : 'inconclusive';
    const needed = verdict === 'inconclusive' ? pairsToResolve(r, threshold, confidence) : null;
    const side = kind === 'min_ratio' ? 'above' : 'below';
    const reason = verdict === 'pass'
        ? `the whole interval is ${side} ${fmt$1(threshold)}`
        : verdict === 'fail'
            ? `the whole interval is on the wrong side of ${fmt$1(threshold)}`
            : needed === null
                ? `the interval contains ${fmt$1(threshold)} and the estimate sits on it: more pairs will not resolve it`
                : `the interval contains ${fmt$1(threshold)}; about ${needed} block pairs (repetitions) would resolve it`;
    return {
        ...base,
        kind,
        threshold,
        ratio: interval(r),
        pairs: r.pairs,
        verdict,
        pairs_needed: needed,
        reason
    };
}
function evaluateChecks(checks, blocks, summary, confidence) {
    const out = [];
    for (const check of checks) {
        for (const s of summary) {
            if (check.level === null || check.level === s.level)
                out.push(evaluateCheck(check, blocks, s, confidence));
        }
    }
    return out;
}
/** How bad a verdict is: error > fail > inconclusive > pass. */
const VERDICT_RANK = { pass: 0, inconclusive: 1, fail: 2, error: 3 };
/** The worse of verdicts: error > fail > inconclusive > pass. */
function worstVerdict(verdicts) {
    return verdicts.reduce((worst, v) => (VERDICT_RANK[v] > VERDICT_RANK[worst] ? v : worst), 'pass');
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

class ParseError extends Error {
  constructor(message, options) {
    super(message), this.name = "ParseError", this.type = options.type, this.field = options.field, this.value = options.value, this.line = options.line;
  }
}
const LF = 10, CR = 13, SPACE = 32;
function noop(_arg) {
}
function createParser(config) {
  if (typeof config == "function")
    throw new TypeError(
      "`config` must be an object, got a function instead. Did you mean `createParser({onEvent: fn})`?"
    );
  const { onEvent = noop, onError = noop, onRetry = noop, onComment, maxBufferSize } = config, pendingFragments = [];
  let pendingFragmentsLength = 0, isFirstChunk = true, id, data = "", dataLines = 0, eventType, terminated = false;
  function feed(chunk) {
    if (terminated)
      throw new Error(
        "Cannot feed parser: it was terminated after exceeding the configured max buffer size. Call `reset()` to resume parsing."
      );
    if (isFirstChunk && (isFirstChunk = false, chunk.charCodeAt(0) === 239 && chunk.charCodeAt(1) === 187 && chunk.charCodeAt(2) === 191 && (chunk = chunk.slice(3))), pendingFragments.length === 0) {
      const trailing2 = processLines(chunk);
      trailing2 !== "" && (pendingFragments.push(trailing2), pendingFragmentsLength = trailing2.length), checkBufferSize();
      return;
    }
    if (chunk.indexOf(`
`) === -1 && chunk.indexOf("\r") === -1) {
      pendingFragments.push(chunk), pendingFragmentsLength += chunk.length, checkBufferSize();
      return;
    }
    pendingFragments.push(chunk);
    const input = pendingFragments.join("");
    pendingFragments.length = 0, pendingFragmentsLength = 0;
    const trailing = processLines(input);
    trailing !== "" && (pendingFragments.push(trailing), pendingFragmentsLength = trailing.length), checkBufferSize();
  }
  function checkBufferSize() {
    maxBufferSize !== void 0 && (pendingFragmentsLength + data.length <= maxBufferSize || (terminated = true, pendingFragments.length = 0, pendingFragmentsLength = 0, id = void 0, data = "", dataLines = 0, eventType = void 0, onError(
      new ParseError(`Buffered data exceeded max buffer size of ${maxBufferSize} characters`, {
        type: "max-buffer-size-exceeded"
      })
    )));
  }
  function processLines(chunk) {
    let searchIndex = 0;
    if (chunk.indexOf("\r") === -1) {
      let lfIndex = chunk.indexOf(`
`, searchIndex);
      for (; lfIndex !== -1; ) {
        if (searchIndex === lfIndex) {
          dataLines > 0 && onEvent({ id, event: eventType, data }), id = void 0, data = "", dataLines = 0, eventType = void 0, searchIndex = lfIndex + 1, lfIndex = chunk.indexOf(`
`, searchIndex);
          continue;
        }
        const firstCharCode = chunk.charCodeAt(searchIndex);
        if (isDataPrefix(chunk, searchIndex, firstCharCode)) {
          const valueStart = chunk.charCodeAt(searchIndex + 5) === SPACE ? searchIndex + 6 : searchIndex + 5, value = chunk.slice(valueStart, lfIndex);
          if (dataLines === 0 && chunk.charCodeAt(lfIndex + 1) === LF) {
            onEvent({ id, event: eventType, data: value }), id = void 0, data = "", eventType = void 0, searchIndex = lfIndex + 2, lfIndex = chunk.indexOf(`
`, searchIndex);
            continue;
          }
          data = dataLines === 0 ? value : `${data}
${value}`, dataLines++;
        } else isEventPrefix(chunk, searchIndex, firstCharCode) ? eventType = chunk.slice(
          chunk.charCodeAt(searchIndex + 6) === SPACE ? searchIndex + 7 : searchIndex + 6,
          lfIndex
        ) || void 0 : parseLine(chunk, searchIndex, lfIndex);
        searchIndex = lfIndex + 1, lfIndex = chunk.indexOf(`
`, searchIndex);
      }
      return chunk.slice(searchIndex);
    }
    for (; searchIndex < chunk.length; ) {
      const crIndex = chunk.indexOf("\r", searchIndex), lfIndex = chunk.indexOf(`
`, searchIndex);
      let lineEnd = -1;
      if (crIndex !== -1 && lfIndex !== -1 ? lineEnd = crIndex < lfIndex ? crIndex : lfIndex : crIndex !== -1 ? crIndex === chunk.length - 1 ? lineEnd = -1 : lineEnd = crIndex : lfIndex !== -1 && (lineEnd = lfIndex), lineEnd === -1)
        break;
      parseLine(chunk, searchIndex, lineEnd), searchIndex = lineEnd + 1, chunk.charCodeAt(searchIndex - 1) === CR && chunk.charCodeAt(searchIndex) === LF && searchIndex++;
    }
    return chunk.slice(searchIndex);
  }
  function parseLine(chunk, start, end) {
    if (start === end) {
      dispatchEvent();
      return;
    }
    const firstCharCode = chunk.charCodeAt(start);
    if (isDataPrefix(chunk, start, firstCharCode)) {
      const valueStart = chunk.charCodeAt(start + 5) === SPACE ? start + 6 : start + 5, value2 = chunk.slice(valueStart, end);
      data = dataLines === 0 ? value2 : `${data}
${value2}`, dataLines++;
      return;
    }
    if (isEventPrefix(chunk, start, firstCharCode)) {
      eventType = chunk.slice(chunk.charCodeAt(start + 6) === SPACE ? start + 7 : start + 6, end) || void 0;
      return;
    }
    if (firstCharCode === 105 && chunk.charCodeAt(start + 1) === 100 && chunk.charCodeAt(start + 2) === 58) {
      const value2 = chunk.slice(chunk.charCodeAt(start + 3) === SPACE ? start + 4 : start + 3, end);
      value2.includes("\0") || (id = value2);
      return;
    }
    if (firstCharCode === 58) {
      if (onComment) {
        const line2 = chunk.slice(start, end);
        onComment(line2.slice(chunk.charCodeAt(start + 1) === SPACE ? 2 : 1));
      }
      return;
    }
    const line = chunk.slice(start, end), fieldSeparatorIndex = line.indexOf(":");
    if (fieldSeparatorIndex === -1) {
      processField(line, "", line);
      return;
    }
    const field = line.slice(0, fieldSeparatorIndex), offset = line.charCodeAt(fieldSeparatorIndex + 1) === SPACE ? 2 : 1, value = line.slice(fieldSeparatorIndex + offset);
    processField(field, value, line);
  }
  function processField(field, value, line) {
    switch (field) {
      case "event":
        eventType = value || void 0;
        break;
      case "data":
        data = dataLines === 0 ? value : `${data}
${value}`, dataLines++;
        break;
      case "id":
        value.includes("\0") || (id = value);
        break;
      case "retry":
        /^\d+$/.test(value) ? onRetry(parseInt(value, 10)) : onError(
          new ParseError(`Invalid \`retry\` value: "${value}"`, {
            type: "invalid-retry",
            value,
            line
          })
        );
        break;
      default:
        onError(
          new ParseError(
            `Unknown field "${field.length > 20 ? `${field.slice(0, 20)}\u2026` : field}"`,
            { type: "unknown-field", field, value, line }
          )
        );
        break;
    }
  }
  function dispatchEvent() {
    dataLines > 0 && onEvent({
      id,
      event: eventType,
      data
    }), id = void 0, data = "", dataLines = 0, eventType = void 0;
  }
  function reset(options = {}) {
    if (options.consume && pendingFragments.length > 0) {
      const incompleteLine = pendingFragments.join("");
      parseLine(incompleteLine, 0, incompleteLine.length);
    }
    isFirstChunk = true, id = void 0, data = "", dataLines = 0, eventType = void 0, pendingFragments.length = 0, pendingFragmentsLength = 0, terminated = false;
  }
  return { feed, reset };
}
function isDataPrefix(chunk, i, firstCharCode) {
  return firstCharCode === 100 && chunk.charCodeAt(i + 1) === 97 && chunk.charCodeAt(i + 2) === 116 && chunk.charCodeAt(i + 3) === 97 && chunk.charCodeAt(i + 4) === 58;
}
function isEventPrefix(chunk, i, firstCharCode) {
  return firstCharCode === 101 && chunk.charCodeAt(i + 1) === 118 && chunk.charCodeAt(i + 2) === 101 && chunk.charCodeAt(i + 3) === 110 && chunk.charCodeAt(i + 4) === 116 && chunk.charCodeAt(i + 5) === 58;
}

/**
 * One streaming request on an undici Pool, timed on the generator's monotonic clock
 * (docs/load.md, "Where the clock starts and stops"):
 * - the clock starts on the connection, right before the request's headers are written (undici's
 *   dispatch hook `onRequestStart`); the pool is sized to the concurrency and its connections are
 *   opened before the measured blocks, so no request pays for a TCP connect;
 * - a content chunk is timed when the socket data carrying it is delivered (all events in one
 *   delivery share that time); the delivery callback only stamps it and queues the bytes, and
 *   the parsing runs once every socket that was ready has been read (`deliver`);
 * - TTFT stops at the first chunk that carries generated content (not the role-only chunk);
 * - latency stops when the stream ends after `[DONE]`; a stream that ends without it, an error
 *   event, a non-2xx status or the timeout make the request a failure.
 * SSE is parsed by eventsource-parser.
 */
/**
 * A request written to a pooled keep-alive connection that the server had already closed fails
 * with "other side closed" (undici's socket error) before any status line arrives. llama.cpp's
 * llama-server closes the connection after every streamed answer although it announces
 * `Keep-Alive: timeout=5, max=100` and no `Connection: close`; a request sent on that socket
 * before its FIN arrives is lost that way (1 in 10 of back-to-back requests on one connection,
 * none with 20 ms between them). That is the client's reuse of a dead connection, not an answer
 * of the server: such a request is sent once more on a new connection. A server that fails the
 * second time too is an error as before.
 */
function closedBeforeAnswer(error) {
    const code = error.code;
    return code === 'UND_ERR_SOCKET' && /other side closed/i.test(error.message);
}
function connect(target, connections, timeoutMs) {
    const url = new URL(target.baseUrl);
    const prefix = url.pathname.replace(/\/+$/, '');
    const pool = new undiciExports.Pool(url.origin, {
        connections,
        pipelining: 1,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        keepAliveTimeout: 600_000,
        keepAliveMaxTimeout: 600_000
    });
    const headers = { 'content-type': 'application/json', accept: 'text/event-stream' };
    if (target.apiKey)
        headers.authorization = `Bearer ${target.apiKey}`;
    return { pool, origin: url.origin, path: `${prefix}${target.api === 'chat' ? '/chat/completions' : '/completions'}`, headers };
}
function carriesContent(chunk) {
    const choice = chunk.choices?.[0];
    if (!choice)
        return false;
    if (typeof choice.text === 'string')
        return choice.text.length > 0;
    const delta = choice.delta;
    if (!delta)
        return false;
    return !!(delta.content || delta.reasoning_content || delta.reasoning || (delta.tool_calls && delta.tool_calls.length > 0));
}
const END = 0;
const ERROR = 1;
/**
 * Deliveries waiting to be parsed, in the order they reached JS: receiver, time, what. The socket
 * callbacks of one poll phase only stamp and queue; the SSE parsing and JSON.parse run after them
 * (setImmediate, the check phase), so when the chunks of many streams arrive at once (an engine
 * step emits one per sequence) each is stamped as soon as its bytes reach JS, not after the
 * parsing of the streams read before it. The stamps stay those of delivery, as before.
 */
const pending = [];
let drainScheduled = false;
function deliver(receiver, time, what) {
    pending.push(receiver, time, what);
    if (!drainScheduled) {
        drainScheduled = true;
        setImmediate(drainDeliveries);
    }
}
/** Parses every queued delivery, in order (also run by a request's timeout before it fires). */
function drainDeliveries() {
    drainScheduled = false;
    // Work done here may queue more (an abort's error): the loop reads the length afresh.
    for (let i = 0; i < pending.length; i += 3) {
        const receiver = pending[i];
        const time = pending[i + 1];
        const what = pending[i + 2];
        try {
            if (what === END)
                receiver.end(time);
            else if (Buffer.isBuffer(what))
                receiver.data(time, what);
            else
                receiver.error(time, what.error);
        }
        catch (error) {
            // As when undici catches a throwing callback: that request fails, the others go on.
            receiver.error(time, error instanceof Error ? error : new Error(String(error)));
        }
    }
    pending.length = 0;
}
function streamRequest(conn, body, timeoutMs) {
    return new Promise(resolvePromise => new StreamingRequest(conn, body, timeoutMs, resolvePromise).dispatch());
}
function newResult() {
    return {
        status: 'error',
        httpStatus: 0,
        start: performance.now(),
        firstContent: null,
        contentTimes: [],
        end: null,
        usageTokens: null,
        promptTokens: null,
        id: null,
        error: null,
        notStreaming: false
    };
}
/**
 * One request's state from dispatch to its result: the socket callbacks (`handler`) only stamp
 * and queue; the queued deliveries come back as a `Receiver`, whose parsing fills `result`.
 */
class StreamingRequest {
    conn;
    body;
    resolvePromise;
    result = newResult();
    settled = false;
    /** `[DONE]` arrived. */
    done = false;
    /** The delivery time of the data being parsed. */
    now = 0;
    controller = null;
    /** Collects the body of a non-2xx answer (null otherwise). */
    errorBody = null;
    retried = false;
    timer;
    parser;
    decoder = new TextDecoder();
    constructor(conn, body, timeoutMs, resolvePromise) {
        this.conn = conn;
        this.body = body;
        this.resolvePromise = resolvePromise;
        this.timer = setTimeout(() => {
            // Deliveries that reached JS before the deadline count: parse them first.
            drainDeliveries();
            this.finish('timeout', `no complete answer within ${timeoutMs / 1000} s`);
        }, timeoutMs);
        this.parser = createParser({ onEvent: (event) => this.onEvent(event.data) });
    }
    finish(status, error) {
        if (this.settled)
            return;
        this.settled = true;
        clearTimeout(this.timer);
        const result = this.result;
        result.status = status;
        result.error = error;
        result.end = status === 'ok' ? this.now : null;
        const controller = this.controller;
        if (status !== 'ok' && controller && !controller.aborted)
            controller.abort(new Error(error ?? 'aborted'));
        this.resolvePromise(result);
    }
    onEvent(data) {
        if (this.done || this.settled)
            return;
        if (data === '[DONE]') {
            this.done = true;
            return;
        }
        let chunk;
        try {
            chunk = JSON.parse(data);
        }
        catch {
            this.finish('error', `an event is not JSON: ${data.slice(0, 80)}`);
            return;
        }
        if (chunk.error) {
            const message = typeof chunk.error === 'string' ? chunk.error : (chunk.error.message ?? 'error');
            this.finish('error', `the stream carried an error: ${message.slice(0, 200)}`);
            return;
        }
        this.take(chunk);
    }
    /** A well-formed chunk: its id, content time and token counts. */
    take(chunk) {
        const result = this.result;
        if (result.id === null && typeof chunk.id === 'string')
            result.id = chunk.id;
        if (carriesContent(chunk)) {
            if (result.firstContent === null)
                result.firstContent = this.now;
            result.contentTimes.push(this.now);
        }
        if (chunk.usage && typeof chunk.usage.completion_tokens === 'number') {
            result.usageTokens = chunk.usage.completion_tokens;
            if (typeof chunk.usage.prompt_tokens === 'number')
                result.promptTokens = chunk.usage.prompt_tokens;
        }
    }
    data(time, data) {
        if (this.settled)
            return;
        this.now = time;
        this.parser.feed(this.decoder.decode(data, { stream: true }));
    }
    end(time) {
        if (this.settled)
            return;
        this.now = time;
        this.parser.feed(this.decoder.decode());
        if (this.done)
            this.finish('ok', null);
        else
            this.finish('error', 'the stream ended without [DONE]');
    }
    error(time, error) {
        this.now = time;
        if (!this.settled)
            this.finish('error', `the request failed: ${error.message}`);
    }
    dispatch() {
        const { pool, origin, path, headers } = this.conn;
        pool.dispatch({ origin, path, method: 'POST', headers, body: this.body }, this.handler());
    }
    /**
     * undici's dispatch API: onRequestStart runs on the connection right before the request's
     * headers are written, so the clock starts there and not while the request waited in the pool.
     */
    handler() {
        const result = this.result;
        return {
            onRequestStart: (c) => {
                this.controller = c;
                result.start = performance.now();
            },
            onResponseStart: (_c, statusCode, headers) => {
                this.now = performance.now();
                result.httpStatus = statusCode;
                if (statusCode < 200 || statusCode >= 300) {
                    this.errorBody = '';
                    return;
                }
                const type = String(headers['content-type'] ?? '');
                if (!type.startsWith('text/event-stream')) {
                    result.notStreaming = true;
                    this.finish('error', `the server answered ${type || 'without a content type'} instead of a text/event-stream: it does not stream`);
                }
            },
            // The stream's own work per delivery: the time and a place in the queue (see `deliver`).
            // `data` is a view of the socket's read buffer, which Node allocates afresh for every read.
            onResponseData: (_c, data) => {
                if (this.errorBody !== null) {
                    if (this.errorBody.length < 1000)
                        this.errorBody += data.toString('utf8');
                    return;
                }
                deliver(this, performance.now(), data);
            },
            onResponseEnd: () => {
                if (this.errorBody !== null) {
                    this.now = performance.now();
                    this.finish('error', `HTTP ${result.httpStatus}: ${this.errorBody.replace(/\s+/g, ' ').slice(0, 200)}`);
                    return;
                }
                deliver(this, performance.now(), END);
            },
            onResponseError: (_c, error) => {
                if (!this.settled && !this.retried && result.httpStatus === 0 && closedBeforeAnswer(error)) {
                    // The pooled connection was closed by the server before any answer: the request
                    // never reached a live connection. Once, on another connection (see
                    // closedBeforeAnswer); its clock restarts there.
                    this.retried = true;
                    result.retriedClosedConnection = true;
                    this.dispatch();
                    return;
                }
                // After the data that reached JS before it, as before the parsing was deferred.
                if (!this.settled)
                    deliver(this, performance.now(), { kind: ERROR, error });
            }
        };
    }
}

/** The two sides of the load half, the baseline first (its reports and notes list them so). */
const LOAD_SIDES = ['baseline', 'candidate'];
function emptyReport(config, load) {
    const side = (s) => {
        const d = config.deployments?.[s];
        return {
            api: d && d.kind === 'server' ? d.api : 'unknown',
            model: d && d.kind === 'server' ? d.model : 'unknown',
            ignore_eos: null,
            usage: null
        };
    };
    return {
        verdict: 'error',
        headline: '',
        skipped: null,
        mode: load.mode,
        levels: load.levels,
        settings: {
            repetitions: load.repetitions,
            requests_per_block: load.requestsPerLevel === null ? null : Math.ceil(load.requestsPerLevel / load.repetitions),
            seconds_per_block: load.durationSeconds === null ? null : load.durationSeconds / load.repetitions,
            warmup_requests: load.warmupRequests,
            timeout_seconds: load.timeoutSeconds,
            arrival: load.mode === 'rate' ? load.arrival : null,
            confidence: config.statistics.confidence,
            percentile_method: PERCENTILE_METHOD,
            interval_method: LOG_RATIO_METHOD,
            prompts: load.workload.prompts,
            seed: load.seed
        },
        sides: { baseline: side('baseline'), candidate: side('candidate') },
        interleaved: true,
        blocks: [],
        summary: [],
        ratios: [],
        checks: [],
        errors: [],
        warnings: [],
        notes: [],
        timings_file: null
    };
}
function levelName(load, level) {
    return load.mode === 'concurrency' ? `concurrency ${level}` : `rate ${level}/s`;
}
/** The checks before any request (a load section, server deployments on both sides). */
function beginLoad(config, options) {
    const load = config.load;
    if (!load)
        throw new Error('runLoad needs a load: section');
    const report = emptyReport(config, load);
    const fail = (code, message, field) => {
        report.errors.push({ code, message, ...(field ? { field } : {}) });
        report.verdict = 'error';
        report.headline = `Performance: error: ${message}`;
        return { report, timings: [] };
    };
    const deployments = config.deployments;
    if (!deployments)
        return fail('load.no_deployments', 'the load half needs deployments (base_url and model of each side)', 'deployments');
    for (const side of LOAD_SIDES) {
        if (deployments[side].kind !== 'server') {
            return fail('load.prod_env', `the load half needs deployments.${side} as api/base_url/model, not a prod_env reference or a runner command`, `deployments.${side}`);
        }
    }
    // The plan's endpoints are the targets: both are servers (checked above).
    const endpoints = options.endpoints ?? planSides(config, options.env).endpoints;
    const targets = { baseline: endpoints.baseline, candidate: endpoints.candidate };
    const say = options.progress ?? (() => { });
    const now = performance.now();
    return { config, load, report, targets, timeoutMs: load.timeoutSeconds * 1000, say, origin: now, began: now, fail };
}
function isOutcome(value) {
    return typeof value === 'object' && value !== null && 'report' in value && 'timings' in value;
}
/** A swap that failed: names the side and the block it was for. */
class SwapError extends GateError {
}

/**
 * The requests of the load half (docs/load.md, "Workload"). Both sides get exactly the same
 * prompts in the same block pair; every block, level and warm-up gets prompts of its own, so no
 * server can answer from a prefix cache what it saw in an earlier block.
 *
 * - synthetic: token counts drawn from the configured normal distributions (rounded, clipped),
 *   text made of common English words, one word per token (exact for a whitespace tokenizer,
 *   approximate for BPE tokenizers: the report takes output counts from the server's usage);
 * - gate-set: the prompts HELM sent in the quality half (scenario_state.json), cycled;
 * - file: a JSONL of OpenAI request bodies (`messages` or `prompt`), cycled;
 * - traffic: a frozen traffic set's messages and max_tokens (docs/traffic.md), cycled in arrival
 *   order, and with `arrival: traffic` its arrival gaps scaled to each rate.
 */
const VOCABULARY = ('time year people way day man thing woman life child world school state family student group country problem hand part ' +
    'place case week company system program question work government number night point home water room mother area money ' +
    'story fact month lot right study book eye job word business issue side kind head house service friend father power hour ' +
    'game line end member law car city community name president team minute idea kid body information back parent face ' +
    'others level office door health person art war history party result change morning reason research girl guy moment air ' +
    'teacher force education foot boy age policy music market sense nation plan college interest death experience effect use ' +
    'class control care field development role effort rate heart drug show leader light voice wife police mind price report').split(' ');
function draw(random, d) {
    if (d.stddev === 0)
        return d.mean;
    const u = random.double();
    const v = random.double();
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    return Math.min(d.max, Math.max(d.min, Math.round(d.mean + d.stddev * z)));
}
function words(random, n) {
    const out = new Array(n);
    for (let i = 0; i < n; i++)
        out[i] = VOCABULARY[random.below(VOCABULARY.length)];
    return out.join(' ');
}
function syntheticSource(settings) {
    const { inputTokens, outputTokens } = settings.workload;
    return {
        item(stream, index) {
            const random = createRandom(settings.seed, `load:${stream}:${index}`);
            const maxTokens = draw(random, outputTokens);
            return { kind: 'text', text: words(random, draw(random, inputTokens)), maxTokens };
        }
    };
}
function cycled(items, settings) {
    // A fixed permutation per stream, so blocks draw different prompts but both sides the same.
    return {
        item(stream, index) {
            const random = createRandom(settings.seed, `load:${stream}`);
            const offset = random.below(items.length);
            return items[(offset + index) % items.length];
        }
    };
}
async function fileSource(settings, configFile) {
    const file = resolve(dirname(configFile), settings.workload.file);
    let text;
    try {
        text = await readFile(file, 'utf8');
    }
    catch (error) {
        throw new InputError('load.workload_unreadable', `cannot read the load workload file: ${error.message}`, {
            file,
            field: 'load.workload.file'
        });
    }
    const items = [];
    const fallback = settings.workload.outputTokens.mean;
    text.split('\n').forEach((line, i) => {
        if (line.trim() === '')
            return;
        let body;
        try {
            body = JSON.parse(line);
        }
        catch {
            throw new InputError('load.workload_line', `line ${i + 1} is not JSON`, { file, field: `line ${i + 1}` });
        }
        if (body === null || typeof body !== 'object' || Array.isArray(body)) {
            throw new InputError('load.workload_line', `line ${i + 1} must be an OpenAI request body (an object)`, {
                file,
                field: `line ${i + 1}`
            });
        }
        const b = body;
        if (!Array.isArray(b.messages) && typeof b.prompt !== 'string') {
            throw new InputError('load.workload_line', `line ${i + 1} has neither messages (chat) nor a prompt string (completions)`, {
                file,
                field: `line ${i + 1}`
            });
        }
        const max = typeof b.max_tokens === 'number' ? b.max_tokens : typeof b.max_completion_tokens === 'number' ? b.max_completion_tokens : fallback;
        items.push({ kind: 'body', body: b, maxTokens: max });
    });
    if (items.length === 0)
        throw new InputError('load.workload_empty', 'the load workload file has no requests', { file });
    return cycled(items, settings);
}
/**
 * The traffic set's requests: the messages and max_tokens as logged (output_tokens.mean when the
 * request had none). Only those: the load half measures serving speed on the team's prompts and
 * lengths; `response_format`, `tools` and `stop` are judged by the traffic gate's replay, and
 * sending them here would fail on a server that does not support them (a vLLM without a tool
 * parser) and, with ignore_eos, could force a guided decoder past the end of its grammar.
 */
async function trafficSource(settings, configFile, arrival) {
    const file = resolve(dirname(configFile), settings.workload.file);
    const { instances } = readTrafficSet(file, readFileSync, 'load.workload.file');
    const fallback = settings.workload.outputTokens.mean;
    const ordered = arrival === 'traffic'
        ? instances
            .map((instance, i) => ({ instance, i }))
            .sort((a, b) => a.instance.arrival_ms - b.instance.arrival_ms || a.i - b.i)
        : instances.map((instance, i) => ({ instance, i }));
    if (arrival === 'traffic') {
        const missing = instances.findIndex(x => x.arrival_ms === null);
        if (missing >= 0) {
            throw new InputError('load.traffic_arrival', `load.arrival is traffic but instance ${JSON.stringify(instances[missing].id)} of the traffic set has no arrival_ms (the log had no timestamps); use arrival: poisson or constant`, { file, field: 'load.arrival' });
        }
    }
    const items = ordered.map(({ instance }) => {
        const r = instance.request;
        const max = typeof r.max_tokens === 'number' ? r.max_tokens : typeof r.max_completion_tokens === 'number' ? r.max_completion_tokens : fallback;
        return { kind: 'messages', messages: r.messages, maxTokens: max };
    });
    const source = cycled(items, settings);
    if (arrival !== 'traffic')
        return source;
    const times = ordered.map(({ instance }) => instance.arrival_ms);
    const span = times[times.length - 1] - times[0];
    if (times.length < 2 || span <= 0) {
        throw new InputError('load.traffic_arrival', 'load.arrival is traffic but the traffic set has fewer than two distinct arrival times to scale', {
            file,
            field: 'load.arrival'
        });
    }
    const meanGap = span / (times.length - 1);
    // The gap after the last request is the mean gap, so a full cycle keeps the set's mean rate.
    const gaps = times.map((t, i) => (i + 1 < times.length ? times[i + 1] - t : meanGap));
    return {
        item: source.item,
        arrivalGap(stream, index, rate) {
            const offset = createRandom(settings.seed, `load:${stream}`).below(items.length);
            return (gaps[(offset + index) % gaps.length] * (1000 / rate)) / meanGap;
        }
    };
}
/** The prompts the quality half sent, from the scenario_state.json files under `helmOutput`. */
async function gateSetSource(settings, helmOutput) {
    const runs = await discoverRuns(helmOutput);
    const items = [];
    const maxTokens = settings.workload.outputTokens.mean;
    for (const run of runs) {
        if (!run.files.scenarioState)
            continue;
        const file = join(run.path, RUN_FILES.scenarioState);
        const state = JSON.parse(await readFile(file, 'utf8'));
        for (const rs of state.request_states ?? []) {
            const request = rs.request ?? {};
            if (Array.isArray(request.messages) && request.messages.length > 0)
                items.push({ kind: 'messages', messages: request.messages, maxTokens });
            else if (typeof request.prompt === 'string' && request.prompt !== '')
                items.push({ kind: 'text', text: request.prompt, maxTokens });
        }
    }
    if (items.length === 0) {
        throw new InputError('load.gate_set_empty', 'load.workload.prompts is gate-set but the quality half left no prompts (scenario_state.json)', { file: helmOutput, field: 'load.workload.prompts' });
    }
    return cycled(items, settings);
}
/**
 * The JSON body for one side. `ignoreEos`: ask the server to generate exactly `max_tokens`
 * (vLLM's `ignore_eos` and `min_tokens`), so both sides produce the same amount of work.
 */
function requestBody(item, api, model, ignoreEos, maxTokensOverride) {
    const maxTokens = item.maxTokens;
    let body;
    if (item.kind === 'body') {
        body = { ...item.body };
        if (api === 'chat' && !Array.isArray(body.messages))
            body.messages = [{ role: 'user', content: String(body.prompt) }];
        if (api === 'completions' && typeof body.prompt !== 'string') {
            body.prompt = body.messages.map(m => (typeof m.content === 'string' ? m.content : '')).join('\n');
        }
        if (api === 'chat')
            delete body.prompt;
        else
            delete body.messages;
        delete body.max_completion_tokens;
    }
    else if (item.kind === 'messages') {
        body =
            api === 'chat'
                ? { messages: item.messages }
                : { prompt: item.messages.map(m => String(m.content ?? '')).join('\n') };
    }
    else {
        body = api === 'chat' ? { messages: [{ role: 'user', content: item.text }] } : { prompt: item.text };
    }
    body.model = model;
    body.max_tokens = maxTokens;
    body.temperature = 0;
    body.stream = true;
    body.stream_options = { include_usage: true };
    if (ignoreEos) {
        body.ignore_eos = true;
        body.min_tokens = maxTokens;
    }
    return JSON.stringify(body);
}

/**
 * One short streaming request per side before any load: is the server there, does it stream,
 * does it send `usage`, and does it accept `ignore_eos`/`min_tokens` (vLLM's way to generate
 * exactly `max_tokens`)? A server that rejects them (HTTP 4xx) is asked again without them, and
 * the report says that its output lengths are the model's own.
 */
const PROBE_TOKENS = 4;
async function probeSide(target, timeoutMs) {
    const conn = connect(target, 1, timeoutMs);
    try {
        const item = { kind: 'text', text: 'Say something.', maxTokens: PROBE_TOKENS };
        let result = await streamRequest(conn, requestBody(item, target.api, target.model, true), timeoutMs);
        let ignoreEos = true;
        if (result.httpStatus >= 400 && result.httpStatus < 500) {
            ignoreEos = false;
            result = await streamRequest(conn, requestBody(item, target.api, target.model, false), timeoutMs);
        }
        if (result.httpStatus === 0) {
            return {
                reachable: false,
                streaming: false,
                ignoreEos: false,
                usage: false,
                problem: `${target.baseUrl} is not reachable: ${result.error}`
            };
        }
        if (result.notStreaming) {
            return {
                reachable: true,
                streaming: false,
                ignoreEos,
                usage: false,
                problem: `${target.baseUrl} does not stream: asked for stream: true it ${result.error?.replace(/^the server /, '')}; the load half measures time to first token and needs server-sent events`
            };
        }
        if (result.status !== 'ok') {
            return {
                reachable: true,
                streaming: true,
                ignoreEos,
                usage: false,
                problem: `the probe request to ${target.baseUrl} failed: ${result.error}`
            };
        }
        if (result.firstContent === null) {
            return {
                reachable: true,
                streaming: true,
                ignoreEos,
                usage: result.usageTokens !== null,
                problem: `the probe request to ${target.baseUrl} streamed no content`
            };
        }
        return { reachable: true, streaming: true, ignoreEos, usage: result.usageTokens !== null, problem: null };
    }
    finally {
        await conn.pool.close().catch(() => { });
    }
}

/**
 * Synthetic prompts sized in the server's own tokens (docs/load.md, "Workload"). Words are not
 * tokens: on the real-engine example's small vocabulary 100 requested words became 404 prompt
 * tokens. llama.cpp's server and vLLM's both serve `POST /tokenize` and `POST /detokenize` at
 * their root (llama.cpp: `{content}` / `{tokens}` -> `{content}`; vLLM: `{model, prompt}` /
 * `{model, tokens}` -> `{prompt}`): each prompt's words are tokenized, cut to the drawn count and
 * turned back into text, which is tokenized once more for the realized count. The baseline's
 * tokenizer sizes them, and both sides get exactly the same texts.
 */
async function post(target, route, body, timeoutMs) {
    const answer = await undiciExports.request(rootRouteUrl(target.baseUrl, route), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(target.apiKey ? { authorization: `Bearer ${target.apiKey}` } : {}) },
        body: JSON.stringify(body),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs
    });
    const text = await answer.body.text();
    let json = null;
    try {
        json = JSON.parse(text);
    }
    catch {
        // not JSON: the shape check below fails
    }
    return { status: answer.statusCode, json };
}
function tokensOf(json) {
    const tokens = json?.tokens;
    return Array.isArray(tokens) && tokens.every(t => Number.isInteger(t)) ? tokens : null;
}
/** The server's tokenizer, or null when it serves none (then prompts are sized in words). */
async function serverTokenizer(target, timeoutMs) {
    const shapes = {
        // add_special_tokens false: the prompt's own tokens; the chat template adds its own anyway.
        vllm: {
            tokenize: text => ({ model: target.model, prompt: text, add_special_tokens: false }),
            detokenize: tokens => ({ model: target.model, tokens }),
            text: 'prompt'
        },
        'llama.cpp': { tokenize: text => ({ content: text, add_special: false }), detokenize: tokens => ({ tokens }), text: 'content' }
    };
    for (const shape of ['vllm', 'llama.cpp']) {
        const spec = shapes[shape];
        let tried;
        try {
            tried = await post(target, 'tokenize', spec.tokenize('time year people'), timeoutMs);
        }
        catch {
            return null;
        }
        const tokens = tokensOf(tried.json);
        if (tried.status !== 200 || !tokens || tokens.length === 0)
            continue;
        return {
            shape,
            async tokenize(text) {
                const answer = await post(target, 'tokenize', spec.tokenize(text), timeoutMs);
                const ids = tokensOf(answer.json);
                if (answer.status !== 200 || !ids)
                    throw new Error(`POST /tokenize answered HTTP ${answer.status}`);
                return ids;
            },
            async detokenize(ids) {
                const answer = await post(target, 'detokenize', spec.detokenize(ids), timeoutMs);
                const text = answer.json?.[spec.text];
                if (answer.status !== 200 || typeof text !== 'string')
                    throw new Error(`POST /detokenize answered HTTP ${answer.status}`);
                return text;
            }
        };
    }
    return null;
}
/**
 * The synthetic prompts of `streams` (name and count) sized with `tokenizer`; any other item (a
 * block of `duration_seconds` that outruns its count) falls back to the words, scaled by the
 * tokens per word seen here.
 */
async function sizedSyntheticSource(settings, tokenizer, streams) {
    const sized = new Map();
    const requested = [];
    const realized = [];
    // The word draws stay those of syntheticSource (one word per requested token): its text's word
    // count is the requested count, and workload.ts, whose bytes key the real-engine model's cache,
    // is left as it is.
    const words = syntheticSource(settings);
    let wordCount = 0;
    let tokenCount = 0;
    for (const { stream, count } of streams) {
        for (let index = 0; index < count; index++) {
            const item = words.item(stream, index);
            if (item.kind !== 'text')
                continue;
            const target = item.text.split(' ').length;
            let text = item.text;
            let ids = await tokenizer.tokenize(text);
            wordCount += target;
            tokenCount += ids.length;
            // A tokenizer that merges words into fewer tokens than words: the same words again.
            for (let more = 0; ids.length < target && more < 8; more++) {
                text = `${text} ${item.text}`;
                ids = await tokenizer.tokenize(text);
            }
            const cut = await tokenizer.detokenize(ids.slice(0, target));
            requested.push(target);
            realized.push((await tokenizer.tokenize(cut)).length);
            sized.set(`${stream}\n${index}`, { kind: 'text', text: cut, maxTokens: item.maxTokens });
        }
    }
    const perWord = wordCount > 0 && tokenCount > 0 ? tokenCount / wordCount : 1;
    return {
        requested,
        realized,
        source: {
            item(stream, index) {
                const known = sized.get(`${stream}\n${index}`);
                if (known)
                    return known;
                // Beyond the sized prompts (blocks of duration_seconds): the words, scaled to the tokens per word seen.
                const item = words.item(stream, index);
                if (item.kind !== 'text')
                    return item;
                const all = item.text.split(' ');
                const keep = Math.max(1, Math.min(all.length, Math.round(all.length / perWord)));
                return { ...item, text: all.slice(0, keep).join(' ') };
            }
        }
    };
}

/**
 * Before the first block (docs/load.md): probing each side, what the probes mean, the prompts of
 * the run, and synthetic prompts sized in the baseline server's tokens.
 */
/** Probes one side (is it there, does it stream) and records what it accepts. */
async function probeLoadSide(run, side) {
    const probe = await probeSide(run.targets[side], Math.min(run.timeoutMs, 60_000));
    run.report.sides[side].ignore_eos = probe.ignoreEos;
    run.report.sides[side].usage = probe.usage;
    return probe;
}
/** What the probes mean: an error, a loud skip (load.baseline: optional), or null to go on. */
function judgeProbes(run, probes) {
    const { report, load } = run;
    if (!probes.baseline.reachable && probes.candidate.problem === null && load.baseline === 'optional') {
        report.skipped = `the baseline deployment is not reachable (${probes.baseline.problem}); load.baseline is optional, so the load half was SKIPPED and nothing about performance was measured`;
        report.verdict = 'pass';
        report.headline = `Performance: SKIPPED: ${report.skipped}`;
        report.warnings.push({ code: 'load.skipped', message: report.skipped });
        return { report, timings: [] };
    }
    for (const side of LOAD_SIDES) {
        const problem = probes[side].problem;
        if (problem) {
            const hint = probes[side].reachable ? '' : unreachableHint(run.config, side);
            // Three different fixes, so three codes: start the server, fix its answers, enable streaming.
            const code = !probes[side].reachable ? 'load.unreachable' : probes[side].streaming ? 'load.probe' : 'load.not_streaming';
            return run.fail(code, `${side}: ${problem}${hint}`, `deployments.${side}.base_url`);
        }
    }
    return null;
}
/**
 * What to do about a side that does not answer. A launched server was started by helm-gate and
 * has died or stopped listening: its own output says why. A baseline that is not launched may be
 * down because the quality half reused an archived baseline and nobody started it.
 */
function unreachableHint(config, side) {
    if (config.launch?.sides[side])
        return ` (the launched ${side} server is not answering: its output is in logs/${side}-server.log)`;
    if (side === 'baseline') {
        return ' (the load half needs the baseline deployment live even when the quality half reuses an archived baseline; set load.baseline: optional to skip it instead)';
    }
    return '';
}
/** The prompts of the run (the same for both sides: the streams are seeded). */
async function workloadOf(run, options) {
    const { load, config } = run;
    try {
        if (load.workload.prompts === 'synthetic')
            return syntheticSource(load);
        if (load.workload.prompts === 'file')
            return await fileSource(load, config.source);
        if (load.workload.prompts === 'traffic') {
            return await trafficSource(load, config.source, load.mode === 'rate' && load.arrival === 'traffic' ? 'traffic' : null);
        }
        if (!options.gateSetOutput) {
            return run.fail('load.gate_set', 'load.workload.prompts is gate-set, which needs the quality half to run first (helm-gate run)', 'load.workload.prompts');
        }
        return await gateSetSource(load, options.gateSetOutput);
    }
    catch (error) {
        const e = error;
        return run.fail(e.code ?? 'load.workload', e.describe ? e.describe() : e.message, 'load.workload');
    }
}
/**
 * Synthetic prompts sized with the baseline server's /tokenize when it has one (server-tokens.ts),
 * every prompt of the warm-ups and blocks; the requested and realized counts go into the report.
 * Without one, one word per token, said in a note.
 */
async function sizeInServerTokens(run, words) {
    const { load, report } = run;
    const tokenizer = await serverTokenizer(run.targets.baseline, Math.min(run.timeoutMs, 30_000));
    if (!tokenizer) {
        report.prompt_tokens = {
            sized_by: 'words',
            tokenizer: null,
            prompts: 0,
            requested_mean: load.workload.inputTokens.mean,
            realized_mean: null,
            realized_min: null,
            realized_max: null,
            served: { baseline: null, candidate: null }
        };
        return words;
    }
    const perBlock = load.requestsPerLevel === null ? 0 : Math.ceil(load.requestsPerLevel / load.repetitions);
    const streams = [
        // A sample for the tokens per word of prompts beyond these (blocks of duration_seconds).
        { stream: 'calibration', count: 16 },
        ...load.levels.flatMap((_, li) => [
            { stream: `warmup:${li}`, count: load.warmupRequests },
            ...Array.from({ length: load.repetitions }, (_, repetition) => ({ stream: `block:${li}:${repetition}`, count: perBlock }))
        ])
    ];
    let sized;
    try {
        sized = await sizedSyntheticSource(load, tokenizer, streams);
    }
    catch (error) {
        throw new GateError('load.tokenize', `the baseline's /tokenize failed while sizing the prompts: ${error.message}`, {
            field: 'deployments.baseline.base_url'
        });
    }
    const realized = sized.realized.slice(16);
    const mean = (xs) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null);
    report.prompt_tokens = {
        sized_by: 'server',
        tokenizer: `${tokenizer.shape} /tokenize of the baseline`,
        prompts: realized.length,
        requested_mean: mean(sized.requested.slice(16)) ?? load.workload.inputTokens.mean,
        realized_mean: mean(realized),
        realized_min: realized.length ? Math.min(...realized) : null,
        realized_max: realized.length ? Math.max(...realized) : null,
        served: { baseline: null, candidate: null }
    };
    run.say(`load: ${realized.length} synthetic prompts sized with the baseline's /tokenize (${tokenizer.shape}): requested mean ${report.prompt_tokens.requested_mean.toFixed(1)}, realized mean ${report.prompt_tokens.realized_mean?.toFixed(1) ?? '-'} tokens`);
    return sized.source;
}

function abbaOrder(repetitions) {
    const order = [];
    for (let i = 0; i < repetitions; i++) {
        const sides = i % 2 === 0 ? ['baseline', 'candidate'] : ['candidate', 'baseline'];
        for (const side of sides)
            order.push({ side, repetition: i, position: order.length });
    }
    return order;
}

/**
 * The order of the blocks (docs/load.md): A B B A at each level, or each side in its own period
 * when swapping is impossible or over budget; the swaps between launched sides and their timeline.
 */
/** Every block of the load half in run order: A B B A at each level, or each side in its own period. */
function blockPlan(load, schedule) {
    const total = 2 * load.repetitions;
    if (schedule !== 'periods') {
        return load.levels.flatMap((level, li) => abbaOrder(load.repetitions).map(block => ({ ...block, level, li, total })));
    }
    return LOAD_SIDES.flatMap((side, si) => load.levels.flatMap((level, li) => Array.from({ length: load.repetitions }, (_, repetition) => ({
        side,
        level,
        li,
        repetition,
        position: si * load.repetitions + repetition,
        total
    }))));
}
/** Swaps a plan needs, starting with the baseline up (after the probes). */
function swapsNeeded(plan) {
    let up = 'baseline';
    let swaps = 0;
    for (const block of plan) {
        if (block.side !== up)
            swaps++;
        up = block.side;
    }
    return swaps;
}
/**
 * Interleave by swapping, or fall back to one period per side: when a side cannot be swapped
 * (`switch: none`), or when the swaps A B B A needs, at the cost measured by the probes' swap,
 * would take longer than load.swap_budget_seconds.
 */
function chooseSchedule(holder, load, swaps) {
    const fixed = LOAD_SIDES.find(side => holder.switches[side] === 'none');
    if (fixed) {
        return { schedule: 'periods', why: `swapping is impossible: deployments.${fixed}.launch.switch is none` };
    }
    const cost = medianMs(swaps);
    const needed = swapsNeeded(blockPlan(load, 'swapped'));
    const estimate = cost === null ? 0 : (needed * cost) / 1000;
    if (estimate > load.swapBudgetSeconds) {
        return {
            schedule: 'periods',
            why: `swapping is over budget: ${counted(needed, 'swap')} at ${((cost ?? 0) / 1000).toFixed(1)} s each (measured) would take ${estimate.toFixed(0)} s, more than load.swap_budget_seconds (${load.swapBudgetSeconds} s)`
        };
    }
    return {
        schedule: 'swapped',
        why: `the launched sides are up one at a time (sequential schedule): swapped before each block of the other side, ${counted(needed, 'swap')} at ${((cost ?? 0) / 1000).toFixed(1)} s each (measured), within load.swap_budget_seconds (${load.swapBudgetSeconds} s)`
    };
}
function medianMs(swaps) {
    if (swaps.length === 0)
        return null;
    const sorted = swaps.map(s => s.ms).sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
function timelineOf(holder, schedule, swaps, load) {
    return {
        schedule: schedule.schedule,
        why: schedule.why,
        switches: { ...holder.switches },
        swap_cost_ms: medianMs(swaps),
        swap_budget_seconds: load.swapBudgetSeconds,
        swaps: [...swaps],
        up: holder.periods()
    };
}
/** Each side measured in its own period: said in the report, first among the notes. */
function markPeriods(report, why) {
    report.interleaved = false;
    report.notes.unshift(`Not interleaved (${why}): all of the baseline's blocks ran in one period, then all of the candidate's. ` +
        'Block pairs are not adjacent in time: drift between the two periods (host load, thermal state) is not cancelled, and the intervals do not include it (nothing was widened for it).');
}
/**
 * runLoad's bring-up: swaps a side in when it is not the one up, and keeps the swaps and the
 * schedule for the timeline.
 */
class SideSwaps {
    holder;
    swaps = [];
    swapping;
    schedule;
    upNow = null;
    constructor(holder) {
        this.holder = holder;
        this.swapping = holder?.oneAtATime === true;
        this.schedule = this.swapping
            ? {
                schedule: 'swapped',
                why: 'the launched sides are up one at a time (sequential schedule): swapped before each block of the other side'
            }
            : { schedule: 'both-up', why: 'both sides are up at once' };
    }
    /** Swaps `side` in when it is not the one up; true when it did. */
    async bringUp(side, stage) {
        const { holder, swapping } = this;
        // Both up at once: brought up for the probes, then held (no swaps).
        if (!holder || this.upNow === side || (!swapping && stage !== 'the probe'))
            return false;
        const started = performance.now();
        try {
            await holder.bringUp(side, stage);
        }
        catch (error) {
            if (!(error instanceof GateError))
                throw error;
            // The launch's own code (what to fix), the message naming the side and the block.
            throw new SwapError(error.code, `the ${side} could not be brought up for ${stage}: ${error.message}`, {
                field: error.location.field ?? `deployments.${side}.launch`
            });
        }
        // The first start is a launch, not a swap: nothing was taken down before it.
        if (this.upNow !== null && swapping)
            this.swaps.push({ side, before: stage, ms: Math.round(performance.now() - started) });
        this.upNow = side;
        return true;
    }
    /** After the probes: interleave by swapping or one period per side (chooseSchedule). */
    choose(load) {
        if (this.swapping && this.holder)
            this.schedule = chooseSchedule(this.holder, load, this.swaps);
    }
    /** What the report says of the schedule and the swaps; null without a holder. */
    timeline(load) {
        return this.holder ? timelineOf(this.holder, this.schedule, this.swaps, load) : null;
    }
}

/**
 * The due times of the block's requests, ms from its start: 0 first, then each gap added. Absolute
 * offsets, so a late send does not delay the ones after it. Endless: the caller stops at its count
 * or at the block's end.
 */
function* arrivalOffsets(spec) {
    const gapOf = gapFunction(spec);
    let at = 0;
    for (let i = 0;; i++) {
        yield at;
        at += gapOf(i);
    }
}
function gapFunction(spec) {
    if (spec.arrival === 'traffic') {
        // Without the set's gaps there is no traffic schedule: refuse rather than invent one.
        if (!spec.trafficGap) {
            throw new ConfigError('load.traffic_arrival', 'load.arrival is traffic but the workload has no traffic set to take its gaps from', {
                field: 'load.arrival',
                value: spec.arrival
            });
        }
        return spec.trafficGap;
    }
    if (spec.arrival === 'constant')
        return () => 1000 / spec.rate;
    // Poisson arrivals: exponential gaps of mean 1000 / rate ms, by inversion of a seeded uniform.
    const random = createRandom(spec.seed, `arrivals:${spec.stream}`);
    return () => (-Math.log(random.double()) * 1000) / spec.rate;
}

/**
 * Sending requests (docs/load.md): the warm-up, one measured block (closed or open loop), and the
 * watch that declares a side down when it stops answering.
 */
/**
 * A side that answered none of a block's requests (every one timed out or failed) is down: the
 * load half stops there with this error, and the other side is not loaded further. Without it, a
 * server that stops answering without closing its connections (a hung engine) held the job for
 * the per-request timeout times every request of every block left (docs/load.md, "A side that
 * stops answering").
 */
class SideDownError extends GateError {
}
/** The load half's outcome once a side is down: an error, with what was measured until then. */
function sideDown(run, error, timings) {
    const outcome = run.fail(error.code, error.message, error.location.field);
    return { ...outcome, timings };
}
/**
 * Watches one stage's requests. The side is down when a full round of requests in a row (one per
 * connection; one second of arrivals at a rate) got no answer at all (each timed out, or its
 * connection was refused or reset) with none succeeding in between: the rest of the stage would
 * only wait the timeout again, round after round. Or, at the end of the stage, when none of its
 * requests succeeded.
 */
class DownWatch {
    stage;
    round;
    onDown;
    ok = 0;
    failed = 0;
    timedOut = 0;
    /** Requests in a row without an answer since the last success, and how many of them timed out. */
    silent = 0;
    silentTimedOut = 0;
    started = performance.now();
    down = null;
    constructor(stage, round, onDown) {
        this.stage = stage;
        this.round = round;
        this.onDown = onDown;
    }
    /** Counts a finished request; returns true once the side is declared down. */
    seen(r) {
        if (this.down)
            return true;
        if (r.status === 'ok') {
            this.ok++;
            this.silent = 0;
            this.silentTimedOut = 0;
            return false;
        }
        this.failed++;
        if (r.status === 'timeout')
            this.timedOut++;
        if (r.status === 'timeout' || r.httpStatus === 0) {
            this.silent++;
            if (r.status === 'timeout')
                this.silentTimedOut++;
        }
        if (this.silent >= this.round) {
            this.declare(`${this.silent} request(s) in a row got no answer (${this.how(this.silent, this.silentTimedOut)})`);
        }
        return this.down !== null;
    }
    /** At the end of the stage: down when nothing succeeded. */
    end() {
        if (!this.down && this.ok === 0 && this.failed > 0) {
            this.declare(`none of its ${this.failed} request(s) succeeded (${this.how(this.failed, this.timedOut)})`);
        }
        if (this.down)
            throw this.down;
    }
    how(count, timedOut) {
        const limit = `${this.stage.run.load.timeoutSeconds} s`;
        if (timedOut === count)
            return `${count === 1 ? 'it' : `all ${count}`} timed out after ${limit}`;
        if (timedOut === 0)
            return count === 1 ? 'it failed' : `all ${count} failed`;
        return `${timedOut} timed out after ${limit}, ${count - timedOut} failed`;
    }
    declare(what) {
        const { side, name, run } = this.stage;
        const other = side === 'baseline' ? 'candidate' : 'baseline';
        const now = performance.now();
        const launched = run.config.launch?.sides[side] ? ` (the launched ${side} server's output is in logs/${side}-server.log)` : '';
        this.down = new SideDownError('load.side_down', `${side} is down in ${name}: ${what}; declared down after ${seconds(now - this.started)} s of it, ${seconds(now - run.began)} s into the load half. The load half stopped there and the ${other} was not loaded further${launched}`, { field: `deployments.${side}.base_url` });
        this.onDown();
    }
}
function seconds(ms) {
    return (ms / 1000).toFixed(1);
}
/** A watch that, once the side is down, cuts the connections' requests in flight short. */
function watchStage(stage, conn, round) {
    // Destroying the pool fails every request still waiting at once: nothing more is learned by
    // waiting for their timeouts. The pool is not used again (the load half stops).
    return new DownWatch(stage, Math.max(1, round), () => void conn.pool.destroy().catch(() => { }));
}
/** Opens the side's connections and sends its warm-up requests at the level (not measured). */
async function warmUp(run, conn, side, ignoreEos, source, li, level) {
    const { load, targets, timeoutMs } = run;
    await openConnections(conn, targets[side], load, level, timeoutMs, {
        side,
        name: `the warm-up at ${levelName(load, level)} (opening its connections)`,
        run
    });
    if (load.warmupRequests <= 0)
        return;
    const watch = watchStage({ side, name: `the warm-up at ${levelName(load, level)}`, run }, conn, roundOf(load, level));
    const warm = await runBlock(conn, targets[side], ignoreEos, load, source, `warmup:${li}`, level, load.warmupRequests, null, timeoutMs, watch);
    const failed = warm.filter(r => r.status !== 'ok').length;
    if (failed > 0)
        run.say(`load: ${levelName(load, level)} warm-up (${side}): ${failed}/${counted(warm.length, 'request')} failed`);
}
/** One measured block: its requests, figures and a progress line. */
async function measureBlock(run, conn, ignoreEos, source, at, blocks, timings) {
    const { load, targets, timeoutMs } = run;
    const { side, level, li, repetition, position } = at;
    const name = `block ${position + 1}/${at.total} at ${levelName(load, level)}`;
    await openConnections(conn, targets[side], load, level, timeoutMs, { side, name: `${name} (opening its connections)`, run });
    const watch = watchStage({ side, name, run }, conn, roundOf(load, level));
    const perBlock = load.requestsPerLevel === null ? null : Math.ceil(load.requestsPerLevel / load.repetitions);
    const blockSeconds = load.durationSeconds === null ? null : load.durationSeconds / load.repetitions;
    const startedAt = new Date();
    const wallStart = performance.now();
    const cpuStart = process.cpuUsage();
    const results = await runBlock(conn, targets[side], ignoreEos, load, source, `block:${li}:${repetition}`, level, perBlock, blockSeconds, timeoutMs, watch);
    const blockTimings = results.map((r, index) => toTiming(r, { side, level, block: position, repetition, index }, run.origin));
    timings.push(...blockTimings);
    const first = results.reduce((m, r) => Math.min(m, r.start), Infinity);
    const last = results.reduce((m, r) => Math.max(m, r.end ?? r.failedAt), -Infinity);
    const cpu = process.cpuUsage(cpuStart);
    const wallMs = performance.now() - wallStart;
    const cpuMs = (cpu.user + cpu.system) / 1000;
    const f = figures(blockTimings, Math.max(0, last - first) / 1000, load.slo);
    blocks.push({
        side,
        level,
        position,
        repetition,
        ...f,
        started_at: startedAt.toISOString(),
        ended_at: new Date().toISOString(),
        client_cpu_ms: Math.round(cpuMs),
        client_cpu_share: wallMs > 0 ? cpuMs / (wallMs * availableParallelism()) : 0
    });
    run.say(`load: ${levelName(load, level)}, block ${position + 1}/${at.total} (${side}): ${counted(f.requests, 'request')}, ` +
        `${f.output_tokens_per_second.toFixed(1)} output tok/s, TTFT p50 ${f.ttft_ms.p50 === null ? '-' : f.ttft_ms.p50.toFixed(1)} ms, ${f.failed} failed`);
}
/** Opens every connection of the pool with one one-token request each, so no block pays a connect. */
async function openConnections(conn, target, load, level, timeoutMs, stage) {
    if (load.mode !== 'concurrency')
        return;
    const body = requestBody({ kind: 'text', text: 'Hi', maxTokens: 1 }, target.api, target.model, false);
    // One request per connection, all at once: if none gets an answer the side is down now, not
    // after the block has waited the timeout once more for each of its rounds.
    const watch = watchStage(stage, conn, level);
    await Promise.all(Array.from({ length: level }, async () => watch.seen(await streamRequest(conn, body, timeoutMs))));
    if (watch.down)
        throw watch.down;
}
/** Requests in one round: one per connection (concurrency), or one second of arrivals (rate). */
function roundOf(load, level) {
    return load.mode === 'concurrency' ? level : Math.ceil(level);
}
async function send(conn, body, timeoutMs) {
    const r = (await streamRequest(conn, body, timeoutMs));
    r.failedAt = performance.now();
    return r;
}
/** One block: `count` requests (or `seconds` of them) at the level, closed or open loop. */
async function runBlock(conn, target, ignoreEos, load, source, stream, level, count, seconds, timeoutMs, watch) {
    const bodyAt = (i) => Buffer.from(requestBody(source.item(stream, i), target.api, target.model, ignoreEos));
    const bodies = count === null ? [] : Array.from({ length: count }, (_, i) => bodyAt(i));
    const results = [];
    const start = performance.now();
    const deadline = seconds === null ? Infinity : start + seconds * 1000;
    const more = (i) => watch.down === null && (count !== null ? i < count : performance.now() < deadline);
    const body = (i) => (count !== null ? bodies[i] : bodyAt(i));
    if (load.mode === 'concurrency') {
        let next = 0;
        const worker = async () => {
            while (more(next)) {
                const i = next++;
                results[i] = await send(conn, body(i), timeoutMs);
                watch.seen(results[i]);
            }
        };
        await Promise.all(Array.from({ length: level }, worker));
        watch.end();
        return results;
    }
    // Open loop: the due times from the seed (the same for both sides of a pair), absolute from the
    // block's start so a late send does not delay the rest.
    const due = arrivalOffsets({
        arrival: load.arrival,
        rate: level,
        seed: load.seed,
        stream,
        trafficGap: source.arrivalGap ? (i) => source.arrivalGap(stream, i, level) : undefined
    });
    const pending = [];
    let at = due.next().value;
    // A block of `seconds` holds the arrivals scheduled before its end: the schedule decides, not
    // the clock, which may read just past an arrival sent up to 1 ms early (no timer for less).
    for (let i = 0; watch.down === null && (count !== null ? i < count : start + at < deadline); i++) {
        // A timer can fire early by as much as the event loop's cached clock is stale (libuv reads it
        // once per turn, in whole ms), so look at the clock again after each wait.
        for (let wait = start + at - performance.now(); wait > 1; wait = start + at - performance.now()) {
            await new Promise(r => setTimeout(r, wait));
        }
        if (watch.down)
            break;
        const scheduled = start + at;
        pending.push(send(conn, body(i), timeoutMs).then(r => {
            r.scheduled = scheduled;
            results[i] = r;
            watch.seen(r);
        }));
        at = due.next().value;
    }
    await Promise.all(pending);
    watch.end();
    return results;
}
function toTiming(r, where, origin) {
    const itl = [];
    for (let i = 1; i < r.contentTimes.length; i++)
        itl.push(r.contentTimes[i] - r.contentTimes[i - 1]);
    const ok = r.status === 'ok';
    return {
        ...where,
        send_ms: r.start - origin,
        scheduled_ms: r.scheduled === undefined ? null : r.scheduled - origin,
        ttft_ms: r.firstContent === null ? null : r.firstContent - r.start,
        itl_ms: itl,
        latency_ms: ok && r.end !== null ? r.end - r.start : null,
        output_tokens: r.usageTokens ?? r.contentTimes.length,
        tokens_from: r.usageTokens === null ? 'chunks' : 'usage',
        prompt_tokens: r.promptTokens,
        status: r.status,
        error: r.error,
        id: r.id
    };
}

/**
 * The compare step (docs/load.md): figures per level, ratios over the block pairs, checks, the
 * notes and warnings about what was measured, and the headline.
 */
/** The compare step: figures per level, ratios over the block pairs, checks and the verdict. */
function finishLoad(run, blocks, timings) {
    const { report, load, config } = run;
    report.blocks = blocks;
    report.summary = load.levels.map(level => summarize(level, timings, blocks, load));
    report.ratios = reportedRatios(blocks, report.summary, load.checks, config.statistics.confidence);
    report.checks = evaluateChecks(load.checks, blocks, report.summary, config.statistics.confidence);
    addNotes(report);
    promptNote(report, timings);
    const cpuWarning = clientCpuWarning(blocks, load.clientCpuWarnShare, availableParallelism());
    if (cpuWarning)
        report.warnings.push({ code: 'load.client_cpu', message: cpuWarning });
    for (const side of LOAD_SIDES) {
        const note = chunkNote(side, timings);
        if (note)
            report.notes.push(note);
    }
    report.verdict = worstVerdict([...report.checks.map(c => c.verdict), ...(report.errors.length ? ['error'] : [])]);
    report.headline = headline(report, load);
    return { report, timings };
}
/** The prompts' sizes: requested, realized by the tokenizer, and as each server counted them (usage). */
function promptNote(report, timings) {
    const p = report.prompt_tokens;
    if (!p)
        return;
    for (const side of LOAD_SIDES) {
        const counted = timings.filter(t => t.side === side && t.status === 'ok' && typeof t.prompt_tokens === 'number');
        p.served[side] = counted.length ? counted.reduce((s, t) => s + t.prompt_tokens, 0) / counted.length : null;
    }
    const served = LOAD_SIDES.map(side => `${side} ${p.served[side] === null ? 'unknown' : p.served[side]?.toFixed(1)}`).join(', ');
    report.notes.push(p.sized_by === 'server'
        ? `Synthetic prompts sized with the ${p.tokenizer}: requested mean ${p.requested_mean.toFixed(1)} tokens, realized ${p.realized_mean?.toFixed(1)} (${p.realized_min} to ${p.realized_max}) over ${p.prompts} prompts, the same texts on both sides; counted by the servers (usage, chat template included): ${served}.`
        : `Synthetic prompts sized at one word per token (the baseline serves no /tokenize): requested mean ${p.requested_mean.toFixed(1)} tokens; counted by the servers (usage): ${served}.`);
}
/**
 * On a small host the load client competes with a CPU engine for the cores: its CPU time is then
 * part of what is measured. Warned when a block's share of the host's CPU time is above `limit`
 * (docs/load.md, "Pinning the client and the engine apart").
 */
function clientCpuWarning(blocks, limit, cores) {
    const over = blocks.filter(b => (b.client_cpu_share ?? 0) > limit);
    if (over.length === 0)
        return null;
    const worst = Math.max(...over.map(b => b.client_cpu_share ?? 0));
    return (`The load client used more than ${pct(limit)} of the host's CPU time (${cores} core${cores === 1 ? '' : 's'}) in ${over.length} of ${blocks.length} blocks ` +
        `(at most ${pct(worst)}): on a CPU engine the client competes with the server, so its own work is in the figures. Pin them apart (taskset, docs/load.md) or use a larger host.`);
}
function pct(share) {
    return `${(share * 100).toFixed(share < 0.1 ? 1 : 0)} %`;
}
function summarize(level, timings, blocks, load) {
    const pooled = (side) => {
        const duration = blocks.filter(b => b.level === level && b.side === side).reduce((s, b) => s + b.duration_s, 0);
        return figures(timings.filter(t => t.level === level && t.side === side), duration, load.slo);
    };
    return { level, baseline: pooled('baseline'), candidate: pooled('candidate') };
}
/**
 * llama.cpp's server holds back a token that ends inside a UTF-8 character and sends it with the
 * next, and vLLM can put several tokens in one chunk too: then the gaps between chunks (ITL) are
 * not gaps between tokens, and a chunk-based ITL looks better than the engine's per-token pace.
 * Said when the successful requests' content chunks are fewer than 90 % of their output tokens
 * (by usage); TPOT (latency over tokens) is unaffected.
 */
function chunkNote(side, timings) {
    let chunks = 0;
    let tokens = 0;
    for (const t of timings) {
        if (t.side !== side || t.status !== 'ok' || t.tokens_from !== 'usage' || t.ttft_ms === null)
            continue;
        chunks += t.itl_ms.length + 1;
        tokens += t.output_tokens;
    }
    if (tokens === 0 || chunks >= 0.9 * tokens)
        return null;
    return `The ${side} sent ${chunks} content chunks for ${tokens} output tokens (${(tokens / chunks).toFixed(2)} tokens per chunk): its ITL is the gap between chunks, not between tokens; TPOT is per token.`;
}
function addNotes(report) {
    for (const side of LOAD_SIDES) {
        if (report.sides[side].usage === false) {
            report.notes.push(`The ${side} sends no usage in its stream: its output tokens are content chunks counted, which equals tokens only when each chunk carries one.`);
        }
        if (report.sides[side].ignore_eos === false) {
            report.notes.push(`The ${side} rejected ignore_eos/min_tokens: its answers may stop before max_tokens, so the sides may not generate the same amount.`);
        }
    }
    for (const s of report.summary) {
        const b = s.baseline.mean_output_tokens;
        const c = s.candidate.mean_output_tokens;
        if (b !== null && c !== null && b > 0 && Math.abs(c / b - 1) > 0.05) {
            const message = `At ${report.mode} ${s.level} the sides generated different lengths: ${b.toFixed(1)} (baseline) vs ${c.toFixed(1)} (candidate) output tokens per request; throughput ratios compare different work.`;
            report.warnings.push({ code: 'load.output_length', message });
        }
        for (const side of LOAD_SIDES) {
            const f = s[side];
            if (f.failed > 0) {
                report.notes.push(`At ${report.mode} ${s.level} the ${side} had ${f.failed} failed request(s) of ${f.requests} (${f.timed_out} timed out): counted in the error rate and against goodput.`);
            }
        }
    }
}
function headline(report, load) {
    const checks = report.checks;
    const bad = checks.filter(c => c.verdict === report.verdict);
    const where = (c) => `${c.metric} at ${levelName(load, c.level)}`;
    if (report.verdict === 'pass')
        return `Performance: pass: all ${checks.length} load checks passed.`;
    const first = bad[0];
    const more = bad.length > 1 ? ` (and ${bad.length - 1} more)` : '';
    if (!first)
        return `Performance: ${report.verdict}.`;
    return `Performance: ${report.verdict}: ${where(first)}: ${first.reason}${more}.`;
}

async function runLoad(config, options, holder) {
    const run = beginLoad(config, options);
    if (isOutcome(run))
        return run;
    const { load, targets, timeoutMs } = run;
    const timings = [];
    const blocks = [];
    const sides = new SideSwaps(holder);
    const { swapping } = sides;
    const connections = {};
    const closeAll = async () => {
        for (const side of LOAD_SIDES) {
            await connections[side]?.conn.pool.close().catch(() => { });
            delete connections[side];
        }
    };
    const measure = async () => {
        // Probe: both deployments live and streaming. Load figures are comparable only within one run
        // on one machine, so an archived baseline never stands in for a live one. One at a time, the
        // candidate first, so that the baseline is up for the first block.
        const probes = {};
        for (const side of swapping ? ['candidate', 'baseline'] : LOAD_SIDES) {
            await sides.bringUp(side, 'the probe');
            probes[side] = await probeLoadSide(run, side);
        }
        const judged = judgeProbes(run, probes);
        if (judged)
            return judged;
        const words = await workloadOf(run, options);
        if (isOutcome(words))
            return words;
        sides.choose(load);
        const plan = blockPlan(load, sides.schedule.schedule);
        const source = load.workload.prompts === 'synthetic' ? await sizeInServerTokens(run, words) : words;
        /** The side's connections at the level, opened and warmed up when they are new (not measured). */
        const warmed = async (side, li, level) => {
            const have = connections[side];
            if (have && have.li === li)
                return have.conn;
            await have?.conn.pool.close().catch(() => { });
            const conn = connect(targets[side], load.mode === 'concurrency' ? level : null, timeoutMs);
            connections[side] = { conn, li };
            await warmUp(run, conn, side, probes[side].ignoreEos, source, li, level);
            return conn;
        };
        run.origin = performance.now();
        let level = -1;
        for (const at of plan) {
            // Both up: both sides' connections opened and warmed at the start of each level, as one step.
            if (!swapping && at.li !== level)
                for (const side of LOAD_SIDES)
                    await warmed(side, at.li, at.level);
            level = at.li;
            // A side brought up again is a new server (or one just woken): new connections, a new warm-up.
            if (await sides.bringUp(at.side, `block ${at.position + 1}/${at.total} at ${levelName(load, at.level)}`))
                await closeAll();
            const conn = await warmed(at.side, at.li, at.level);
            await measureBlock(run, conn, probes[at.side].ignoreEos, source, at, blocks, timings);
        }
        const finished = finishLoad(run, blocks, timings);
        if (sides.schedule.schedule === 'periods')
            markPeriods(finished.report, sides.schedule.why);
        return finished;
    };
    let outcome;
    try {
        outcome = await measure();
    }
    catch (error) {
        if (error instanceof SideDownError)
            outcome = sideDown(run, error, timings);
        else if (error instanceof SwapError)
            outcome = { ...run.fail(error.code, error.message, error.location.field), timings };
        else
            throw error;
    }
    finally {
        await closeAll();
        // The side still up goes down now, so that its period ends in the timeline.
        await holder?.release();
    }
    const timeline = sides.timeline(load);
    if (timeline)
        outcome.report.timeline = timeline;
    return outcome;
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

/** Does the gate launch any side? Then its load half must run while the servers are up. */
function launchesAny(config) {
    return Object.keys(config.launch?.sides ?? {}).length > 0;
}
class LoadWhileUp {
    config;
    options;
    interleaved = null;
    constructor(config, options) {
        this.config = config;
        this.options = options;
    }
    /** While the holder keeps `up` up: `up` are the sides up now; `outputs` their HELM output folders. */
    hold = async (up, outputs) => {
        // Both are up whenever the holder calls (the quality half left both up); once is enough.
        if (!up.includes('baseline') || !up.includes('candidate'))
            return;
        const gateSetOutput = outputs.baseline ?? this.options.gateSetOutput ?? null;
        this.interleaved ??= await runLoad(this.config, { ...this.options, gateSetOutput });
    };
    /** The load half's outcome, once the servers are down. */
    async result() {
        return this.interleaved ?? (await runLoad(this.config, this.options));
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
    const sides = options.plan ?? planSides(config, env);
    return withLauncher(config, { outDir: resolve(cwd, options.outDir), cwd, env, progress, baseRef, sides }, launcher => {
        // One measurement while the holder keeps the sides up: swapped one at a time, or both held up.
        // A side that cannot be brought up is the load half's error, naming the side and the block.
        const holder = launcher ? new SideHolder(launcher, config, progress, options.sequential) : undefined;
        return runLoad(config, { env, progress, endpoints: sides.endpoints }, holder);
    });
}
/** For `runLoadHalf`'s `measured`: the launched load half when the gate launches, else undefined. */
function launchedLoadFor(config, options) {
    return launchesAny(config) ? () => runLaunchedLoad(config, options) : undefined;
}

const RANK = { pass: 0, inconclusive: 1, fail: 2, error: 3 };
function worseOf(a, b) {
    return RANK[b] > RANK[a] ? b : a;
}
/** The report with `part` joined; `data` is the part's own structured record (`{ fidelity: … }`). */
function joinPart(report, part, data = {}) {
    const quality = report.quality ?? { verdict: report.verdict, errors: report.errors.map(e => ({ ...e })) };
    const verdict = worseOf(report.verdict, part.verdict ?? 'pass');
    const decides = verdict !== report.verdict && part.verdict === verdict;
    const headline = decides ? `${part.title} decides (${verdict}): ${part.summary}.` : report.headline;
    return {
        ...report,
        verdict,
        headline,
        errors: [...report.errors, ...part.errors.map(e => ({ ...e }))],
        quality,
        parts: [...(report.parts ?? []).filter(p => p.key !== part.key), part],
        ...data
    };
}
/**
 * The quality half alone, as a report (for a join that must not count the parts twice, such as
 * the performance half's): its own verdict and errors, without the parts' errors.
 */
function qualityAlone(report) {
    if (!report.quality)
        return report;
    return { ...report, verdict: report.quality.verdict, errors: report.quality.errors.map(e => ({ ...e })) };
}
/** The parts joined again after a join that started from `qualityAlone` (the verdict and errors they add). */
function rejoinParts(joined, parts) {
    const verdict = parts.reduce((w, p) => worseOf(w, p.verdict ?? 'pass'), joined.verdict);
    const decider = verdict !== joined.verdict ? parts.find(p => p.verdict === verdict) : undefined;
    const headline = decider ? `${decider.title} decides (${verdict}): ${decider.summary}. ${joined.headline}` : joined.headline;
    return { ...joined, verdict, headline, errors: [...joined.errors, ...parts.flatMap(p => p.errors.map(e => ({ ...e })))] };
}

const ROUTE_TEXT = {
    'llamacpp-forced-grammar': 'teacher-forced (llama.cpp: a grammar of the baseline token ids, probabilities before the grammar)',
    'llamacpp-prefix': 'teacher-forced (llama.cpp: one request per position)',
    'vllm-prompt-logprobs': 'teacher-forced (vLLM prompt_logprobs)',
    'greedy-prefix': 'not teacher-forced: the shared greedy prefix only'
};
const ORDER = ['pass', 'inconclusive', 'fail', 'error'];
/** Four significant digits: KLs are small numbers. */
function num(x) {
    return Number(x.toPrecision(4)).toString();
}
function worst(verdicts) {
    return verdicts.reduce((w, v) => (ORDER.indexOf(v) > ORDER.indexOf(w) ? v : w), 'pass');
}
/** `kld_mean 0.05 [0.04, 0.06], needs ≤ 0.02` */
function checkFigure(c) {
    return `${c.metric} ${num(c.figure.corrected)} [${num(c.figure.ci.low)}, ${num(c.figure.ci.high)}], needs ${c.bound === 'min' ? '≥' : '≤'} ${num(c.threshold)}`;
}
function decisionWords(checks, verdict, errors) {
    if (errors.length > 0) {
        const text = `fidelity (${errors[0].message}${errors.length > 1 ? `, and ${errors.length - 1} more` : ''})`;
        return { deciding: text, beside: text.replace(/^fidelity/, 'fidelity error') };
    }
    if (checks.length === 0)
        return null;
    if (verdict === 'pass') {
        const text = `fidelity ${checks.length}/${checks.length} checks passed`;
        return { deciding: text, beside: text };
    }
    const open = checks.filter(c => c.verdict === verdict);
    const more = open.length > 1 ? `, and ${open.length - 1} more` : '';
    return { deciding: `fidelity (${checkFigure(open[0])}${more})`, beside: `fidelity ${verdict} (${checkFigure(open[0])}${more})` };
}
function checksTable(f) {
    return {
        columns: ['verdict', 'check', 'value [95% interval]', 'candidate', 'A/A floor'],
        numeric: [3, 4],
        rows: f.checks.map(c => [
            c.verdict,
            `${c.metric} ${c.bound === 'min' ? '≥' : '≤'} ${num(c.threshold)}`,
            `${num(c.figure.corrected)} [${num(c.figure.ci.low)}, ${num(c.figure.ci.high)}]`,
            num(c.figure.candidate),
            num(c.figure.floor)
        ]),
        verdicts: f.checks.map(c => c.verdict)
    };
}
function worstTable(f) {
    const ratio = (x) => (x === null ? '–' : num(x));
    return {
        columns: ['instance', 'tokens', 'top-1 agreement', 'KL mean', 'KL max', 'first divergence', 'length ratio'],
        numeric: [1, 2, 3, 4, 5, 6],
        page_only: true,
        rows: f.worst.map(r => [
            r.id,
            String(r.positions),
            num(r.top1Agreement),
            num(r.klMean),
            num(r.klMax),
            r.firstDivergence === null ? '–' : String(r.firstDivergence),
            ratio(r.lengthRatio)
        ])
    };
}
const signed = (x) => `${x >= 0 ? '+' : ''}${num(x)}`;
/**
 * The worst instances token by token: the baseline's token above the candidate's most likely
 * token at the same position, shaded by delta-p = p_C - p_B of the baseline's token.
 */
function strips(f) {
    return f.worst
        .filter(r => (r.tokens ?? []).length > 0)
        .map(r => ({
        id: r.id,
        label: `${r.id}: mean KL ${num(r.klMean)}, max KL ${num(r.klMax)}, top-1 agreement ${num(r.top1Agreement)}, mean delta-p ${signed(r.deltaPMean)}, first divergence ${r.firstDivergence === null ? 'none' : `at token ${r.firstDivergence}`}`,
        legend: "Baseline answer / candidate top-1, shaded by delta-p of the baseline's token (red: less probable on the candidate); framed where the candidate would pick another token",
        cells: (r.tokens ?? []).map((t, i) => ({
            above: t.baseline,
            below: t.candidate,
            value: Math.max(-1, Math.min(1, t.deltaP)),
            marked: t.candidate !== null && t.candidate !== t.baseline,
            title: `position ${i}: delta-p ${signed(t.deltaP)}`
        }))
    }));
}
/** `flips: 12 (sure 2, unsure 10)` and its sentence; absent without a teacher-forced route. */
function flipsLines(f) {
    const d = f.direction;
    if (!d)
        return ['Flips: not split (the greedy-prefix route compares answers, not positions scored on both sides).'];
    return [`flips: ${d.flips} (sure ${d.sure.flips}, unsure ${d.unsure.flips})`, d.sentence];
}
/**
 * The part from fidelity's own report, or from its errors when it could not be completed (the
 * part then says so and decides as an error: fail closed).
 */
function fidelityPart(f, errors) {
    const checks = f?.checks ?? [];
    const verdict = errors.length > 0 ? 'error' : checks.length > 0 ? worst(checks.map(c => c.verdict)) : null;
    const passed = checks.filter(c => c.verdict === 'pass').length;
    const summary = verdict === 'error'
        ? 'the measurement could not be completed'
        : verdict === null
            ? 'reported, no check'
            : `${passed} of ${counted(checks.length, 'check')} passed`;
    const lines = [];
    const tables = [];
    if (f) {
        if (checks.length > 0)
            tables.push(checksTable(f));
        for (const c of checks)
            if (c.verdict !== 'pass')
                lines.push(c.reason);
        const shown = f.figures.map(x => `${x.metric} ${num(x.corrected)}`).join(', ');
        lines.push(`${f.instances} instances, ${f.positions} tokens, ${ROUTE_TEXT[f.route]}; top-${f.topK} (the KL is a lower bound: the baseline's mass outside the shared top-k, ${num(f.restMassMean)} on average, is one bucket). ${shown}.`, ...flipsLines(f), ...f.notes);
        if (f.worst.length > 0)
            tables.push(worstTable(f));
    }
    for (const e of errors)
        lines.push(`${e.code}: ${e.message}`);
    const strip = f ? strips(f) : [];
    return {
        key: 'fidelity',
        title: 'Fidelity',
        verdict,
        summary,
        decision: decisionWords(checks, verdict ?? 'pass', errors),
        tables,
        lines,
        errors,
        ...(strip.length > 0 ? { strips: strip } : {})
    };
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
 * The direction of a change, as far as fidelity can tell it (docs/method.md "Paired calibration
 * and the direction of a change"). Fidelity scores the candidate on the baseline's own greedy
 * answer, so there is no reference to be right or wrong against: a flip is a position where the
 * candidate's most likely token is not the baseline's token, and it is neither won nor lost. What
 * it can say is where the flips fall: at positions where the baseline was sure (its top-1 margin,
 * p1 - p2 over its reported top-k, at least SURE_MARGIN) or unsure. Flips of a benign change
 * gather where the baseline was unsure; flips where it was sure are the ones a reviewer should
 * read. Pure: the positions in, counts and one sentence out.
 */
/** p1 - p2 of the reported alternatives (p2 = 0 when only one was reported). */
function topMargin(top) {
    let p1 = 0;
    let p2 = 0;
    for (const e of top) {
        const p = Math.exp(e.logprob);
        if (p > p1) {
            p2 = p1;
            p1 = p;
        }
        else if (p > p2)
            p2 = p;
    }
    return p1 - p2;
}
function argmax$1(top) {
    let best = null;
    for (const e of top)
        if (best === null || e.logprob > best.logprob)
            best = e;
    return best?.token ?? null;
}
const share = (part, whole) => (whole === 0 ? '0%' : `${((100 * part) / whole).toFixed(1)}%`);
/**
 * The flips of every scored position, split by the baseline's margin. Positions of all instances
 * are counted together: the figure describes where the tokens moved, it gates nothing.
 */
function fidelityDirection(instances, sureMargin = SURE_MARGIN) {
    if (!(Number.isFinite(sureMargin) && sureMargin >= 0 && sureMargin <= 1)) {
        throw new RangeError(`the sure margin must be in [0, 1], not ${sureMargin}`);
    }
    const sure = { positions: 0, flips: 0 };
    const unsure = { positions: 0, flips: 0 };
    for (const positions of instances) {
        for (const p of positions) {
            const bucket = topMargin(p.baseline.top) >= sureMargin ? sure : unsure;
            bucket.positions++;
            if (argmax$1(p.candidate.top) !== p.baseline.token)
                bucket.flips++;
        }
    }
    const positions = sure.positions + unsure.positions;
    const flips = sure.flips + unsure.flips;
    return { positions, flips, sure, unsure, sureMargin, sentence: sentenceFor(positions, flips, sure, unsure, sureMargin) };
}
function sentenceFor(positions, flips, sure, unsure, margin) {
    if (positions === 0)
        return 'No positions were scored.';
    if (flips === 0)
        return `The candidate's most likely token was the baseline's at all ${positions} positions.`;
    const where = sure.flips === 0
        ? `all where the baseline was unsure (top-1 margin below ${margin})`
        : `${sure.flips} where the baseline was sure (margin ${margin} or more: ${share(sure.flips, sure.positions)} of those positions) and ${unsure.flips} where it was unsure (${share(unsure.flips, unsure.positions)})`;
    return `The most likely token changed at ${flips} of ${positions} positions (${share(flips, positions)}): ${where}. With no reference answer a flip is neither won nor lost.`;
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

/**
 * The fidelity measurement (docs/fidelity.md): run while both sides are up, it takes the resolved
 * sides, the prompts and the settings, and returns its own part of the report. Sequential on
 * purpose: one request at a time per side keeps the server's batch (and so its numerics) the same
 * for the baseline, its rerun and the candidate.
 *
 * Per instance: the baseline's greedy answer B1 with its top-k; the candidate scored on B1 (teacher
 * forcing where the route allows it, the shared greedy prefix otherwise); the floor, the baseline
 * scored on B1 again (a second pass of itself); the candidate's own greedy answer for its length.
 */
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
    /** Per instance, each position as both sides reported it (teacher-forced routes), for the flips' split. */
    scoredPositions = [];
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
    /**
     * One line per tenth of the prompts, and the last one, not one per prompt (300 lines for 150
     * prompts before): a CI log stays readable, and the CLI turns them into one updating line on a
     * terminal (src/cli/progress-line.ts).
     */
    countedProgress(side, index) {
        const total = this.prompts.length;
        const done = index + 1;
        if (done !== total && Math.floor((done * 10) / total) === Math.floor((index * 10) / total))
            return;
        this.input.progress?.(`helm-gate: fidelity: ${side}, ${done} of ${counted(total, 'instance')} (${Math.floor((done * 100) / total)}%)`);
    }
    async runBaseline() {
        const { settings } = this.input;
        const client = await (this.input.clientFor ?? detectClient)(this.input.sides.baseline, this.timeoutMs);
        this.baselineClient = client;
        await this.timed('baseline', () => client.checkTopK(this.prompts[0], settings.topK));
        for (const [i, prompt] of this.prompts.entries()) {
            this.countedProgress('baseline', i);
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
            this.countedProgress('candidate', i);
            const b1 = pass.answer;
            let candidate;
            let candidateTokens;
            if (forced) {
                const scored = await this.timed('candidate', () => client.score(prompt, b1, settings.topK));
                if (scored === null)
                    throw this.notForced('candidate');
                candidate = instanceFidelity(b1.positions, scored);
                this.scoredPositions.push(b1.positions.map((b, t) => ({ baseline: b, candidate: scored[t] ?? { top: [] } })));
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
            notes.push(`${empty} of ${counted(this.prompts.length, 'prompt')} got an empty answer from the baseline and were not scored.`);
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
            ...(forced && this.scoredPositions.length > 0 ? { direction: fidelityDirection(this.scoredPositions) } : {}),
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
    name = "token-level fidelity (the candidate scored on the baseline's greedy answers)";
    measurement = null;
    errors = [];
    done = new Set();
    constructor(config, options) {
        this.config = config;
        this.options = options;
    }
    /** The sides as fidelity needs them; both are servers (the gate file's validation refuses anything else). */
    sides() {
        const endpoints = this.options.endpoints ?? planSides(this.config, this.options.env).endpoints;
        const of = (side) => {
            const endpoint = endpoints[side];
            if (!endpoint)
                throw new GateError('fidelity.not_a_server', `fidelity: deployments.${side} is not a server`);
            return endpoint;
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
    /** The report with its fidelity part (report.parts, report.fidelity); a failed or inconclusive check decides like any other. */
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
        const own = this.errors.map(e => ({
            code: e.code,
            message: e.message,
            ...(e.location.file ? { file: e.location.file } : {}),
            ...(e.location.field ? { field: e.location.field } : {}),
            ...(e.location.value !== undefined ? { value: showValue(e.location.value) } : {})
        }));
        return joinPart(report, fidelityPart(part, own), part ? { fidelity: part } : {});
    }
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
    name = 'the load half (both sides under load, blocks A B B A; docs/load.md)';
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
        this.whileUp = leftUp
            ? new LoadWhileUp(config, { env: options.env, progress: options.progress, endpoints: options.plan.endpoints })
            : null;
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
                    ? // Server logs append to the output folder's logs/<side>-server.log, after the quality half's.
                        () => runLaunchedLoad(config, options)
                    : undefined;
            const loaded = await runLoadHalf(config, options.outDir, {
                env,
                progress,
                gateSetOutput: context.paths.baseline,
                endpoints: options.plan.endpoints,
                measured
            });
            // The parts (fidelity, ...) keep their own verdicts: the performance half joins the quality
            // half alone, and the parts join again after (report.json's `quality` is quality's own).
            return rejoinParts(attachLoad(qualityAlone(report), loaded.report), report.parts ?? []);
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
    const structB = instances.map((inst, i) => structuralChecks(inst.request, replayed.b1[i], refusal, schemas));
    const structC = instances.map((inst, i) => structuralChecks(inst.request, replayed.c[i], refusal, schemas));
    const rows = [];
    const changed = new Map();
    const ctx = { run, statistics, examples, rows, changed, instances, texts, margins: traffic.checks };
    const notes = addNoiseFloorRows(ctx, traffic);
    addStructuralRows(ctx, structB, structC);
    addReferenceRows(ctx);
    // The answer-length ratio is its own row with an interval (gate/answer-length.ts, run-traffic.ts).
    return { comparisons: rows, changed, notes };
}
/** The two noise-floor rows (disagreement, similarity), and the note on how much noise the baseline showed. */
function addNoiseFloorRows(ctx, traffic) {
    const { instances, texts } = ctx;
    const norm = (t) => normaliseAnswer(t, traffic.ignoreCase);
    const notes = [];
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
    return notes;
}
function addStructuralRows(ctx, structB, structC) {
    const { instances } = ctx;
    // Structural failures: paired 0/1 outcomes between B1 and C, on the instances each applies to.
    for (const check of ['invalid_json', 'invalid_tool_calls', 'truncation', 'refusals']) {
        const applies = instances.map((_, i) => i).filter(i => structC[i][check] !== null && structB[i][check] !== null);
        if (applies.length === 0)
            continue;
        const flag = (s) => (s[check] ? 1 : 0);
        addRow(ctx, check, 'lower', applies, applies.map(i => flag(structB[i])), applies.map(i => flag(structC[i])), 'failure rate, C against B1', i => [...structB[i].why.map(w => `baseline: ${w}`), ...structC[i].why.map(w => `candidate: ${w}`)].join('; '));
    }
}
function addReferenceRows(ctx) {
    const { instances, texts } = ctx;
    // Reference metrics, on the instances whose record has a reference.
    const withReference = instances.map((_, i) => i).filter(i => instances[i].reference !== null);
    if (withReference.length > 0) {
        for (const [check, metric] of Object.entries(REFERENCE_METRICS)) {
            const gold = (i) => instances[i].reference;
            addRow(ctx, check, 'higher', withReference, withReference.map(i => metric(gold(i), texts.b1[i])), withReference.map(i => metric(gold(i), texts.c[i])), 'against the reference, C against B1');
        }
    }
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
    const decision = pairedDecision(estimate, tolerated, direction, ctx.statistics);
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
    ctx.rows.push(comparisonRow({
        id,
        run: ctx.run,
        entry: 'traffic',
        metric: check,
        split: null,
        perturbation: null,
        gated: margin !== null,
        direction,
        unmatched: { baseline: 0, candidate: 0 },
        dropped: { baseline: 0, candidate: 0 },
        max_drop: tolerated,
        max_relative_drop: null
    }, estimate, decision, { reason: `${what}: ${decision.reason}`, examples: all.slice(0, ctx.examples) }));
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
    name = 'the traffic replay (the set on each side while it is up)';
    states = new Map();
    done = new Set();
    errors = [];
    /** The deployments' API keys and secret-named variables, masked wherever a replay's text is kept. */
    mask;
    sides;
    constructor(config, options) {
        this.config = config;
        this.options = options;
        this.sides = options.plan ?? planSides(config, options.env);
        this.mask = masker(secretValues(options.env, this.sides.secrets));
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
        const verdict = report.verdict === 'error' ? 'error' : qualityVerdict(comparisons, errors.length, [...answerLengths, ...(report.calibrations ?? [])]);
        const headline = verdict === report.verdict && comparisons.length === report.comparisons.length
            ? report.headline
            : qualityHeadline(verdict, comparisons, errors.length, [...answerLengths, ...(report.calibrations ?? [])]);
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
        const endpoint = this.sides.endpoints[side];
        if (!endpoint)
            return; // refused by the gate file's validation
        const names = side === 'candidate' ? ['candidate'] : traffic.baselineReruns ? ['baseline-1', 'baseline-2'] : ['baseline-1'];
        for (const name of names) {
            this.options.progress(`helm-gate: traffic: replaying ${counted(traffic.instances.length, 'request')} on the ${side} (${name})`);
            let states;
            try {
                states = await replaySide(traffic.instances, endpoint, {
                    temperature: traffic.temperature,
                    concurrency: traffic.concurrency,
                    timeoutMs: traffic.requestTimeoutSeconds * 1000
                });
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
                this.errors.push(new GateError('traffic.request_failed', `traffic: ${failed.length} of ${counted(states.length, 'request')} failed on the ${side} (${name}); a failed request is never judged, so nothing passes`, { file, field: `instance ${first.instance.id}`, value: this.mask(first.result.error ?? 'failed') }));
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
    const { compare, env, progress, plan } = s;
    const measurements = [
        s.quality ?? null,
        trafficReplayFor(config, compare, s),
        fidelityRunFor(config, compare, { env, progress, endpoints: plan.endpoints }),
        loadMeasurementFor(config, compare ? s.load : null, s)
    ];
    return measurements.filter((m) => m !== null);
}

export { DEFAULT_READINESS_TIMEOUT_MS as D, PROD_ENV_FILES as P, QualityMeasurement as Q, launchedLoadFor as a, loadOnlyReport as b, manifestPath as c, applyStoppedChecks as d, redactedFiles as e, blockPlan as f, guardOnCancel as g, expandLaunch as h, imageOf as i, pluginPythonPath as j, measureSwap as k, loadTimelineOf as l, measurementsFor as m, refusalOf as n, resolveHelmRun as o, prepareRun as p, checkPreparedMetricNames as q, runLoadHalf as r, swapsNeeded as s, displayCommand as t, countInstances as u, planStages as v, writeManifest as w };
