#!/usr/bin/env bash
# The browser tests' tools, from Debian: chromium (driven by puppeteer-core with the system
# executable) and cmark-gfm (GitHub's markdown parser, to render the PR comment as GitHub does).
# `npm test` runs this first (scripts/test-setup.sh). Idempotent: installs only what is missing.
#
# Installing needs apt-get (Debian or Ubuntu) and root or password-less sudo. Where either is
# missing it stops at once with one message naming what to install, instead of letting the
# browser tests fail one by one deep into a 13-minute run. `sudo -n` never waits for a password:
# a prompt nobody answers would hang the test command instead of stopping it.
set -euo pipefail
chromium="${HELM_GATE_CHROMIUM:-/usr/bin/chromium}"
missing=()
[ -x "$chromium" ] || missing+=(chromium)
command -v cmark-gfm >/dev/null 2>&1 || missing+=(cmark-gfm)
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

why="the report tests render the PR comment with cmark-gfm and open the report in chromium ($chromium)"
cannot() {
  {
    echo "install-chromium: cannot install ${missing[*]}: $1."
    echo "  The tests need them: $why."
    echo "  Install them, then run the tests again:  sudo apt-get install --no-install-recommends ${missing[*]}"
    echo "  (elsewhere: a Chromium executable in HELM_GATE_CHROMIUM and GitHub's cmark-gfm on PATH)."
  } >&2
  exit 1
}

command -v apt-get >/dev/null 2>&1 || cannot "apt-get not found (not Debian or Ubuntu)"
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 || cannot "not root, and sudo not found"
  sudo -n true >/dev/null 2>&1 || cannot "not root, and sudo needs a password"
  sudo=(sudo -n)
fi

echo "install-chromium: installing ${missing[*]} from Debian: $why"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -q
"${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"

# apt-get can succeed without putting chromium where the tests look (HELM_GATE_CHROMIUM elsewhere).
[ -x "$chromium" ] || cannot "apt-get finished but $chromium is still missing"
command -v cmark-gfm >/dev/null 2>&1 || cannot "apt-get finished but cmark-gfm is still not on PATH"
