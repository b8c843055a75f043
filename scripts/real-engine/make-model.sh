#!/usr/bin/env bash
# Makes the real-engine example's model once per machine, offline and seeded, in two steps:
#   make-model.sh train   the addition task (custom_mcqa JSONL) and a tiny Llama trained on it on
#                         the CPU with a SentencePiece tokenizer, into real-cpu-trained-<key>/:
#                         copied from the committed examples/real-cpu/trained-model when that was
#                         made by these scripts (its KEY), trained here otherwise. Never needs the
#                         engine; training needs the HELM venv (torch), so prepare.sh runs it
#                         while llama.cpp compiles.
#   make-model.sh         the above (reused when done), then the trained model converted to GGUF
#                         F16 by llama.cpp's converter and quantized to Q8_0, Q4_0 and Q2_K by its
#                         quantizer, into real-cpu-model-<key>/ with manifest.json (every file's
#                         sha256 and the times taken).
# Idempotent: a complete folder whose key matches is reused (the trained one: the task and
# training scripts and the load words; the model: those, this script and the engine build), so a
# new engine build converts again without training again. Prints the folder on its last line.
#
# Needs the HELM venv (scripts/python-env.sh: torch, transformers, sentencepiece, protobuf) and,
# for the second step, the engine (build-engine.sh; it waits for a build under way).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
here="$root/scripts/real-engine"
# shellcheck source=scripts/real-engine/common.sh
source "$here/common.sh"
venv="${HELM_GATE_VENV:-$root/.venv}"
python="$venv/bin/python"
step="${1:-model}"
case "$step" in
  train | model) ;;
  *) echo "make-model: unknown step '$step' (train, or none for the whole model)" >&2; exit 2 ;;
esac

trained_dir=$(trained_dir)
mkdir -p "$(cache_root)"

# The task and the trained Hugging Face folder. The committed one (examples/real-cpu/trained-model)
# when its KEY is these scripts' key: it is what they train, byte for byte (check-trained.sh trains
# again and compares), and copying it takes a second where training takes 6 to 7 CPU minutes,
# the largest part of a first run after the compile. Otherwise (the scripts changed and the
# committed folder was not made again) it trains here, as it did before, and says why.
if [ ! -f "$trained_dir/training.json" ]; then
  exec 8>"$trained_dir.lock"
  flock 8
  if [ ! -f "$trained_dir/training.json" ]; then
    work=$(mktemp -d "$trained_dir.build.XXXXXX")
    trap 'rm -rf "$work"' EXIT
    committed=$(committed_trained_dir)
    committed_key=$(cat "$committed/KEY" 2>/dev/null || echo none)
    t0=$(date +%s)
    if [ "$committed_key" = "$(trained_key)" ]; then
      echo "make-model: taking the committed trained model ($committed, key $committed_key) into $trained_dir" >&2
      cp -r "$committed/." "$work/"
      (cd "$work" && sha256sum --quiet --check SHA256SUMS) >&2 \
        || { echo "make-model: $committed does not match its SHA256SUMS (see above): check out the folder again, or make it with bash scripts/real-engine/check-trained.sh --write" >&2; exit 1; }
    else
      echo "make-model: the committed trained model is for other training scripts (its KEY: $committed_key; these scripts: $(trained_key)); training here instead (minutes, once per machine; bash scripts/real-engine/check-trained.sh --write makes the committed one again)" >&2
      echo "make-model: training the real-engine example's model into $trained_dir (minutes, once per machine)" >&2
      train_into "$python" "$work"
    fi
    echo $(($(date +%s) - t0)) >"$work/seconds"
    rm -rf "$trained_dir"
    mv "$work" "$trained_dir"
    trap - EXIT
    echo "make-model: trained model ready in $(cat "$trained_dir/seconds") s" >&2
  fi
  exec 8>&-
else
  echo "make-model: reusing $trained_dir" >&2
fi
if [ "$step" = train ]; then
  echo "$trained_dir"
  exit 0
fi

engine=$(bash "$here/build-engine.sh" | tail -1)
key=$(cat "$here/make-model.sh" | { cat; echo "$trained_dir"; echo "$engine"; } | sha256sum | cut -c1-12)
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
echo "make-model: converting and quantizing the trained model into $model_dir" >&2
t1=$(date +%s)
PYTHONPATH="$engine/gguf-py" "$python" "$engine/convert_hf_to_gguf.py" "$trained_dir/hf" --outtype f16 \
  --outfile "$work/model-F16.gguf" >"$work/convert.log" 2>&1 || { tail -30 "$work/convert.log" >&2; exit 1; }
for type in Q8_0 Q4_0 Q2_K; do
  "$engine/bin/llama-quantize" "$work/model-F16.gguf" "$work/model-$type.gguf" "$type" >"$work/quantize-$type.log" 2>&1 \
    || { tail -30 "$work/quantize-$type.log" >&2; exit 1; }
done
t2=$(date +%s)

# HELM's tokenizer folder: what transformers reads, nothing else (no weights).
mkdir -p "$work/tokenizer"
cp "$trained_dir/hf/tokenizer.model" "$trained_dir/hf/tokenizer.json" "$trained_dir/hf/tokenizer_config.json" "$work/tokenizer/"
cp "$trained_dir/addition.jsonl" "$trained_dir/training.json" "$work/"

"$python" - "$work" "$engine" "$(cat "$trained_dir/seconds")" $((t2 - t1)) <<'PY'
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
echo "make-model: converted and quantized in $((t2 - t1)) s" >&2
echo "$model_dir"
