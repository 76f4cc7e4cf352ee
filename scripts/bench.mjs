#!/usr/bin/env node
// mcp-lens benchmark: prints numbers, it is not a test.
//
//   node scripts/bench.mjs [--runs N] [--json] [--strict] [--sizes-only]
//
// 1. Sizes of dist/*.wasm, *.js, *.css: raw and gzip -9, per file and in total, against the budget.
// 2. Starts its own servers on 127.0.0.1: a static server for dist/ and
//    @modelcontextprotocol/server-everything (streamable HTTP, kept on loopback by
//    tests/servers/loopback.cjs). Both are stopped on exit, errors and SIGINT/SIGTERM.
// 3. For each run (a fresh browser context in one headless Chromium), measures in the page
//    (performance.now(), i.e. relative to navigation start):
//      - navigation -> #connect present and enabled
//      - Connect click -> li.tool-item[data-tool="echo"] in the DOM
//      - echo Run click -> #tool-result .content-text says "Echo: bench"
//    the longest main-thread task (PerformanceObserver 'longtask', >= 50 ms only) per phase, and
//    the requests of the Connect phase on the wire (CDP Network events, which also show CORS
//    preflights that Playwright's page.on('request') does not report).
// 4. Prints medians (min, max) over the runs; --json adds one JSON summary line at the end.
//
// dist/ is read into memory once and served from there, so the sizes and the pages are the same
// build even if dist/ is rebuilt meanwhile. MCP_LENS_DIST=<dir> measures another directory;
// BENCH_DEBUG=1 prints stack traces on errors.
//
// Exit status: 0; 1 on a real error (a server did not start, a selector never appeared, a page
// error/panic, the connect wire check failed) or on an over-budget size with --strict; 2 on bad
// arguments; 130/143 when interrupted (servers and browser are stopped first).

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.resolve(ROOT, process.env.MCP_LENS_DIST || 'dist');
const HOST = '127.0.0.1';
const BUDGET_GZIP = 153600;
// Chromium's path and flags, shared with playwright.config.ts.
const { executablePath: CHROMIUM, args: CHROMIUM_ARGS } = JSON.parse(
  fs.readFileSync(path.join(ROOT, 'tests/chromium.json'), 'utf8'),
);
const SELECTOR_TIMEOUT_MS = 30_000;
const SERVER_START_TIMEOUT_MS = 30_000;
// After the tool list is in the DOM, keep watching the wire this long for stray requests.
const WIRE_GRACE_MS = 300;
const LIST_METHODS = new Set(['tools/list', 'prompts/list', 'resources/list']);

// ---------------------------------------------------------------- arguments

function parseArgs(argv) {
  const options = { runs: 5, json: false, strict: false, sizesOnly: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--json') options.json = true;
    else if (arg === '--strict') options.strict = true;
    else if (arg === '--sizes-only') options.sizesOnly = true;
    else if (arg === '--runs' || arg.startsWith('--runs=')) {
      const raw = arg === '--runs' ? argv[++i] : arg.slice('--runs='.length);
      const runs = Number(raw);
      if (!Number.isInteger(runs) || runs < 1) throw new UsageError(`--runs needs a positive integer, got ${raw}`);
      options.runs = runs;
    } else if (arg === '--help' || arg === '-h') {
      console.log('usage: node scripts/bench.mjs [--runs N] [--json] [--strict] [--sizes-only]');
      process.exit(0);
    } else throw new UsageError(`unknown argument: ${arg}`);
  }
  return options;
}

class UsageError extends Error {}

// ---------------------------------------------------------------- cleanup

const cleanups = [];
let cleanedUp = false;

async function cleanup() {
  if (cleanedUp) return;
  cleanedUp = true;
  for (const fn of cleanups.reverse()) {
    try {
      await fn();
    } catch {
      // keep cleaning up
    }
  }
}

// Last resort if the process exits without running cleanup(): synchronous kills only.
const children = new Set();
process.on('exit', () => {
  for (const child of children) {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
});

let interruptedCode = null;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (interruptedCode !== null) return;
    console.error(`\n${signal}: stopping servers and browser`);
    const code = signal === 'SIGINT' ? 130 : signal === 'SIGTERM' ? 143 : 129;
    interruptedCode = code;
    const timer = setTimeout(() => process.exit(code), 5000);
    timer.unref();
    cleanup().finally(() => process.exit(code));
  });
}

