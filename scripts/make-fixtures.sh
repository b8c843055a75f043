#!/usr/bin/env bash
# Regenerates the HELM run-directory fixtures under __tests__/fixtures/ (see its README.md).
#
# Real runs come from the pinned HELM (crfm-helm 0.5.16) with the built-in simple/model1
# client, so no server is needed. Derived fixtures (altered pairs, the 0.2.x layout, the bad
# corpus) are made by the deterministic Python helpers in scripts/fixtures/.
#
# Run directory names contain ':' (docs/helm.md "Run names"), which Windows checkouts cannot hold,
# so the copies replace ':' with '_'. The reader never parses directory names; run_spec.json
# keeps the real name.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
venv="${HELM_GATE_VENV:-$root/.venv}"
fixtures="$root/__tests__/fixtures"
helpers="$root/scripts/fixtures"

if [ ! -x "$venv/bin/helm-run" ]; then
  bash "$root/scripts/python-env.sh"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/helm-gate-fixtures.XXXXXX")
trap 'rm -rf "$work"' EXIT

# helm-run writes prod_env/ (its cache directory) into the working directory.
cd "$work"

run_helm() {
  local suite=$1 max_eval=$2
  shift 2
  "$venv/bin/helm-run" --suite "$suite" -m "$max_eval" --disable-cache -o "$work/out" "$@" \
    > "$work/helm-run-$suite.log" 2>&1 || {
    echo "make-fixtures: helm-run failed for suite $suite; log follows" >&2
    cat "$work/helm-run-$suite.log" >&2
    exit 1
  }
}

# Three runs in one suite. mild_mix perturbs every simple_mcqa question (lower case, spaces);
# synthetic_reasoning samples from both the valid and the test split.
run_helm gate 10 -r \
  "simple_mcqa:model=simple/model1" \
  "simple_mcqa:model=simple/model1,data_augmentation=robustness" \
  "synthetic_reasoning:mode=pattern_match,model=simple/model1"
# Same run name as the first run above, so a suite of its own.
run_helm trials 8 -t 3 -r "simple_mcqa:model=simple/model1"

copy_suite() {
  local from=$1 to=$2
  rm -rf "$to"
  mkdir -p "$to"
  for dir in "$from"/*/; do
    local name
    name=$(basename "$dir")
    if [ "$name" = eval_cache ]; then
      mkdir -p "$to/eval_cache" && touch "$to/eval_cache/.gitkeep"
      continue
    fi
    cp -R "$dir" "$to/${name//:/_}"
  done
}

out="$fixtures/helm-0.5.16"
rm -rf "$out"
copy_suite "$work/out/runs/gate" "$out/baseline/runs/gate"
copy_suite "$work/out/runs/trials" "$out/trials/runs/gate"

# Altered copies: the candidate-vs-baseline pairs for the gate's tests.
"$venv/bin/python" "$helpers/alter_run.py" "$out/baseline/runs/gate" "$out/altered/runs/gate"
"$venv/bin/python" "$helpers/alter_run.py" "$out/trials/runs/gate" "$out/trials-altered/runs/gate"

"$venv/bin/python" "$helpers/make_legacy_fixture.py" "$fixtures/helm-0.2.x"
"$venv/bin/python" "$helpers/make_bad_fixtures.py" "$out/baseline/runs/gate" "$fixtures/bad"

# Real crfm-helm 0.2.1 runs, written the way FlexLLMGen's benchmark script writes them, by its
# stand-in (test-support/flexllmgen-standin/) in the 0.2.1 venv. The equivalent candidate only
# changes the offloading percentages (its answers are the same); the degraded one answers 0.4
# of the instances right instead of 0.8. 50 instances give the test split at least 20.
venv_0_2="${HELM_GATE_VENV_0_2:-$root/.venv-helm-0.2}"
HELM_GATE_VENV_0_2="$venv_0_2" bash "$root/scripts/helm-0.2-env.sh"
standin="$root/test-support/flexllmgen-standin/helm_run.py"
flex_entry="synthetic_reasoning:mode=pattern_match,model=simple/model1"
run_standin() {
  local side=$1
  shift
  "$venv_0_2/bin/python" "$standin" --description "$flex_entry" --max-eval-instances 50 \
    --run-path "$work/flex/$side" "$@" > "$work/standin-$side.log" 2>&1 || {
    echo "make-fixtures: the FlexLLMGen stand-in failed for $side; log follows" >&2
    cat "$work/standin-$side.log" >&2
    exit 1
  }
}
run_standin baseline --percent 100 0 100 0 100 0 --accuracy 0.8
run_standin equivalent --percent 0 100 0 100 100 0 --accuracy 0.8
run_standin degraded --percent 100 0 100 0 100 0 --compress-weight --accuracy 0.4
out_0_2="$fixtures/helm-0.2.1"
rm -rf "$out_0_2"
for side in baseline equivalent degraded; do
  copy_suite "$work/flex/$side" "$out_0_2/$side/runs/flexllmgen"
done

du -sh "$out" "$fixtures/helm-0.2.x" "$out_0_2" "$fixtures/bad"
echo "make-fixtures: done"
