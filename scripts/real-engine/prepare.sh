#!/usr/bin/env bash
# `npm run real-engine`: everything the real-engine example (examples/real-cpu/) needs, built
# once per machine and reused: the HELM venv, llama.cpp's server (build-engine.sh) and the
# model (make-model.sh), both in ${XDG_CACHE_HOME:-~/.cache}/helm-gate. Links them as
# .real-engine/engine and .real-engine/model in this clone (git-ignored), the paths the gate
# files name. Prints the time each step took.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
here="$root/scripts/real-engine"
cd "$root"

# shellcheck source=scripts/real-engine/common.sh
source "$here/common.sh"

# On a first run the three steps overlap where they can: llama.cpp builds (two compiler jobs)
# from the start, while the venv is downloaded (mostly network) and then while the model trains
# (one thread); the conversion waits for the build. Sequentially they took 2.9 + 12.6 + about 10
# min on the shared 2-core machine. The expected times printed are measured first runs on that
# machine, quiet and busy (README "Try it"); each step is skipped in seconds once cached.
t0=$(date +%s)
engine_out=$(mktemp)
bash "$here/build-engine.sh" >"$engine_out" &
engine_build=$!
with_progress "the HELM venv (llama.cpp builds meanwhile)" "about 2 min quiet, 3 busy" bash scripts/python-env.sh >&2
t1=$(date +%s)
model=$(with_progress "training the model (llama.cpp builds meanwhile)" "about 5 min quiet, 10 busy" bash "$here/make-model.sh" | tail -1)
t2=$(date +%s)
with_progress "building llama.cpp" "about 5 min quiet, 13 busy" wait "$engine_build"
engine=$(tail -1 "$engine_out")
rm -f "$engine_out"
t3=$(date +%s)
mkdir -p .real-engine
ln -sfn "$engine" .real-engine/engine
ln -sfn "$model" .real-engine/model
echo "real-engine: $((t3 - t0)) s in all: venv $((t1 - t0)) s, then the model $((t2 - t1)) s (llama.cpp built beside them, done $((t3 - t0)) s after the start); .real-engine/engine -> $engine, .real-engine/model -> $model" >&2
