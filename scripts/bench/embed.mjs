// The embed view in a docs page (issue 12's closing numbers): the example docs page kept in the
// repo (tests/e2e/docs-page/guide/index.html, two widgets) served from an origin of its own and a
// sub-path (/docs/guide/), the app from another; the widget measured is the first one (echo).
// Per run, in a fresh browser context:
//   download    the gzip -9 sizes of the app's files (wasm, JS, CSS, HTML) the widget's frame
//               requested before its Connect button was usable: the embed view's own first paint
//               (the host script embed.js, fetched by the docs page, is printed beside it);
//   docs -> widget usable   the docs page's navigation start -> the widget's Connect usable (what a
//               reader waits for: the page, the iframe's load and the widget's first paint);
//   iframe -> widget usable the iframe's own navigation start -> its Connect usable;
//   first contentful paint  in the iframe, from its own navigation start.
// On loopback with the app served uncompressed (as in the comparison runs), and throttled to
// Lighthouse's mobile profile with both sites served gzip -9 (as a static host would), cache off.
// Nothing connects: the server named in the widgets' addresses is never contacted.

import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { HOST, ROOT, median, ms, onCleanup, snapshotPath } from './lib.mjs';
import { SLOW_NETWORK } from './throttle.mjs';

const DOCS_DIR = path.join(ROOT, 'tests/e2e/docs-page');
// The addresses the example page is written with (scripts/serve.sh's defaults).
const EXAMPLE_APP = 'http://127.0.0.1:8080/';
const EXAMPLE_SERVER = 'http://127.0.0.1:3001/mcp';
const NEVER_CONTACTED = 'http://127.0.0.1:9/mcp';
const TIMEOUT_MS = 60_000;

// In every frame, before its scripts: the moment #connect is present and enabled.
const WATCH_CONNECT = `
  const seen = () => {
    const button = document.querySelector('#connect');
    if (button && !button.disabled && window.__connectReady === undefined) window.__connectReady = performance.now();
  };
  new MutationObserver(seen).observe(document, { subtree: true, childList: true, attributes: true });
`;

/** The example docs page with its two addresses replaced (the app's and the server's). */
export function docsPageFiles(appUrl, serverUrl) {
  const files = new Map();
  const walk = (dir, prefix) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const rel = `${prefix}${entry.name}`;
      if (entry.isDirectory()) walk(path.join(dir, entry.name), `${rel}/`);
      else files.set(rel, fs.readFileSync(path.join(dir, entry.name)));
    }
  };
  walk(DOCS_DIR, '');
  const html = files.get('guide/index.html').toString('utf8');
  files.set(
    'guide/index.html',
    Buffer.from(
      html
        .replaceAll(EXAMPLE_APP, appUrl)
        .replaceAll(encodeURIComponent(EXAMPLE_SERVER), encodeURIComponent(serverUrl)),
    ),
  );
  return files;
}

