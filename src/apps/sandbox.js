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
//                  { app: "<JSON text>" }                    what the app posted
// Only messages whose event.source is the page (and whose origin is the page's) or the
// app's frame are read; anything else is reported and dropped.
'use strict';
(() => {
  const PAGE_ORIGIN = new URL(document.URL).origin;
  // A flooding app is cut down to this many relayed messages per second; the rest are
  // counted and reported once a second, so the page is never swamped.
  const MAX_PER_SECOND = 200;
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
  let dropped = 0;
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
  const relay = (data) => {
    const now = Date.now();
    if (now - windowStart >= 1000) {
      if (dropped > 0) toPage({ proxy: 'ignored', reason: `${dropped} messages from the app dropped (more than ${MAX_PER_SECOND} a second)` });
      windowStart = now;
      inWindow = 0;
      dropped = 0;
    }
    if (inWindow >= MAX_PER_SECOND) {
      dropped += 1;
      return;
    }
    inWindow += 1;
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
    toPage({ app: text });
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
      relay(data);
    } else {
      toPage({ proxy: 'ignored', reason: describe(event) });
    }
  });
  toPage({ proxy: 'ready' });
})();
