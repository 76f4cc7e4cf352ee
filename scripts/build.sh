#!/usr/bin/env bash
# Release build of the app into dist/ (wasm + JS + CSS, relative asset URLs).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
trunk build --release
