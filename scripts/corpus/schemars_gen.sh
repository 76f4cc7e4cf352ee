#!/usr/bin/env bash
# Regenerate tests/schemas/schemars with the standalone generator in scripts/corpus/schemars-gen
# (its own workspace and Cargo.lock; not part of the mcp-lens build). The target dir stays outside the
# repo; -j 1 keeps the build light on the 2-core machines.
set -euo pipefail
cd "$(dirname "$0")/../.."
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-/tmp/mcp-lens-schemars-gen-target}
cargo run -j 1 --quiet --locked --manifest-path scripts/corpus/schemars-gen/Cargo.toml -- "$PWD/tests/schemas/schemars"
