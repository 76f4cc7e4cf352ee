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
//      - after Disconnect (#status "Disconnected"; not timed), Connect click again -> a new
//        li.tool-item[data-tool="echo"] in the DOM (the reconnect)
//    the longest main-thread task (PerformanceObserver 'longtask', >= 50 ms only) per phase, and
//    the requests of the Connect and reconnect phases on the wire (CDP Network events, which also
//    show CORS preflights that Playwright's page.on('request') does not report).
//    Wire shapes required (server-everything has no 2026-07-28 era):
//      - first connect (protocol "Auto"): an optional POST server/discover answered 4xx (the
//        refused probe), then initialize -> notifications/initialized -> the lists in parallel;
//      - reconnect in the same page: the app remembers the refusal, so exactly initialize ->
//        notifications/initialized -> the lists in parallel, no server/discover. The old
//        session's DELETE goes out at Disconnect, before the reconnect phase.
//    Nothing else may start before the tool list is rendered (the standalone GET stream opens
//    after the paint, and is only noted).
// 4. Prints medians (min, max) over the runs; --json adds one JSON summary line at the end.
//
// dist/ is read into memory once and served from there, so the sizes and the pages are the same
// build even if dist/ is rebuilt meanwhile. MCP_LENS_DIST=<dir> measures another directory;
// BENCH_DEBUG=1 prints stack traces on errors.
//
// Exit status: 0; 1 on a real error (a server did not start, a selector never appeared, a page
// error/panic, a connect or reconnect wire check failed) or on an over-budget size with --strict; 2 on bad
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
const LIST_METHODS = new Set(['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list']);

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
  const ECHO = 'li.tool-item[data-tool="echo"]';
  const bench = {
    connectReady: null,
    connectClick: null,
    toolsRendered: null,
    runClick: null,
    resultRendered: null,
    // The reconnect: armed by the benchmark once #status reads "Disconnected".
    reconnectArmed: false,
    reconnectArmedAt: null,
    reconnectClick: null,
    reconnectRendered: null,
    // Whether the previous session's echo item was still in the DOM when the reconnect was armed.
    staleEchoAtArm: false,
    // #status texts seen from arming until the new tool list was rendered (consecutive duplicates dropped).
    reconnectStatuses: [],
    longtaskSupported:
      typeof PerformanceObserver !== 'undefined' && PerformanceObserver.supportedEntryTypes.includes('longtask'),
    longtasks: [],
  };
  // The echo item of the previous session, if the app kept it: the reconnect waits for a new one.
  let staleEcho = null;
  window.__bench = bench;
  if (bench.longtaskSupported) {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) bench.longtasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  }
  const noteStatus = () => {
    const text = document.querySelector('#status')?.textContent?.trim() ?? '(absent)';
    if (bench.reconnectStatuses[bench.reconnectStatuses.length - 1] !== text) bench.reconnectStatuses.push(text);
  };
  const check = () => {
    const now = performance.now();
    if (bench.connectReady === null) {
      const button = document.querySelector('#connect');
      if (button && !button.disabled) bench.connectReady = now;
    }
    if (bench.connectClick !== null && bench.toolsRendered === null) {
      if (document.querySelector(ECHO)) bench.toolsRendered = now;
    }
    if (bench.runClick !== null && bench.resultRendered === null) {
      for (const el of document.querySelectorAll('#tool-result .content-text')) {
        if (el.textContent.includes('Echo: bench')) {
          bench.resultRendered = now;
          break;
        }
      }
    }
    if (bench.reconnectArmed && bench.reconnectRendered === null) {
      noteStatus();
      if (bench.reconnectClick !== null) {
        const echo = document.querySelector(ECHO);
        if (echo && echo !== staleEcho) bench.reconnectRendered = now;
      }
    }
  };
  const pending = () =>
    bench.connectReady === null ||
    bench.toolsRendered === null ||
    bench.resultRendered === null ||
    (bench.reconnectArmed && bench.reconnectRendered === null);
  // Mutations are seen in the microtask right after the DOM change; the frame loop is only a
  // fallback for changes that are not mutations (e.g. a `disabled` property set without the attribute).
  new MutationObserver(check).observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    characterData: true,
  });
  let looping = false;
  const frame = () => {
    check();
    looping = pending();
    if (looping) requestAnimationFrame(frame);
  };
  const startLoop = () => {
    if (looping) return;
    looping = true;
    requestAnimationFrame(frame);
  };
  startLoop();
  window.__benchArmReconnect = () => {
    staleEcho = document.querySelector(ECHO);
    bench.staleEchoAtArm = staleEcho !== null;
    bench.reconnectStatuses = [];
    bench.reconnectArmed = true;
    bench.reconnectArmedAt = performance.now();
    noteStatus();
    startLoop();
  };
  document.addEventListener(
    'click',
    (event) => {
      const target = event.target instanceof Element ? event.target : null;
      if (!target) return;
      // The event's timeStamp is when the input arrived, before the task that handles it began.
      const at = Math.min(event.timeStamp, performance.now());
      if (target.closest('#connect')) {
        if (bench.connectClick === null) bench.connectClick = at;
        else if (bench.reconnectArmed && bench.reconnectClick === null) bench.reconnectClick = at;
      }
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

const answerOf = (r) =>
  r.status !== null ? `answered HTTP ${r.status}` : r.failed ? `failed: ${r.failed}` : 'was not answered';

// Analyses the requests of a connect phase (the first Connect or the reconnect). `all` are in the
// order the browser issued them. `discover`: 'optional' (a leading POST server/discover answered
// 4xx, the refused probe of the 2026-07-28 era, is accepted) or 'forbidden' (the app learned that
// the server refuses it, so it must not be sent again).
function analyseConnectWire(all, clickAtWallMs, renderedAtWallMs, { discover }) {
  const violations = [];
  // The page clock (timeOrigin + now) and CDP's wall clock agree to well under a millisecond.
  // Every POST of the connect path precedes the render: a few ms of slack keeps them in. The
  // standalone GET stream starts after the paint, which can be within a millisecond of the render,
  // so other requests count as "before the render" only if they clearly started before it.
  const beforeRender = (r) =>
    r.method === 'POST' ? r.wallStart <= renderedAtWallMs + 5 : r.wallStart < renderedAtWallMs - 2;
  const preflights = all.filter((r) => r.preflightFor);
  const main = all.filter((r) => !r.preflightFor);
  const before = main.filter(beforeRender);
  const after = main
    .filter((r) => !beforeRender(r))
    .map((r) => ({ label: label(r), sinceRender: r.wallStart - renderedAtWallMs }))
    .filter((a) => a.sinceRender <= WIRE_GRACE_MS);

  const preflighted = new Set(preflights.map((p) => p.preflightFor));
  const posts = before.filter((r) => r.method === 'POST');
  const others = before.filter((r) => r.method !== 'POST');
  for (const r of others) violations.push(`unexpected ${label(r)} before the tool list was rendered`);

  // The refused probe, if it leads.
  const probe = posts[0]?.rpc === 'server/discover' ? posts[0] : null;
  if (probe) {
    if (discover === 'forbidden') {
      violations.push('POST server/discover sent, but the server refused it on the first connect: the probe should be skipped');
    } else if (probe.status === null || probe.status < 400 || probe.status > 499) {
      violations.push(`POST server/discover ${answerOf(probe)}, expected a 4xx refusal (server-everything has no 2026-07-28 era)`);
    }
  }
  const handshake = probe ? posts.slice(1) : posts;
  const rpcs = handshake.map((r) => r.rpc);
  const nth = probe ? ['second', 'third'] : ['first', 'second'];
  if (rpcs[0] !== 'initialize') violations.push(`${nth[0]} POST is ${rpcs[0] ?? '(none)'}, expected initialize`);
  if (rpcs[1] !== 'notifications/initialized') violations.push(`${nth[1]} POST is ${rpcs[1] ?? '(none)'}, expected notifications/initialized`);
  for (const r of handshake.slice(2)) if (!LIST_METHODS.has(r.rpc)) violations.push(`unexpected POST ${r.rpc} before the tool list was rendered`);
  const lists = handshake.slice(2).filter((r) => LIST_METHODS.has(r.rpc));
  const seen = new Set();
  for (const r of lists) {
    if (seen.has(r.rpc)) violations.push(`${r.rpc} sent twice`);
    seen.add(r.rpc);
  }
  if (!seen.has('tools/list')) violations.push('no tools/list before the tool list was rendered');
  for (const r of handshake) {
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
    const refused = r === probe && r.status !== null && r.status >= 400 ? ` (HTTP ${r.status})` : '';
    (groups[level - 1] ||= []).push(`${label(r)}${refused}${preflighted.has(r.id) ? ' [+preflight]' : ''}`);
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
  const offset = probe ? 1 : 0;
  const orderOk =
    violations.length === 0 &&
    (!probe || levels.get(probe) === 1) &&
    levels.get(handshake[0]) === offset + 1 &&
    levels.get(handshake[1]) === offset + 2 &&
    handshake.length === 2 + lists.length &&
    lists.every((r) => levels.get(r) === offset + 3);
  // In words, e.g. "4 round trips (server/discover refused; initialize; initialized; lists in parallel)".
  const steps = [
    ...(probe ? ['server/discover refused'] : []),
    'initialize',
    'initialized',
    lists.length > 1 ? 'lists in parallel' : 'tools/list',
  ];
  const shape = orderOk ? `${steps.length} round trips (${steps.join('; ')})` : null;

  const preflightOf = posts.filter((r) => preflighted.has(r.id)).map((r) => r.rpc);
  const breakdown = orderOk ? connectBreakdown(all, probe, handshake, lists, clickAtWallMs, renderedAtWallMs) : null;
  return {
    breakdown,
    sequence,
    shape,
    probe: probe ? { status: probe.status } : null,
    roundTrips,
    wireRoundTrips,
    preflightsBefore: preflightOf,
    listsParallel,
    shapeOk: orderOk,
    violations,
    after,
  };
}

// Where a connect phase's time goes (ms). Stage boundaries are the moments the next stage's
// first request (or its preflight) was issued. CDP times are monotonic; the click and render
// times come from the page clock, so the first and last stage are good to about a millisecond.
// `discover` and `discoverPreflight` are there only when the refused probe led.
function connectBreakdown(all, probe, handshake, lists, clickAtWallMs, renderedAtWallMs) {
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
  const [init, initialized] = handshake;
  const listsIssued = Math.min(...lists.map(issued));
  const listsAnswered = Math.max(...lists.map(answered));
  return {
    clickToFirstSent: toWall(issued(probe ?? init)) - clickAtWallMs,
    ...(probe ? { discover: (issued(init) - issued(probe)) * 1000, discoverPreflight: preflightMs(probe) } : {}),
    initialize: (issued(initialized) - issued(init)) * 1000,
    initializePreflight: preflightMs(init),
    initialized: (listsIssued - issued(initialized)) * 1000,
    initializedPreflight: preflightMs(initialized),
    lists: (listsAnswered - listsIssued) * 1000,
    listsAnsweredToRendered: renderedAtWallMs - toWall(listsAnswered),
  };
}

// The requests between the Disconnect click and the reconnect click: the old session's DELETE.
function analyseDisconnectWire(all) {
  const main = all.filter((r) => !r.preflightFor);
  const preflighted = new Set(all.filter((r) => r.preflightFor).map((r) => r.preflightFor));
  const violations = [];
  const deletes = main.filter((r) => r.method === 'DELETE');
  if (!deletes.length) violations.push('no DELETE of the old session at Disconnect');
  for (const r of deletes) if (r.status === null && r.failed) violations.push(`DELETE failed: ${r.failed}`);
  const sequence = main.map((r) => `${label(r)}${r.status !== null ? ` (HTTP ${r.status})` : ''}${preflighted.has(r.id) ? ' [+preflight]' : ''}`).join(', ') || '(nothing)';
  return { sequence, violations };
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
    await panel.locator('input[data-path="/message"]').fill('bench');
    const wireBeforeEcho = wire.list.length;
    await page.locator('#run-tool').click();
    await waitFor(page, '#tool-result .content-text "Echo: bench" after Run', () => window.__bench.resultRendered !== null, undefined, () => [...problems, ...notes]);
    const echoRequests = wire.list.slice(wireBeforeEcho);

    // Disconnect (not timed): the old session ends with a DELETE before the status says so.
    const wireBeforeDisconnect = wire.list.length;
    await page.locator('#disconnect').click();
    await waitFor(page, '#status "Disconnected" after Disconnect', () => document.querySelector('#status')?.textContent?.trim() === 'Disconnected', undefined, () => [...problems, ...notes]);

    // Reconnect phase: the same server, in the same page.
    await page.evaluate(() => window.__benchArmReconnect());
    await page.locator('#connect').click();
    await waitFor(page, 'a new li.tool-item[data-tool="echo"] after the reconnect', () => window.__bench.reconnectRendered !== null, undefined, () => [...problems, ...notes]);
    await waitFor(page, '#status "Connected" after the reconnect', () => document.querySelector('#status')?.textContent?.trim() === 'Connected', undefined, () => [...problems, ...notes]);
    await sleep(WIRE_GRACE_MS);

    const b = await page.evaluate(() => ({ ...window.__bench, timeOrigin: performance.timeOrigin }));
    if (b.connectClick === null) throw new Error('the click on #connect was not seen in the page');
    if (b.runClick === null) throw new Error('the click on #run-tool was not seen in the page');
    if (b.reconnectClick === null) throw new Error('the reconnect click on #connect was not seen in the page');
    const status = (await page.locator('#status').textContent())?.trim() ?? '';
    if (!/\bConnected\b/.test(status)) throw new Error(`#status is "${status}", expected Connected`);
    if (problems.length) throw new Error(problems.join('\n'));
    // Requests after the Disconnect click belong to the disconnect if they started before the
    // reconnect was armed (page clock: after #status read "Disconnected", before the click), to
    // the reconnect phase otherwise, where anything sent before the click is unexpected anyway.
    const armedWall = b.timeOrigin + b.reconnectArmedAt;
    const reconnectClickWall = b.timeOrigin + b.reconnectClick;
    const sinceDisconnect = wire.list.slice(wireBeforeDisconnect);
    const disconnectRequests = sinceDisconnect.filter((r) => r.wallStart < armedWall);
    const reconnectRequests = sinceDisconnect.filter((r) => r.wallStart >= armedWall);

    await wire.resolvePostData();
    const phases = {
      nav: [0, b.connectReady],
      connect: [b.connectClick, b.toolsRendered],
      echo: [b.runClick, b.resultRendered],
      reconnect: [b.reconnectClick, b.reconnectRendered],
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
      reconnect: b.reconnectRendered - b.reconnectClick,
      longest,
      longtaskSupported: b.longtaskSupported,
      wire: analyseConnectWire(connectRequests, b.timeOrigin + b.connectClick, b.timeOrigin + b.toolsRendered, { discover: 'optional' }),
      disconnectWire: analyseDisconnectWire(disconnectRequests),
      reconnectWire: analyseConnectWire(reconnectRequests, reconnectClickWall, b.timeOrigin + b.reconnectRendered, { discover: 'forbidden' }),
      staleEchoAtDisconnect: b.staleEchoAtArm,
      reconnectStatuses: b.reconnectStatuses,
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
    const lt = (v) => (v ? ms(v) : '<50');
    for (let i = 0; i < options.runs; i++) {
      const r = await oneRun(browser, appUrl, serverUrl);
      results.push(r);
      console.log(
        `run ${i + 1}: nav ${ms(r.nav)} ms, connect ${ms(r.connect)} ms, echo ${ms(r.echo)} ms, reconnect ${ms(r.reconnect)} ms; ` +
          `longest task nav ${lt(r.longest.nav)} | connect ${lt(r.longest.connect)} | echo ${lt(r.longest.echo)} | reconnect ${lt(r.longest.reconnect)}`,
      );
    }

    const PHASES = ['nav', 'connect', 'echo', 'reconnect'];
    const timing = Object.fromEntries(PHASES.map((phase) => [phase, stats(results.map((r) => r[phase]))]));
    const line = (name, s) => console.log(`${name}: median ${ms(s.median)} ms (min ${ms(s.min)}, max ${ms(s.max)})`);
    console.log('');
    line('navigation -> connect ready', timing.nav);
    line('connect click -> tools rendered', timing.connect);
    line('echo run -> result rendered', timing.echo);
    line('reconnect click -> tools rendered', timing.reconnect);

    const longtaskSupported = results.every((r) => r.longtaskSupported);
    const longest = {};
    for (const phase of PHASES) longest[phase] = stats(results.map((r) => r.longest[phase]));
    const fmt = (s) => (!longtaskSupported ? 'n/a' : s.max === 0 ? '<50' : `${ms(s.max)} ms max, median ${s.median === 0 ? '<50' : `${ms(s.median)} ms`}`);
    console.log(`longest task: ${PHASES.map((phase) => `${phase} ${fmt(longest[phase])}`).join(' | ')}`);

    // Wire checks.
    const runsLabel = (runs) => (runs.length === results.length ? 'all runs' : `run${runs.length > 1 ? 's' : ''} ${runs.join(', ')}`);
    const groupBy = (keyOf) => {
      const groups = new Map();
      for (const [i, r] of results.entries()) {
        const key = keyOf(r);
        if (!groups.has(key)) groups.set(key, []);
        groups.get(key).push(i + 1);
      }
      return groups;
    };
    const violations = [];
    // Prints one connect phase's wire: the sequences, what came after the render, the round trips
    // in words (or the violations), the breakdown and the count with preflights.
    const reportConnectWire = (name, title, key) => {
      const sequences = groupBy((r) => r[key].sequence);
      for (const [sequence, runs] of sequences) console.log(`${name} wire (${runsLabel(runs)}): ${sequence}`);
      const afterGroups = groupBy((r) => r[key].after.map((a) => a.label).join(', '));
      for (const [labels, runs] of afterGroups) {
        if (!labels) continue;
        const firsts = runs.map((n) => results[n - 1][key].after[0].sinceRender);
        const range = firsts.length > 1 ? `${ms(Math.min(...firsts))}..${ms(Math.max(...firsts))}` : ms(firsts[0]);
        console.log(`  note (${runsLabel(runs)}): after the tool list (within ${WIRE_GRACE_MS} ms): ${labels}; the first started ${range} ms after the render`);
      }
      const own = [];
      for (const [i, r] of results.entries()) for (const v of r[key].violations) own.push(`run ${i + 1}: ${v}`);
      if (own.length) {
        console.log(`${title}: WIRE CHECK FAILED`);
        for (const v of own) console.log(`  VIOLATION ${v}`);
        violations.push(...own.map((v) => `${name}: ${v}`));
      } else {
        const shapes = groupBy((r) => r[key].shape ?? `${r[key].roundTrips} round trips (order as expected, but not in dependent steps: see the sequence above)`);
        for (const [shape, runs] of shapes) console.log(`${title}${shapes.size > 1 ? ` (${runsLabel(runs)})` : ''}: ${shape}`);
      }
      const breakdowns = results.map((r) => r[key].breakdown).filter(Boolean);
      let breakdown = null;
      if (breakdowns.length) {
        const keys = Object.keys(breakdowns[0]).filter((k) => breakdowns.every((b) => k in b));
        const med = (k) => ms(median(breakdowns.map((b) => b[k])));
        const probeEverywhere = keys.includes('discover');
        const probeNowhere = breakdowns.every((b) => !('discover' in b));
        const first = probeEverywhere ? 'server/discover' : probeNowhere ? 'initialize' : 'first request';
        console.log(
          `${name} breakdown (median ms): click -> ${first} sent ${med('clickToFirstSent')}` +
            (probeEverywhere ? ` | server/discover (refused) ${med('discover')} (preflight ~${med('discoverPreflight')})` : '') +
            ` | initialize ${med('initialize')} (preflight ~${med('initializePreflight')})` +
            ` | initialized ${med('initialized')} (preflight ~${med('initializedPreflight')})` +
            ` | lists ${med('lists')} | lists answered -> rendered ${med('listsAnsweredToRendered')}`,
        );
        breakdown = Object.fromEntries(keys.map((k) => [k, stats(breakdowns.map((b) => b[k]))]));
      }
      const wireCounts = [...new Set(results.map((r) => r[key].wireRoundTrips))].join('/');
      const preflightSets = [...new Set(results.map((r) => r[key].preflightsBefore.join(', before ')))];
      const pre = preflightSets
        .map((p) => (p ? `preflight before ${p}` : 'no preflights'))
        .join(' | ');
      console.log(`${name} wire round trips incl. CORS preflights: ${wireCounts} (${pre})`);
      return {
        sequences: Object.fromEntries(sequences),
        shape: results.map((r) => r[key].shape),
        discover: results.map((r) => r[key].probe),
        roundTrips: results.map((r) => r[key].roundTrips),
        wireRoundTripsInclPreflights: results.map((r) => r[key].wireRoundTrips),
        preflightsBefore: results[0][key].preflightsBefore,
        listsParallel: results.map((r) => r[key].listsParallel),
        after: results.map((r) => r[key].after),
        ok: own.length === 0,
        breakdown,
      };
    };

    console.log('');
    const connectWire = reportConnectWire('connect', 'first connect', 'wire');

    const disconnectSequences = groupBy((r) => r.disconnectWire.sequence);
    for (const [sequence, runs] of disconnectSequences) console.log(`disconnect wire (${runsLabel(runs)}): ${sequence}`);
    const disconnectViolations = [];
    for (const [i, r] of results.entries()) for (const v of r.disconnectWire.violations) disconnectViolations.push(`run ${i + 1}: ${v}`);
    if (disconnectViolations.length) {
      console.log('disconnect: WIRE CHECK FAILED');
      for (const v of disconnectViolations) console.log(`  VIOLATION ${v}`);
      violations.push(...disconnectViolations.map((v) => `disconnect: ${v}`));
    }

    const reconnectWire = reportConnectWire('reconnect', 'reconnect', 'reconnectWire');
    const echoWires = [...new Set(results.map((r) => r.echoWire))];
    console.log(`echo wire: ${echoWires.join(' | ')}`);
    if (violations.length) exitCode = 1;

    summary.runs = options.runs;
    summary.chromium = browser.version();
    summary.timings = {
      navToConnectReady: timing.nav,
      connectToToolsRendered: timing.connect,
      echoRunToResult: timing.echo,
      reconnectToToolsRendered: timing.reconnect,
    };
    summary.longestTask = { supported: longtaskSupported, ...longest };
    summary.connectBreakdown = connectWire.breakdown;
    summary.reconnectBreakdown = reconnectWire.breakdown;
    const { breakdown: _c, ...connectRest } = connectWire;
    const { breakdown: _r, ...reconnectRest } = reconnectWire;
    summary.wire = {
      ...connectRest,
      disconnect: { sequences: Object.fromEntries(disconnectSequences), ok: disconnectViolations.length === 0 },
      reconnect: {
        ...reconnectRest,
        staleListAtDisconnect: results.map((r) => r.staleEchoAtDisconnect),
        statuses: results.map((r) => r.reconnectStatuses),
      },
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
