import { resolve, join } from 'node:path';
import { p as parseArgs, L as LOAD_USAGE, U as UsageError, l as loadGateConfig, g as gateSections, r as requiredConfig } from './cli.js';
import { a as assertFreshOutputFolder, r as reportingUnfinished, p as progressSink, b as runLoadOnly } from './cli-progress-line.js';
import 'node:fs/promises';
import 'node:crypto';
import 'node:fs';
import 'node:os';
import 'node:url';
import 'node:worker_threads';
import 'node:string_decoder';
import 'node:readline';
import './cli-measurements.js';
import './cli-detect-fidelity-route.js';
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
 * `helm-gate load --config FILE --out DIR`: the performance half alone (docs/load.md). Probes
 * both deployments, runs the load blocks A B B A ..., writes report.json, report.md and the raw
 * per-request timings (load-timings.jsonl) to the output folder.
 * Exit 0 pass, 1 fail or inconclusive, 2 error.
 */
const SPECS = {
    config: { value: true },
    out: { value: true },
    sequential: { value: false },
    'baseline-ref': { value: true },
    quiet: { value: false },
    debug: { value: false },
    help: { value: false }
};
async function loadCommand(argv, io) {
    const args = parseArgs(argv, SPECS);
    if (args.flags.has('help')) {
        io.stdout(LOAD_USAGE);
        return 0;
    }
    if (args.positionals.length > 0) {
        throw new UsageError('usage.positionals', `load takes no positional arguments\n\n${LOAD_USAGE}`, { value: args.positionals.join(' ') });
    }
    const config = await loadGateConfig(resolve(io.cwd, requiredConfig(args, LOAD_USAGE)), { sections: gateSections() });
    const outDir = resolve(io.cwd, args.options.get('out') ?? join('helm-gate-runs', new Date().toISOString().replace(/[:.]/g, '-')));
    await assertFreshOutputFolder(outDir);
    const quiet = args.flags.has('quiet');
    const say = quiet ? () => { } : progressSink(io);
    say(`helm-gate: load test, baseline vs candidate, output in ${outDir}`);
    return reportingUnfinished(outDir, config.statistics, io, false, cancel => runLoadOnly(config, outDir, args, io, say, cancel));
}

export { loadCommand };
