// The path a person takes, on a slow network, for both apps side by side (issue 28): each app
// served gzip -9 as a static host would (the inspector's web client from the same origin as its
// `/config`, answered there as its proxy would; Direct mode kept, as inspector.mjs drives it), the
// page throttled to Lighthouse's mobile profile (throttle.mjs), against server-everything with
// every CORS preflight held one round trip (hold-preflights.cjs; Chromium does not throttle
// preflights). Each case is a fresh page; per run, alternating the apps:
//   mcp-lens  at once    `?url=`: Connect clicked by the page the moment it is usable -> the tool
//                        list (echo's row) shown
//   inspector at once    the same with its Connect, then its Tools tab and "List Tools", each the
//                        moment it is possible (inspector.mjs's connectChain) -> "Echo Tool" shown
//   mcp-lens  embed &connect   `?embed&url=...&tool=echo&connect`: the link connects by itself ->
//                        echo's form (#tool-panel) shown
//   mcp-lens  full &connect    `?url=...&connect` -> the tool list, when the full app connects by
//                        itself (found out once at the start: a page whose network is idle for 3 s
//                        after Connect is usable, having sent nothing to the server, does not;
//                        then "n/a")
//   mcp-lens  embed view `?embed&url=...&tool=echo`: navigation -> Connect usable (its first paint)
//   mcp-lens  first use  of each part of LAZY_PARTS, clicked at once and 2 s after the list
//                        (first-use.mjs)
// Of each page: the times from navigation (the page's clock: performance.now() from navigation
// start, to the next frame after the DOM showed it), and from its timeline (timeline.mjs): the
// bytes by type as transferred of the requests started before the outcome (and before Connect
// was usable: the first paint), the server's bytes, the preflights and how long each took, each
// file's arrival, and the JS and wasm requests of the first paint that started only after the
// stylesheet had arrived. Printed by slow-report.mjs, judged by budgets.mjs.

import { checkDirect, connectChain, describeInspector, INSPECTOR_READY, inspectorPage } from './inspector.mjs';
import { ECHO, LENS_FATAL, LENS_READY, describeLens } from './lens.mjs';
import { brief, ms, sleep } from './lib.mjs';
import { LAZY_PARTS, firstUse, lensAtOnceWatches } from './first-use.mjs';
import { readProbe } from './probe.mjs';
import { THROTTLED_TIMEOUT_MS, throttledPage } from './throttle.mjs';
import { afterStylesheet, arrivals, fetchedBefore, preflights } from './timeline.mjs';

// What the inspector's proxy answers at /config when started with no server command (its
// `defaultEnvironment` is the proxy's own environment; empty here, it changes nothing in Direct
// mode). Served beside its files on the same origin.
export const INSPECTOR_CONFIG = { type: 'application/json; charset=utf-8', body: JSON.stringify({ defaultEnvironment: {} }) };
// A page that has sent nothing to the server this long after its network went idle (Connect
// usable, every file in) does not connect by itself.
const SELF_CONNECT_IDLE_MS = 3000;
const KB = 1024;

/**
 * What one page showed and fetched: `ready` (navigation -> Connect usable, if watched), `done`
 * (navigation -> the outcome), `click` (the Connect click -> the outcome, if `clickWatch`), and
 * from the timeline the bytes before the outcome and before Connect was usable, the first
 * paint's requests that waited for the stylesheet, the files' arrivals and the preflights.
 */
async function pageResult(opened, { appUrl, serverUrl, gzip }, { ready = null, done, clickWatch = null }) {
  const { page, timeline, problems } = opened;
  const probe = await readProbe(page);
  if (problems.length) throw new Error(problems.join('\n'));
  const w = probe.watches;
  const epoch = (t) => probe.timeOrigin + t;
  const origins = { appOrigin: new URL(appUrl).origin, serverOrigin: new URL(serverUrl).origin, gzip };
  const doneAt = epoch(w[done].dom);
  // The files still on their way when the outcome showed: let them arrive, for their timing.
  await appIdle(timeline, origins.appOrigin, 15_000);
  return {
    ready: ready ? w[ready].frame : null,
    done: w[done].frame,
    // When the DOM showed them (the moments the bytes are counted up to).
    readyDom: ready ? w[ready].dom : null,
    doneDom: w[done].dom,
    click: clickWatch ? w[done].frame - w[clickWatch].start : null,
    beforeDone: fetchedBefore(timeline, origins, doneAt),
    firstPaint: ready ? fetchedBefore(timeline, origins, epoch(w[ready].dom)) : null,
    waited: ready ? afterStylesheet(timeline, origins.appOrigin, epoch(w[ready].dom)) : null,
    arrivals: arrivals(timeline, origins.appOrigin, probe.timeOrigin),
    preflights: preflights(timeline, origins.serverOrigin, doneAt),
  };
}

