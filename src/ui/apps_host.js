// The MCP Apps host's browser calls (src/ui/apps.rs imports `apps_host`).
//
// One exported function with an operation name, rather than one import per call: every
// JavaScript function the wasm imports is linked from the first paint's module (wasm-split
// leaves imports there), so a single import keeps the first paint from growing. The release
// build minifies this file with terser (scripts/wasm-split.mjs): local names and comments go,
// but property names and strings stay as written, so the two markers this file adds to page
// objects (`window.__mlw`, `frame.__mlr`) are kept short. It is fetched when the first app is drawn
// (the stub in src/ui/apps.rs imports it), never with the first paint.
//
// Operations (`op`, `target`, `text`); each returns a string, '' unless said otherwise, and
// never throws (anything that throws returns '').
// - `message`: `target` is a `message` event, `text` is "<max> <kept>" (characters).
//   `A<frame id>\n<g><text>` when it is an `{ app }` envelope from the window of an
//   `iframe.app-frame` (an opaque origin: `null`), `<g>` its `gesture` (`1` or `0`); when its
//   text is longer than `<max>`, `T<frame id>\n<g><length>\n<its first <kept> characters>`
//   (a longer text never reaches the wasm); else `J<JSON>`: `frame` (the id, or null for any
//   other window), `origin`, `proxy`, `count`, `reason` of a proxy envelope, and `body`, the
//   start of a foreign message as JSON (strings cut and the walk stopped after 2,000
//   characters, so a foreign message of 50 MB costs no more than a small one).
// - `post`: `target` is the proxy frame, `text` the JSON of an envelope to post to it.
// - `env`: `{ dark, locale, timeZone, vw, vh, w }` as JSON: the theme shown, the viewport, and
//   the width of `target` (the app's frame; 0 without one).
// - `watch`: from then on a `mcp-lens-app-env` event on the window whenever the theme (the
//   root's `data-theme`, or the system's) or the viewport changes (listeners made once), or
//   `target` (a frame) is resized; `unwatch`: not for `target` any more.
// - `open`: opens `text` in a new tab, without an opener or a referrer.
// - `show`: scrolls `target` into view.

export function apps_host(op, target, text) {
  try {
    if (op === 'message') {
      // `target` is the event. Which app frame sent it: an app's proxy frame has an opaque
      // origin ('null') and is recognised by its window, never by anything the message says.
      let frame = null;
      if (target.origin === 'null') {
        for (const element of document.querySelectorAll('iframe.app-frame')) {
          if (element.contentWindow === target.source) {
            frame = element.dataset.app || null;
            break;
          }
        }
      }
      const data = target.data;
      const envelope = data !== null && typeof data === 'object' && !Array.isArray(data) ? data : {};
      if (frame !== null && typeof envelope.app === 'string') {
        const gesture = envelope.gesture === true ? '1' : '0';
        const [max, kept] = text.split(' ').map(Number);
        return envelope.app.length > max
          ? 'T' + frame + '\n' + gesture + envelope.app.length + '\n' + envelope.app.slice(0, kept)
          : 'A' + frame + '\n' + gesture + envelope.app;
      }
      // Another window's message: only its start (2,000 characters), read by a walk that
      // stops once that much is seen.
      let body = '';
      if (frame === null) {
        try {
          let seen = 0;
          body = String(
            JSON.stringify(data, (key, value) => {
              if (seen > 2e3 && key !== '') return;
              if (typeof value === 'string') {
                value = value.slice(0, 2e3);
                seen += value.length;
              } else seen++;
              return value;
            }),
          ).slice(0, 2e3);
        } catch (_) {}
      }
      const start = (value, length) => (typeof value === 'string' ? value.slice(0, length) : null);
      return 'J' + JSON.stringify({
        frame,
        origin: String(target.origin).slice(0, 100),
        proxy: start(envelope.proxy, 50),
        count: typeof envelope.count === 'number' ? envelope.count : null,
        reason: start(envelope.reason, 500),
        body,
      });
    }
    if (op === 'post') {
      if (target.contentWindow) target.contentWindow.postMessage(JSON.parse(text), '*');
      return '';
    }
    if (op === 'env') {
      // The theme shown: the root's `data-theme`, else the system's.
      const theme = document.documentElement.getAttribute('data-theme');
      return JSON.stringify({
        dark: theme === 'dark' || (theme !== 'light' && matchMedia('(prefers-color-scheme: dark)').matches),
        locale: navigator.language,
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        vw: innerWidth,
        vh: innerHeight,
        w: (target && target.clientWidth) || 0,
      });
    }
    if (op === 'watch') {
      const changed = () => dispatchEvent(new Event('mcp-lens-app-env'));
      // The page's listeners, once (`window.__mlw`).
      if (!window.__mlw) {
        window.__mlw = 1;
        new MutationObserver(changed).observe(document.documentElement, {
          attributes: true,
          attributeFilter: ['data-theme'],
        });
        matchMedia('(prefers-color-scheme: dark)').addEventListener('change', changed);
        addEventListener('resize', changed);
      }
      // One ResizeObserver per frame (`frame.__mlr`).
      if (target && !target.__mlr) {
        target.__mlr = new ResizeObserver(changed);
        target.__mlr.observe(target);
      }
    }
    if (op === 'unwatch' && target && target.__mlr) {
      target.__mlr.disconnect();
      target.__mlr = null;
    }
    if (op === 'open') window.open(text, '_blank', 'noopener,noreferrer');
    if (op === 'show') target.scrollIntoView({ block: 'nearest' });
  } catch (_) {}
  return '';
}
