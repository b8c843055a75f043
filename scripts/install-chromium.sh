#!/usr/bin/env bash
# The browser tests' tools, from Debian: chromium (driven by puppeteer-core with the system
# executable) and cmark-gfm (GitHub's markdown parser, to render the PR comment as GitHub does).
# Idempotent: installs only what is missing. Needs root (CI runs as root) or sudo.
set -euo pipefail
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
command -v cmark-gfm >/dev/null 2>&1 || missing+=(cmark-gfm)
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
sudo=''
if [ "$(id -u)" -ne 0 ]; then sudo='sudo'; fi
echo "install-chromium: installing ${missing[*]} from Debian"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
