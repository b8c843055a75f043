#!/usr/bin/env bash
# `helm-gate run` with real lm_eval runner commands (command_output: lm-eval) on both sides, against
# two fake OpenAI servers: the baseline (accuracy 0.9) and a candidate (0.92 by default, an
# equivalent one; pass 0.7 for a degraded one). Checks by hand what the end-to-end test
# (__tests__/e2e/runner-command-lm-eval.test.ts) checks with a stand-in that replays real output.
#
#   bash scripts/lm-eval-run-gate.sh [CANDIDATE_ACCURACY]
#
# Needs .venv-lm-eval/ (scripts/lm-eval-env.sh, run here) and dist/cli.js. The offline tasks of
# scripts/lm-eval/tasks/ are copied with absolute data paths, since a runner command runs in a
# private working directory. Everything is made in a temporary folder and removed at the end.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
venv="${HELM_GATE_LM_EVAL_VENV:-$root/.venv-lm-eval}"
accuracy="${1:-0.92}"

bash "$root/scripts/lm-eval-env.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/helm-gate-lm-eval-run.XXXXXX")
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

mkdir -p "$work/tasks"
cp "$root"/scripts/lm-eval/tasks/*.yaml "$work/tasks/"
"$venv/bin/python" "$root/scripts/lm-eval/make_dataset.py" "$work/tasks" "$work/answer-key.json"
sed -i "s#: gate_arith\([a-z_]*\)\.json#: $work/tasks/gate_arith\1.json#" "$work"/tasks/*.yaml
export HF_HOME="$work/hf" HF_DATASETS_OFFLINE=1 HF_HUB_OFFLINE=1

start_server() {
  local name=$1 acc=$2
  node "$root/test-support/fake-openai/server.mjs" --answer-key "$work/answer-key.json" --model gate-model \
    --accuracy "$acc" --seed 0 > "$work/server-$name.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 100); do
    url=$(sed -n 's/^fake-openai listening on \(http[^ ]*\).*/\1/p' "$work/server-$name.log")
    [ -n "$url" ] && return 0
    sleep 0.1
  done
  echo "lm-eval-run-gate: the $name server did not start; log follows" >&2
  cat "$work/server-$name.log" >&2
  exit 1
}

side() {
  cat <<EOF
    command_output: lm-eval
    model: gate-model
    command: [$venv/bin/lm_eval, --model, local-chat-completions, --model_args, "base_url=$1/chat/completions,model={model},num_concurrent=1,max_retries=1", --apply_chat_template, --include_path, $work/tasks, --tasks, "{entry}", --log_samples, --output_path, "{output}", --limit, "{max_eval_instances}", --seed, "{seed}"]
EOF
}

start_server baseline 0.9
baseline_url=$url
start_server candidate "$accuracy"
candidate_url=$url

cat > "$work/gate.yml" <<EOF
version: 1
helm: { version: "0.5.16", max_eval_instances: 1000, timeout_minutes: 10 }
deployments:
  baseline:
$(side "$baseline_url")
  candidate:
$(side "$candidate_url")
runs:
  - { entry: gate_arith, metric: exact_match, split: strict-match, max_drop: 0.05 }
  - { entry: gate_arith_zeroshot, metric: exact_match, split: flexible-extract, max_drop: 0.05 }
EOF

status=0
node "$root/dist/cli.js" run --config "$work/gate.yml" --out "$work/out" || status=$?
echo "lm-eval-run-gate: candidate accuracy $accuracy, helm-gate run exited $status"
exit "$status"
