// The OAuth redirect target (callback.html): hands the authorization server's answer (code and
// state, or an error) to the mcp-lens page that started the sign-in. The code is taken out of
// the address bar at once; it is never logged.
//
// Signing in within the tab (pop-ups blocked): the page left its sign-in in this tab's
// sessionStorage under 'mcp-lens.sign-in' (src/ui/auth.rs, PENDING_KEY) and went to the
// authorization server. When that entry's `state` is the redirect's, the redirect is added to
// it (sessionStorage, same origin; never an address) and this tab goes back to the app,
// replacing this page in its history; the app takes the entry, deletes it, checks `state`
// again and exchanges the code.
//
// Otherwise (the sign-in window, which has no opener): broadcast on the 'mcp-lens.sign-in'
// channel, which only pages of this origin hear; the page whose sign-in sent this `state`
// takes it, and this window closes.
(() => {
  const PENDING_KEY = 'mcp-lens.sign-in';
  const status = document.getElementById('callback-status');
  const redirect = location.href;
  history.replaceState(null, '', location.pathname);
  let pending = null;
  try {
    pending = JSON.parse(sessionStorage.getItem(PENDING_KEY) ?? 'null');
  } catch (_) {}
  const state = new URLSearchParams(new URL(redirect).search).get('state');
  if (pending && typeof pending === 'object' && typeof pending.state === 'string' && pending.state === state) {
    pending.redirect = redirect;
    try {
      sessionStorage.setItem(PENDING_KEY, JSON.stringify(pending));
      location.replace('index.html');
      return;
    } catch (_) {
      try {
        sessionStorage.removeItem(PENDING_KEY);
      } catch (_) {}
      status.textContent = 'This tab could not keep the sign-in for mcp-lens. Go back to mcp-lens and click Sign in again.';
      return;
    }
  }
  // The sign-in window has no opener (the page cut it, so the authorization server's pages
  // cannot reach the mcp-lens tab): the redirect goes on a channel of this origin, and the page
  // whose sign-in sent this `state` takes it and closes this window.
  try {
    const channel = new BroadcastChannel('mcp-lens.sign-in');
    channel.postMessage({ mcpLensCallback: redirect });
    channel.close();
  } catch (_) {
    status.textContent = 'This browser could not hand the sign-in to mcp-lens. Close this window and sign in again.';
    return;
  }
  status.textContent = 'Signed in: this window can be closed.';
  window.close();
})();
