#!/usr/bin/env bash
# Fetch the raw tools/list of @modelcontextprotocol/server-everything (the version pinned in package.json)
# over Streamable HTTP with curl and write it to $1 (default .tmp/corpus/everything-tools.json); then,
# while the server is up, record the elicitation/create request its trigger-elicitation-request tool sends
# (real_capture.mjs) next to it as everything-elicitation.json.
# The server is kept on 127.0.0.1 by tests/servers/loopback.cjs and stopped on exit.
# The client declares sampling, elicitation and roots so the capability-gated tools are listed too.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:-.tmp/corpus/everything-tools.json}
mkdir -p "$(dirname "$out")"
work=$(mktemp -d)
port=${PORT:-$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')}
url="http://127.0.0.1:$port/mcp"

PORT=$port node -r ./tests/servers/loopback.cjs \
  node_modules/@modelcontextprotocol/server-everything/dist/index.js streamableHttp >"$work/server.log" 2>&1 &
server_pid=$!
cleanup() { kill "$server_pid" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
for _ in $(seq 100); do
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  sleep 0.1
done

# A response is either plain JSON or an SSE stream; print the JSON-RPC message(s) in it.
body() { sed -n -e '/^data: /{s/^data: //p;d;}' -e '/^{/p' "$1"; }

curl -sS -D "$work/h1" -o "$work/b1" "$url" \
  -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
  -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25",
       "capabilities":{"sampling":{},"elicitation":{"form":{},"url":{}},"roots":{"listChanged":true}},
       "clientInfo":{"name":"mcp-lens-corpus","version":"0.0.0"}}}'
session=$(awk 'tolower($1) == "mcp-session-id:" { gsub("\r", "", $2); print $2 }' "$work/h1")
version=$(body "$work/b1" | python3 -c 'import json, sys; print(json.load(sys.stdin)["result"]["protocolVersion"])')
hdrs=(-H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream'
      -H "mcp-session-id: $session" -H "mcp-protocol-version: $version")
curl -sS -o /dev/null "$url" "${hdrs[@]}" -d '{"jsonrpc":"2.0","method":"notifications/initialized"}'
curl -sS -o "$work/b2" "$url" "${hdrs[@]}" -d '{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}'
body "$work/b2" | python3 -c '
import json, sys
msg = json.load(sys.stdin)
server = json.load(open("node_modules/@modelcontextprotocol/server-everything/package.json"))
json.dump({"server": server["name"] + " " + server["version"], "transport": "streamableHttp",
           "tools": msg["result"]["tools"]}, sys.stdout, indent=2, ensure_ascii=False)
print()' >"$out"
curl -sS -o /dev/null -X DELETE "$url" -H "mcp-session-id: $session" || true
echo "server-everything: $(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["tools"]))' "$out") tools -> $out"
node scripts/corpus/real_capture.mjs elicitation "$url" "$(dirname "$out")/everything-elicitation.json"
