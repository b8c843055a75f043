#!/usr/bin/env bash
# Rebuilds dist/ from the sources and fails if it differs from the committed bundle:
# GitHub runs dist/index.js as committed, so a stale bundle would run old code.
set -euo pipefail
cd "$(dirname "$0")/.."
before=$(mktemp -d)
cp -r dist "$before/dist"
npm run --silent build
if ! diff -r --brief "$before/dist" dist; then
  echo "dist/ is stale: run 'npm run build' and commit dist/" >&2
  rm -rf "$before"
  exit 1
fi
rm -rf "$before"
echo "dist/ is current"
