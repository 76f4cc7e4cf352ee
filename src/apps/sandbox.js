// The MCP Apps sandbox proxy (SEP-1865, "Sandbox proxy"; the equivalent of the reference
// host's examples/basic-host sandbox.html, for a static page).
//
// The page frames this file with sandbox="allow-scripts" and no allow-same-origin: it runs in
// an opaque origin, so it cannot touch the page's DOM, storage or cookies, and neither can the
// app it frames. It has its own document (and CSP), which an app needs: a srcdoc frame made by
// the page itself would inherit the page's strict policy (no inline scripts) and could not run.
//
//   page (mcp-lens) <-> this proxy (opaque origin) <-> the app (srcdoc, opaque origin)
//
// Messages with the page are envelopes, so the app can never speak as the proxy:
//   page -> proxy  { load: { html, csp, sandbox, allow } }   once: frame the app
//                  { post: "<JSON text>" }                   relay to the app
//   proxy -> page  { proxy: "ready" }                       after this script ran
//                  { proxy: "loaded", count }                each load of the app's frame
//                  { proxy: "ignored", reason }              a message this proxy dropped
//                  { app: "<JSON text>", gesture }           what the app posted; gesture:
//                                                            whether the person had just
//                                                            clicked or typed in the app
// Only messages whose event.source is the page (and whose origin is the page's) or the
// app's frame are read; anything else is reported and dropped.
//
// `gesture` is this document's navigator.userActivation.isActive when the app's message
// arrives: a click or key press in the app's frame activates this frame too (activation
// reaches a frame's ancestors), and nothing else does (the page's own clicks reach only
// same-origin frames below it, and this one is opaque). The app cannot set it: the envelope
// is made here. The page lets an app go full screen by itself only with it.
'use strict';
(() => {
  const PAGE_ORIGIN = new URL(document.URL).origin;
  // A flooding app is cut down to this many relayed messages, and this many characters of
  // JSON, per second; a message longer than MAX_MESSAGE_CHARS is never relayed. What is
  // dropped is counted and reported once a second, so the page is never swamped: counting
  // messages alone let an app relay 200 strings of 50 MB a second, and the page died.
  const MAX_PER_SECOND = 200;
  const MAX_MESSAGE_CHARS = 8 * 1024 * 1024; // = MAX_APP_MESSAGE_CHARS (crates/protocol/src/apps/session.rs)
  const MAX_CHARS_PER_SECOND = 32 * 1024 * 1024;
  // A walk over more nodes than this is a message too large (or a cycle) whatever its text.
  const MAX_NODES = 1000000;
  const toPage = (message) => window.parent.postMessage(message, PAGE_ORIGIN);
  if (window.parent === window) return; // opened on its own: nothing to do
  // Self-test: the page must be out of reach (no allow-same-origin). If it is not, frame
  // nothing.
  let isolated = false;
  try {
    void window.parent.document.title;
  } catch (_) {
    isolated = true;
  }
  if (!isolated) {
    toPage({ proxy: 'ignored', reason: 'the sandbox proxy is not isolated from the page; nothing is framed' });
    return;
  }
  let inner = null;
  let loads = 0;
  let windowStart = 0;
  let inWindow = 0;
  let charsInWindow = 0;
  let dropped = 0;
  let tooLarge = 0;
  const describe = (event) => {
    const origin = typeof event.origin === 'string' ? event.origin.slice(0, 100) : '?';
    return `a message from another window (origin ${origin})`;
  };
  const frameApp = ({ html, csp, sandbox, allow }) => {
    if (inner !== null || typeof html !== 'string' || typeof csp !== 'string') return;
    // The app's policy on this document too, before its frame exists: the frame inherits it,
    // and this document's frame-src then also governs where the app's frame may navigate.
    const meta = document.createElement('meta');
    meta.httpEquiv = 'Content-Security-Policy';
    meta.content = csp;
    document.head.appendChild(meta);
    inner = document.createElement('iframe');
    inner.setAttribute('sandbox', typeof sandbox === 'string' ? sandbox : 'allow-scripts');
    if (typeof allow === 'string' && allow) inner.setAttribute('allow', allow);
    inner.setAttribute('title', 'MCP App');
    inner.addEventListener('load', () => {
      loads += 1;
      toPage({ proxy: 'loaded', count: loads });
    });
    inner.srcdoc = html;
    document.body.appendChild(inner);
  };
  const MB = (chars) => `${Math.round(chars / 1048576)} MB`;
  // About the characters `data` takes as JSON, without writing it: strings by their length,
  // other nodes a few characters each; Infinity once over `limit` (so a 50 MB string costs
  // one step, and an endless structure stops early).
  const sizeOf = (data, limit) => {
    let size = 0;
    let nodes = 0;
    const stack = [data];
    while (stack.length > 0) {
      const value = stack.pop();
      nodes += 1;
      if (typeof value === 'string') size += value.length + 2;
      else if (value !== null && typeof value === 'object') {
        if (ArrayBuffer.isView(value)) size += value.byteLength * 4;
        else if (Array.isArray(value)) {
          for (let i = 0; i < value.length && size <= limit && stack.length <= MAX_NODES; i++) {
            size += 2;
            stack.push(value[i]);
          }
        } else {
          for (const key of Object.keys(value)) {
            size += key.length + 4;
            stack.push(value[key]);
            if (size > limit || stack.length > MAX_NODES) break;
          }
        }
        size += 2;
      } else size += 8;
      if (size > limit || nodes + stack.length > MAX_NODES) return Infinity;
    }
    return size;
  };
  // Counts a message too large to relay, and answers it if it is a request (as JSON-RPC's
  // "Invalid Request"), so the app is not left waiting for an answer that cannot come.
  const refuseTooLarge = (data) => {
    tooLarge += 1;
    const id = data !== null && typeof data === 'object' ? data.id : undefined;
    if ((typeof id === 'string' || typeof id === 'number') && typeof data.method === 'string' && inner !== null && inner.contentWindow) {
      const message = `Message too large: more than ${MB(MAX_MESSAGE_CHARS)} of JSON, the most one message to the host may be`;
      inner.contentWindow.postMessage({ jsonrpc: '2.0', id, error: { code: -32600, message } }, '*');
    }
  };
  const relay = (data, gesture) => {
    const now = Date.now();
    if (now - windowStart >= 1000) {
      if (dropped > 0) toPage({ proxy: 'ignored', reason: `${dropped} messages from the app dropped (more than ${MAX_PER_SECOND} messages or ${MB(MAX_CHARS_PER_SECOND)} a second)` });
      if (tooLarge > 0) toPage({ proxy: 'ignored', reason: `${tooLarge} messages from the app dropped (each larger than ${MB(MAX_MESSAGE_CHARS)}, the most one message may be)` });
      windowStart = now;
      inWindow = 0;
      charsInWindow = 0;
      dropped = 0;
      tooLarge = 0;
    }
    if (inWindow >= MAX_PER_SECOND || charsInWindow >= MAX_CHARS_PER_SECOND) {
      dropped += 1;
      return;
    }
    if (sizeOf(data, MAX_MESSAGE_CHARS) > MAX_MESSAGE_CHARS) {
      refuseTooLarge(data);
      return;
    }
    let text;
    try {
      text = JSON.stringify(data);
    } catch (_) {
      text = undefined;
    }
    if (typeof text !== 'string') {
      toPage({ proxy: 'ignored', reason: 'a message from the app that is not JSON' });
      return;
    }
    // The estimate can be short of the text (escapes): the text decides.
    if (text.length > MAX_MESSAGE_CHARS) {
      refuseTooLarge(data);
      return;
    }
    if (charsInWindow + text.length > MAX_CHARS_PER_SECOND) {
      dropped += 1;
      return;
    }
    inWindow += 1;
    charsInWindow += text.length;
    toPage({ app: text, gesture });
  };
  window.addEventListener('message', (event) => {
    const data = event.data;
    if (event.source === window.parent && event.origin === PAGE_ORIGIN) {
      if (data && typeof data === 'object' && data.load && typeof data.load === 'object') {
        frameApp(data.load);
      } else if (data && typeof data === 'object' && typeof data.post === 'string') {
        let message;
        try {
          message = JSON.parse(data.post);
        } catch (_) {
          return;
        }
        if (inner !== null && inner.contentWindow) inner.contentWindow.postMessage(message, '*');
      }
    } else if (inner !== null && event.source === inner.contentWindow) {
      const activation = navigator.userActivation;
      relay(data, activation ? activation.isActive === true : false);
    } else {
      toPage({ proxy: 'ignored', reason: describe(event) });
    }
  });
  toPage({ proxy: 'ready' });
})();
