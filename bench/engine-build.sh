#!/usr/bin/env bash
# Compile time of the real-engine example's llama.cpp targets, one build per variant, back to back
# on the same sources and the same machine: `plain`, upstream's build (the project's flags, Make:
# the named alternative), and `fast`, what build-engine.sh does (the same flags with
# build-speed.cmake, unity builds for common/ and mtmd and mtmd at -O0, and Ninja where installed).
# Prints each build's seconds, its CPU seconds, the load average around it and the ratios.
# Minutes of CPU: not part of `npm run bench`; run it alone (a second build beside it distorts both
# figures).
#   bash bench/engine-build.sh [variant...]     (variants: plain fast; default: both)
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/real-engine/common.sh
source "$root/scripts/real-engine/common.sh"

variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=(plain fast)
work=$(mktemp -d "${TMPDIR:-/tmp}/engine-build-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

python3 -m pip download --quiet --no-deps --no-binary llama-cpp-python --dest "$work/sdist" \
  "llama-cpp-python==$LLAMA_CPP_PYTHON_VERSION" 2>&1 | (grep -v 'is ignored: it is neither a file nor a directory' || true) >&2
tar -xzf "$work"/sdist/llama_cpp_python-*.tar.gz -C "$work"
src=$(echo "$work"/llama_cpp_python-*/vendor/llama.cpp)

# shellcheck disable=SC2207
flags=($(engine_cmake_flags))
declare -A seconds cpu
for variant in "${variants[@]}"; do
  extra=(-G "Unix Makefiles")
  case "$variant" in
    plain) ;;
    fast)
      extra=(-DCMAKE_PROJECT_llama.cpp_INCLUDE="$(engine_build_speed)")
      if command -v ninja >/dev/null 2>&1; then extra+=(-G Ninja); else extra+=(-G "Unix Makefiles"); fi
      ;;
    *) echo "engine-build: unknown variant '$variant' (plain, fast)" >&2; exit 2 ;;
  esac
  build="$work/build-$variant"
  load_before=$(cut -d' ' -f1-3 /proc/loadavg)
  start=$(date +%s)
  cmake -S "$src" -B "$build" "${flags[@]}" "${extra[@]}" >"$work/cmake-$variant.log" 2>&1 \
    || { cat "$work/cmake-$variant.log" >&2; exit 1; }
  # shellcheck disable=SC2046
  # The CPU seconds (user + sys) of this shell's finished children, before and after: bash's
  # `times`, run in this shell (in a pipe or $(...) it would report a subshell's children).
  times >"$work/times"
  cpu_before=$(tail -1 "$work/times")
  cmake --build "$build" --parallel "$(nproc)" --target $(engine_targets) >"$work/build-$variant.log" 2>&1 \
    || { tail -30 "$work/build-$variant.log" >&2; exit 1; }
  times >"$work/times"
  cpu_after=$(tail -1 "$work/times")
  end=$(date +%s)
  seconds[$variant]=$((end - start))
  cpu[$variant]=$(echo "$cpu_before $cpu_after" | awk 'function s(t) { split(t, p, "m"); return p[1] * 60 + p[2] } { printf "%.0f", s($3) + s($4) - s($1) - s($2) }')
  echo "engine-build: $variant: $((end - start)) s, CPU ${cpu[$variant]} s, for $(engine_targets) with $(nproc) jobs (load average before ${load_before}, after $(cut -d' ' -f1-3 /proc/loadavg))"
done
if [ -n "${seconds[plain]:-}" ] && [ -n "${seconds[fast]:-}" ]; then
  echo "engine-build: fast/plain = $(awk -v f="${seconds[fast]}" -v p="${seconds[plain]}" 'BEGIN { printf "%.2f", f / p }') in time, $(awk -v f="${cpu[fast]}" -v p="${cpu[plain]}" 'BEGIN { printf "%.2f", f / p }') in CPU"
fi
