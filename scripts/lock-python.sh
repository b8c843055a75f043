#!/usr/bin/env bash
# Resolves the Python locks again, on purpose: `bash scripts/lock-python.sh [NAME...]` (default:
# every python/locks/*.in). Each NAME.in is resolved with uv for CPython 3.11 on x86-64 Linux into
# NAME.txt with every package pinned and every file hashed; its first line records the sha256 of
# NAME.in, so a lock left behind after its inputs changed is refused (scripts/python-lock.sh).
# An input file may give the resolver arguments of its own on `# lock-args:` lines (helm.in leaves
# torchvision out, helm-0.2-nodeps.in resolves no dependencies).
# How to move a pin: docs/development.md "Python environments and their locks".
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/python-lock.sh
source "$root/scripts/python-lock.sh"

names=("$@")
if [ ${#names[@]} -eq 0 ]; then
  for f in "$lock_dir"/*.in; do names+=("$(basename "$f" .in)"); done
fi

tools=$(mktemp -d)
trap 'rm -rf "$tools"' EXIT
lock_install_uv "$tools/venv"
uv_args=()
while IFS= read -r arg; do uv_args+=("$arg"); done < <(lock_uv_args)

for name in "${names[@]}"; do
  [ -f "$lock_dir/$name.in" ] || { echo "lock-python: no python/locks/$name.in" >&2; exit 2; }
  own_args=()
  for arg in $(sed -n 's/^# lock-args: //p' "$lock_dir/$name.in"); do own_args+=("$arg"); done
  (cd "$lock_dir" && "$tools/venv/bin/uv" pip compile --quiet --generate-hashes --no-header \
    --python-version 3.11 --python-platform x86_64-manylinux_2_28 \
    "${uv_args[@]}" ${own_args[@]+"${own_args[@]}"} "$name.in" -o "$tools/$name.txt")
  {
    echo "# inputs-sha256: $(lock_inputs_sha "$name")"
    echo "# Resolved from $name.in by scripts/lock-python.sh (uv $lock_uv_version, CPython 3.11, x86-64 Linux). Do not edit by hand."
    cat "$tools/$name.txt"
  } > "$lock_dir/$name.txt"
  echo "lock-python: python/locks/$name.txt: $(lock_pins "$name" | wc -l) packages"
done
