#!/usr/bin/env bash
# Release build of the app into dist/ (wasm + JS + CSS, relative asset URLs).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
trunk build --release
# A strict Content-Security-Policy, with the hash of trunk's inline bootstrap (scripts/csp.mjs).
node scripts/csp.mjs dist/index.html
node scripts/csp.mjs dist/callback.html
# What embedded widgets may do beyond the default (MCP_LENS_EMBED_ALLOW="private-network sign-in":
# reach addresses on the reader's machine or network, offer sign-in), as a <meta> the page reads.
if [[ -n "${MCP_LENS_EMBED_ALLOW:-}" ]]; then
  node scripts/embed-allow.mjs dist/index.html "$MCP_LENS_EMBED_ALLOW"
fi
# The Client ID Metadata Document, when the build is told where it will be served
# (MCP_LENS_PUBLIC_URL=https://example.com/mcp-lens/; scripts/client-metadata.mjs).
if [[ -n "${MCP_LENS_PUBLIC_URL:-}" ]]; then
  node scripts/client-metadata.mjs "$MCP_LENS_PUBLIC_URL" dist
fi
