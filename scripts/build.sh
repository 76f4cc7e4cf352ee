#!/usr/bin/env bash
# Release build of the app into dist/ (wasm + JS + CSS, relative asset URLs).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
trunk build --release
# A strict Content-Security-Policy, with the hash of trunk's inline bootstrap (scripts/csp.mjs).
node scripts/csp.mjs dist/index.html
node scripts/csp.mjs dist/callback.html
