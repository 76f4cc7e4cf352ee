// One comparison run of the official MCP Inspector (npm @modelcontextprotocol/inspector 1.0.3,
// its web client only) against the same server-everything, in a fresh browser context.
//
// How it is served and connected: the inspector's web client is a static build
// (node_modules/@modelcontextprotocol/inspector-client/dist: index.html, one JS bundle, one CSS
// file). Its own `mcp-inspector` command would serve the same files (client/bin/client.js, with
// serve-handler, uncompressed) next to its proxy process; here they are served from memory by the
// same static server as mcp-lens, and the proxy is not started at all. In "Direct" mode the page
// talks to server-everything itself over Streamable HTTP, so no proxy is in the data path. The
// settings come the way its docs allow: `?transport=streamable-http&serverUrl=...` in the URL, and
// localStorage `lastConnectionType=direct` (set before its scripts run). At load it always asks
// its proxy for `/config` (default command and environment); `MCP_PROXY_FULL_ADDRESS` points that
// at its own origin, where it gets a 404 that it logs and ignores, instead of at port 6277.
//
// The phases, each to the next frame after the DOM showed the outcome:
//   load       navigation -> the "Connect" button present and enabled
//   connect    Connect click -> the "Echo Tool" row in the Tools tab. The inspector lists tools
//              only on request: the time includes, with no think time (done by the page probe the
//              moment each is possible), switching to the Tools tab once "Connected" shows and
//              clicking "List Tools"; the tab's switch and the click are part of what a person
//              must do before seeing the tools
//   echo       "Run Tool" click -> the result's <pre> says "Echo: bench"
//   reconnect  after Disconnect (not timed), Connect click -> the "Echo Tool" row again: the
//              inspector keeps the tool list of the previous session and shows it as soon as the
//              Tools tab is back ("List Tools" is disabled then, and no tools/list is sent)

import { connectAndEchoOwnTime } from './owntime.mjs';
import { phaseMetrics } from './phases.mjs';
import { openPage, readProbe, step, watchAll } from './probe.mjs';
import { label } from './wire.mjs';

const TIMEOUT_MS = 30_000;
export const INSPECTOR_DIST = 'node_modules/@modelcontextprotocol/inspector-client/dist';
export const TOOLS_PANEL = '[role="tabpanel"][id$="-content-tools"]';
const TOOLS_TAB = 'button[role="tab"][id$="-trigger-tools"]';
const CONNECT_BUTTON = { selector: 'button', text: 'Connect', exact: true };
export const INSPECTOR_READY = { ...CONNECT_BUTTON, enabled: true, fromNavigation: true };

/** The inspector's page for `serverUrl`, with Direct mode chosen before its scripts run. */
export function inspectorPage(appUrl, serverUrl) {
  const query = new URLSearchParams({
    transport: 'streamable-http',
    serverUrl,
    MCP_PROXY_FULL_ADDRESS: new URL(appUrl).origin,
  });
  return { url: `${appUrl}?${query}`, initScript: () => localStorage.setItem('lastConnectionType', 'direct') };
}

export async function describeInspector(page) {
  return page.evaluate(() => `page text: ${document.body?.innerText.replace(/\s+/g, ' ').slice(0, 400)}`);
}

/**
 * The watches of one connect, named `${prefix}connected` .. `${prefix}tools`: the Connect click
 * -> "Connected" -> the Tools tab (mousedown) -> "List Tools" (click; with `list`) -> the row
 * `toolLabel`.
 */
export function connectChain(prefix, toolLabel, { list = true } = {}) {
  const chain = {
    [`${prefix}connected`]: { clickOn: CONNECT_BUTTON, selector: 'span', text: 'Connected', exact: true },
    [`${prefix}tab`]: { after: `${prefix}connected`, selector: TOOLS_TAB, enabled: true, act: 'mousedown' },
  };
  if (list) {
    chain[`${prefix}list`] = { after: `${prefix}tab`, selector: `${TOOLS_PANEL} button`, text: 'List Tools', exact: true, enabled: true, act: 'click' };
  }
  chain[`${prefix}tools`] = { after: `${prefix}${list ? 'list' : 'tab'}`, selector: `${TOOLS_PANEL} span.truncate`, text: toolLabel, exact: true, fresh: true };
  return chain;
}

