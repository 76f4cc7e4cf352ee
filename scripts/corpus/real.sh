#!/usr/bin/env bash
# Regenerate tests/schemas/real: capture tools/list (and one elicitation requestedSchema) from real MCP
# servers, then classify the candidate instances with jsonschema (real_gen.py).
#   * server-everything: from node_modules (pinned in package.json), Streamable HTTP on 127.0.0.1
#   * filesystem, memory, sequential-thinking, Playwright MCP: stdio servers installed with npm into
#     $CORPUS_SERVERS_DIR (default /tmp/mcp-lens-corpus-servers, outside the repo) at the versions below
# Usage: bash scripts/corpus/real.sh [raw-dir]   (raw captures go to .tmp/corpus by default)
set -euo pipefail
cd "$(dirname "$0")/../.."
raw=${1:-.tmp/corpus}
servers=${CORPUS_SERVERS_DIR:-/tmp/mcp-lens-corpus-servers}
mkdir -p "$raw" "$servers"
[ -f "$servers/package.json" ] || echo '{"private": true}' >"$servers/package.json"
npm install --prefix "$servers" --no-audit --no-fund --loglevel=error \
  @modelcontextprotocol/server-filesystem@2026.8.31 \
  @modelcontextprotocol/server-memory@2026.8.31 \
  @modelcontextprotocol/server-sequential-thinking@2026.8.31 \
  @playwright/mcp@0.0.83
bash scripts/corpus/real_everything.sh "$raw/everything-tools.json"
node scripts/corpus/real_capture.mjs stdio "$servers" "$raw"
.venv/bin/python scripts/corpus/real_gen.py "$raw"
