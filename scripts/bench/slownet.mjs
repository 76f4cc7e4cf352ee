// What lazy loading costs on a slow network (issue 10: "what the lazy-loading split costs on a
// slow network (first use of a lazily loaded part)"). mcp-lens only; the app is served gzip -9
// (as any static host would) and the page's network is throttled by CDP to Lighthouse's mobile
// profile (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up), cache off, a fresh context per run:
//   load           navigation -> Connect usable
//   session chunk  navigation -> the session chunk's last byte (it is fetched after first paint)
//   connect, at once     Connect clicked as soon as it is usable -> tools shown: the person who
//                        clicks at once waits for the session chunk (first use of a lazy part)
//   connect, later       Connect clicked once the chunk is in -> tools shown (the network's own
//                        share: server/discover or initialize, initialized, tools/list, ...)
//   import, first open   Import clicked (the import chunk is fetched on demand) -> dialog shown
//   import, again        closed and opened again (the chunk is in memory)
// The first-use cost is "at once" minus "later", and "first open" minus "again".

import { ms, median, sleep } from './lib.mjs';
import { openPage, step, watch, watchAll } from './probe.mjs';

export const SLOW_NETWORK = {
  name: "Lighthouse's mobile throttling",
  latency: 150,
  downloadThroughput: (1.6e6 / 8) | 0,
  uploadThroughput: (750e3 / 8) | 0,
};
const ECHO = 'li.tool-item[data-tool="echo"]';
const TIMEOUT_MS = 60_000;

/** One throttled page of mcp-lens at `appUrl` (served gzip), Connect usable. */
async function throttledLens(browser, appUrl, serverUrl) {
  const opened = await openPage(browser, {
    appUrl,
    serverUrl,
    initialWatches: { load: { selector: '#connect', enabled: true, fromNavigation: true } },
  });
  await opened.cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await opened.cdp.send('Network.emulateNetworkConditions', { offline: false, ...SLOW_NETWORK });
  await opened.page.goto(`${appUrl}?url=${encodeURIComponent(serverUrl)}`, { waitUntil: 'commit' });
  await opened.waitStep('load', '#connect usable (throttled)', TIMEOUT_MS);
  return opened;
}

/** When the session chunk's last byte arrived (page clock), or null while it has not. */
const sessionChunkAt = (page) =>
  page.evaluate(() => performance.getEntriesByType('resource').find((e) => /split_session[^/]*\.wasm$/.test(e.name))?.responseEnd ?? null);

async function connectRun(browser, appUrl, serverUrl, atOnce) {
  const { context, page, waitStep } = await throttledLens(browser, appUrl, serverUrl);
  try {
    if (!atOnce) {
      await page.waitForFunction(
        () => performance.getEntriesByType('resource').some((e) => /split_session[^/]*\.wasm$/.test(e.name)),
        null,
        { timeout: TIMEOUT_MS, polling: 50 },
      );
      await sleep(300); // instantiated, and the page idle again
    }
    await watchAll(page, { connect: { clickOn: { selector: '#connect' }, selector: ECHO } });
    await page.locator('#connect').click();
    await waitStep('connect', `${ECHO} after Connect (throttled)`, TIMEOUT_MS);
    const probe = await page.evaluate(() => window.__probe);
    return { load: step(probe, 'load').ms, chunk: await sessionChunkAt(page), connect: step(probe, 'connect').ms };
  } finally {
    await context.close().catch(() => {});
  }
}

async function importRun(browser, appUrl, serverUrl) {
  const { context, page, waitStep } = await throttledLens(browser, appUrl, serverUrl);
  try {
    const open = async (name) => {
      await watch(page, name, { clickOn: { selector: '#import-servers' }, selector: '#import-export', fresh: true });
      await page.locator('#import-servers').click();
      await waitStep(name, `#import-export after Import (${name})`, TIMEOUT_MS);
    };
    await open('first');
    await page.locator('#close-dialog').click();
    await page.locator('#import-export').waitFor({ state: 'detached', timeout: TIMEOUT_MS });
    await open('again');
    const probe = await page.evaluate(() => window.__probe);
    return { first: step(probe, 'first').ms, again: step(probe, 'again').ms };
  } finally {
    await context.close().catch(() => {});
  }
}

/** Runs each case `runs` times and prints medians (min-max). */
export async function slowNetwork(browser, { appUrl, serverUrl, runs }) {
  const atOnce = [];
  const later = [];
  const imports = [];
  for (let i = 0; i < runs; i++) {
    atOnce.push(await connectRun(browser, appUrl, serverUrl, true));
    later.push(await connectRun(browser, appUrl, serverUrl, false));
    imports.push(await importRun(browser, appUrl, serverUrl));
  }
  const row = (label, values) => {
    const kept = values.filter((v) => v !== null);
    const text = kept.length ? `${ms(median(kept))} (${ms(Math.min(...kept))}-${ms(Math.max(...kept))})` : 'n/a';
    console.log(`${label.padEnd(52)} ${text}`);
    return kept.length ? median(kept) : null;
  };
  const result = {
    load: row('load -> Connect usable (ms)', [...atOnce, ...later].map((r) => r.load)),
    chunk: row('load -> session chunk arrived (ms)', [...atOnce, ...later].map((r) => r.chunk)),
    connectAtOnce: row('Connect clicked at once -> tools shown (ms)', atOnce.map((r) => r.connect)),
    connectLater: row('Connect clicked after the chunk -> tools shown (ms)', later.map((r) => r.connect)),
    importFirst: row('Import, first open (chunk fetched) -> dialog (ms)', imports.map((r) => r.first)),
    importAgain: row('Import, opened again -> dialog (ms)', imports.map((r) => r.again)),
  };
  if (result.connectAtOnce !== null && result.connectLater !== null) {
    console.log(`first use of the session chunk costs ${ms(result.connectAtOnce - result.connectLater)} ms to a person who clicks Connect at once`);
  }
  if (result.importFirst !== null && result.importAgain !== null) {
    console.log(`first use of the import chunk costs ${ms(result.importFirst - result.importAgain)} ms`);
  }
  return result;
}
