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

# On a first run llama.cpp builds (two compiler jobs) from the start, while the venv is made
# (mostly downloads); the model, which needs both, comes last. The training is not overlapped with
# the build: that needs make-model.sh changed, and its text is part of the model's cache key, so
# every warm machine would train again. The expected times printed are first runs measured on the
# 2-core machine, quiet and shared (README "Try it"); each step takes a second once cached.
t0=$(date +%s)
engine_out=$(mktemp)
bash "$here/build-engine.sh" >"$engine_out" &
engine_build=$!
with_progress "the HELM venv (llama.cpp builds meanwhile)" "about 2 min quiet, 3 shared" bash scripts/python-env.sh >&2
t1=$(date +%s)
with_progress "building llama.cpp" "about 5 min quiet, 13 or more shared" wait "$engine_build"
engine=$(tail -1 "$engine_out")
rm -f "$engine_out"
t2=$(date +%s)
model=$(with_progress "training the model" "about 5 min quiet, 10 or more shared" bash "$here/make-model.sh" | tail -1)
t3=$(date +%s)
mkdir -p .real-engine
ln -sfn "$engine" .real-engine/engine
ln -sfn "$model" .real-engine/model
echo "real-engine: $((t3 - t0)) s in all: venv $((t1 - t0)) s, llama.cpp done $((t2 - t0)) s after the start (built beside the venv), model $((t3 - t2)) s; .real-engine/engine -> $engine, .real-engine/model -> $model" >&2
