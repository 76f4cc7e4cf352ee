// mcp-lens host script (optional): include it once in a page that embeds mcp-lens widgets,
//   <script src="https://<where mcp-lens is hosted>/embed.js" async></script>
// and each widget's iframe follows its content's height. Without it a widget keeps the
// iframe's own height and scrolls.
//
// It listens for the widgets' messages ({source: "mcp-lens", type, ...}; see the README,
// "Embed in your docs") and re-dispatches each on its widget's iframe as a DOM event
// "mcp-lens:<type>" (detail: the message), e.g. iframe.addEventListener("mcp-lens:result",
// (e) => console.log(e.detail.name, e.detail.isError)).
//
// A widget is an iframe whose src is mcp-lens's embed view where this script comes from: the
// same origin and folder as this script, with `embed` in its query. A message is believed
// only from such an iframe's own window (event.source) with that origin: never by origin
// alone, so another frame of the same origin (a video, comments, any other page of that
// site) can neither resize a widget nor speak as one.
//
// It names each widget's iframe that has no title after its tool, prompt or resource.
//
// When it starts it asks each widget that has loaded for its height ({source:
// "mcp-lens-host", type: "measure"}, to the widget's origin), so it may be loaded before or
// after the widgets; a widget still loading is asked once it has loaded (posting to a frame
// that still shows its first, empty document fails with a console error, as its origin is
// not the widget's yet).
(function () {
  'use strict';
  if (window.__mcpLensHost) return;
  window.__mcpLensHost = true;
  var MAX_HEIGHT = 10000;
  // Where mcp-lens is: this script's own folder (its origin and path).
  var home = null;
  try {
    if (document.currentScript && document.currentScript.src) home = new URL('./', document.currentScript.src);
  } catch (_) {
    home = null;
  }
  if (!home) return; // loaded some other way: no widget can be told apart, so none is believed
  // The widget's address, if the iframe is one (same origin and folder as this script, `embed`
  // in the query); null for any other frame.
  function widgetUrl(frame) {
    try {
      var url = new URL(frame.getAttribute('src') || '', location.href);
      var path = url.pathname;
      var page = path === home.pathname || path === home.pathname + 'index.html';
      return url.origin === home.origin && page && url.searchParams.has('embed') ? url : null;
    } catch (_) {
      return null;
    }
  }
  function widgetOf(event) {
    var frames = document.getElementsByTagName('iframe');
    for (var i = 0; i < frames.length; i++) {
      var frame = frames[i];
      if (frame.contentWindow !== event.source) continue;
      var url = widgetUrl(frame);
      return url && url.origin === event.origin ? frame : null;
    }
    return null;
  }
  window.addEventListener('message', function (event) {
    var data = event.data;
    if (!data || typeof data !== 'object' || data.source !== 'mcp-lens' || typeof data.type !== 'string') return;
    var frame = widgetOf(event);
    if (!frame) return;
    if (data.type === 'height') {
      var height = Number(data.height);
      if (isFinite(height) && height > 0) frame.style.height = Math.min(Math.ceil(height), MAX_HEIGHT) + 'px';
    }
    frame.dispatchEvent(new CustomEvent('mcp-lens:' + data.type, { detail: data }));
  });
  function measure(frame) {
    var url = widgetUrl(frame);
    if (url && frame.contentWindow && loaded(frame)) frame.contentWindow.postMessage({ source: 'mcp-lens-host', type: 'measure' }, url.origin);
  }
  // Whether the frame shows its own document yet: a frame of another origin hides its document
  // (null); one still on its first, empty document shows about:blank.
  function loaded(frame) {
    var doc;
    try {
      doc = frame.contentDocument;
    } catch (_) {
      return true;
    }
    return doc === null || doc.URL !== 'about:blank';
  }
  // A widget that loaded before this script sent its first height to no one: ask it again.
  // One still loading sends its height itself once it runs; it is also asked when it loads.
  // A widget's frame without a title of its own is named after what it opens (a screen
  // reader lists frames by title: several named after one server cannot be told apart).
  function name(frame, url) {
    if (frame.hasAttribute('title')) return;
    var what = url.searchParams.get('tool') || url.searchParams.get('prompt') || url.searchParams.get('resource');
    frame.setAttribute('title', what ? what + ' (mcp-lens)' : 'mcp-lens');
  }
  function measureAll() {
    var frames = document.getElementsByTagName('iframe');
    for (var i = 0; i < frames.length; i++) {
      var frame = frames[i];
      var url = widgetUrl(frame);
      if (!url) continue;
      name(frame, url);
      frame.addEventListener('load', function (event) {
        measure(event.currentTarget);
      });
      measure(frame);
    }
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', measureAll);
  else measureAll();
})();
