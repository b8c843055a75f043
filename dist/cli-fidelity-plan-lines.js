import { c as counted } from './cli.js';
import { j as detectClient, p as planSides } from './cli-detect-fidelity-route.js';
import 'node:fs/promises';
import 'node:path';
import 'node:crypto';
import 'node:fs';
import 'node:os';
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

/**
 * What `plan` says about fidelity: the budget, the prompts' source, the checks, and the route each
 * side will take. A server that is always up is asked now (the same detection the run uses); a
 * launched side is not up at plan time, so its route is decided when it is, and plan says which
 * routes are possible.
 */
const ROUTES = 'llama-server: a grammar of the baseline token ids, one request per instance; vLLM: prompt_logprobs, one request per instance; any other OpenAI-style server: the shared greedy prefix (not teacher-forced)';
async function fidelityPlanLines(config, env, probeTimeoutMs = 5000, 
/** The run plan's endpoints (`plan` gives its own); resolved from the gate file and `env` when not given. */
endpoints = planSides(config, env).endpoints) {
    const f = config.fidelity;
    const source = config.traffic
        ? `the traffic set (${counted(config.traffic.instances.length, 'request')})`
        : "the gate set's prompts (the baseline's request states)";
    const checks = f.checks.length
        ? f.checks.map(c => `${c.metric} ${c.bound === 'min' ? '>=' : '<='} ${c.value}`).join(', ')
        : 'none (reported only)';
    const lines = [
        `# fidelity: the first ${counted(f.instances, 'prompt')} of ${source}; the baseline's greedy answers up to ${f.maxAnswerTokens} tokens with the top-${f.topK} per position; ${f.baselineReruns ? 'an A/A floor (the baseline scored against itself)' : 'no A/A floor'}; checks: ${checks}`
    ];
    for (const side of ['baseline', 'candidate']) {
        const endpoint = endpoints[side];
        if (!endpoint)
            continue;
        if (config.launch?.sides[side]) {
            lines.push(`# fidelity ${side}: launched, route decided when it is up (${ROUTES})`);
            continue;
        }
        const client = await detectClient(endpoint, probeTimeoutMs);
        lines.push(`# fidelity ${side}: ${client.route} (asked ${endpoint.baseUrl} now)`);
    }
    return lines;
}

export { fidelityPlanLines };
