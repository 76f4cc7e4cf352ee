// Lighthouse's slow mobile profile, and a page opened under it: a fresh browser context with the
// probe (probe.mjs) and the page's request timeline (timeline.mjs), its network throttled by CDP
// (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up) and its cache off, navigated to `url`.
// What Chromium's throttling leaves out, a CORS preflight's round trip, is added by the server
// (hold-preflights.cjs), not here.

import { withDeadline } from './lib.mjs';
import { openPage } from './probe.mjs';
import { attachTimeline } from './timeline.mjs';

export const SLOW_NETWORK = {
  name: "Lighthouse's mobile throttling",
  latency: 150,
  downloadThroughput: (1.6e6 / 8) | 0,
  uploadThroughput: (750e3 / 8) | 0,
};
export const THROTTLED_TIMEOUT_MS = 60_000;

/** The profile in words, for a section's title. */
export const profileText = () =>
  `${SLOW_NETWORK.name}: ${SLOW_NETWORK.latency} ms round trip, ${(SLOW_NETWORK.downloadThroughput * 8) / 1e6} Mbit/s down, ` +
  `${(SLOW_NETWORK.uploadThroughput * 8) / 1e3} kbit/s up`;

/**
 * Opens `url` throttled, with `initialWatches` armed at navigation start. Resolves to openPage's
 * result (page, cdp, waitStep with a 60 s default, ...) plus `timeline` and `close()`.
 */
export async function throttledPage(browser, { url, appUrl, serverUrl, initialWatches, initScript = null, describe, fatal = null }) {
  const opened = await openPage(browser, { appUrl, serverUrl, initialWatches, describe, fatal, initScript });
  const timeline = attachTimeline(opened.cdp);
  await opened.cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await opened.cdp.send('Network.emulateNetworkConditions', { offline: false, ...SLOW_NETWORK });
  const close = () => withDeadline(opened.context.close(), 10_000, 'context.close').catch(() => {});
  try {
    await opened.page.goto(url, { waitUntil: 'commit', timeout: THROTTLED_TIMEOUT_MS });
  } catch (error) {
    await close();
    throw error;
  }
  return {
    ...opened,
    timeline,
    close,
    waitStep: (name, what, timeout = THROTTLED_TIMEOUT_MS) => opened.waitStep(name, what, timeout),
  };
}
