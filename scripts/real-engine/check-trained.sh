#!/usr/bin/env bash
# Trains the real-engine example's model again, in a scratch folder, and compares every file with
# the committed one (examples/real-cpu/trained-model/): the committed weights, tokenizer and data
# must be what these scripts make, byte for byte, and the JSON configs the same content without
# the `transformers_version` their writer stamps in (content_sums.py says why). About 7 minutes of
# one core; a match is remembered in the cache (real-cpu-reproduced-<key>), so it trains once per
# machine and key.
#   check-trained.sh           train and compare; exit 1 on any difference, naming the files
#   check-trained.sh --write   train and replace the committed folder (after changing make_task.py,
#                              train_model.py or the load words); commit the folder with the change
#   check-trained.sh --record-cpu  train and record what training makes on this CPU vendor when it
#                              differs from the committed model (cpu-reproductions/<vendor>-<key>.sums)
# Needs the HELM venv (scripts/python-env.sh: torch, transformers, sentencepiece).
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
here="$root/scripts/real-engine"
# shellcheck source=scripts/real-engine/common.sh
source "$here/common.sh"
python="${HELM_GATE_VENV:-$root/.venv}/bin/python"
committed=$(committed_trained_dir)
key=$(trained_key)

write=0
case "${1:-}" in
  "") ;;
  --write) write=1 ;;
  --record-cpu) write=2 ;;
  *) echo "check-trained: unknown argument '$1' (none, --write or --record-cpu)" >&2; exit 2 ;;
esac
[ -x "$python" ] || { echo "check-trained: no Python at $python (run bash scripts/python-env.sh first)" >&2; exit 2; }

marker="$(cache_root)/real-cpu-reproduced-$key"
if [ "$write" = 0 ] && [ -f "$marker" ] && [ -f "$committed/SHA256SUMS" ] && cmp -s "$marker" "$committed/SHA256SUMS"; then
  echo "check-trained: the committed weights (key $key) were reproduced on this machine before ($marker)"
  exit 0
fi
if [ "$write" = 0 ] && [ "$(cat "$committed/KEY" 2>/dev/null)" != "$key" ]; then
  echo "check-trained: $committed/KEY is '$(cat "$committed/KEY" 2>/dev/null)', the training scripts' key is $key: the committed weights are stale (bash scripts/real-engine/check-trained.sh --write makes them again)" >&2
  exit 1
fi

mkdir -p "$(cache_root)"
work=$(mktemp -d "$(cache_root)/real-cpu-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
t0=$(date +%s)
echo "check-trained: training the model again in $work (about 7 min of one core)" >&2
train_into "$python" "$work/trained"
# The list of files and their hashes; training.json is left out (it records the seconds taken).
(cd "$work/trained" && find . -type f ! -name training.json | sed 's|^\./||' | LC_ALL=C sort | xargs sha256sum) >"$work/SHA256SUMS"
echo "check-trained: trained in $(($(date +%s) - t0)) s" >&2

if [ "$write" = 1 ]; then
  rm -rf "$committed"
  cp -r "$work/trained" "$committed"
  cp "$work/SHA256SUMS" "$committed/SHA256SUMS"
  echo "$key" >"$committed/KEY"
  echo "check-trained: wrote $committed (key $key); commit it with the change that made it"
  exit 0
fi

# The committed folder is first held to its own SHA256SUMS, byte for byte; then both folders are
# compared by what matters (content_sums.py): a changed weight fails, a newer writer's stamp not.
if ! (cd "$committed" && sha256sum --check --quiet SHA256SUMS >&2); then
  echo "check-trained: $committed does not match its SHA256SUMS" >&2
  exit 1
fi
"$python" "$here/content_sums.py" "$committed" >"$work/committed.sums"
"$python" "$here/content_sums.py" "$work/trained" >"$work/trained.sums"
if ! diff_out=$(diff "$work/committed.sums" "$work/trained.sums"); then
  # The same seeded single-threaded training gives other float results on another CPU vendor's
  # kernels (MKL chooses its code by vendor whatever the AVX2 pin says): measured on AMD EPYC, the
  # weights differ from the committed ones (trained on Intel) and are the same on every retry. Such
  # a machine is held to what training makes on its vendor, recorded for this key: still a check
  # that training is deterministic and the scripts unchanged, never a pass for another model.
  vendor=$(grep -m1 '^vendor_id' /proc/cpuinfo 2>/dev/null | awk '{print $3}')
  known="$here/cpu-reproductions/${vendor:-unknown}-$key.sums"
  if [ "$write" = 2 ]; then
    mkdir -p "$(dirname "$known")"
    cp "$work/trained.sums" "$known"
    echo "check-trained: recorded what training makes on ${vendor:-unknown} in $known; commit it"
    exit 0
  fi
  if [ -f "$known" ] && cmp -s "$known" "$work/trained.sums"; then
    echo "check-trained: reproduced on ${vendor}: training again made what this CPU vendor's training makes ($known, $(wc -l <"$known") files); it differs from the committed model (trained on another vendor) only in:"
    echo "$diff_out"
    exit 0
  fi
  echo "check-trained: training again made other files than the committed ones (< committed, > trained now; JSON configs compared without transformers_version):" >&2
  echo "$diff_out" >&2
  echo "check-trained: on ${vendor:-this CPU} nothing is recorded for key $key at $known (bash scripts/real-engine/check-trained.sh --record-cpu records it, once you know the difference is the CPU's)" >&2
  exit 1
fi
cp "$committed/SHA256SUMS" "$marker"
echo "check-trained: reproduced: training again made the committed files ($(wc -l <"$work/committed.sums") files: weights and tokenizer byte for byte, JSON configs by content without transformers_version; key $key)"
