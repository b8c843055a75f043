import { Z as parseDocument, _ as visit, $ as isScalar, a0 as redactString, a1 as looksLikeSecret, a2 as isCredentialKey, a3 as Scalar, a4 as HIDDEN, a5 as ConfigError, a6 as parseYamlFile, a7 as stringify, a8 as HelmRunError, a9 as expandRunnerCommand, aa as trackedTempDir, ab as closestWords, ac as trackGroup, ad as killGroupNow, ae as checkDistinctDeployments, c as counted, af as masker, ag as looksLikeLmEvalOutput, ah as readLmEvalOutput, ai as InputError, aj as taskMatchesEntry, ak as RUN_FILES, al as readRunDirectory, am as runMatchesEntry, y as redactUrl, E as redactText, an as runnerCommandName, ao as isFiniteNumber, U as UsageError, ap as isInteger, aq as max, ar as min, as as log, at as sqrt, au as log1p, av as GuardError, aw as createRandom, ax as streamJson, ay as helmHarness, az as IssueLog, aA as resolveSplit, G as GateError, aB as qualityVerdict, aC as qualityHeadline, m as makeRunPlan, aD as requireKeys, aE as Launcher, Y as childProcessEnv, aF as holdOnSchedule, O as checkStoppingSchedule, aG as endpointFor, aH as probeServer } from './cli.js';
import path, { join, dirname, isAbsolute, resolve, delimiter, relative, basename } from 'node:path';
import { execFile, spawn } from 'node:child_process';
import { writeFile, readFile, access, constants, stat, open, mkdir, readdir, cp } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { createWriteStream } from 'node:fs';
import { createInterface } from 'node:readline';

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
            await access(candidate, constants.X_OK);
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
            await access(join(dir, 'helm_gate_plugins', 'clients.py'), constants.R_OK);
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
            const prepared = await prepareRun(config, {
                outDir,
                sides,
                runs: opts.runs,
                selfCheck: opts.selfCheck,
                tempDir: temp.path,
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
            const stages = config.stopping ? await stagedPreflight(config, prepared, install, env, { schedule, sides, runs: opts.runs }) : null;
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

export { DEFAULT_READINESS_TIMEOUT_MS as D, PROD_ENV_FILES as P, QualityMeasurement as Q, applyStoppedChecks as a, pluginPythonPath as b, refusalOf as c, displayCommand as d, resolveHelmRun as e, countInstances as f, planStages as g, checkPreparedMetricNames as h, loadTimelineOf as l, manifestPath as m, prepareRun as p, redactedFiles as r, writeManifest as w };