// ---------------------------------------------------------------- helpers

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function stats(values) {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values), values };
}

const ms = (value) => value.toFixed(1);

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// ---------------------------------------------------------------- 1. sizes

// Reads dist/ into memory once, so the sizes and the pages served are the same build even if
// dist/ is rebuilt while the benchmark runs. Retries while the directory is still changing or
// index.html names a file that is not there (a build in progress).
async function snapshotDist() {
  const where = path.relative(ROOT, DIST) || DIST;
  if (!fs.existsSync(path.join(DIST, 'index.html'))) {
    throw new Error(`${where}/index.html is missing: build the app first (trunk build --release)`);
  }
  const listFiles = (dir, prefix = '') =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const rel = prefix + entry.name;
      if (entry.isDirectory()) return listFiles(path.join(dir, entry.name), `${rel}/`);
      return entry.isFile() ? [rel] : [];
    });
  const stamp = () =>
    listFiles(DIST)
      .sort()
      .map((rel) => {
        const st = fs.statSync(path.join(DIST, rel));
        return `${rel}:${st.size}:${st.mtimeMs}`;
      })
      .join('|');
  let problem = '';
  for (let attempt = 0; attempt < 20; attempt++) {
    if (attempt) await sleep(1000);
    try {
      const before = stamp();
      const files = new Map(listFiles(DIST).map((rel) => [rel, fs.readFileSync(path.join(DIST, rel))]));
      if (stamp() !== before) {
        problem = `${where}/ changed while it was read`;
        continue;
      }
      const html = files.get('index.html')?.toString('utf8') ?? '';
      const missing = [...html.matchAll(/(?:href|src|from|module_or_path:)\s*=?\s*["']\.?\/?([^"':?#]+\.(?:js|wasm|css))["']/g)]
        .map((m) => m[1])
        .filter((rel) => !files.has(rel));
      if (missing.length) {
        problem = `${where}/index.html names missing files: ${[...new Set(missing)].join(', ')}`;
        continue;
      }
      return files;
    } catch (error) {
      problem = `${where}/ could not be read: ${error.message}`;
    }
  }
  throw new Error(`${problem} (a build in progress?)`);
}

function measureSizes(snapshot) {
  const files = [...snapshot.keys()]
    .filter((name) => !name.includes('/') && /\.(wasm|js|css)$/.test(name))
    .sort((a, b) => {
      const order = (name) => ['.wasm', '.js', '.css'].indexOf(path.extname(name));
      return order(a) - order(b) || a.localeCompare(b);
    })
    .map((name) => {
      const data = snapshot.get(name);
      return { name, raw: data.length, gzip: zlib.gzipSync(data, { level: 9 }).length };
    });
  const totalRaw = files.reduce((sum, f) => sum + f.raw, 0);
  const totalGzip = files.reduce((sum, f) => sum + f.gzip, 0);
  return { files, totalRaw, totalGzip, budget: BUDGET_GZIP, overBudget: totalGzip > BUDGET_GZIP };
}

function printSizes(sizes) {
  const width = Math.max(5, ...sizes.files.map((f) => f.name.length));
  console.log(`== sizes (${path.relative(ROOT, DIST) || DIST}/) ==`);
  console.log(`${'file'.padEnd(width)}  ${'raw'.padStart(9)}  ${'gzip -9'.padStart(9)}`);
  for (const f of sizes.files) {
    console.log(`${f.name.padEnd(width)}  ${String(f.raw).padStart(9)}  ${String(f.gzip).padStart(9)}`);
  }
  console.log(`${'total'.padEnd(width)}  ${String(sizes.totalRaw).padStart(9)}  ${String(sizes.totalGzip).padStart(9)}`);
  const line = `total gzip -9: ${sizes.totalGzip} bytes (budget ${sizes.budget})`;
  console.log(sizes.overBudget ? `${line} OVER BUDGET by ${sizes.totalGzip - sizes.budget} bytes` : line);
}

