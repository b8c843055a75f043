#!/usr/bin/env bash
# Creates (or reuses) the Python virtual environment with crfm-helm 0.2.1, the HELM that
# FlexLLMGen's benchmark script calls in-process. The tests run the FlexLLMGen stand-in
# (test-support/flexllmgen-standin/) with it, and scripts/make-fixtures.sh makes the 0.2.1
# fixtures with it. Idempotent: a venv whose stamp matches is reused as is.
#
# Why not `pip install crfm-helm==0.2.1`: its pins (torch 1.12, numba 0.56, spacy 3.2, ...) have
# no wheels for Python 3.11. So crfm-helm is installed without dependencies, and beside it only
# what the modules the stand-in (and FlexLLMGen) import need: run_entries_to_run_specs,
# create_scenario, AdapterFactory, create_metric and the request dataclasses. Its other pins
# (pytest, black, mypy, flake8, bottle, gunicorn, gdown, cattrs, revChatGPT, summ-eval) are
# never imported. The versions below are releases that install on 3.11 and import together.
# - torch: the CPU wheel (as in scripts/python-env.sh), never the multi-GB CUDA build; icetk and
#   bert-score import it at module level.
# - torchvision 0.15.2 and icetk, bert-score without their dependencies: they would pull a CUDA
#   torch; icetk imports torchvision at module level, nothing here calls it.
# - protobuf 3.20.x: icetk's generated protobuf module refuses newer runtimes.
# - openai 0.25: HELM 0.2.1's OpenAI client uses the pre-1.0 API at import time.
# - pyext 0.7 is an sdist whose setup.py imports the module, which calls inspect.getargspec
#   (removed in Python 3.11): it is downloaded (checked against its sha256), patched to fall back
#   to getfullargspec, and installed from the patched folder.
# - pytrec-eval-terrier replaces pytrec-eval 0.5, whose build downloads from GitHub.
# The pins themselves are the locks' inputs: python/locks/helm-0.2.in (installed with their
# dependencies) and python/locks/helm-0.2-nodeps.in (without); both are installed from their
# committed locks with hashes (docs/development.md "Python environments and their locks").
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
venv="${HELM_GATE_VENV_0_2:-$root/.venv-helm-0.2}"
pyext_url="https://files.pythonhosted.org/packages/b0/be/9b6005ac644aaef022527ce49617263379e49dbdbd433d1d3dd66d71f570/pyext-0.7.tar.gz"
pyext_sha256="e618a635be4e8c4a84b443cc27186601ad052efe35f01839815f2a2cf3947cdf"
# shellcheck source=scripts/python-lock.sh
source "$root/scripts/python-lock.sh"
check_lock helm-0.2
check_lock helm-0.2-nodeps
stamp="$(lock_stamp helm-0.2 helm-0.2-nodeps) pyext-0.7-patched"

if [ -f "$venv/.helm-gate-stamp" ] && [ "$(cat "$venv/.helm-gate-stamp")" = "$stamp" ] \
  && "$venv/bin/python" -c "import helm.benchmark.runner" 2>/dev/null; then
  lock_freeze "$venv" | check_installed_against_lock "$venv" helm-0.2 helm-0.2-nodeps +pyext==0.7
  echo "helm-0.2-env: reusing $venv (crfm-helm 0.2.1, python/locks/helm-0.2.txt)"
  exit 0
fi

echo "helm-0.2-env: creating $venv with crfm-helm 0.2.1 from python/locks/helm-0.2.txt and helm-0.2-nodeps.txt"
rm -rf "$venv"
python3 -m venv --without-pip "$venv"
lock_install_uv "$venv/.uv"
# `uv pip sync` installs exactly the listed files and resolves nothing, so the no-deps lock sits
# beside the other without pulling what crfm-helm 0.2.1 pins.
lock_sync "$venv/.uv/bin/uv" "$venv" helm-0.2 helm-0.2-nodeps

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$venv/bin/python" - "$pyext_url" "$pyext_sha256" "$work/pyext.tar.gz" <<'PY'
import hashlib, sys, urllib.request
url, sha, out = sys.argv[1:]
data = urllib.request.urlopen(url, timeout=120).read()
if hashlib.sha256(data).hexdigest() != sha:
    sys.exit(f"helm-0.2-env: {url} does not match its sha256 {sha}")
open(out, "wb").write(data)
PY
tar xzf "$work/pyext.tar.gz" -C "$work"
sed -i 's/^oargspec = inspect.getargspec$/oargspec = getattr(inspect, "getargspec", inspect.getfullargspec)/' "$work/pyext-0.7/pyext.py"
grep -q 'getattr(inspect, "getargspec"' "$work/pyext-0.7/pyext.py" || { echo "helm-0.2-env: could not patch pyext" >&2; exit 1; }
# The sdist is checked against its sha256 above; its build backend (setuptools) comes from the index.
uv_args=()
while IFS= read -r arg; do uv_args+=("$arg"); done < <(lock_uv_args)
"$venv/.uv/bin/uv" pip install --quiet --python "$venv/bin/python" --no-deps "${uv_args[@]}" "$work/pyext-0.7"
lock_freeze "$venv" | check_installed_against_lock "$venv" helm-0.2 helm-0.2-nodeps +pyext==0.7

# Fail here, not in the first test, if the modules FlexLLMGen calls do not import.
"$venv/bin/python" -c "
import helm.benchmark.run, helm.benchmark.runner, helm.proxy.clients.client
import importlib.metadata as m
print('helm-0.2-env: crfm-helm', m.version('crfm-helm'), 'torch', m.version('torch'))
"
echo "$stamp" > "$venv/.helm-gate-stamp"
