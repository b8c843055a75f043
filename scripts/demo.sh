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
cleanup() {
  # demo-servers.sh records each server's pid as it starts it, so a failed start is cleaned up too.
  if [ -f "$work/pids" ]; then
    while read -r pid; do kill "$pid" 2>/dev/null || true; done <"$work/pids"
  fi
  rm -rf "$work"
}
trap cleanup EXIT

echo "demo: starting the two fake servers (the answer key is built from HELM's own scenarios)"
bash scripts/demo-servers.sh "$work"

out="${HELM_GATE_DEMO_OUT:-demo-output/$(date +%Y%m%d-%H%M%S)}"
status=0
node dist/cli.js run --config examples/demo/gate.yml --out "$out" || status=$?
echo "demo: exit status $status (0 pass, 1 fail or inconclusive, 2 error); evidence in $out"
exit "$status"
