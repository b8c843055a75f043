#!/usr/bin/env bash
# Creates (or reuses) the Python virtual environment with the pinned HELM that helm-gate's
# tests, demo and benchmarks run. Idempotent: a venv whose stamp matches is reused as is.
#
# Why these pins (python/locks/helm.in): crfm-helm depends on torch and torchvision. Asking for
# torch without a pin pulls a multi-GB CUDA build; the CPU wheel of torch 2.13.0 is what we want, and
# torchvision 0.28.0 is the release built for torch 2.13 (so the resolver keeps the CPU torch).
# HELM's offline scenarios never import torchvision (docs/helm.md "Python dependencies").
#
# Why torchvision is then left out of the lock: that torchvision wheel is built against the CUDA torch,
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
# The pins above are the lock's inputs (python/locks/helm.in). Every package installed, theirs and
# their dependencies', comes from the committed lock python/locks/helm.txt with its hashes, so a
# venv made next month holds the same files (docs/development.md "Python environments and their
# locks"). A lock left stale by a changed input is refused here, before anything installs.
# shellcheck source=scripts/python-lock.sh
source "$root/scripts/python-lock.sh"
check_lock helm
stamp=$(lock_stamp helm)

if [ -f "$venv/.helm-gate-stamp" ] && [ "$(cat "$venv/.helm-gate-stamp")" = "$stamp" ] \
  && "$venv/bin/python" -c "import helm" 2>/dev/null; then
  # A venv made from this lock that holds something else since (a hand-run pip install) is
  # refused, not repaired around.
  lock_freeze "$venv" | check_installed_against_lock "$venv" helm
  echo "python-env: reusing $venv (python/locks/helm.txt)"
  exit 0
fi

echo "python-env: creating $venv from python/locks/helm.txt"
rm -rf "$venv"
python3 -m venv --without-pip "$venv"
# Why uv: it installs the same packages (the same versions, checked against pip's freeze) in
# 118 s where pip took 182 s, both with empty caches on the quiet 2-core machine (docs/real-engine.md
# "Measured"); every fresh venv (`npm test`'s set-up, the demos) waits for it. From the lock it
# takes 57 s (docs/development.md "Python environments and their locks").
lock_install_uv "$venv/.uv"
# torchvision is not in the lock (see above), so nothing installs it; --require-hashes (in
# lock_sync) refuses any file whose hash the lock does not list.
lock_sync "$venv/.uv/bin/uv" "$venv" helm
lock_freeze "$venv" | check_installed_against_lock "$venv" helm
# Fail here, not in the first gate, if a Hugging Face tokenizer cannot load in this venv.
"$venv/bin/python" -c "import transformers.models.llama, sentencepiece.sentencepiece_model_pb2; from transformers import AutoTokenizer"

"$venv/bin/python" - <<'PY'
import importlib.metadata as m
print("python-env: crfm-helm", m.version("crfm-helm"), "torch", m.version("torch"), "transformers", m.version("transformers"))
PY
echo "$stamp" > "$venv/.helm-gate-stamp"
