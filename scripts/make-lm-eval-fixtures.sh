#!/usr/bin/env bash
# Regenerates the real lm-evaluation-harness output under __tests__/fixtures/lm-eval-0.4.13/ (see
# __tests__/fixtures/README.md): `lm_eval --model local-chat-completions ... --log_samples` on the
# generation tasks and `lm_eval --model local-completions` (tokenizer_backend=remote: the fake
# server's tokenizer) on the multiple-choice task, into multiple-choice/<side>/, against three
# fake OpenAI servers (test-support/fake-openai/server.mjs), one per side:
#
#   baseline/    accuracy 0.9, seed 0
#   equivalent/  accuracy 0.92, seed 0: the baseline's right answers plus a few more
#   degraded/    accuracy 0.7, seed 0: a fifth of the baseline's right answers turn wrong
#
# The tasks (scripts/lm-eval/tasks/) read local JSON-lines files, since lm-eval cannot download
# datasets here; scripts/lm-eval/make_dataset.py writes them and the servers' answer key. Then
# scripts/lm-eval/make_bad_lm_eval.py derives the fault corpus (lm-eval-0.4.13/bad/) from them.
#
# What differs between regenerations: the date in the file names and results_*.json's times,
# `date`, `total_evaluation_time_seconds`, `git_hash` and the server's port in `model_args` and
# `configs.*.metadata.base_url`. The samples_*.jsonl files are the same byte for byte (the fake
# servers answer deterministically and lm-eval writes no times there).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
venv="${HELM_GATE_LM_EVAL_VENV:-$root/.venv-lm-eval}"
tasks="$root/scripts/lm-eval/tasks"
out="$root/__tests__/fixtures/lm-eval-0.4.13"

bash "$root/scripts/lm-eval-env.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/helm-gate-lm-eval.XXXXXX")
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

"$venv/bin/python" "$root/scripts/lm-eval/make_dataset.py" "$tasks" "$work/answer-key.json"

# lm-eval (through datasets) caches under HF_HOME; offline, and inside the work folder, so nothing
# is downloaded and nothing is left behind.
export HF_HOME="$work/hf" HF_DATASETS_OFFLINE=1 HF_HUB_OFFLINE=1

run_side() {
  local side=$1 accuracy=$2
  node "$root/test-support/fake-openai/server.mjs" --answer-key "$work/answer-key.json" --model gate-model \
    --accuracy "$accuracy" --seed 0 > "$work/server-$side.log" 2>&1 &
  server_pid=$!
  local url=""
  for _ in $(seq 1 100); do
    url=$(sed -n 's/^fake-openai listening on \(http[^ ]*\).*/\1/p' "$work/server-$side.log")
    [ -n "$url" ] && break
    sleep 0.1
  done
  if [ -z "$url" ]; then
    echo "make-lm-eval-fixtures: the fake server for $side did not start; log follows" >&2
    cat "$work/server-$side.log" >&2
    exit 1
  fi
  # The task YAMLs name their data files relative to the directory lm_eval runs in.
  (cd "$tasks" && "$venv/bin/lm_eval" --model local-chat-completions \
    --model_args "base_url=$url/chat/completions,model=gate-model,num_concurrent=1,max_retries=1" \
    --apply_chat_template --include_path . --tasks gate_arith,gate_arith_zeroshot \
    --log_samples --output_path "$work/out/$side" --seed 0) > "$work/lm-eval-$side.log" 2>&1 || {
    echo "make-lm-eval-fixtures: lm_eval failed for $side; log follows" >&2
    cat "$work/lm-eval-$side.log" >&2
    exit 1
  }
  (cd "$tasks" && "$venv/bin/lm_eval" --model local-completions \
    --model_args "base_url=$url/completions,model=gate-model,num_concurrent=1,max_retries=1,tokenizer_backend=remote" \
    --include_path . --tasks gate_arith_mc \
    --log_samples --output_path "$work/out/multiple-choice/$side" --seed 0) > "$work/lm-eval-mc-$side.log" 2>&1 || {
    echo "make-lm-eval-fixtures: lm_eval (multiple choice) failed for $side; log follows" >&2
    cat "$work/lm-eval-mc-$side.log" >&2
    exit 1
  }
  kill "$server_pid"
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
}

run_side baseline 0.9
run_side equivalent 0.92
run_side degraded 0.7

rm -rf "$out"
mkdir -p "$out"
mkdir -p "$out/multiple-choice"
for side in baseline equivalent degraded; do
  cp -R "$work/out/$side" "$out/$side"
  cp -R "$work/out/multiple-choice/$side" "$out/multiple-choice/$side"
done
"$venv/bin/python" "$root/scripts/lm-eval/make_bad_lm_eval.py" "$out/baseline" "$out/bad"
du -sh "$out"
echo "make-lm-eval-fixtures: done"
