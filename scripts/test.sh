#!/usr/bin/env bash
# Quick start, command 2: every test suite. `.ci/run` runs exactly this.
#   1. lints: rustfmt, clippy for the host and for wasm32 (warnings are errors), and the
#      layers checked on the crate graph (scripts/check-layers.sh)
#   2. native unit and property tests of the pure layers (cargo test), the schema corpus and a
#      bounded-time schema fuzzer (tests/schema_corpus.rs, tests/schema_fuzz.rs), the library
#      crates' doc examples (cargo test --doc), the client layer in headless Chromium against
#      server-everything (wasm-bindgen-test)
#   3. the release build (started in the background at the beginning, beside 1 and 2), then the
#      browser end-to-end suite against real MCP servers, two spec files at a time (Playwright
#      starts and stops the servers, on 127.0.0.1)
#   4. the official MCP conformance suite's client scenarios, two at a time
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
source scripts/env.sh
started=$(date +%s)
mkdir -p .tmp
step() { printf '\n=== %s (%ss)\n' "$*" "$(( $(date +%s) - started ))"; }
# What this script starts in the background, stopped on any exit: process groups and processes.
background_groups=()
background_pids=()
stop_background() {
  for group in "${background_groups[@]}"; do kill -- "-$group" 2>/dev/null || true; done
  for pid in "${background_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
}
trap stop_background EXIT

step "release build, started in the background (.tmp/build.log)"
# Cargo locks each target/<profile> and target/<triple>/<profile> directory while it builds. The
# release wasm build (target/release, target/wasm32-unknown-unknown/release) shares none with
# clippy and the debug tests below, so the two run side by side. On this 2-core machine that
# gains nothing (both already keep the two cores busy: a clean clone of 2bcf74e took 839 s one
# after another, of 6d85b89 862 s side by side, with more code); a machine with more cores
# gains the release build's single-threaded LTO link. setsid: its own process group, so an
# early exit stops trunk, cargo and rustc with it.
# Every test server is on 127.0.0.1, so the test build lets embedded widgets reach loopback, as a
# deployment for a local docs site would; tests/e2e/embed-safety.spec.ts serves the default
# (nothing allowed) and a sign-in-allowing variant of the same build itself.
MCP_LENS_EMBED_ALLOW=private-network setsid bash scripts/build.sh > .tmp/build.log 2>&1 &
build_pid=$!
background_groups+=("$build_pid")

step "cargo fmt --check"
cargo fmt --all -- --check
step "layers (cargo tree), module cycles (scripts/module-cycles.py), the paths ARCHITECTURE.md names"
bash scripts/check-layers.sh
step "cargo clippy (host)"
cargo clippy --workspace --all-targets --locked -- -D warnings
step "cargo clippy (wasm32)"
# Only the crates with code of their own for wasm32 (the app, the client). The pure layers
# (protocol, schema) differ by target only in native-only tests, so the host's clippy covers them.
cargo clippy -p mcp-lens -p mcp-lens-client --all-targets --locked --target wasm32-unknown-unknown -- -D warnings
step "cargo test (native unit and property tests, schema corpus, schema fuzzing)"
# Every crate's unit and property tests; the app's schema corpus and fuzzer (the fuzzer runs
# MCP_LENS_FUZZ_SECONDS, 20); the chat crate's loop, dialect, sampling and property tests.
cargo test --locked --workspace --lib --test client --test auth --test schema_corpus --test schema_fuzz \
  --test chat_loop --test dialects --test sampling --test stream_properties 2>&1 | tee .tmp/cargo-test.log
step "cargo test --doc (the crates' doc examples)"
# Every library crate's examples (the app's lib has none: it is not a library for others).
# Each example is a program of its own: this step compiles them one by one.
cargo test --locked --doc --workspace --exclude mcp-lens 2>&1 | tee .tmp/cargo-doc-test.log
step "client tests in headless Chromium against server-everything (wasm-bindgen-test)"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
PORT=$port node -r ./tests/servers/loopback.cjs \
  node_modules/@modelcontextprotocol/server-everything/dist/index.js streamableHttp > .tmp/wasm-test-server.log 2>&1 &
server_pid=$!
python_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
.venv/bin/python tests/servers/python_server.py --port "$python_port" > .tmp/wasm-test-python.log 2>&1 &
python_pid=$!
background_pids+=("$server_pid" "$python_pid")
for p in "$port" "$python_port"; do
  for _ in $(seq 100); do
    (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null && break
    sleep 0.1
  done
done
MCP_LENS_TEST_SERVER="http://127.0.0.1:$port/mcp" MCP_LENS_TEST_PYTHON_SERVER="http://127.0.0.1:$python_port/mcp" \
  CHROMEDRIVER=/usr/bin/chromedriver \
  cargo test --locked --target wasm32-unknown-unknown -p mcp-lens-client --test client_in_browser 2>&1 | tee .tmp/wasm-test.log
kill "$server_pid" "$python_pid" 2>/dev/null || true

step "release build: waiting for it to finish"
if wait "$build_pid"; then
  cat .tmp/build.log
else
  cat .tmp/build.log
  echo "the release build failed (its output is above and in .tmp/build.log)" >&2
  exit 1
fi
step "browser end-to-end tests"
MCP_LENS_MODEL_SPECS=skip PLAYWRIGHT_JSON_OUTPUT_NAME=.tmp/e2e.json npx playwright test --reporter=list,json
step "browser end-to-end tests that run a language model (alone: they hold both cores)"
PLAYWRIGHT_JSON_OUTPUT_NAME=.tmp/e2e-model.json npx playwright test --workers=1 --reporter=list,json \
  tests/e2e/chat-in-page.spec.ts tests/e2e/chat-model.spec.ts
step "MCP conformance suite, client scenarios (the app in headless Chromium)"
bash scripts/conformance.sh

# One closing line for every suite together.
native=$(cat .tmp/cargo-test.log .tmp/cargo-doc-test.log .tmp/wasm-test.log | grep -o 'test result: ok. [0-9]* passed' | awk '{s += $4} END {print s + 0}')
e2e=$(node -e 'const a=require("./.tmp/e2e.json"), b=require("./.tmp/e2e-model.json"); console.log(a.stats.expected + b.stats.expected)')
conformance=$(grep -c 'Passed:' .tmp/conformance/summary.txt)
step "all suites passed"
echo "$((native + e2e + conformance)) passed, 0 failed"
