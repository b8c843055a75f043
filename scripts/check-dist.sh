#!/usr/bin/env bash
# Rebuilds dist/ from the sources and fails if it differs from the committed bundle:
# GitHub runs dist/index.js as committed, so a stale bundle would run old code.
set -euo pipefail
cd "$(dirname "$0")/.."
before=$(mktemp -d)
cp -r dist "$before/dist"
# The report page's bundle is generated into src/ (html.ts embeds it): checked the same way.
bundle=src/report/html-client.bundle.ts
cp "$bundle" "$before/bundle.ts"
npm run --silent build
if ! diff -r --brief "$before/dist" dist || ! diff --brief "$before/bundle.ts" "$bundle"; then
  echo "dist/ or $bundle is stale: run 'npm run build' and commit them" >&2
  rm -rf "$before"
  exit 1
fi
rm -rf "$before"
echo "dist/ is current"
