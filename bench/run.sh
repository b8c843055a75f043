#!/usr/bin/env bash
# All benchmarks, each printing its figures and the ratio against its named alternative.
# Needs dist/ (npm run build) and the HELM venv (bash scripts/python-env.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== generator speed (seedrandom algorithms)"; node bench/stats-rng.mjs
echo; echo "== compare: helm-gate CLI vs plain Python vs scipy.stats.bootstrap"; node bench/compare.mjs
echo; echo "== compare: this checkout vs the previous release's dist/ (9bb43d8)"; node bench/release-compare.mjs
echo; echo "== load at 1 stream: this checkout vs the previous release's dist/ (9bb43d8)"; node bench/release-load.mjs
echo; echo "== streaming a 2 GB scenario_state.json (peak memory)"; node bench/read-scenario-state.mjs
echo; echo "== downloading a 400 MB artifact: @actions/artifact streamed vs one Buffer in memory"; node bench/artifact-download.mjs
echo; echo "== both sides concurrently vs one after the other"; node bench/concurrency.mjs
echo; echo "== load generator overhead vs GuideLLM and AIPerf (fake engine)"; node bench/load.mjs
echo; echo "== open-loop arrival schedule kept: helm-gate vs the previous release's sender and a naive setTimeout loop"; node bench/arrivals.mjs
echo; echo "== redaction: false positives and recall vs secretlint alone; phone numbers vs libphonenumber-js"; node bench/redaction.mjs
echo; echo "== sequential verdicts: false-pass rate, power and instances spent vs peeking at the fixed interval and the fixed design"; npx tsc -p bench/sequential-tsconfig.json && node bench/sequential-study.mjs
