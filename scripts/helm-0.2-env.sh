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
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
venv="${HELM_GATE_VENV_0_2:-$root/.venv-helm-0.2}"
helm_version="0.2.1"
torch_version="2.13.0"
pyext_url="https://files.pythonhosted.org/packages/b0/be/9b6005ac644aaef022527ce49617263379e49dbdbd433d1d3dd66d71f570/pyext-0.7.tar.gz"
pyext_sha256="e618a635be4e8c4a84b443cc27186601ad052efe35f01839815f2a2cf3947cdf"
packages=(
  "torch==$torch_version" zstandard==0.25.0 tqdm==4.70.1 pyhocon==0.3.63 datasets==5.2.0 jsonlines==4.0.0
  dacite==1.9.2 sympy==1.14.0 Mako==1.4.3 sqlitedict==2.1.0 retrying==1.4.2 pymongo==4.20.1
  sentencepiece==0.2.3 websocket-client==1.9.2 openai==0.25.0 transformers==5.24.0
  google-api-python-client==2.202.0 protobuf==3.20.3 nltk==3.10.4 scipy==1.17.1
  uncertainty-calibration==0.1.4 importlib-resources==7.1.0 rouge-score==0.1.2 numba==0.68.1
  sacrebleu==2.6.0 pytrec-eval-terrier==0.5.11 spacy==3.8.18 scikit-learn==1.9.1 matplotlib==3.11.2
  pillow==13.0.0
)
no_deps=("crfm-helm==$helm_version" torchvision==0.15.2 icetk==0.0.7 bert-score==0.3.13)
stamp="crfm-helm==$helm_version ${packages[*]} --no-deps ${no_deps[*]} pyext-0.7-patched"

if [ -f "$venv/.helm-gate-stamp" ] && [ "$(cat "$venv/.helm-gate-stamp")" = "$stamp" ] \
  && "$venv/bin/python" -c "import helm.benchmark.runner" 2>/dev/null; then
  echo "helm-0.2-env: reusing $venv (crfm-helm $helm_version)"
  exit 0
fi

echo "helm-0.2-env: creating $venv with crfm-helm==$helm_version"
rm -rf "$venv"
python3 -m venv "$venv"
# As in scripts/python-env.sh: this machine's local indexes make pip warn once per package.
quiet_pip() { "$venv/bin/python" -m pip install --quiet "$@" 2>&1 | (grep -v -e 'is ignored: it is neither a file nor a directory' -e 'dependency resolver does not currently' -e 'requires .*, which is not installed' -e 'requires .*, but you have' || true); }
torch_index=()
[ -n "${HELM_GATE_TORCH_INDEX:-}" ] && torch_index=(--extra-index-url "$HELM_GATE_TORCH_INDEX")
quiet_pip "${torch_index[@]}" "${packages[@]}"
quiet_pip --no-deps "${no_deps[@]}"

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
quiet_pip --no-deps --no-build-isolation "$work/pyext-0.7" 2>/dev/null || quiet_pip --no-deps "$work/pyext-0.7"

# Fail here, not in the first test, if the modules FlexLLMGen calls do not import.
"$venv/bin/python" -c "
import helm.benchmark.run, helm.benchmark.runner, helm.proxy.clients.client
import importlib.metadata as m
print('helm-0.2-env: crfm-helm', m.version('crfm-helm'), 'torch', m.version('torch'))
"
echo "$stamp" > "$venv/.helm-gate-stamp"
