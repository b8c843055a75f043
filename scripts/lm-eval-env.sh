#!/usr/bin/env bash
# Creates (or reuses) .venv-lm-eval/ with the pinned lm-evaluation-harness that
# scripts/make-lm-eval-fixtures.sh runs. Only regenerating the lm-eval fixtures needs it: the tests
# read the committed output, so neither CI nor `npm test` installs it. Idempotent: a venv whose
# stamp matches is reused as is.
#
# Why only the `api` extra: the fixtures come from `--model local-chat-completions` against the
# fake OpenAI server with generate_until tasks, which need no tokenizer, so torch and
# transformers (the `hf` extra) are not installed.
# The pin is the lock's input (python/locks/lm-eval.in); every package comes from the committed
# lock python/locks/lm-eval.txt with its hashes (docs/development.md "Python environments and
# their locks").
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
venv="${HELM_GATE_LM_EVAL_VENV:-$root/.venv-lm-eval}"
# shellcheck source=scripts/python-lock.sh
source "$root/scripts/python-lock.sh"
check_lock lm-eval
stamp=$(lock_stamp lm-eval)

if [ -f "$venv/.helm-gate-stamp" ] && [ "$(cat "$venv/.helm-gate-stamp")" = "$stamp" ] \
  && "$venv/bin/python" -c "import lm_eval" 2>/dev/null; then
  lock_freeze "$venv" | check_installed_against_lock "$venv" lm-eval
  echo "lm-eval-env: reusing $venv (python/locks/lm-eval.txt)"
  exit 0
fi

echo "lm-eval-env: creating $venv from python/locks/lm-eval.txt"
rm -rf "$venv"
python3 -m venv --without-pip "$venv"
lock_install_uv "$venv/.uv"
lock_sync "$venv/.uv/bin/uv" "$venv" lm-eval
lock_freeze "$venv" | check_installed_against_lock "$venv" lm-eval
"$venv/bin/python" -c "import lm_eval.models.openai_completions"
"$venv/bin/python" -c "import importlib.metadata as m; print('lm-eval-env: lm-eval', m.version('lm-eval'))"
echo "$stamp" > "$venv/.helm-gate-stamp"
