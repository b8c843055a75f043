#!/usr/bin/env bash
# Makes the real-engine example's model once per machine, offline and seeded: the addition task
# (custom_mcqa JSONL), a tiny Llama trained on it on the CPU with a SentencePiece tokenizer,
# converted to GGUF F16 by llama.cpp's converter and quantized to Q8_0, Q4_0 and Q2_K by its
# quantizer. Writes manifest.json with every file's sha256 and the times taken. Idempotent: a
# complete folder whose key (the scripts, the engine build) matches is reused. Prints the model
# folder on its last line.
#
# Needs the engine (build-engine.sh, run first here) and the HELM venv (scripts/python-env.sh:
# torch, transformers, sentencepiece, protobuf).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
here="$root/scripts/real-engine"
# shellcheck source=scripts/real-engine/common.sh
source "$here/common.sh"
venv="${HELM_GATE_VENV:-$root/.venv}"

engine=$(bash "$here/build-engine.sh" | tail -1)
key=$(cat "$here/make_task.py" "$here/train_model.py" "$here/make-model.sh" "$root/src/load/workload.ts" \
  | { cat; echo "$engine"; } | sha256sum | cut -c1-12)
model_dir="$(cache_root)/real-cpu-model-$key"
if [ -f "$model_dir/manifest.json" ]; then
  echo "make-model: reusing $model_dir" >&2
  echo "$model_dir"
  exit 0
fi

mkdir -p "$(cache_root)"
exec 9>"$model_dir.lock"
flock 9
if [ -f "$model_dir/manifest.json" ]; then
  echo "$model_dir"
  exit 0
fi

work=$(mktemp -d "$model_dir.build.XXXXXX")
trap 'rm -rf "$work"' EXIT
python="$venv/bin/python"
echo "make-model: training the real-engine example's model into $model_dir (minutes, once per machine)" >&2
t0=$(date +%s)
"$python" "$here/make_task.py" --out "$work/addition.jsonl"
"$python" "$here/train_model.py" --out "$work/hf" >&2
t1=$(date +%s)
PYTHONPATH="$engine/gguf-py" "$python" "$engine/convert_hf_to_gguf.py" "$work/hf" --outtype f16 \
  --outfile "$work/model-F16.gguf" >"$work/convert.log" 2>&1 || { tail -30 "$work/convert.log" >&2; exit 1; }
for type in Q8_0 Q4_0 Q2_K; do
  "$engine/bin/llama-quantize" "$work/model-F16.gguf" "$work/model-$type.gguf" "$type" >"$work/quantize-$type.log" 2>&1 \
    || { tail -30 "$work/quantize-$type.log" >&2; exit 1; }
done
t2=$(date +%s)

# HELM's tokenizer folder: what transformers reads, nothing else (no weights).
mkdir -p "$work/tokenizer"
cp "$work/hf/tokenizer.model" "$work/hf/tokenizer.json" "$work/hf/tokenizer_config.json" "$work/tokenizer/"
cp "$work/hf/training.json" "$work/training.json"
rm -rf "$work/hf"

"$python" - "$work" "$engine" $((t1 - t0)) $((t2 - t1)) <<'PY'
import hashlib, json, os, sys
work, engine, train_seconds, convert_seconds = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
files = {}
for folder, _, names in os.walk(work):
    for name in sorted(names):
        path = os.path.join(folder, name)
        rel = os.path.relpath(path, work)
        if rel.endswith(".log"):
            continue
        with open(path, "rb") as f:
            files[rel] = {"sha256": hashlib.sha256(f.read()).hexdigest(), "bytes": os.path.getsize(path)}
manifest = {
    "engine": engine,
    "engine_build": open(os.path.join(engine, "BUILD-INFO")).read().splitlines(),
    "training": json.load(open(os.path.join(work, "training.json"))),
    "seconds": {"task_and_training": train_seconds, "convert_and_quantize": convert_seconds},
    "files": dict(sorted(files.items())),
}
json.dump(manifest, open(os.path.join(work, "manifest.json.tmp"), "w"), indent=2)
PY
rm -f "$work"/*.log
mv "$work/manifest.json.tmp" "$work/manifest.json"
rm -rf "$model_dir"
mv "$work" "$model_dir"
trap - EXIT
echo "make-model: done in $((t2 - t0)) s" >&2
echo "$model_dir"
