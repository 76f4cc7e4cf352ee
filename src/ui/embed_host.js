// The embed view's browser calls (src/ui/embed.rs): what it tells the page that frames it, and
// the look that page chose. Fetched with the first paint; the release build minifies it with
// terser (scripts/wasm-split.mjs).
//
// Every message goes to `window.parent` only, as `{ source: 'mcp-lens', type, ... }`, targeted
// at the referrer's origin when the browser tells it (else '*': the widget sends nothing a
// page that frames it may not know, see embed.rs).

let parentOrigin = '*';
try { if (document.referrer) parentOrigin = new URL(document.referrer).origin; } catch (_) {}

function post(message) {
  if (window.parent !== window) window.parent.postMessage(Object.assign({ source: 'mcp-lens' }, message), parentOrigin);
}

// A custom property on the root element (`--accent`, `--font-size`: values checked in Rust).
export function set_root_property(name, value) { document.documentElement.style.setProperty(name, value); }

// Tells the parent the widget's height whenever it changes (`height`, in CSS pixels).
export function watch_height(element) {
  let last = -1;
  const send = () => {
    const height = Math.ceil(element.getBoundingClientRect().height);
    if (height !== last) { last = height; post({ type: 'height', height }); }
  };
  new ResizeObserver(send).observe(element);
  send();
  // The host script, loaded after the first height was sent, asks for it again.
  window.addEventListener('message', (e) => {
    if (e.source === window.parent && e.data && e.data.source === 'mcp-lens-host' && e.data.type === 'measure') { last = -1; send(); }
  });
}

export function post_connected() { post({ type: 'connected' }); }
export function post_error() { post({ type: 'error' }); }
// A result arrived: the target's kind and name and whether it failed, never its content.
export function post_result(kind, name, isError) { post({ type: 'result', kind, name, isError }); }