// ---------------------------------------------------------------- 2. servers

const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

async function startStaticServer(snapshot) {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    let pathname;
    try {
      pathname = decodeURIComponent(new URL(req.url, 'http://localhost').pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    if (pathname.endsWith('/')) pathname += 'index.html';
    // Only names in the snapshot are served, so no path can leave dist/.
    const data = snapshot.get(pathname.replace(/^\/+/, ''));
    if (!data) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found');
      return;
    }
    res.writeHead(200, {
      'content-type': CONTENT_TYPES[path.extname(pathname).toLowerCase()] || 'application/octet-stream',
      'content-length': data.length,
      'cache-control': 'no-store',
    });
    res.end(req.method === 'HEAD' ? undefined : data);
  });
  const sockets = new Set();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, HOST, resolve);
  });
  cleanups.push(
    () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return `http://${HOST}:${server.address().port}/`;
}

function httpAnswers(url) {
  return new Promise((resolve) => {
    const req = http.get(url, { timeout: 1000 }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}

async function startEverything() {
  const port = await freePort();
  const entry = 'node_modules/@modelcontextprotocol/server-everything/dist/index.js';
  if (!fs.existsSync(path.join(ROOT, entry))) throw new Error(`${entry} is missing: run npm ci`);
  const child = spawn(process.execPath, ['-r', './tests/servers/loopback.cjs', entry, 'streamableHttp'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.add(child);
  let stderr = '';
  child.stderr.on('data', (chunk) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  let exited = null;
  const exitPromise = new Promise((resolve) => {
    child.on('exit', (code, signal) => {
      exited = { code, signal };
      children.delete(child);
      resolve();
    });
  });
  cleanups.push(async () => {
    if (exited) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exitPromise;
    clearTimeout(timer);
  });

  const url = `http://${HOST}:${port}/mcp`;
  const deadline = Date.now() + SERVER_START_TIMEOUT_MS;
  for (;;) {
    if (exited) {
      throw new Error(`server-everything exited (code ${exited.code}, signal ${exited.signal}) before listening:\n${stderr}`);
    }
    if (await httpAnswers(url)) return url;
    if (Date.now() > deadline) throw new Error(`server-everything did not answer on ${url} within ${SERVER_START_TIMEOUT_MS} ms:\n${stderr}`);
    await sleep(100);
  }
}

// ---------------------------------------------------------------- 3. page instrumentation

// Runs in the page before its scripts. Times are performance.now() (ms since navigation start).
function pageInstrumentation() {
  const bench = {
    connectReady: null,
    connectClick: null,
    toolsRendered: null,
    runClick: null,
    resultRendered: null,
    longtaskSupported:
      typeof PerformanceObserver !== 'undefined' && PerformanceObserver.supportedEntryTypes.includes('longtask'),
    longtasks: [],
  };
  window.__bench = bench;
  if (bench.longtaskSupported) {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) bench.longtasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  }
  const check = () => {
    const now = performance.now();
    if (bench.connectReady === null) {
      const button = document.querySelector('#connect');
      if (button && !button.disabled) bench.connectReady = now;
    }
    if (bench.connectClick !== null && bench.toolsRendered === null) {
      if (document.querySelector('li.tool-item[data-tool="echo"]')) bench.toolsRendered = now;
    }
    if (bench.runClick !== null && bench.resultRendered === null) {
      for (const el of document.querySelectorAll('#tool-result .content-text')) {
        if (el.textContent.includes('Echo: bench')) {
          bench.resultRendered = now;
          break;
        }
      }
    }
  };
  const pending = () => bench.connectReady === null || bench.toolsRendered === null || bench.resultRendered === null;
  // Mutations are seen in the microtask right after the DOM change; the frame loop is only a
  // fallback for changes that are not mutations (e.g. a `disabled` property set without the attribute).
  new MutationObserver(check).observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    characterData: true,
  });
  const frame = () => {
    check();
    if (pending()) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  document.addEventListener(
    'click',
    (event) => {
      const target = event.target instanceof Element ? event.target : null;
      if (!target) return;
      // The event's timeStamp is when the input arrived, before the task that handles it began.
      const at = Math.min(event.timeStamp, performance.now());
      if (target.closest('#connect') && bench.connectClick === null) bench.connectClick = at;
      if (target.closest('#run-tool') && bench.runClick === null && bench.toolsRendered !== null) bench.runClick = at;
    },
    true,
  );
}

// ---------------------------------------------------------------- wire capture (CDP)

function attachWire(cdp, serverOrigin) {
  const requests = new Map(); // requestId -> record
  const list = [];
  const hit = (url) => {
    try {
      return new URL(url).origin === serverOrigin;
    } catch {
      return false;
    }
  };
  cdp.on('Network.requestWillBeSent', (e) => {
    if (!hit(e.request.url)) return;
    const record = {
      id: e.requestId,
      method: e.request.method,
      preflightFor: e.initiator?.type === 'preflight' ? e.initiator.requestId : null,
      rpc: null,
      hasPostData: Boolean(e.request.hasPostData),
      postData: e.request.postData ?? null,
      start: e.timestamp, // monotonic seconds
      wallStart: e.wallTime * 1000, // epoch ms
      headersAt: null,
      lastDataAt: null,
      endAt: null,
      status: null,
      failed: null,
    };
    requests.set(e.requestId, record);
    list.push(record);
  });
  cdp.on('Network.responseReceived', (e) => {
    const r = requests.get(e.requestId);
    if (!r) return;
    r.headersAt = e.timestamp;
    r.status = e.response.status;
  });
  cdp.on('Network.dataReceived', (e) => {
    const r = requests.get(e.requestId);
    if (r) r.lastDataAt = Math.max(r.lastDataAt ?? 0, e.timestamp);
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = requests.get(e.requestId);
    if (r) r.endAt = e.timestamp;
  });
  cdp.on('Network.loadingFailed', (e) => {
    const r = requests.get(e.requestId);
    if (!r) return;
    r.endAt = e.timestamp;
    r.failed = e.canceled ? 'canceled' : e.errorText;
  });
  return {
    list,
    async resolvePostData() {
      for (const r of list) {
        if (r.method !== 'POST') continue;
        if (r.postData === null && r.hasPostData) {
          try {
            r.postData = (await cdp.send('Network.getRequestPostData', { requestId: r.id })).postData;
          } catch {
            // gone
          }
        }
        try {
          const body = JSON.parse(r.postData ?? '');
          r.rpc = Array.isArray(body) ? `batch[${body.map((m) => m.method ?? 'response').join(',')}]` : (body.method ?? 'response');
        } catch {
          r.rpc = '(not JSON)';
        }
      }
    },
  };
}

const label = (r) => (r.method === 'POST' ? `POST ${r.rpc}` : r.method === 'OPTIONS' ? 'OPTIONS' : `${r.method}`);

// Analyses the requests of the Connect phase. `requests` are in the order the browser issued them.
function analyseConnectWire(all, clickAtWallMs, renderedAtWallMs) {
  const violations = [];
  const info = [];
  // A few ms of slack between the page clock (timeOrigin + now) and CDP's wall clock.
  const inPhase = (r) => r.wallStart <= renderedAtWallMs + 5;
  const preflights = all.filter((r) => r.preflightFor);
  const main = all.filter((r) => !r.preflightFor);
  const before = main.filter(inPhase);
  const after = main.filter((r) => !inPhase(r));
  if (after.length) info.push(`after the tool list (within ${WIRE_GRACE_MS} ms): ${after.map(label).join(', ')}`);

  const preflighted = new Set(preflights.map((p) => p.preflightFor));
  const posts = before.filter((r) => r.method === 'POST');
  const others = before.filter((r) => r.method !== 'POST');
  for (const r of others) violations.push(`unexpected ${label(r)} before the tool list was rendered`);

  const rpcs = posts.map((r) => r.rpc);
  if (rpcs[0] !== 'initialize') violations.push(`first POST is ${rpcs[0] ?? '(none)'}, expected initialize`);
  if (rpcs[1] !== 'notifications/initialized') violations.push(`second POST is ${rpcs[1] ?? '(none)'}, expected notifications/initialized`);
  for (const r of posts.slice(2)) if (!LIST_METHODS.has(r.rpc)) violations.push(`unexpected POST ${r.rpc} before the tool list was rendered`);
  const lists = posts.slice(2).filter((r) => LIST_METHODS.has(r.rpc));
  const seen = new Set();
  for (const r of lists) {
    if (seen.has(r.rpc)) violations.push(`${r.rpc} sent twice`);
    seen.add(r.rpc);
  }
  if (!seen.has('tools/list')) violations.push('no tools/list before the tool list was rendered');
  for (const r of posts) {
    if (r.status !== null && (r.status < 200 || r.status > 299)) violations.push(`POST ${r.rpc} answered HTTP ${r.status}`);
    if (r.status === null && r.failed) violations.push(`POST ${r.rpc} failed: ${r.failed}`);
  }

  // Round trips: a request depends on every request whose answer (headers) arrived before it
  // started; the count is the longest such chain. With preflights, a preflighted POST costs 2.
  const answeredAt = (r) => r.headersAt ?? r.endAt ?? Infinity;
  const levels = new Map();
  const wireLevels = new Map();
  for (const r of posts) {
    let level = 0;
    let wire = 0;
    for (const p of posts) {
      if (p === r || !levels.has(p)) continue;
      if (answeredAt(p) <= r.start) {
        level = Math.max(level, levels.get(p));
        wire = Math.max(wire, wireLevels.get(p));
      }
    }
    levels.set(r, level + 1);
    wireLevels.set(r, wire + 1 + (preflighted.has(r.id) ? 1 : 0));
  }
  const roundTrips = Math.max(0, ...levels.values());
  const wireRoundTrips = Math.max(0, ...wireLevels.values());

  // The sequence, grouped by round trip.
  const groups = [];
  for (const r of posts) {
    const level = levels.get(r);
    (groups[level - 1] ||= []).push(`${label(r)}${preflighted.has(r.id) ? ' [+preflight]' : ''}`);
  }
  let sequence = groups.filter(Boolean).map((g) => g.join(', ')).join(' -> ');
  if (others.length) sequence += ` (also: ${others.map(label).join(', ')})`;

  // The lists are parallel if every one of them started before any of them was answered.
  let listsParallel = null;
  if (lists.length > 1) {
    const lastStart = Math.max(...lists.map((r) => r.start));
    const firstAnswer = Math.min(...lists.map(answeredAt));
    listsParallel = lastStart < firstAnswer;
    if (!listsParallel) violations.push('the list requests were not in flight at the same time (not parallel)');
  }
  const orderOk =
    violations.length === 0 &&
    levels.get(posts[0]) === 1 &&
    levels.get(posts[1]) === 2 &&
    posts.length === 2 + lists.length &&
    lists.every((r) => levels.get(r) === 3);

  const preflightOf = posts.filter((r) => preflighted.has(r.id)).map((r) => r.rpc);
  const breakdown = orderOk ? connectBreakdown(all, posts, lists, clickAtWallMs, renderedAtWallMs) : null;
  return {
    breakdown,
    sequence,
    roundTrips,
    wireRoundTrips,
    preflightsBefore: preflightOf,
    listsParallel,
    shapeOk: orderOk,
    violations,
    info,
  };
}

// Where the Connect phase's time goes (ms). Stage boundaries are the moments the next stage's
// first request (or its preflight) was issued. CDP times are monotonic; the click and render
// times come from the page clock, so the first and last stage are good to about a millisecond.
function connectBreakdown(all, posts, lists, clickAtWallMs, renderedAtWallMs) {
  const toWall = (t) => (t - all[0].start) * 1000 + all[0].wallStart;
  const preflightOf = (r) => all.find((p) => p.preflightFor === r.id) ?? null;
  const issued = (r) => Math.min(r.start, preflightOf(r)?.start ?? Infinity);
  // CDP stamps a preflight's events from different places; tiny negative spans become 0.
  const preflightMs = (r) => {
    const p = preflightOf(r);
    return p ? Math.max(0, (Math.max(p.headersAt ?? 0, p.endAt ?? 0) - p.start) * 1000) : 0;
  };
  // When the answer's bytes arrived. Not the end of loading: the client cancels a finished SSE
  // answer's stream when it gets to it, which can be later.
  const answered = (r) => (r.headersAt !== null ? Math.max(r.headersAt, r.lastDataAt ?? 0) : (r.endAt ?? r.start));
  const [init, initialized] = posts;
  const listsIssued = Math.min(...lists.map(issued));
  const listsAnswered = Math.max(...lists.map(answered));
  return {
    clickToInitializeSent: toWall(issued(init)) - clickAtWallMs,
    initialize: (issued(initialized) - issued(init)) * 1000,
    initializePreflight: preflightMs(init),
    initialized: (listsIssued - issued(initialized)) * 1000,
    initializedPreflight: preflightMs(initialized),
    lists: (listsAnswered - listsIssued) * 1000,
    listsAnsweredToRendered: renderedAtWallMs - toWall(listsAnswered),
  };
}

function analyseEchoWire(all) {
  const preflighted = new Set(all.filter((r) => r.preflightFor).map((r) => r.preflightFor));
  return all
    .filter((r) => !r.preflightFor)
    .map((r) => `${label(r)}${preflighted.has(r.id) ? ' [+preflight]' : ''}`)
    .join(', ');
}

// ---------------------------------------------------------------- one run

async function waitFor(page, what, fn, arg, getNotes = () => []) {
  try {
    await page.waitForFunction(fn, arg, { timeout: SELECTOR_TIMEOUT_MS, polling: 'raf' });
  } catch (error) {
    const seen = await page
      .evaluate(() => {
        const text = (selector) => document.querySelector(selector)?.textContent?.trim().slice(0, 300) ?? '(absent)';
        return `#status: ${text('#status')}; #connect-error: ${text('#connect-error')}; #tool-result: ${text('#tool-result')}`;
      })
      .catch(() => '(page not readable)');
    const notes = getNotes();
    const extra = notes.length ? `; page: ${notes.slice(0, 5).join(' | ')}` : '';
    throw new Error(`${what} did not happen within ${SELECTOR_TIMEOUT_MS} ms (${error.message.split('\n')[0]}); ${seen}${extra}`);
  }
}

async function oneRun(browser, appUrl, serverUrl) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const problems = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    // Console errors and failed requests only explain a timeout; panics and page errors fail the run.
    const notes = [];
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      if (/panicked at|RuntimeError: unreachable/.test(message.text())) problems.push(`wasm panic: ${message.text()}`);
      else notes.push(`console error: ${message.text().slice(0, 200)}`);
    });
    page.on('requestfailed', (request) => notes.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`));
    page.on('response', (response) => {
      if (response.status() >= 400 && response.url().startsWith(appUrl)) notes.push(`HTTP ${response.status()} ${response.url()}`);
    });
    await page.addInitScript(pageInstrumentation);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const wire = attachWire(cdp, new URL(serverUrl).origin);

    const pageUrl = `${appUrl}?url=${encodeURIComponent(serverUrl)}`;
    await page.goto(pageUrl, { waitUntil: 'commit' });
    await waitFor(page, '#connect present and enabled', () => window.__bench && window.__bench.connectReady !== null, undefined, () => [...problems, ...notes]);
    const prefilled = await page.locator('#server-url').inputValue();
    if (prefilled !== serverUrl) throw new Error(`#server-url is "${prefilled}", expected "${serverUrl}" from ?url=`);

    // Connect phase.
    const wireBeforeConnect = wire.list.length;
    await page.locator('#connect').click();
    await waitFor(page, 'li.tool-item[data-tool="echo"] after Connect', () => window.__bench.toolsRendered !== null, undefined, () => [...problems, ...notes]);
    await sleep(WIRE_GRACE_MS);
    const connectRequests = wire.list.slice(wireBeforeConnect);

    // echo phase.
    await page.locator('li.tool-item[data-tool="echo"]').click();
    const panel = page.locator('#tool-panel');
    await panel.waitFor({ state: 'visible', timeout: SELECTOR_TIMEOUT_MS });
    await panel.locator('[data-field="message"]').fill('bench');
    const wireBeforeEcho = wire.list.length;
    await page.locator('#run-tool').click();
    await waitFor(page, '#tool-result .content-text "Echo: bench" after Run', () => window.__bench.resultRendered !== null, undefined, () => [...problems, ...notes]);
    const echoRequests = wire.list.slice(wireBeforeEcho);

    const b = await page.evaluate(() => ({ ...window.__bench, timeOrigin: performance.timeOrigin }));
    if (b.connectClick === null) throw new Error('the click on #connect was not seen in the page');
    if (b.runClick === null) throw new Error('the click on #run-tool was not seen in the page');
    const status = (await page.locator('#status').textContent())?.trim() ?? '';
    if (!/\bConnected\b/.test(status)) throw new Error(`#status is "${status}", expected Connected`);
    if (problems.length) throw new Error(problems.join('\n'));

    await wire.resolvePostData();
    const phases = {
      nav: [0, b.connectReady],
      connect: [b.connectClick, b.toolsRendered],
      echo: [b.runClick, b.resultRendered],
    };
    const longest = {};
    for (const [name, [from, to]] of Object.entries(phases)) {
      longest[name] = 0;
      for (const task of b.longtasks) {
        // A task counts for a phase if it overlaps the phase's window.
        if (task.start <= to && task.start + task.duration >= from) longest[name] = Math.max(longest[name], task.duration);
      }
    }
    return {
      nav: b.connectReady,
      connect: b.toolsRendered - b.connectClick,
      echo: b.resultRendered - b.runClick,
      longest,
      longtaskSupported: b.longtaskSupported,
      wire: analyseConnectWire(connectRequests, b.timeOrigin + b.connectClick, b.timeOrigin + b.toolsRendered),
      echoWire: analyseEchoWire(echoRequests),
    };
  } finally {
    await context.close().catch(() => {});
  }
}

// ---------------------------------------------------------------- main

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const snapshot = await snapshotDist();
  const sizes = measureSizes(snapshot);
  printSizes(sizes);
  const summary = { sizes, runs: 0 };
  let exitCode = 0;
  if (sizes.overBudget && options.strict) exitCode = 1;

  if (!options.sizesOnly) {
    const appUrl = await startStaticServer(snapshot);
    const serverUrl = await startEverything();
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    cleanups.push(() => browser.close());

    console.log('');
    console.log(`== timings (${options.runs} runs, headless Chromium ${browser.version()}, app ${appUrl}, server-everything ${serverUrl}) ==`);
    const results = [];
    for (let i = 0; i < options.runs; i++) {
      const r = await oneRun(browser, appUrl, serverUrl);
      results.push(r);
      const lt = (v) => (v ? ms(v) : '<50');
      console.log(
        `run ${i + 1}: nav ${ms(r.nav)} ms, connect ${ms(r.connect)} ms, echo ${ms(r.echo)} ms; ` +
          `longest task nav ${lt(r.longest.nav)} | connect ${lt(r.longest.connect)} | echo ${lt(r.longest.echo)}`,
      );
    }

    const nav = stats(results.map((r) => r.nav));
    const conn = stats(results.map((r) => r.connect));
    const echo = stats(results.map((r) => r.echo));
    const line = (name, s) => console.log(`${name}: median ${ms(s.median)} ms (min ${ms(s.min)}, max ${ms(s.max)})`);
    console.log('');
    line('navigation -> connect ready', nav);
    line('connect click -> tools rendered', conn);
    line('echo run -> result rendered', echo);

    const longtaskSupported = results.every((r) => r.longtaskSupported);
    const longest = {};
    for (const phase of ['nav', 'connect', 'echo']) longest[phase] = stats(results.map((r) => r.longest[phase]));
    const fmt = (s) => (!longtaskSupported ? 'n/a' : s.max === 0 ? '<50' : `${ms(s.max)} ms max, median ${s.median === 0 ? '<50' : `${ms(s.median)} ms`}`);
    console.log(`longest task: nav ${fmt(longest.nav)} | connect ${fmt(longest.connect)} | echo ${fmt(longest.echo)}`);

    // Wire check.
    console.log('');
    const sequences = new Map();
    for (const [i, r] of results.entries()) {
      const key = r.wire.sequence;
      if (!sequences.has(key)) sequences.set(key, []);
      sequences.get(key).push(i + 1);
    }
    for (const [sequence, runs] of sequences) {
      const which = sequences.size === 1 ? 'all runs' : `run${runs.length > 1 ? 's' : ''} ${runs.join(', ')}`;
      console.log(`connect wire (${which}): ${sequence}`);
    }
    const violations = [];
    for (const [i, r] of results.entries()) {
      for (const v of r.wire.violations) violations.push(`run ${i + 1}: ${v}`);
      for (const note of r.wire.info) console.log(`  note, run ${i + 1}: ${note}`);
    }
    const first = results[0].wire;
    const allShapeOk = results.every((r) => r.wire.shapeOk);
    if (violations.length) {
      console.log('connect round trips: WIRE CHECK FAILED');
      for (const v of violations) console.log(`  VIOLATION ${v}`);
      exitCode = 1;
    } else if (allShapeOk) {
      console.log('connect round trips: 3 (initialize; initialized; lists in parallel)');
    } else {
      const counts = [...new Set(results.map((r) => r.wire.roundTrips))].join('/');
      console.log(`connect round trips: ${counts} (order as expected, but not in 3 dependent steps: see the sequence above)`);
    }
    const breakdowns = results.map((r) => r.wire.breakdown).filter(Boolean);
    if (breakdowns.length) {
      const med = (key) => ms(median(breakdowns.map((b) => b[key])));
      console.log(
        `connect breakdown (median ms): click -> initialize sent ${med('clickToInitializeSent')}` +
          ` | initialize ${med('initialize')} (preflight ~${med('initializePreflight')})` +
          ` | initialized ${med('initialized')} (preflight ~${med('initializedPreflight')})` +
          ` | lists ${med('lists')} | lists answered -> rendered ${med('listsAnsweredToRendered')}`,
      );
      summary.connectBreakdown = Object.fromEntries(
        Object.keys(breakdowns[0]).map((key) => [key, stats(breakdowns.map((b) => b[key]))]),
      );
    }
    const wireCounts = [...new Set(results.map((r) => r.wire.wireRoundTrips))].join('/');
    const pre = first.preflightsBefore;
    console.log(
      `connect wire round trips incl. CORS preflights: ${wireCounts}` +
        (pre.length ? ` (preflight before ${pre.join(', before ')})` : ' (no preflights)'),
    );
    const echoWires = [...new Set(results.map((r) => r.echoWire))];
    console.log(`echo wire: ${echoWires.join(' | ')}`);

    summary.runs = options.runs;
    summary.chromium = browser.version();
    summary.timings = { navToConnectReady: nav, connectToToolsRendered: conn, echoRunToResult: echo };
    summary.longestTask = { supported: longtaskSupported, ...longest };
    summary.wire = {
      sequences: Object.fromEntries(sequences),
      roundTrips: results.map((r) => r.wire.roundTrips),
      wireRoundTripsInclPreflights: results.map((r) => r.wire.wireRoundTrips),
      preflightsBefore: first.preflightsBefore,
      listsParallel: results.map((r) => r.wire.listsParallel),
      ok: violations.length === 0,
      violations,
      echo: echoWires,
    };
  }

  if (sizes.overBudget && options.strict) console.log(`\nOVER BUDGET (--strict): ${sizes.totalGzip} > ${sizes.budget} bytes gzip -9`);
  if (options.json) console.log(JSON.stringify(summary, (_, v) => (typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 10) / 10 : v)));
  return exitCode;
}

// Playwright's messages carry the browser's launch log and a call log: keep the first part.
const brief = (error) =>
  String(error?.message ?? error)
    .split(/\n\s*(?:Browser logs:|Call log:|=+ logs =+)/)[0]
    .trim();

let code = 1;
try {
  code = await main();
} catch (error) {
  if (interruptedCode !== null) {
    // The browser and servers were stopped under our feet: not an error of its own.
  } else if (error instanceof UsageError) {
    console.error(`bench: ${error.message}`);
    code = 2;
  } else {
    console.error(`bench: ERROR ${brief(error)}`);
    if (process.env.BENCH_DEBUG) console.error(error.stack);
    code = 1;
  }
} finally {
  await cleanup();
}
process.exit(interruptedCode ?? code);
