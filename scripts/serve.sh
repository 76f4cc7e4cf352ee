#!/usr/bin/env bash
# Quick start, command 1: set up, build, start the demo MCP server (server-everything,
# Streamable HTTP) and serve the app, all on 127.0.0.1. Ctrl-C stops everything.
set -euo pipefail
cd "$(dirname "$0")/.."
APP_PORT=${APP_PORT:-8080}
DEMO_PORT=${DEMO_PORT:-3001}

bash scripts/setup.sh
# The demo server is on 127.0.0.1: its widgets (the embed view) may reach it. A deployment on the
# internet leaves this out (scripts/build.sh; README, "Embedding in docs").
MCP_LENS_EMBED_ALLOW=${MCP_LENS_EMBED_ALLOW-private-network} bash scripts/build.sh

pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }
trap cleanup EXIT INT TERM

PORT=$DEMO_PORT node -r ./tests/servers/loopback.cjs \
  node_modules/@modelcontextprotocol/server-everything/dist/index.js streamableHttp &
pids+=($!)
python3 -m http.server "$APP_PORT" --bind 127.0.0.1 --directory dist >/dev/null 2>&1 &
pids+=($!)

demo="http://127.0.0.1:$DEMO_PORT/mcp"
encoded=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1], safe=""))' "$demo")
sleep 1
cat <<MSG

  mcp-lens is running.
  Open:  http://127.0.0.1:$APP_PORT/?url=$encoded
  (the demo server $demo is filled in: click Connect)

  Ctrl-C stops the app server and the demo server.
MSG
wait -n "${pids[@]}"
