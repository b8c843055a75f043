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

t0=$(date +%s)
bash scripts/python-env.sh >&2
t1=$(date +%s)
engine=$(bash "$here/build-engine.sh" | tail -1)
t2=$(date +%s)
model=$(bash "$here/make-model.sh" | tail -1)
t3=$(date +%s)
mkdir -p .real-engine
ln -sfn "$engine" .real-engine/engine
ln -sfn "$model" .real-engine/model
echo "real-engine: venv $((t1 - t0)) s, engine $((t2 - t1)) s, model $((t3 - t2)) s; .real-engine/engine -> $engine, .real-engine/model -> $model" >&2
