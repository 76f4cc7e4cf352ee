#!/usr/bin/env bash
# Quick start, command 2: every test suite. `.ci/run` runs exactly this.
#   1. lints: rustfmt, clippy for the host and for wasm32 (warnings are errors)
#   2. native unit and property tests of the pure layers (cargo test)
#   3. release build, then the browser end-to-end suite against real MCP servers
#      (Playwright starts and stops the servers, on 127.0.0.1)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
source scripts/env.sh
started=$(date +%s)
step() { printf '\n=== %s (%ss)\n' "$*" "$(( $(date +%s) - started ))"; }

step "cargo fmt --check"
cargo fmt --all -- --check
step "cargo clippy (host)"
cargo clippy --all-targets --locked -- -D warnings
step "cargo clippy (wasm32)"
cargo clippy --all-targets --locked --target wasm32-unknown-unknown -- -D warnings
step "cargo test (native)"
cargo test --locked
step "release build"
bash scripts/build.sh
step "browser end-to-end tests"
npx playwright test
step "all suites passed"
