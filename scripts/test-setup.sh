#!/usr/bin/env bash
# `npm test`'s set-up (the `pretest` script): everything the suite needs that npm ci does not
# install, each step its own idempotent script that reuses what is already there.
# The quick checks come first, so a machine that cannot run the suite learns it in seconds,
# before the Python environment takes its two minutes.
set -euo pipefail
cd "$(dirname "$0")/.."

# Debian chromium and cmark-gfm for the browser tests; stops at once where it cannot install them.
bash scripts/install-chromium.sh
# The Python environment with the pinned HELM (.venv/, or HELM_GATE_VENV).
bash scripts/python-env.sh
# crfm-helm 0.2.1 in its own venv (.venv-helm-0.2/, or HELM_GATE_VENV_0_2) for the FlexLLMGen
# stand-in the runner-command tests run; about a minute the first time (both from python/locks/).
bash scripts/helm-0.2-env.sh