/** Waits (at most `timeout` ms) until every request to the app's origin has ended. */
async function appIdle(timeline, appOrigin, timeout) {
  const deadline = Date.now() + timeout;
  while (timeline.some((r) => r.origin === appOrigin && r.end === null) && Date.now() < deadline) await sleep(100);
}

/** mcp-lens's full app, Connect clicked by the page the moment it is usable. */
async function lensAtOnce(browser, ctx) {
  const opened = await throttledPage(browser, {
    url: `${ctx.appUrl}?url=${encodeURIComponent(ctx.serverUrl)}`,
    appUrl: ctx.appUrl,
    serverUrl: ctx.serverUrl,
    initialWatches: lensAtOnceWatches(),
    describe: describeLens,
    fatal: LENS_FATAL,
  });
  try {
    await opened.waitStep('tools', `${ECHO} after Connect clicked at once (throttled)`);
    return await pageResult(opened, ctx, { ready: 'load', done: 'tools', clickWatch: 'tools' });
  } finally {
    await opened.close();
  }
}

/** The inspector, Connect clicked the moment it is usable, then its Tools tab and List Tools. */
async function inspectorAtOnce(browser, ctx) {
  const { url, initScript } = inspectorPage(ctx.appUrl, ctx.serverUrl);
  const opened = await throttledPage(browser, {
    url,
    appUrl: ctx.appUrl,
    serverUrl: ctx.serverUrl,
    initialWatches: { load: { ...INSPECTOR_READY, act: 'click' }, ...connectChain('', 'Echo Tool') },
    initScript,
    describe: describeInspector,
  });
  try {
    await opened.waitStep('tools', 'the Echo Tool row after Connect clicked at once, Tools tab, List Tools (throttled)');
    await checkDirect(opened.page, ctx.serverUrl);
    return await pageResult(opened, ctx, { ready: 'load', done: 'tools', clickWatch: 'connected' });
  } finally {
    await opened.close();
  }
}

/** The embed view's self-connecting link: navigation -> echo's form shown. */
async function embedConnect(browser, ctx) {
  const opened = await throttledPage(browser, {
    url: `${ctx.appUrl}?embed&url=${encodeURIComponent(ctx.serverUrl)}&tool=echo&connect`,
    appUrl: ctx.appUrl,
    serverUrl: ctx.serverUrl,
    initialWatches: { tool: { selector: '#tool-panel', fromNavigation: true } },
    describe: describeLens,
    fatal: LENS_FATAL,
  });
  try {
    await opened.waitStep('tool', '#tool-panel after ?embed&tool=echo&connect (throttled; a build that refuses loopback widgets needs MCP_LENS_EMBED_ALLOW=private-network)');
    return await pageResult(opened, ctx, { done: 'tool' });
  } finally {
    await opened.close();
  }
}

/** The embed view without &connect: navigation -> Connect usable (its first paint). */
async function embedLoad(browser, ctx) {
  const opened = await throttledPage(browser, {
    url: `${ctx.appUrl}?embed&url=${encodeURIComponent(ctx.serverUrl)}&tool=echo`,
    appUrl: ctx.appUrl,
    serverUrl: ctx.serverUrl,
    initialWatches: { load: LENS_READY },
    describe: describeLens,
    fatal: LENS_FATAL,
  });
  try {
    await opened.waitStep('load', 'the embed view\'s #connect usable (throttled)');
    return await pageResult(opened, ctx, { ready: 'load', done: 'load' });
  } finally {
    await opened.close();
  }
}

/**
 * The full app's `?url=...&connect`: the tool list when the page connects by itself (for this
 * loopback server, after the question it asks first, answered at once), or null
 * (with `why`) when it does not: nothing sent to the server SELF_CONNECT_IDLE_MS after the page's
 * requests to the app had all ended, Connect usable.
 */
