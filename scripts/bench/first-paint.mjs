#!/usr/bin/env node
// The first paint's download, separately for the full app and for the embed view (issue 10's
// budgets: 200 KB and 150 KB): the gzip -9 sizes of the files of a built app (wasm, JS, CSS,
// HTML) that a page load requested before its Connect button was usable, in headless Chromium.
// No MCP server is needed (nothing connects). Prints one line per view and the files counted.
//   node scripts/bench/first-paint.mjs [dist-dir] [--json]
import path from 'node:path';
import process from 'node:process';
import { cleanup, gzipSizes, launchBrowser, ROOT, snapshotDir, snapshotPath, startStaticServer } from './lib.mjs';

const BUDGETS = { 'full app': 200 * 1024, 'embed view': 150 * 1024 };
const SERVER = 'http://127.0.0.1:9/mcp'; // never contacted: nothing connects

// The moment the Connect button is in the page and enabled, from the page's own clock (a
// MutationObserver installed before any script): what was requested after it (the session
// chunk, fetched after the first paint) is not part of the first paint.
const WATCH_CONNECT = `
  const seen = () => {
    const button = document.querySelector('#connect');
    if (button && !button.disabled && window.__connectReady === undefined) window.__connectReady = performance.now();
  };
  new MutationObserver(seen).observe(document, { subtree: true, childList: true, attributes: true });
`;

async function measure(browser, base, query) {
  const page = await browser.newPage();
  await page.addInitScript(WATCH_CONNECT);
  await page.goto(`${base}${query}`);
  await page.waitForFunction(() => window.__connectReady !== undefined);
  const names = await page.evaluate(() =>
    ['index.html', ...performance.getEntriesByType('resource').filter((e) => e.startTime <= window.__connectReady).map((e) => e.name)],
  );
  await page.close();
  return [...new Set(names.map((name) => (name === 'index.html' ? name : snapshotPath(new URL(name).pathname))))];
}

async function main() {
  const args = process.argv.slice(2);
  const json = args.includes('--json');
  const dir = path.resolve(args.find((a) => !a.startsWith('--')) ?? path.join(ROOT, 'dist'));
  const snapshot = await snapshotDir(dir);
  const gzip = gzipSizes(snapshot);
  const base = await startStaticServer(snapshot);
  const browser = await launchBrowser();
  const views = {
    'full app': `?url=${encodeURIComponent(SERVER)}`,
    'embed view': `?embed&url=${encodeURIComponent(SERVER)}&tool=echo`,
  };
  const results = {};
  for (const [view, query] of Object.entries(views)) {
    const files = (await measure(browser, base, query)).filter((name) => /\.(wasm|js|css|html)$/.test(name) && gzip.has(name));
    const total = files.reduce((sum, name) => sum + gzip.get(name), 0);
    results[view] = { total, budget: BUDGETS[view], files: Object.fromEntries(files.map((f) => [f, gzip.get(f)])) };
  }
  if (json) {
    console.log(JSON.stringify(results, null, 2));
  } else {
    for (const [view, r] of Object.entries(results)) {
      const verdict = r.total <= r.budget ? 'PASS' : 'FAIL';
      console.log(`${verdict}  ${view}: first paint ${(r.total / 1024).toFixed(1)} KB gzip -9 (budget ${r.budget / 1024} KB)`);
      for (const [file, size] of Object.entries(r.files)) console.log(`        ${file} ${(size / 1024).toFixed(1)} KB`);
    }
  }
}

try {
  await main();
} finally {
  await cleanup();
}
