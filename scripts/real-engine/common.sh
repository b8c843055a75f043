# Shared settings of the real-engine scripts (sourced, not run). The cache lives outside the
# repository so every clone on one machine reuses the engine and the model; its folder names
# carry the version and flags, so a change of either builds afresh beside the old one.
LLAMA_CPP_PYTHON_VERSION="0.3.36"

cache_root() {
  echo "${HELM_GATE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/helm-gate}"
}

engine_cmake_flags() {
  echo -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
    -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON \
    -DGGML_AVX512=OFF -DGGML_OPENMP=OFF \
    -DLLAMA_CURL=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_SERVER=ON
}

# The programs built: the server, the quantizer, and llama-perplexity (its --kl-divergence is
# the reference the fidelity measurement is checked against).
engine_targets() {
  echo llama-server llama-quantize llama-perplexity
}

# The project include that shortens the compile (unity builds, -O0 for the unused multimodal
# library): see its own comment.
engine_build_speed() {
  echo "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/build-speed.cmake"
}

engine_dir() {
  local key
  key=$( (echo "$LLAMA_CPP_PYTHON_VERSION $(engine_cmake_flags) $(engine_targets)"; cat "$(engine_build_speed)") | sha256sum | cut -c1-12)
  echo "$(cache_root)/llama.cpp-$LLAMA_CPP_PYTHON_VERSION-$key"
}

# The key of the trained model: what decides the weights, the task and training scripts and the
# load half's words (the tokenizer learns them), not the engine, so a new engine build converts
# the same weights again without training again.
trained_key() {
  local here
  here=$(dirname "${BASH_SOURCE[0]}")
  cat "$here/make_task.py" "$here/train_model.py" "$here/../../src/load/workload.ts" | sha256sum | cut -c1-12
}

# The trained model's folder in the cache (make-model.sh train).
trained_dir() {
  echo "$(cache_root)/real-cpu-trained-$(trained_key)"
}

# The trained model as committed (KEY, SHA256SUMS, the task and the Hugging Face folder): what
# train_model.py made from the scripts whose key KEY holds. A first run takes it instead of
# training for 6 to 7 CPU minutes; check-trained.sh trains again and compares the bytes.
committed_trained_dir() {
  echo "$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/examples/real-cpu/trained-model"
}

# Makes the task and trains the model into folder $2 (created) with the venv's Python $1:
# addition.jsonl, hf/ and training.json. Single-threaded and seeded (train_model.py), so the
# weights are the same bytes whether or not a compiler runs beside it.
train_into() {
  local python=$1 out=$2 here
  here=$(dirname "${BASH_SOURCE[0]}")
  mkdir -p "$out"
  "$python" "$here/make_task.py" --out "$out/addition.jsonl"
  "$python" "$here/train_model.py" --out "$out/hf" >&2
  mv "$out/hf/training.json" "$out/training.json"
}

# Runs a step of the first-run preparation with a line on stderr every
# HELM_GATE_PROGRESS_SECONDS (60) saying how long it has run and how long it took when measured,
# so a first run that takes many minutes is never mistaken for a hang. The step's stdout is kept
# (its last line is the folder it made); the ticker writes only to stderr, so a caller's $(...)
# does not wait for it.
#   with_progress LABEL EXPECTED cmd...   (EXPECTED: "about 5 min quiet, 13 busy")
with_progress() {
  local label=$1 expected=$2
  shift 2
  local start every status=0
  start=$(date +%s)
  every=${HELM_GATE_PROGRESS_SECONDS:-60}
  (
    # The sleep is waited for, so that TERM ends it too: a sleep left behind would hold the
    # caller's stderr open (a pipe to tee, say) for up to a minute.
    trap 'kill "$nap" 2>/dev/null; exit 0' TERM
    while :; do
      sleep "$every" &
      nap=$!
      wait "$nap"
      echo "real-engine: $label: $(( ($(date +%s) - start) / 60 )) min $(( ($(date +%s) - start) % 60 )) s so far ($expected on a 2-core machine; first run only)"
    done
  ) >&2 &
  local ticker=$!
  "$@" || status=$?
  kill "$ticker" 2>/dev/null || true
  wait "$ticker" 2>/dev/null || true
  return "$status"
}