async function fullConnect(browser, ctx) {
  const opened = await throttledPage(browser, {
    url: `${ctx.appUrl}?url=${encodeURIComponent(ctx.serverUrl)}&connect`,
    appUrl: ctx.appUrl,
    serverUrl: ctx.serverUrl,
    initialWatches: { load: LENS_READY, tools: { selector: ECHO, fromNavigation: true } },
    describe: describeLens,
    fatal: LENS_FATAL,
  });
  const appOrigin = new URL(ctx.appUrl).origin;
  const serverOrigin = new URL(ctx.serverUrl).origin;
  try {
    await opened.waitStep('load', '#connect usable after ?url=...&connect (throttled)');
    const deadline = Date.now() + THROTTLED_TIMEOUT_MS;
    let idleSince = null;
    for (;;) {
      if (opened.timeline.some((r) => r.origin === serverOrigin)) break; // it is connecting
      // A server on the person's own machine is asked about first (#connect-ask): the person
      // says yes the moment it shows, as they would to a link they just followed on purpose.
      const ask = opened.page.locator('#connect-ask-yes');
      if (await ask.isVisible().catch(() => false)) await ask.click().catch(() => {});
      const busy = opened.timeline.some((r) => r.origin === appOrigin && r.end === null);
      idleSince = busy ? null : (idleSince ?? Date.now());
      if (idleSince !== null && Date.now() - idleSince >= SELF_CONNECT_IDLE_MS) {
        return { result: null, why: `the full app does not connect by itself (nothing sent to the server ${SELF_CONNECT_IDLE_MS / 1000} s after its files were in)` };
      }
      if (Date.now() > deadline) return { result: null, why: 'the full app did not connect by itself within 60 s' };
      await sleep(100);
    }
    await opened.waitStep('tools', `${ECHO} after ?url=...&connect (throttled)`);
    return { result: await pageResult(opened, ctx, { ready: 'load', done: 'tools' }), why: null };
  } finally {
    await opened.close();
  }
}

const kb = (bytes) => (bytes / KB).toFixed(1);
const pathLine = (r) =>
  `${r.ready !== null ? `Connect usable ${ms(r.ready)}, ` : ''}done ${ms(r.done)} ms${r.click !== null ? ` (click -> done ${ms(r.click)})` : ''}; ` +
  `${kb(r.beforeDone.body.total)} KB gzip before it, ${r.preflights.length} preflight(s)`;

/**
 * Runs every case `runs` times, alternating the apps, and returns the results per case (printed
 * by slow-report.mjs). `lens` and `inspector` are { appUrl, gzip } (gzip: file -> its gzip -9
 * size; inspector null: mcp-lens alone).
 */
export async function slowNetwork(browser, { lens, inspector, serverUrl, runs }) {
  const lensCtx = { appUrl: lens.appUrl, gzip: lens.gzip, serverUrl };
  const inspectorCtx = inspector ? { appUrl: inspector.appUrl, gzip: inspector.gzip, serverUrl } : null;
  const out = {
    lensAtOnce: [],
    inspectorAtOnce: [],
    embedConnect: [],
    fullConnect: [],
    fullConnectWhy: null,
    embedLoad: [],
    firstUse: Object.fromEntries(LAZY_PARTS.map((p) => [p.name, { atOnce: [], later: [] }])),
    failures: [],
    inspectorSkipped: !inspectorCtx,
  };
  const probe = await fullConnect(browser, lensCtx);
  out.fullConnectWhy = probe.why;
  console.log(`full app ?url=...&connect: ${probe.why ?? 'connects by itself; measured in each run'}`);
  for (let i = 1; i <= runs; i++) {
    // A case that fails is reported and left out; the other cases and runs still run.
    const run = async (who, measure, into, line) => {
      const label = `${who.padEnd(32)} run ${i}:`;
      try {
        const result = await measure();
        if (result) into.push(result);
        console.log(`${label} ${line(result)}`);
      } catch (error) {
        out.failures.push(`${who}, run ${i}: ${brief(error)}`);
        console.log(`${label} FAILED: ${brief(error)}`);
      }
    };
    await run('mcp-lens, at once', () => lensAtOnce(browser, lensCtx), out.lensAtOnce, pathLine);
    if (inspectorCtx) await run('inspector, at once', () => inspectorAtOnce(browser, inspectorCtx), out.inspectorAtOnce, pathLine);
    await run('mcp-lens, embed &connect', () => embedConnect(browser, lensCtx), out.embedConnect, pathLine);
    if (!probe.why) {
      const measure = async () => (await fullConnect(browser, lensCtx)).result;
      await run('mcp-lens, full &connect', measure, out.fullConnect, (f) => (f ? pathLine(f) : 'did not connect by itself this time'));
    }
    await run('mcp-lens, embed view', () => embedLoad(browser, lensCtx), out.embedLoad, (v) => `Connect usable ${ms(v.ready)} ms, ${kb(v.firstPaint.body.total)} KB gzip before it`);
    for (const part of LAZY_PARTS) {
      const uses = out.firstUse[part.name];
      for (const atOnce of [true, false]) {
        await run(
          `mcp-lens, ${part.name}, ${atOnce ? 'at once' : 'later'}`,
          () => firstUse(browser, { ...lensCtx, part, atOnce }),
          atOnce ? uses.atOnce : uses.later,
          (u) => `click -> shown ${ms(u.ms)} ms (clicked ${ms(u.afterList)} ms after the list; fetched: ${u.fetched.join(', ') || 'nothing'})`,
        );
      }
    }
  }
  return out;
}
