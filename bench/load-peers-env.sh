#!/usr/bin/env bash
# The bench-only Python environment with the peer load generators that bench/load.mjs measures
# against helm-gate's: GuideLLM and AIPerf from PyPI, plus a local whitespace tokenizer (one word =
# one token, which matches the fake engine exactly; both tools want a tokenizer and the model hub
# is not reachable offline). Not run by CI; never installs into the project's .venv.
#
#   bash bench/load-peers-env.sh [VENV_DIR]      (default /work/venvs/load-bench or $LOAD_BENCH_VENV)
set -euo pipefail
venv="${1:-${LOAD_BENCH_VENV:-/work/venvs/load-bench}}"
here=$(cd "$(dirname "$0")" && pwd)
if [ ! -x "$venv/bin/python" ]; then
  python3.11 -m venv "$venv"
fi
"$venv/bin/pip" install -q --upgrade pip
# The CPU torch wheel first: otherwise GuideLLM pulls a multi-GB CUDA build.
"$venv/bin/pip" install -q torch==2.13.0
"$venv/bin/pip" install -q guidellm==0.8.1 aiperf==0.13.0 tokenizers
"$venv/bin/python" "$here/lib/whitespace-tokenizer.py" "$venv/whitespace-tokenizer"
echo "load bench venv ready: $venv (tokenizer: $venv/whitespace-tokenizer)"
