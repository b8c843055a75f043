#!/usr/bin/env bash
# Creates (or reuses) .venv-lm-eval/ with the pinned lm-evaluation-harness that
# scripts/make-lm-eval-fixtures.sh runs. Only regenerating the lm-eval fixtures needs it: the tests
# read the committed output, so neither CI nor `npm test` installs it. Idempotent: a venv whose
# stamp matches is reused as is.
#
# Why only the `api` extra: the fixtures come from `--model local-chat-completions` against the
# fake OpenAI server with generate_until tasks, which need no tokenizer, so torch and
# transformers (the `hf` extra) are not installed.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
venv="${HELM_GATE_LM_EVAL_VENV:-$root/.venv-lm-eval}"
lm_eval_version="0.4.13"
stamp="lm-eval[api]==$lm_eval_version"

if [ -f "$venv/.helm-gate-stamp" ] && [ "$(cat "$venv/.helm-gate-stamp")" = "$stamp" ] \
  && "$venv/bin/python" -c "import lm_eval" 2>/dev/null; then
  echo "lm-eval-env: reusing $venv (lm-eval $lm_eval_version)"
  exit 0
fi

echo "lm-eval-env: creating $venv with lm-eval[api]==$lm_eval_version"
python3 -m venv "$venv"
# This machine's pip config lists local indexes that hold only some packages; pip warns once per
# package it does not find there. The warnings are noise, real errors still fail the script.
quiet_pip() { "$venv/bin/python" -m pip install --quiet "$@" 2>&1 | (grep -v 'is ignored: it is neither a file nor a directory' || true); }
quiet_pip --upgrade pip
quiet_pip "lm-eval[api]==$lm_eval_version"
"$venv/bin/python" -c "import lm_eval.models.openai_completions"
"$venv/bin/python" -c "import importlib.metadata as m; print('lm-eval-env: lm-eval', m.version('lm-eval'))"
echo "$stamp" > "$venv/.helm-gate-stamp"
