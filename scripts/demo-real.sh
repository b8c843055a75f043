#!/usr/bin/env bash
# `npm run demo:real`: the real-engine example. Builds llama.cpp's server and the example's model
# on first use (minutes, once per machine: scripts/real-engine/prepare.sh), then runs helm-gate on
# examples/real-cpu/demo.yml: helm-gate launches llama-server with the F16 model (baseline) and the
# Q4_0 model (candidate) one after the other, runs real helm-run (chat) and the load half against
# each, and prints the report. demo.yml is gate.yml (the same servers and checks) with budgets
# sized for about a minute; HELM_GATE_REAL_GATE picks another gate file (examples/real-cpu/gate.yml:
# the full budgets; q8.yml: Q8_0 against F16 through the completions API).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

start=$(date +%s)
bash scripts/real-engine/prepare.sh
if [ ! -f dist/cli.js ]; then
  echo "demo:real: building dist/cli.js"
  npm run build --silent
fi
prepared=$(date +%s)

gate="${HELM_GATE_REAL_GATE:-examples/real-cpu/demo.yml}"
out="${HELM_GATE_DEMO_OUT:-demo-output/real-$(date +%Y%m%d-%H%M%S)}"
status=0
node dist/cli.js run --config "$gate" --out "$out" || status=$?
end=$(date +%s)
echo "demo:real: exit status $status (0 pass, 1 fail or inconclusive, 2 error); evidence in $out"
echo "demo:real: $((end - start)) s in all: $((prepared - start)) s to prepare, $((end - prepared)) s for the gate"
exit "$status"
