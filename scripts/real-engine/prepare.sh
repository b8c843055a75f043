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
# (mostly downloads). The trained model is the committed one (make-model.sh train copies it in a
# second); only when the training scripts changed and it was not made again does the model train
# here (one torch thread), still beside the build. Its conversion and quantization (seconds) wait
# for the engine. The expected times printed are first runs measured on the 2-core machine, quiet
# (nothing else running) and at load 7, each step beside the others (README "How long demo:real
# takes"); each step takes a second once cached.
t0=$(date +%s)
engine_out=$(mktemp)
bash "$here/build-engine.sh" >"$engine_out" &
engine_build=$!
with_progress "the HELM venv (llama.cpp builds meanwhile)" "about 2 min quiet, 9 at load 7" bash scripts/python-env.sh >&2
t1=$(date +%s)
with_progress "the trained model (llama.cpp builds meanwhile)" "a second from the committed one; 8 min quiet if it trains" \
  bash "$here/make-model.sh" train >/dev/null
t2=$(date +%s)
with_progress "building llama.cpp (the rest of it)" "about 7.5 min in all quiet, several times that on a busy machine" wait "$engine_build"
engine=$(tail -1 "$engine_out")
rm -f "$engine_out"
t3=$(date +%s)
model=$(with_progress "converting and quantizing the model" "seconds" bash "$here/make-model.sh" | tail -1)
t4=$(date +%s)
mkdir -p .real-engine
ln -sfn "$engine" .real-engine/engine
ln -sfn "$model" .real-engine/model
echo "real-engine: $((t4 - t0)) s in all: venv $((t1 - t0)) s, model trained $((t2 - t0)) s after the start, llama.cpp done $((t3 - t0)) s after the start (both beside the venv and each other), conversion $((t4 - t3)) s; .real-engine/engine -> $engine, .real-engine/model -> $model" >&2
