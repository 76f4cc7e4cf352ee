// mcp-lens host script (optional): include it once in a page that embeds mcp-lens widgets,
//   <script src="https://<where mcp-lens is hosted>/embed.js" async></script>
// and each widget's iframe follows its content's height. Without it a widget keeps the
// iframe's own height and scrolls.
//
// It listens for the widgets' messages ({source: "mcp-lens", type, ...}; see the README,
// "Embed in your docs"), believes one only from the window of an iframe on this page whose
// src has the message's origin, and re-dispatches every message on that iframe as a DOM
// event "mcp-lens:<type>" (detail: the message), e.g. iframe.addEventListener(
// "mcp-lens:result", (e) => console.log(e.detail.name, e.detail.isError)). When it starts it
// asks each iframe for its height ({source: "mcp-lens-host", type: "measure"}, to the origin
// of the iframe's src), so it may be loaded before or after the widgets.
(function () {
  'use strict';
  if (window.__mcpLensHost) return;
  window.__mcpLensHost = true;
  var MAX_HEIGHT = 10000;
  function frameOf(event) {
    var frames = document.getElementsByTagName('iframe');
    for (var i = 0; i < frames.length; i++) {
      var frame = frames[i];
      if (frame.contentWindow !== event.source) continue;
      try {
        if (new URL(frame.src, location.href).origin !== event.origin) return null;
      } catch (_) {
        return null;
      }
      return frame;
    }
    return null;
  }
  window.addEventListener('message', function (event) {
    var data = event.data;
    if (!data || typeof data !== 'object' || data.source !== 'mcp-lens' || typeof data.type !== 'string') return;
    var frame = frameOf(event);
    if (!frame) return;
    if (data.type === 'height') {
      var height = Number(data.height);
      if (isFinite(height) && height > 0) frame.style.height = Math.min(Math.ceil(height), MAX_HEIGHT) + 'px';
    }
    frame.dispatchEvent(new CustomEvent('mcp-lens:' + data.type, { detail: data }));
  });
  // A widget that loaded before this script sent its first height to no one: ask each iframe
  // on the page for it again (only a widget answers; a frame of another origin never gets it).
  function measureAll() {
    var frames = document.getElementsByTagName('iframe');
    for (var i = 0; i < frames.length; i++) {
      try {
        var origin = new URL(frames[i].src, location.href).origin;
        if (frames[i].contentWindow && origin !== 'null') {
          frames[i].contentWindow.postMessage({ source: 'mcp-lens-host', type: 'measure' }, origin);
        }
      } catch (_) {
        // no src, or not a URL
      }
    }
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', measureAll);
  else measureAll();
})();
