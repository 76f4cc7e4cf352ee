#!/usr/bin/env bash
# The layers, proved by the dependency graph rather than by review (`cargo tree`, normal
# dependencies only, for the wasm target the app ships):
#   mcp-lens-protocol and mcp-lens-schema: no browser API, no UI framework, no other layer
#     above them (schema does not even know the protocol layer);
#   mcp-lens-client: no UI framework;
#   mcp-lens-chat: no UI framework, not the schema crate, not the app (its browser I/O is the
#     client crate's runtime).
# Prints each crate's direct dependencies and exits non-zero on any forbidden edge.
#
# Then the modules inside each crate (scripts/module-cycles.py, from the paths the code names):
# no cycle between the top-level modules of any crate, and none between the files of any crate
# (the app's src/ui included: a view that draws what is above it is handed it, never imports it).
#
# Last, that every file or folder ARCHITECTURE.md (the code map) names still exists.
set -euo pipefail
cd "$(dirname "$0")/.."
failed=0
check() {
  local crate=$1 forbidden=$2
  local tree
  tree=$(cargo tree --locked -p "$crate" -e normal --target wasm32-unknown-unknown --prefix none --format '{p}' | tail -n +2 | cut -d' ' -f1 | sort -u)
  printf '%s depends on (direct): %s\n' "$crate" \
    "$(cargo tree --locked -p "$crate" -e normal --target wasm32-unknown-unknown --depth 1 --prefix none --format '{p}' | tail -n +2 | cut -d' ' -f1 | sort -u | tr '\n' ' ')"
  local hits
  hits=$(grep -Ex "$forbidden" <<<"$tree" || true)
  if [ -n "$hits" ]; then
    printf 'LAYER VIOLATION: %s depends on %s\n' "$crate" "$(tr '\n' ' ' <<<"$hits")" >&2
    failed=1
  fi
}
check mcp-lens-protocol 'web-sys|js-sys|wasm-bindgen|wasm-bindgen-futures|leptos.*|mcp-lens-.*'
check mcp-lens-schema 'web-sys|js-sys|wasm-bindgen|wasm-bindgen-futures|leptos.*|rmcp|mcp-lens-.*'
check mcp-lens-client 'leptos.*|reactive_graph|tachys|mcp-lens-schema|mcp-lens'
check mcp-lens-chat 'leptos.*|reactive_graph|tachys|mcp-lens-schema|mcp-lens'
python3 scripts/module-cycles.py crates/protocol/src crates/schema/src crates/client/src \
  crates/chat/src src || failed=1

# Every path ARCHITECTURE.md names in backticks exists (a path: it ends in a source file's
# extension or `/`, or starts with a top-level folder): from the root, or below the folder its `### ` heading
# names, or as the end of exactly one tracked path.
files=$(git ls-files)
tops=$(cut -d/ -f1 <<<"$files" | sort -u | grep -v '\.' | paste -sd'|')
while IFS=$'\t' read -r base path; do
  [ -e "$path" ] || [ -e "$base/$path" ] || [ -e "$base/src/$path" ] \
    || [ "$(grep -c -- "/$path\$" <<<"$files")" = 1 ] \
    || { printf 'ARCHITECTURE.md names %s, which does not exist\n' "$path" >&2; failed=1; }
done < <(awk -v tops="^($tops)/" '
  /^## / { base = "." }
  /^### / { base = match($0, /`[^`]+`/) ? substr($0, RSTART + 1, RLENGTH - 2) : "." }
  { line = $0
    while (match(line, /`[^`]+`/)) {
      token = substr(line, RSTART + 1, RLENGTH - 2); line = substr(line, RSTART + RLENGTH)
      if (token ~ /^[A-Za-z0-9_.\/-]+$/ && (token ~ /(\.(rs|js|mjs|ts|sh|py|html|css|json|toml|md)|\/)$/ || token ~ tops)) print base "\t" token
    } }' ARCHITECTURE.md)
exit "$failed"
