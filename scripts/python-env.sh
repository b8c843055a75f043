#!/usr/bin/env bash
# Creates (or reuses) the Python virtual environment with the pinned HELM that helm-gate's
# tests, demo and benchmarks run. Idempotent: a venv whose stamp matches is reused as is.
#
# Why these pins: crfm-helm depends on torch and torchvision. Asking for torch without a pin
# pulls a multi-GB CUDA build; the CPU wheel of torch 2.13.0 is what we want, and
# torchvision 0.28.0 is the release built for torch 2.13 (so the resolver keeps the CPU torch).
# HELM's offline scenarios never import torchvision (docs/helm.md "Python dependencies").
#
# Why torchvision is then removed again: that torchvision wheel is built against the CUDA torch,
# and beside the CPU torch its import fails (`operator torchvision::nms does not exist`).
# transformers imports torchvision whenever it is installed, so every gate whose tokenizer is a
# Hugging Face folder (a real engine's own tokenizer) failed in helm-run. crfm-helm lists it as a
# dependency, but nothing on the text scenarios' path uses it.
# sentencepiece and protobuf: transformers needs both to load a folder whose tokenizer is a
# SentencePiece `tokenizer.model` (without protobuf it falls back to a tiktoken reader that
# fails), and llama.cpp's converter reads the model through sentencepiece's protobuf module. The
# real-engine example's model is trained with it (scripts/real-engine/).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
venv="${HELM_GATE_VENV:-$root/.venv}"
helm_version="0.5.16"
torch_version="2.13.0"
torchvision_version="0.28.0"
sentencepiece_version="0.2.2"
protobuf_version="6.33.6"
uv_version="0.13.9"
stamp="crfm-helm[openai]==$helm_version torch==$torch_version sentencepiece==$sentencepiece_version protobuf==$protobuf_version -torchvision nltk:punkt_tab"

if [ -f "$venv/.helm-gate-stamp" ] && [ "$(cat "$venv/.helm-gate-stamp")" = "$stamp" ] \
  && "$venv/bin/python" -c "import helm" 2>/dev/null; then
  echo "python-env: reusing $venv (crfm-helm $helm_version)"
  exit 0
fi

echo "python-env: creating $venv with crfm-helm[openai]==$helm_version"
python3 -m venv "$venv"
# This machine's pip config lists local indexes that hold only some packages; pip warns once per
# package it does not find there. The warnings are noise, real errors still fail the script.
quiet_pip() { "$venv/bin/python" -m pip install --quiet "$@" 2>&1 | (grep -v 'is ignored: it is neither a file nor a directory' || true); }
# Why uv: it installs the same packages (the same versions, checked against pip's freeze) in
# 118 s where pip took 182 s, both with empty caches on the quiet 2-core machine (docs/real-engine.md
# "Measured"); every fresh venv (`npm test`'s set-up, the demos) waits for it. uv is pinned and
# lives in the venv; it reads no pip.conf, so pip's configured indexes, find-links and
# constraints are handed to it (scripts/uv-pip-args.py), and `unsafe-best-match` picks the best
# version across all indexes, as pip does (uv's default takes the first index that has a package).
# --compile-bytecode: pip writes the .pyc files at install, uv does not by default, and where
# PYTHONDONTWRITEBYTECODE is set (this machine) every Python start then compiled its imports again
# (importing HELM's runner: 1.70 s against 0.57 s); the real-engine demo's gate took 66 s, not 34.
quiet_pip "uv==$uv_version"
uv_args=()
while IFS= read -r arg; do uv_args+=("$arg"); done < <(python3 -m pip config list 2>/dev/null | python3 "$root/scripts/uv-pip-args.py")
# Where no CPU wheel of torch is at hand (a GitHub runner), HELM_GATE_TORCH_INDEX can name a
# package index that serves CPU builds, so no multi-GB CUDA build is fetched.
[ -n "${HELM_GATE_TORCH_INDEX:-}" ] && uv_args+=(--extra-index-url "$HELM_GATE_TORCH_INDEX")
uv() { "$venv/bin/uv" "$@" --quiet --python "$venv/bin/python"; }
# torchvision is named so that the resolver keeps the CPU torch (see above), then removed again.
uv pip install --compile-bytecode --index-strategy unsafe-best-match "${uv_args[@]}" "torch==$torch_version" \
  "torchvision==$torchvision_version" "crfm-helm[openai]==$helm_version" \
  "sentencepiece==$sentencepiece_version" "protobuf==$protobuf_version"
uv pip uninstall torchvision
# Fail here, not in the first gate, if a Hugging Face tokenizer cannot load in this venv.
"$venv/bin/python" -c "import transformers.models.llama, sentencepiece.sentencepiece_model_pb2; from transformers import AutoTokenizer"

"$venv/bin/python" - <<'PY'
import importlib.metadata as m
print("python-env: crfm-helm", m.version("crfm-helm"), "torch", m.version("torch"))
PY
echo "$stamp" > "$venv/.helm-gate-stamp"
