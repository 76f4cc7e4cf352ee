// The client's own time (issue 10: under 5 ms each way), measured from outside the app, the same
// way for both apps: the part of a step that is neither the network nor the server.
//
//   click -> request leaves   the click's input event (the probe's start: event.timeStamp, which
//                             includes any wait before the page dispatched it, the page's fault
//                             too) -> the moment the page handed its request to the browser: CDP's
//                             Network.requestWillBeSent of the request, or of its CORS preflight
//                             if that came first. This is when fetch() was called (it matches the
//                             request's PerformanceResourceTiming.startTime to about 0.2 ms); a
//                             preflight is the browser's network work, not the app's.
//   last byte -> painted      the last data chunk of the answer (CDP Network.dataReceived; for an
//                             event stream the chunk that held the answer, not the stream's end,
//                             which the client may cancel or the server may delay) -> the DOM
//                             showing the outcome (the probe's MutationObserver) -> the next
//                             animation frame -> that frame's rendering done on the main thread
//                             (a message posted from the frame's callback). The app's own share
//                             is the script before the DOM change plus the frame's rendering; the
//                             wait between them for the display's next frame (0-16.7 ms at 60 Hz)
//                             is the display's clock, and is reported beside it.
// CDP's times are turned into the page's clock (performance.now()) through each request's own
// wall time, good to a few tenths of a millisecond (checked against resource timing).

import { LIST_METHODS } from './wire.mjs';

/** A CDP monotonic time (seconds) of request `r` on the page's clock (ms since time origin). */
const onPageClock = (probe, r, seconds) => r.wallStart + (seconds - r.start) * 1000 - probe.timeOrigin;

/** When the page handed `r` to the browser: its own start, or its preflight's if earlier. */
function leftAt(probe, r, all) {
  const preflight = all.find((p) => p.preflightFor === r.id);
  const own = onPageClock(probe, r, r.start);
  return preflight ? Math.min(own, onPageClock(probe, preflight, preflight.start)) : own;
}

/** When the last chunk of `r`'s answer arrived (its headers if it had no body); null if none. */
function lastByteAt(probe, r) {
  if (r.headersAt === null) return null;
  return onPageClock(probe, r, Math.max(r.headersAt, r.lastDataAt ?? 0));
}

/**
 * The client's own time of one step: from the start of watch `from` (a click) until the first
 * request of `requests` that `sent(r)` accepts left, and from the last byte of the last answer
 * `answer(r)` accepts that arrived before watch `to` saw the outcome, until it was painted.
 * `requests` must have their JSON-RPC methods resolved (wire.resolvePostData). Null where a part
 * was not seen.
 */
export function ownTime(probe, requests, { from, to = from, sent, answer }) {
  const click = probe.watches[from]?.start ?? null;
  const shown = probe.watches[to] ?? null;
  if (click === null || shown?.painted == null) return null;
  const main = requests.filter((r) => !r.preflightFor);
  const first = main.find((r) => sent(r) && leftAt(probe, r, requests) >= click - 1);
  const lastBytes = main
    .filter(answer)
    .map((r) => lastByteAt(probe, r))
    .filter((t) => t !== null && t <= shown.dom);
  const lastByte = lastBytes.length ? Math.max(...lastBytes) : null;
  const left = first ? leftAt(probe, first, requests) : null;
  const script = lastByte === null ? null : shown.dom - lastByte;
  const render = shown.painted - shown.frame;
  return {
    clickToSent: left === null ? null : left - click,
    sentToLastByte: left === null || lastByte === null ? null : lastByte - left,
    lastByteToDom: script,
    frameWait: shown.frame - shown.dom,
    render,
    lastByteOwn: script === null ? null : script + render,
    lastByteToPainted: lastByte === null ? null : shown.painted - lastByte,
  };
}

const isCall = (r) => r.rpc === 'tools/call';

/**
 * Both steps of a comparison run: the connect (watches `from` .. `to`; the first request after the
 * click, the last list answer before the tools showed) and the echo call (watch `echo`; its
 * tools/call).
 */
export function connectAndEchoOwnTime(probe, { connectRequests, echoRequests, from, to, reconnect = null }) {
  const isList = (r) => LIST_METHODS.has(r.rpc);
  return {
    connect: ownTime(probe, connectRequests, { from, to, sent: () => true, answer: isList }),
    echo: ownTime(probe, echoRequests, { from: 'echo', sent: isCall, answer: isCall }),
    // The same page's second connect: its code has run once, so the first connect's extra is
    // the price of running code for the first time (V8 compiles a wasm function at its first
    // call) and, when Connect is clicked at once, of waiting for the session chunk.
    reconnect: reconnect && ownTime(probe, reconnect.requests, { from: reconnect.from, to: reconnect.to, sent: () => true, answer: isList }),
  };
}
