// The OAuth redirect target (callback.html): hands the authorization server's answer (code and
// state, or an error) to the mcp-lens page that opened this window, then closes. Only to the
// page's own origin (postMessage's target origin), which checks the sender's origin and window
// in turn. The code is taken out of the address bar at once; it is never stored or logged.
(() => {
  const status = document.getElementById('callback-status');
  const redirect = location.href;
  history.replaceState(null, '', location.pathname);
  let opener = null;
  try {
    opener = window.opener;
  } catch (_) {}
  if (!opener || opener.closed) {
    status.textContent = 'This sign-in window lost the mcp-lens page that opened it. Close it and click Sign in again.';
    return;
  }
  opener.postMessage({ mcpLensCallback: redirect }, location.origin);
  status.textContent = 'Signed in: this window can be closed.';
  window.close();
})();
