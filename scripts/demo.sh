#!/usr/bin/env bash
# `npm run demo`: the whole gate on this machine. Creates the HELM venv on first use, starts two
# fake OpenAI-compatible servers on loopback (the candidate answers a little differently), runs
# helm-gate on examples/demo/gate.yml with real helm-run, prints the report and stops the servers.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

bash scripts/python-env.sh
if [ ! -f dist/cli.js ]; then
  echo "demo: building dist/cli.js"
  npm run build --silent
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/helm-gate-demo-XXXXXX")
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

echo "demo: building the fake servers' answer key from HELM's own scenarios"
.venv/bin/python test-support/fake-openai/build-answer-key.py "$work/key.json" \
  "dyck_language:num_parenthesis_pairs=3" "simple_mcqa:data_augmentation=robustness" >/dev/null 2>&1

# Same seed: both servers get the same instances right; the candidate additionally changes a
# few answers at random (noise), like a numerically different but equivalent build.
node test-support/fake-openai/server.mjs --port 18431 --answer-key "$work/key.json" --model demo-model \
  --accuracy 0.9 --seed 1 > "$work/baseline-server.log" 2>&1 &
pids+=($!)
node test-support/fake-openai/server.mjs --port 18432 --answer-key "$work/key.json" --model demo-model \
  --accuracy 0.9 --seed 1 --noise 0.1 --latency-ms 5 > "$work/candidate-server.log" 2>&1 &
pids+=($!)

out="${HELM_GATE_DEMO_OUT:-demo-output/$(date +%Y%m%d-%H%M%S)}"
status=0
node dist/cli.js run --config examples/demo/gate.yml --out "$out" || status=$?
echo "demo: exit status $status (0 pass, 1 fail or inconclusive, 2 error); evidence in $out"
exit "$status"