/** Serves the docs page's files under /docs/ on a port of its own (gzip -9 with `gzip`). */
async function startDocsServer(files, { gzip }) {
  const server = http.createServer((req, res) => {
    const pathname = new URL(req.url, 'http://localhost').pathname;
    const data = pathname.startsWith('/docs/') ? files.get(snapshotPath(pathname.slice('/docs'.length))) : undefined;
    if (!data) {
      res.writeHead(404).end();
      return;
    }
    const body = gzip ? zlib.gzipSync(data, { level: 9 }) : data;
    res.writeHead(200, {
      'content-type': pathname.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    });
    res.end(body);
  });
  await new Promise((resolve) => server.listen(0, HOST, resolve));
  onCleanup(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://${HOST}:${server.address().port}/docs/guide/`;
}

async function embedRun(browser, { docsUrl, gzip, throttled }) {
  const context = await browser.newContext();
  try {
    await context.addInitScript(WATCH_CONNECT);
    const page = await context.newPage();
    if (throttled) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
      await cdp.send('Network.emulateNetworkConditions', { offline: false, ...SLOW_NETWORK });
    }
    await page.goto(docsUrl, { waitUntil: 'commit', timeout: TIMEOUT_MS });
    const docsStart = await page.evaluate(() => performance.timeOrigin);
    const element = await page.waitForSelector('#echo-widget', { timeout: TIMEOUT_MS });
    let frame = null;
    const deadline = Date.now() + TIMEOUT_MS;
    for (;;) {
      frame = await element.contentFrame();
      if (frame && frame.url().includes('embed')) {
        const ready = await frame.evaluate(() => window.__connectReady !== undefined).catch(() => false);
        if (ready) break;
      }
      if (Date.now() > deadline) throw new Error('the widget in the docs page never showed a usable Connect button');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const inFrame = await frame.evaluate(() => ({
      origin: performance.timeOrigin,
      ready: window.__connectReady,
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
      names: performance
        .getEntriesByType('resource')
        .filter((e) => e.startTime <= window.__connectReady)
        .map((e) => e.name),
    }));
    const files = [...new Set(['index.html', ...inFrame.names.map((name) => snapshotPath(new URL(name).pathname))])].filter(
      (name) => /\.(wasm|js|css|html)$/.test(name) && gzip.has(name),
    );
    const hostScript = await page.evaluate(() =>
      performance.getEntriesByType('resource').some((e) => new URL(e.name).pathname.endsWith('/embed.js')),
    );
    return {
      download: files.reduce((sum, name) => sum + gzip.get(name), 0),
      files,
      hostScript,
      docsToReady: inFrame.origin + inFrame.ready - docsStart,
      frameToReady: inFrame.ready,
      fcp: inFrame.fcp,
    };
  } finally {
    await context.close().catch(() => {});
  }
}

const row = (label, values, fmt = ms) => {
  const kept = values.filter((v) => v !== null && v !== undefined);
  const text = kept.length ? `${fmt(median(kept))} (${fmt(Math.min(...kept))}-${fmt(Math.max(...kept))})` : 'n/a';
  console.log(`${label.padEnd(60)} ${text}`);
  return kept.length ? median(kept) : null;
};

/**
 * Runs the embed cases `runs` times each and prints medians (min-max). `startApp(gzip)` serves
 * the app's snapshot (uncompressed or gzip -9) and resolves to its base URL.
 */
export async function embedInDocs(browser, { startApp, gzip, runs }) {
  const kb = (bytes) => (bytes / 1024).toFixed(1);
  const out = {};
  for (const throttled of [false, true]) {
    const appUrl = await startApp(throttled);
    const docsUrl = await startDocsServer(docsPageFiles(appUrl, NEVER_CONTACTED), { gzip: throttled });
    const results = [];
    for (let i = 0; i < runs; i++) results.push(await embedRun(browser, { docsUrl, gzip, throttled }));
    const where = throttled
      ? `throttled (${SLOW_NETWORK.name}, both sites served gzip -9, cache off)`
      : 'loopback (the app served uncompressed)';
    console.log(`-- ${where}; docs page ${docsUrl}, app ${appUrl}; ${runs} run(s) --`);
    const key = throttled ? 'throttled' : 'loopback';
    out[key] = {
      download: row('embed view first-paint download (KB gzip -9)', results.map((r) => r.download), kb),
      docsToReady: row('docs page navigation -> widget Connect usable (ms)', results.map((r) => r.docsToReady)),
      frameToReady: row('iframe navigation -> widget Connect usable (ms)', results.map((r) => r.frameToReady)),
      fcp: row('iframe navigation -> first contentful paint (ms)', results.map((r) => r.fcp)),
      files: results[0].files,
    };
    if (!results.every((r) => r.hostScript)) console.log('note: the docs page did not fetch embed.js in every run');
  }
  const hostScript = gzip.get('embed.js');
  console.log(`files of the embed view's first paint: ${out.loopback.files.map((f) => `${f} ${kb(gzip.get(f))}`).join(', ')} (KB gzip -9)`);
  if (hostScript !== undefined) console.log(`the host page's optional embed.js: ${kb(hostScript)} KB gzip -9`);
  out.hostScript = hostScript ?? null;
  return out;
}
