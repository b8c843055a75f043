#!/usr/bin/env bash
# `npm run demo:traffic`: a traffic gate on this machine (docs/traffic.md). Starts two fake
# OpenAI-compatible servers on loopback that answer HELM's scenario from an answer key and any
# other chat request as traffic (test-support/fake-openai/traffic-answers.mjs), runs helm-gate on
# examples/traffic/gate.yml (the HELM tripwire, then the traffic set replayed twice on the baseline
# and once on the candidate), prints the report and stops the servers.
#
#   npm run demo:traffic                 # an equivalent candidate, a little nondeterminism on both sides
#   DEMO_CANDIDATE=break-json npm run demo:traffic   # a candidate whose JSON mode breaks (fails)
#   DEMO_CANDIDATE=truncate npm run demo:traffic     # a candidate that stops early (fails)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

bash scripts/python-env.sh
if [ ! -f dist/cli.js ]; then
  echo "demo: building dist/cli.js"
  npm run build --silent
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/helm-gate-demo-traffic-XXXXXX")
cleanup() {
  if [ -f "$work/pids" ]; then
    while read -r pid; do kill "$pid" 2>/dev/null || true; done <"$work/pids"
  fi
  rm -rf "$work"
}
trap cleanup EXIT

case "${DEMO_CANDIDATE:-equivalent}" in
  equivalent) candidate='{"trafficNoise": 0.005, "noiseSeed": 1}' ;;
  break-json) candidate='{"trafficNoise": 0.005, "noiseSeed": 1, "trafficBreakJson": 1}' ;;
  truncate) candidate='{"trafficNoise": 0.005, "noiseSeed": 1, "trafficTruncate": 0.2}' ;;
  *)
    echo "demo: DEMO_CANDIDATE must be equivalent, break-json or truncate" >&2
    exit 2
    ;;
esac
echo '{"trafficNoise": 0.005, "noiseSeed": 1}' >"$work/baseline.json"
echo "$candidate" >"$work/candidate.json"

echo "demo: starting the two fake servers (the answer key is built from HELM's own scenario)"
.venv/bin/python test-support/fake-openai/build-answer-key.py "$work/key.json" "dyck_language:num_parenthesis_pairs=3" >/dev/null 2>&1
: >"$work/pids"
for side in baseline candidate; do
  port=18441
  [ "$side" = candidate ] && port=18442
  nohup node test-support/fake-openai/server.mjs --port "$port" --answer-key "$work/key.json" --model support-model \
    --accuracy 0.9 --seed 1 --traffic 1 --config "$work/$side.json" >"$work/$side-server.log" 2>&1 &
  echo $! >>"$work/pids"
done
for side in baseline candidate; do
  for _ in $(seq 1 100); do
    grep -q 'listening on' "$work/$side-server.log" 2>/dev/null && break
    sleep 0.1
  done
  if ! grep -q 'listening on' "$work/$side-server.log"; then
    echo "demo: the $side server did not start:" >&2
    cat "$work/$side-server.log" >&2
    exit 1
  fi
done

out="${HELM_GATE_DEMO_OUT:-demo-output/traffic-$(date +%Y%m%d-%H%M%S)}"
status=0
node dist/cli.js run --config "${HELM_GATE_DEMO_CONFIG:-examples/traffic/gate.yml}" --out "$out" || status=$?
echo "demo: exit status $status (0 pass, 1 fail or inconclusive, 2 error); evidence in $out (traffic/ holds every replayed request)"
exit "$status"
