// Preload (`node -r ./scripts/bench/hold-preflights.cjs ...`, after tests/servers/loopback.cjs)
// that holds every CORS preflight (an OPTIONS request) for BENCH_PREFLIGHT_HOLD_MS before the
// server sees it: the slow-network section's stand-in for the round trip that Chromium's network
// throttling does not add to preflights (CDP's emulated latency delays the page's own requests,
// but a preflight, made by the network service on the page's behalf, goes through unthrottled:
// 0-5 ms on loopback where every other request takes the 150 ms round trip). The page talks to
// the same server with both apps, so both have their preflights held the same way.
//
// Only the moment the request is handed to the server's handlers moves; the answer itself is
// the server's own. With BENCH_PREFLIGHT_HOLD_MS unset or 0 this does nothing.
'use strict';

const http = require('node:http');

const HOLD_MS = Number(process.env.BENCH_PREFLIGHT_HOLD_MS || 0);

if (HOLD_MS > 0) {
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function heldEmit(event, request, ...rest) {
    if (event === 'request' && request?.method === 'OPTIONS') {
      setTimeout(() => emit.call(this, event, request, ...rest), HOLD_MS);
      return true;
    }
    return emit.call(this, event, request, ...rest);
  };
}
