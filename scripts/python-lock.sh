# Sourced by the scripts that make a Python venv (scripts/python-env.sh, scripts/lm-eval-env.sh,
# scripts/helm-0.2-env.sh, bench/load-peers-env.sh) and by scripts/lock-python.sh: the committed
# locks in python/locks/ and the checks around them (docs/development.md "Python environments and
# their locks"). Expects $root, the repository's root.
#
# A lock (NAME.txt) is resolved from its inputs (NAME.in) with every package pinned and every file
# hashed, so two machines a month apart install the same files. Its first line records the sha256
# of the inputs it was resolved from: a lock whose inputs changed since is stale, and nothing
# installs from it until scripts/lock-python.sh resolves it again.

lock_dir="$root/python/locks"
# uv resolves the locks and installs from them; pinned, as every other tool.
lock_uv_version="0.13.9"

lock_inputs_sha() { sha256sum "$lock_dir/$1.in" | cut -d' ' -f1; }
lock_sha() { sha256sum "$lock_dir/$1.txt" | cut -d' ' -f1; }

# Fails, naming the files and the script that fixes it, when NAME.txt is missing or stale.
check_lock() {
  local name=$1 lock="$lock_dir/$1.txt" recorded
  [ -f "$lock_dir/$name.in" ] || { echo "python-lock: python/locks/$name.in is missing" >&2; return 3; }
  [ -f "$lock" ] || { echo "python-lock: python/locks/$name.txt is missing: run bash scripts/lock-python.sh $name" >&2; return 3; }
  recorded=$(sed -n '1s/^# inputs-sha256: //p' "$lock")
  if [ "$recorded" != "$(lock_inputs_sha "$name")" ]; then
    echo "python-lock: python/locks/$name.txt is stale against python/locks/$name.in (inputs-sha256 ${recorded:-none}, inputs now $(lock_inputs_sha "$name")): run bash scripts/lock-python.sh $name" >&2
    return 3
  fi
}

# name==version of every package NAME.txt pins, lower case, sorted.
lock_pins() { grep -E '^[A-Za-z0-9._-]+==' "$lock_dir/$1.txt" | sed 's/ .*//' | tr 'A-Z_' 'a-z-' | sort; }

# Fails, listing the differences, when a venv's installed set is not exactly what its locks pin.
# Usage: lock_freeze VENV | check_installed_against_lock VENV NAME... [+name==version...]
# (a `+` argument is a package installed beside the locks, as helm-0.2's patched pyext).
check_installed_against_lock() {
  local venv=$1 arg diff_out names=() extra=()
  shift
  for arg in "$@"; do
    case $arg in +*) extra+=("${arg#+}") ;; *) names+=("$arg") ;; esac
  done
  diff_out=$(diff <({ for arg in "${names[@]}"; do lock_pins "$arg"; done; printf '%s\n' ${extra[@]+"${extra[@]}"}; } | sed '/^$/d' | sort) \
    <(grep -E '==' | tr 'A-Z_' 'a-z-' | sort) || true)
  if [ -n "$diff_out" ]; then
    echo "python-lock: the venv $venv differs from python/locks/${names[*]/%/.txt} ('<' locked, '>' installed):" >&2
    echo "$diff_out" | sed 's/^/  /' >&2
    echo "python-lock: nothing is installed around the lock: delete $venv and run the script that made it again (a changed pin: bash scripts/lock-python.sh ${names[*]})" >&2
    return 3
  fi
}

# The venv stamp: the locks' own hashes, so a venv is made again whenever a lock moves.
lock_stamp() {
  local name out=""
  for name in "$@"; do out+="python/locks/$name.txt sha256:$(lock_sha "$name") "; done
  echo "${out% }"
}

# Installs the pinned uv into a venv of its own at $1. It lives outside the venv it installs into:
# `uv pip sync` makes that venv hold exactly its lock, so a uv (or pip) inside would be removed.
lock_install_uv() {
  python3 -m venv "$1"
  # This machine's pip config lists local indexes that hold only some packages; pip warns once per
  # package it does not find there. The warnings are noise, real errors still fail the script.
  "$1/bin/python" -m pip install --quiet "uv==$lock_uv_version" 2>&1 | (grep -v 'is ignored: it is neither a file nor a directory' || true)
}

# pip's configured indexes, find-links and constraints as uv arguments, one per line: uv reads no
# pip.conf (scripts/uv-pip-args.py). Where no CPU wheel of torch is at hand (a GitHub runner),
# HELM_GATE_TORCH_INDEX names a package index that serves CPU builds, so no multi-GB CUDA build is
# fetched. `unsafe-best-match` picks the best version across all indexes, as pip does (uv's
# default takes the first index that has a package).
lock_uv_args() {
  python3 -m pip config list 2>/dev/null | python3 "$root/scripts/uv-pip-args.py"
  if [ -n "${HELM_GATE_TORCH_INDEX:-}" ]; then printf '%s\n' --extra-index-url "$HELM_GATE_TORCH_INDEX"; fi
  printf '%s\n' --index-strategy unsafe-best-match
}

# Makes the venv at VENV hold exactly the packages of the locks NAME..., each file checked against
# its hash. Usage: lock_sync UV VENV NAME... (UV: the uv binary from lock_install_uv).
# pip's constraint files are left out: the lock already pins every package to one version, and in
# --require-hashes mode uv refuses a constraint that is not an exact pin (`torch<=2.14.1`).
# --compile-bytecode: pip writes the .pyc files at install, uv does not by default, and where
# PYTHONDONTWRITEBYTECODE is set every Python start then compiled its imports again (importing
# HELM's runner: 1.70 s against 0.57 s; the real-engine demo's gate took 66 s, not 34).
lock_sync() {
  local uv=$1 venv=$2 name args=() sync_args=() i files=()
  shift 2
  while IFS= read -r i; do args+=("$i"); done < <(lock_uv_args)
  for ((i = 0; i < ${#args[@]}; i++)); do
    if [ "${args[i]}" = "--constraint" ]; then i=$((i + 1)); else sync_args+=("${args[i]}"); fi
  done
  for name in "$@"; do files+=("$lock_dir/$name.txt"); done
  "$uv" pip sync --quiet --python "$venv/bin/python" --compile-bytecode --require-hashes "${sync_args[@]}" "${files[@]}"
}

# name==version of every package installed in the venv at $1, by the uv that lock_install_uv put
# at $1/.uv (a package installed from a folder, as the patched pyext, is listed by version too).
lock_freeze() { "$1/.uv/bin/uv" pip list --quiet --format freeze --python "$1/bin/python"; }
