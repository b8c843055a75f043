#!/usr/bin/env bash
# Builds llama.cpp's `llama-server`, `llama-quantize` and `llama-perplexity` (the reference for
# token-level fidelity: its --kl-divergence) once per machine, from the llama.cpp
# sources that the pinned llama-cpp-python sdist on PyPI vendors (no other download), into a
# cache outside the repository that every clone on the machine shares. Idempotent: a complete
# build whose key matches is reused; prints the engine folder on its last line.
#
# Why portable flags: with GGML_NATIVE=ON the compiler targets every feature the build CPU
# advertises (AVX-512, AMX), and a sandboxed or different CPU then dies with SIGILL (exit 132,
# nothing in the log) as soon as a Q4_0 or Q8_0 model loads. AVX2/FMA/F16C run on any x86-64
# CPU of the last decade, so a cached build also runs on the next machine. How the compile is
# shortened without touching the sources (unity builds, Ninja): build-speed.cmake and below.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/real-engine/common.sh
source "$root/scripts/real-engine/common.sh"

engine_dir=$(engine_dir)
if [ -x "$engine_dir/bin/llama-perplexity" ] && [ -f "$engine_dir/.complete" ]; then
  echo "build-engine: reusing $engine_dir" >&2
  echo "$engine_dir"
  exit 0
fi

mkdir -p "$(dirname "$engine_dir")"
# One build at a time per machine: the pretest hook and a test's setup may both ask.
exec 9>"$engine_dir.lock"
flock 9
if [ -x "$engine_dir/bin/llama-perplexity" ] && [ -f "$engine_dir/.complete" ]; then
  echo "$engine_dir"
  exit 0
fi

work=$(mktemp -d "$engine_dir.build.XXXXXX")
trap 'rm -rf "$work"' EXIT
start=$(date +%s)
echo "build-engine: building llama.cpp from llama-cpp-python==$LLAMA_CPP_PYTHON_VERSION into $engine_dir (a few minutes, once per machine)" >&2
# --no-binary names the one package: with :all: pip also builds the sdist's build requirements
# (scikit-build-core, hatchling, ...) from source, one nested isolated install after another, to
# read its metadata: over ten minutes on the shared 2-core machine against 49 s for the same file
# (same sha256) this way.
python3 -m pip download --quiet --no-deps --no-binary llama-cpp-python --dest "$work/sdist" \
  "llama-cpp-python==$LLAMA_CPP_PYTHON_VERSION" 2>&1 | (grep -v 'is ignored: it is neither a file nor a directory' || true) >&2
tar -xzf "$work"/sdist/llama_cpp_python-*.tar.gz -C "$work"
src=$(echo "$work"/llama_cpp_python-*/vendor/llama.cpp)
[ -f "$src/CMakeLists.txt" ] || { echo "build-engine: no vendor/llama.cpp in the sdist" >&2; exit 1; }

# shellcheck disable=SC2207
flags=($(engine_cmake_flags))
# Ninja where it is installed: with Make a library's units wait until the libraries it links are
# built, so one core idles through each single-unit step (cpp-httplib, a library's last unit);
# Ninja starts them as soon as their headers exist. The same compiler commands in another order; on the
# 2-core machine about a sixth less time (docs/real-engine.md "The first run, compiled faster").
generator="Unix Makefiles"
if command -v ninja >/dev/null 2>&1; then
  generator=Ninja
else
  echo "build-engine: no ninja on PATH, building with make (slower by about a sixth; Debian: apt-get install ninja-build)" >&2
fi
cmake -G "$generator" -S "$src" -B "$work/build" "${flags[@]}" -DCMAKE_PROJECT_llama.cpp_INCLUDE="$(engine_build_speed)" \
  >"$work/cmake.log" 2>&1 || { cat "$work/cmake.log" >&2; exit 1; }
cmake --build "$work/build" --parallel "$(nproc)" --target $(engine_targets) >"$work/build.log" 2>&1 \
  || { tail -50 "$work/build.log" >&2; exit 1; }

out="$work/out"
mkdir -p "$out/bin"
for target in $(engine_targets); do cp "$work/build/bin/$target" "$out/bin/"; done
# The converter and its gguf package from the same sources, so the GGUF writer matches the server.
cp "$src/convert_hf_to_gguf.py" "$out/"
cp -r "$src/gguf-py" "$out/gguf-py"
[ -d "$src/conversion" ] && cp -r "$src/conversion" "$out/conversion"
end=$(date +%s)
{
  echo "llama-cpp-python $LLAMA_CPP_PYTHON_VERSION"
  echo "flags ${flags[*]}"
  echo "project_include build-speed.cmake $(sha256sum <"$(engine_build_speed)" | cut -c1-12)"
  echo "generator $generator"
  echo "build_seconds $((end - start))"
  echo "built_at $(date -u +%Y-%m-%dT%H:%M:%SZ)"
} >"$out/BUILD-INFO"
touch "$out/.complete"
rm -rf "$engine_dir"
mv "$out" "$engine_dir"
echo "build-engine: built in $((end - start)) s" >&2
echo "$engine_dir"
