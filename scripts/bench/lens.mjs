// One comparison run of mcp-lens against server-everything, in a fresh browser context:
//   load       navigation -> #connect present and enabled
//   connect    Connect click -> li.tool-item[data-tool="echo"] (the app lists tools at connect)
//   echo       Run click -> #tool-result .content-text says "Echo: bench"
//   reconnect  after Disconnect (#status "Disconnected"; not timed), Connect click -> a new
//              li.tool-item[data-tool="echo"]
// each to the next frame after the DOM showed it, plus the wire of each phase (wire.mjs checks it).

import { sleep } from './lib.mjs';
import { connectAndEchoOwnTime } from './owntime.mjs';
import { phaseMetrics } from './phases.mjs';
import { openPage, readProbe, step, watch, watchAll } from './probe.mjs';
import { WIRE_GRACE_MS, analyseConnectWire, analyseDisconnectWire, analyseEchoWire } from './wire.mjs';

const TIMEOUT_MS = 30_000;
export const ECHO = 'li.tool-item[data-tool="echo"]';
export const LENS_READY = { selector: '#connect', enabled: true, fromNavigation: true };
// A wasm panic fails the run; other console errors only explain a timeout.
export const LENS_FATAL = /panicked at|RuntimeError: unreachable/;

/** What the page showed, for an error message. */
export async function describeLens(page) {
  return page.evaluate(() => {
    const text = (selector) => document.querySelector(selector)?.textContent?.trim().slice(0, 300) ?? '(absent)';
    return `#status: ${text('#status')}; #connect-error: ${text('#connect-error')}; #tool-result: ${text('#tool-result')}`;
  });
}

/**
 * Opens mcp-lens with `?url=serverUrl` (and `query`'s other parameters, e.g. `&version=...`)
 * and waits until Connect is usable.
 */
export async function openLens(browser, appUrl, serverUrl, query = '') {
  const opened = await openPage(browser, { appUrl, serverUrl, initialWatches: { load: LENS_READY }, describe: describeLens, fatal: LENS_FATAL });
  const { page, waitStep } = opened;
  await page.goto(`${appUrl}?url=${encodeURIComponent(serverUrl)}${query}`, { waitUntil: 'commit' });
  await waitStep('load', '#connect present and enabled');
  const prefilled = await page.locator('#server-url').inputValue();
  if (prefilled !== serverUrl) throw new Error(`#server-url is "${prefilled}", expected "${serverUrl}" from ?url=`);
  return opened;
}

async function waitStatus(page, text, allNotes) {
  try {
    await page.waitForFunction((t) => document.querySelector('#status')?.textContent?.trim() === t, text, { timeout: TIMEOUT_MS, polling: 25 });
  } catch (error) {
    const seen = await describeLens(page).catch(() => '(page not readable)');
    throw new Error(`#status "${text}" did not appear within ${TIMEOUT_MS} ms (${error.message.split('\n')[0]}); ${seen}; ${allNotes().slice(0, 5).join(' | ')}`);
  }
}

export async function lensRun(browser, { appUrl, serverUrl, gzip }) {
  const { context, page, problems, allNotes, waitStep, pageBytes, wire } = await openLens(browser, appUrl, serverUrl);
  try {
    // Connect phase.
    const wireBeforeConnect = wire.list.length;
    await watchAll(page, {
      connect: { clickOn: { selector: '#connect' }, selector: ECHO },
      connected: { clickOn: { selector: '#connect' }, selector: '#status', text: 'Connected', exact: true },
    });
    await page.locator('#connect').click();
    await waitStep('connect', `${ECHO} after Connect`);
    await sleep(WIRE_GRACE_MS);
    const connectRequests = wire.list.slice(wireBeforeConnect);

    // echo phase.
    await page.locator(ECHO).click();
    const panel = page.locator('#tool-panel');
    await panel.waitFor({ state: 'visible', timeout: TIMEOUT_MS });
    await panel.locator('input[data-path="/message"]').fill('bench');
    const wireBeforeEcho = wire.list.length;
    await watch(page, 'echo', { clickOn: { selector: '#run-tool' }, selector: '#tool-result .content-text', text: 'Echo: bench' });
    await page.locator('#run-tool').click();
    await waitStep('echo', '#tool-result .content-text "Echo: bench" after Run');
    const echoRequests = wire.list.slice(wireBeforeEcho);

    // Disconnect (not timed): the old session ends with a DELETE before the status says so.
    const wireBeforeDisconnect = wire.list.length;
    await page.locator('#disconnect').click();
    await waitStatus(page, 'Disconnected', allNotes);

    // Reconnect phase: the same server, in the same page; #status is traced from here on.
    await page.evaluate(() => window.__probeTrace('#status'));
    await watch(page, 'reconnect', { clickOn: { selector: '#connect' }, selector: ECHO, fresh: true });
    await page.locator('#connect').click();
    await waitStep('reconnect', `a new ${ECHO} after the reconnect`);
    await waitStatus(page, 'Connected', allNotes);
    await sleep(WIRE_GRACE_MS);

    const probe = await readProbe(page);
    if (problems.length) throw new Error(problems.join('\n'));
    const metrics = phaseMetrics(probe, pageBytes, gzip);
    const { connect, reconnect } = probe.watches;
    const wall = (t) => probe.timeOrigin + t;
    // Requests after the Disconnect click belong to the disconnect if they started before the
    // reconnect was armed (page clock: after #status read "Disconnected", before the click), to
    // the reconnect phase otherwise, where anything sent before the click is unexpected anyway.
    const sinceDisconnect = wire.list.slice(wireBeforeDisconnect);
    const disconnectRequests = sinceDisconnect.filter((r) => r.wallStart < wall(reconnect.armedAt));
    const reconnectRequests = sinceDisconnect.filter((r) => r.wallStart >= wall(reconnect.armedAt));
    await wire.resolvePostData();
    return {
      ...metrics,
      connectedOnly: step(probe, 'connected')?.ms ?? null,
      wire: analyseConnectWire(connectRequests, wall(connect.start), wall(connect.dom), { discover: 'optional' }),
      disconnectWire: analyseDisconnectWire(disconnectRequests),
      reconnectWire: analyseConnectWire(reconnectRequests, wall(reconnect.start), wall(reconnect.dom), { discover: 'forbidden' }),
      staleEchoAtDisconnect: reconnect.staleAtArm > 0,
      reconnectStatuses: probe.traces['#status'],
      echoWire: analyseEchoWire(echoRequests),
      own: connectAndEchoOwnTime(probe, {
        connectRequests,
        echoRequests,
        from: 'connect',
        to: 'connect',
        reconnect: { requests: reconnectRequests, from: 'reconnect', to: 'reconnect' },
      }),
    };
  } finally {
    await context.close().catch(() => {});
  }
}
