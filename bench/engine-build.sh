#!/usr/bin/env bash
# Compile time of the real-engine example's llama.cpp targets, one build per variant, back to back
# on the same sources and the same machine: the project's flags as they are (the named
# alternative) and with a unity build (-DCMAKE_UNITY_BUILD=ON: the compile units of each target
# batched into a few large ones, so the shared headers are parsed once per batch, not per file).
# Prints the seconds of each build, the load average around it and the ratio. Minutes of CPU:
# not part of `npm run bench`; run it alone (a second build beside it distorts both figures).
# With llama-cpp-python 0.3.36 the unity variant does not compile (common/json.cpp and
# tools/mtmd/mtmd-helper*.cpp refuse to share a unit: docs/real-engine.md "Measured"), so it
# stops there with the compiler's errors; it is kept to measure a version or patch that builds.
#   bash bench/engine-build.sh [variant...]     (variants: plain unity; default: both)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/real-engine/common.sh
source "$root/scripts/real-engine/common.sh"

variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(plain unity)
work=$(mktemp -d "${TMPDIR:-/tmp}/engine-build-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

python3 -m pip download --quiet --no-deps --no-binary llama-cpp-python --dest "$work/sdist" \
  "llama-cpp-python==$LLAMA_CPP_PYTHON_VERSION" 2>&1 | (grep -v 'is ignored: it is neither a file nor a directory' || true) >&2
tar -xzf "$work"/sdist/llama_cpp_python-*.tar.gz -C "$work"
src=$(echo "$work"/llama_cpp_python-*/vendor/llama.cpp)

# shellcheck disable=SC2207
flags=($(engine_cmake_flags))
declare -A seconds
for variant in "${variants[@]}"; do
  extra=()
  case "$variant" in
    plain) ;;
    unity) extra=(-DCMAKE_UNITY_BUILD=ON) ;;
    *) echo "engine-build: unknown variant '$variant' (plain, unity)" >&2; exit 2 ;;
  esac
  build="$work/build-$variant"
  load_before=$(cut -d' ' -f1-3 /proc/loadavg)
  start=$(date +%s)
  cmake -S "$src" -B "$build" "${flags[@]}" "${extra[@]}" >"$work/cmake-$variant.log" 2>&1 \
    || { cat "$work/cmake-$variant.log" >&2; exit 1; }
  # shellcheck disable=SC2046
  cmake --build "$build" --parallel "$(nproc)" --target $(engine_targets) >"$work/make-$variant.log" 2>&1 \
    || { tail -30 "$work/make-$variant.log" >&2; exit 1; }
  end=$(date +%s)
  seconds[$variant]=$((end - start))
  units=$(grep -c 'Building C' "$work/make-$variant.log" || true)
  echo "engine-build: $variant: $((end - start)) s for $(engine_targets) with $(nproc) jobs, $units compile units (load average before ${load_before}, after $(cut -d' ' -f1-3 /proc/loadavg))"
done
if [ -n "${seconds[plain]:-}" ] && [ -n "${seconds[unity]:-}" ]; then
  echo "engine-build: unity/plain = $(awk -v u="${seconds[unity]}" -v p="${seconds[plain]}" 'BEGIN { printf "%.2f", u / p }')"
fi
