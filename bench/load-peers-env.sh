#!/usr/bin/env bash
# The bench-only Python environment with the peer load generators that bench/load.mjs measures
# against helm-gate's: GuideLLM and AIPerf, installed from the committed lock
# python/locks/load-peers.txt with its hashes (docs/development.md "Python environments and their
# locks"), plus a local whitespace tokenizer (one word = one token, which matches the fake engine
# exactly; both tools want a tokenizer and the model hub is not reachable offline). Not run by CI;
# never installs into the project's .venv.
#
#   bash bench/load-peers-env.sh [VENV_DIR]      (default /work/venvs/load-bench or $LOAD_BENCH_VENV)
set -euo pipefail
venv="${1:-${LOAD_BENCH_VENV:-/work/venvs/load-bench}}"
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=scripts/python-lock.sh
source "$root/scripts/python-lock.sh"
check_lock load-peers
stamp=$(lock_stamp load-peers)

if [ ! -f "$venv/.helm-gate-stamp" ] || [ "$(cat "$venv/.helm-gate-stamp")" != "$stamp" ]; then
  rm -rf "$venv"
  python3 -m venv --without-pip "$venv"
  lock_install_uv "$venv/.uv"
  lock_sync "$venv/.uv/bin/uv" "$venv" load-peers
  echo "$stamp" > "$venv/.helm-gate-stamp"
fi
lock_freeze "$venv" | check_installed_against_lock "$venv" load-peers
"$venv/bin/python" "$here/lib/whitespace-tokenizer.py" "$venv/whitespace-tokenizer"
echo "load bench venv ready: $venv (tokenizer: $venv/whitespace-tokenizer)"
