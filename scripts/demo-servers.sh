#!/usr/bin/env bash
# Starts the demo's two fake OpenAI-compatible servers on loopback, in the background, for
# examples/demo/gate.yml: the baseline on port 18431, the candidate on 18432 (same seed, so both
# get the same instances right; the candidate changes a few more answers at random, the same ones
# on every run (--noise-seed: the verdict must not depend on luck), and is a
# little slower on HELM's requests, like a numerically different but equivalent build, and decodes
# 1.5x faster under streaming load, as an FP8 build would). Used by `npm run demo` and
# by the workflow that gates helm-gate's own pull requests.
#
#   bash scripts/demo-servers.sh WORKDIR
#
# Writes WORKDIR/key.json (the answer key, built from HELM's own scenarios), the servers' logs and
# WORKDIR/pids (one process id a line), and returns once both servers listen.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
work=${1:?usage: demo-servers.sh WORKDIR}
mkdir -p "$work"
cd "$root"

.venv/bin/python test-support/fake-openai/build-answer-key.py "$work/key.json" \
  "dyck_language:num_parenthesis_pairs=3" "simple_mcqa:data_augmentation=robustness" >/dev/null 2>&1

start() { # name port extra-options...
  local name=$1 port=$2
  shift 2
  nohup node test-support/fake-openai/server.mjs --port "$port" --answer-key "$work/key.json" \
    --model demo-model --accuracy 0.9 --seed 1 "$@" >"$work/$name-server.log" 2>&1 &
  echo $! >>"$work/pids"
}
: >"$work/pids"
start baseline 18431 --stream-engine '{"decodeBaseMs": 8}'
# Streaming requests (the load half) reach a fake continuous-batching engine; the candidate's
# decodes 1.5x faster, like an FP8 build.
start candidate 18432 --noise 0.1 --noise-seed 1 --latency-ms 5 --stream-engine '{"decodeBaseMs": 8, "decodeSpeedup": 1.5}'

for name in baseline candidate; do
  for _ in $(seq 1 100); do
    grep -q 'listening on' "$work/$name-server.log" 2>/dev/null && break
    sleep 0.1
  done
  if ! grep -q 'listening on' "$work/$name-server.log"; then
    echo "demo-servers: the $name server did not start:" >&2
    cat "$work/$name-server.log" >&2
    exit 1
  fi
done
echo "demo-servers: baseline on http://127.0.0.1:18431/v1, candidate on http://127.0.0.1:18432/v1"