/** Opens the inspector for `serverUrl` and waits until Connect is usable. */
export async function openInspector(browser, appUrl, serverUrl) {
  const { url, initScript } = inspectorPage(appUrl, serverUrl);
  const opened = await openPage(browser, { appUrl, serverUrl, initialWatches: { load: INSPECTOR_READY }, describe: describeInspector, initScript });
  const { page, waitStep } = opened;
  await page.goto(url, { waitUntil: 'commit' });
  await waitStep('load', 'the inspector\'s Connect button');
  await checkDirect(page, serverUrl);
  return opened;
}

/** Throws unless the inspector's sidebar shows connection type Direct and `serverUrl`. */
export async function checkDirect(page, serverUrl) {
  const mode = (await page.locator('#connection-type-select').textContent())?.trim();
  const typed = await page.locator('#sse-url-input').inputValue();
  if (mode !== 'Direct' || typed !== serverUrl) throw new Error(`the inspector shows connection type "${mode}" and URL "${typed}", expected Direct and ${serverUrl}`);
}

/** The requests of a phase in words, e.g. "POST initialize, POST notifications/initialized, GET". */
const sequence = (requests) => requests.filter((r) => !r.preflightFor).map(label).join(', ');

export async function inspectorRun(browser, { appUrl, serverUrl, gzip }) {
  const { context, page, problems, waitStep, pageBytes, wire } = await openInspector(browser, appUrl, serverUrl);
  try {
    const wireBeforeConnect = wire.list.length;
    await watchAll(page, connectChain('', 'Echo Tool'));
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await waitStep('tools', 'the Echo Tool row after Connect (and Tools tab, List Tools)');
    const connectRequests = wire.list.slice(wireBeforeConnect);

    await page.locator(`${TOOLS_PANEL} span.truncate`, { hasText: /^Echo Tool$/ }).click();
    await page.locator('#message').fill('bench');
    await watchAll(page, {
      echo: { clickOn: { selector: 'button', text: 'Run Tool', exact: true }, selector: `${TOOLS_PANEL} pre`, text: 'Echo: bench' },
    });
    const wireBeforeEcho = wire.list.length;
    await page.getByRole('button', { name: 'Run Tool', exact: true }).click();
    await waitStep('echo', 'the "Echo: bench" result after Run Tool');
    const echoRequests = wire.list.slice(wireBeforeEcho);

    await page.getByRole('button', { name: 'Disconnect', exact: true }).click();
    await page.getByRole('button', { name: 'Connect', exact: true }).waitFor({ timeout: TIMEOUT_MS });
    const wireBeforeReconnect = wire.list.length;
    // The inspector keeps the previous session's tool list (its "List Tools" is then disabled):
    // its reconnect shows that list again once the Tools tab is back, and sends no tools/list.
    await watchAll(page, connectChain('re', 'Echo Tool', { list: false }));
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await waitStep('retools', 'the Echo Tool row after the reconnect');
    const reconnectRequests = wire.list.slice(wireBeforeReconnect);

    const probe = await readProbe(page);
    if (problems.length) throw new Error(problems.join('\n'));
    await wire.resolvePostData();
    const metrics = phaseMetrics(probe, pageBytes, gzip, {
      connect: ['connected', 'tools'],
      reconnect: ['reconnected', 'retools'],
    });
    return {
      ...metrics,
      // Connect click -> "Connected" alone, before the tab switch and List Tools.
      connectedOnly: step(probe, 'connected').ms,
      connectWire: sequence(connectRequests),
      reconnectWire: sequence(reconnectRequests),
      // Its reconnect sends no list (it shows the old one), so only its click -> first request.
      own: connectAndEchoOwnTime(probe, {
        connectRequests,
        echoRequests,
        from: 'connected',
        to: 'tools',
        reconnect: { requests: reconnectRequests, from: 'reconnected', to: 'retools' },
      }),
    };
  } finally {
    await context.close().catch(() => {});
  }
}
