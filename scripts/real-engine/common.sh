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

engine_dir() {
  local key
  key=$(echo "$LLAMA_CPP_PYTHON_VERSION $(engine_cmake_flags) $(engine_targets)" | sha256sum | cut -c1-12)
  echo "$(cache_root)/llama.cpp-$LLAMA_CPP_PYTHON_VERSION-$key"
}
