import { aI as TRAFFIC_CHECKS, c as counted, y as describeBand, s as tangoInterval } from './cli.js';
import 'node:fs/promises';
import 'node:path';
import 'node:crypto';
import 'node:fs';
import 'node:os';
import 'node:url';
import 'node:worker_threads';
import 'node:string_decoder';
import 'node:readline';

/** What `helm-gate plan` shows of the traffic gate: the set, what is replayed where, the checks. */
function trafficPlanLines(traffic, confidence = 0.95) {
    const count = (test) => traffic.instances.filter(test).length;
    const json = count(i => typeof i.request.response_format === 'object' && i.request.response_format !== null);
    const tools = count(i => Array.isArray(i.request.tools) && i.request.tools.length > 0);
    const references = count(i => i.reference !== null);
    const checks = TRAFFIC_CHECKS.map(name => `${name} ${traffic.checks[name] === null ? 'report' : `<= ${traffic.checks[name]}`}`);
    return [
        `# traffic: ${counted(traffic.instances.length, 'request')} from ${traffic.set} (sha256 ${traffic.setSha256.slice(0, 16)}, in the fingerprint):` +
            ` ${json} in JSON mode, ${tools} with tools, ${references} with a reference`,
        `#   replayed ${traffic.baselineReruns ? 'twice on the baseline (B1, B2: the noise floor)' : 'once on the baseline (no noise floor)'} and once on the candidate,` +
            ` temperature ${traffic.temperature ?? 'as logged'}, ${traffic.concurrency} at a time, ${traffic.requestTimeoutSeconds} s per request, no retries`,
        `#   checks (tolerated excess): ${checks.join(', ')}; answer_length_ratio ${describeBand(traffic.answerLength)}; similarity ${traffic.similarity}${traffic.ignoreCase ? ', case ignored' : ''}`,
        `#   refusal patterns: ${traffic.refusalPatterns.length}`,
        ...unreachable(traffic, { json, tools, references }, confidence).map(line => `# WARNING ${line}`)
    ];
}
/** The 0/1 checks and how many requests each applies to. */
function applicable(traffic, counts) {
    const all = traffic.instances.length;
    return [
        ['disagreement', all],
        ['invalid_json', counts.json],
        ['invalid_tool_calls', counts.tools],
        ['truncation', all],
        ['refusals', all],
        ['exact_match', counts.references],
        ['quasi_exact_match', counts.references]
    ];
}
/**
 * A gated 0/1 check that cannot pass even when the candidate changes nothing: with no discordant
 * pair Tango's interval still reaches past the margin at this n (about 3.7 / n at 95%). Said
 * before the run, with the requests that would be enough, so no one waits for an inconclusive.
 */
function unreachable(traffic, counts, confidence) {
    const upper = (n) => tangoInterval({ both: 0, wins: 0, losses: 0, neither: n }, confidence)[1];
    const lines = [];
    for (const [check, n] of applicable(traffic, counts)) {
        const margin = traffic.checks[check];
        if (margin === null || n === 0 || upper(n) < margin)
            continue;
        let enough = n;
        while (upper(enough) >= margin && enough < 1e7)
            enough *= 2;
        let low = Math.max(n, Math.floor(enough / 2));
        while (low < enough - 1) {
            const mid = Math.floor((low + enough) / 2);
            if (upper(mid) < margin)
                enough = mid;
            else
                low = mid;
        }
        lines.push(`traffic check ${check} applies to ${n} requests: even a candidate that changes nothing cannot pass its ${margin} margin (the interval reaches ${upper(n).toFixed(3)}); about ${enough} such requests would`);
    }
    return lines;
}

export { trafficPlanLines };
