// Plumbing shared by the benchmark's parts: cleanup on exit and signals, numbers, free ports,
// directory snapshots served from memory, child processes that must answer on a URL, and the
// headless Chromium. Nothing here measures anything.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const HOST = '127.0.0.1';
const SERVER_START_TIMEOUT_MS = 30_000;
// Chromium's path and flags, shared with playwright.config.ts.
const { executablePath: CHROMIUM, args: CHROMIUM_ARGS } = JSON.parse(
  fs.readFileSync(path.join(ROOT, 'tests/chromium.json'), 'utf8'),
);

export class UsageError extends Error {}

// ---------------------------------------------------------------- cleanup

const cleanups = [];
let cleanedUp = false;
let interruptedCode = null;

/** Registers `fn` to run (last registered first) when the benchmark ends, however it ends. */
export function onCleanup(fn) {
  cleanups.push(fn);
}

export async function cleanup() {
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

/** The exit code of the signal that interrupted the run, or null. */
export const interrupted = () => interruptedCode;

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

// ---------------------------------------------------------------- numbers

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function stats(values) {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values), values };
}

export const ms = (value) => value.toFixed(1);

/** The longest long task (PerformanceObserver 'longtask', >= 50 ms) overlapping [from, to]; 0 if none. */
export function longestTask(longtasks, from, to) {
  let longest = 0;
  for (const task of longtasks) {
    if (task.start <= to && task.start + task.duration >= from) longest = Math.max(longest, task.duration);
  }
  return longest;
}

// Playwright's messages carry the browser's launch log and a call log: keep the first part.
export const brief = (error) =>
  String(error?.message ?? error)
    .split(/\n\s*(?:Browser logs:|Call log:|=+ logs =+)/)[0]
    .trim();

/**
 * Resolves like `promise`, or rejects after `ms`. Playwright's own timeouts need the page to
 * answer: a page stuck in one long task (or swallowing memory) never lets them fire.
 */
export function withDeadline(promise, ms, what) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  promise.catch(() => {}); // rejected later, when the browser goes
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * Closes a browser context, waiting at most 10 s: a page stuck in a long task may never let it
 * close (such cases run in a browser of their own, which the caller kills).
 */
export async function closeSoon(context) {
  await withDeadline(context.close(), 10_000, 'context.close').catch(() => {});
}

// ---------------------------------------------------------------- ports and processes

export function freePort() {
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

/**
 * Starts `command args` in ROOT and waits until `url` answers HTTP (any status). The process is
 * stopped (SIGTERM, then SIGKILL after 3 s) at cleanup. Throws with its stderr if it exits first.
 */
export async function startProcess(name, command, args, { env = {}, url }) {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
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
  onCleanup(async () => {
    if (exited) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exitPromise;
    clearTimeout(timer);
  });
  const deadline = Date.now() + SERVER_START_TIMEOUT_MS;
  for (;;) {
    if (exited) throw new Error(`${name} exited (code ${exited.code}, signal ${exited.signal}) before listening:\n${stderr}`);
    if (await httpAnswers(url)) return url;
    if (Date.now() > deadline) throw new Error(`${name} did not answer on ${url} within ${SERVER_START_TIMEOUT_MS} ms:\n${stderr}`);
    await sleep(100);
  }
}

// ---------------------------------------------------------------- snapshots served from memory

function listFiles(dir, prefix = '') {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const rel = prefix + entry.name;
    if (entry.isDirectory()) return listFiles(path.join(dir, entry.name), `${rel}/`);
    return entry.isFile() ? [rel] : [];
  });
}

/**
 * Reads a built app's directory into memory once (Map: relative path -> Buffer), so its sizes
 * and the pages served are the same build even if it is rebuilt meanwhile. Retries while the
 * directory is still changing or index.html names a file that is not there (a build in progress).
 */
export async function snapshotDir(dir) {
  const where = path.relative(ROOT, dir) || dir;
  if (!fs.existsSync(path.join(dir, 'index.html'))) throw new Error(`${where}/index.html is missing`);
  const stamp = () =>
    listFiles(dir)
      .sort()
      .map((rel) => {
        const st = fs.statSync(path.join(dir, rel));
        return `${rel}:${st.size}:${st.mtimeMs}`;
      })
      .join('|');
  let problem = '';
  for (let attempt = 0; attempt < 20; attempt++) {
    if (attempt) await sleep(1000);
    try {
      const before = stamp();
      const files = new Map(listFiles(dir).map((rel) => [rel, fs.readFileSync(path.join(dir, rel))]));
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

/** Map: relative path -> gzip -9 size, for every file of a snapshot. */
export function gzipSizes(snapshot) {
  return new Map([...snapshot].map(([name, data]) => [name, zlib.gzipSync(data, { level: 9 }).length]));
}

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

/** The snapshot's name for a URL path ('/' and 'dir/' are their index.html). */
export const snapshotPath = (pathname) => (pathname.endsWith('/') ? `${pathname}index.html` : pathname).replace(/^\/+/, '');

/**
 * Serves a snapshot on 127.0.0.1 (a free port), uncompressed (or, with `gzip`, gzip -9 as a
 * static host would: the slow-network section) and uncached, GET and HEAD only; `answers` adds
 * paths that are no file ({ '/config': { type, body } }: the inspector's own endpoint, served
 * beside its files in the slow-network section); any other path gets 404. Both apps are served
 * by this same server, so they are compared on equal terms.
 * Returns the base URL ("http://127.0.0.1:PORT/"); stopped at cleanup.
 */
export async function startStaticServer(snapshot, { gzip = false, answers = {} } = {}) {
  const compressed = new Map(); // name -> gzip -9 body, made on first request
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
    // Only names in the snapshot are served, so no path can leave the directory.
    const name = snapshotPath(pathname);
    const answer = Object.hasOwn(answers, pathname) ? answers[pathname] : null;
    const data = answer ? Buffer.from(answer.body) : snapshot.get(name);
    if (!data) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found');
      return;
    }
    let body = data;
    if (gzip && !compressed.has(name)) compressed.set(name, zlib.gzipSync(data, { level: 9 }));
    if (gzip) body = compressed.get(name);
    res.writeHead(200, {
      'content-type': answer?.type || CONTENT_TYPES[path.extname(name).toLowerCase()] || 'application/octet-stream',
      'content-length': body.length,
      'cache-control': 'no-store',
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
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
  onCleanup(
    () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  );
  return `http://${HOST}:${server.address().port}/`;
}

/**
 * Resident memory (bytes) of every process this benchmark started and of theirs (Chromium's
 * renderers, the servers), from /proc; 0 where /proc is not there.
 */
export function childrenRss() {
  const children = new Map(); // ppid -> [pid]
  const rss = new Map();
  let pids = [];
  try {
    pids = fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return 0;
  }
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      // After "pid (comm) ": state, ppid, ...; rss (in pages) is the 24th field.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (!children.has(fields[1])) children.set(fields[1], []);
      children.get(fields[1]).push(pid);
      rss.set(pid, Number(fields[21]) * 4096);
    } catch {
      // gone meanwhile
    }
  }
  let total = 0;
  const todo = [...(children.get(String(process.pid)) ?? [])];
  while (todo.length) {
    const pid = todo.pop();
    total += rss.get(pid) ?? 0;
    todo.push(...(children.get(pid) ?? []));
  }
  return total;
}

// ---------------------------------------------------------------- browser

const LAUNCH = { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false };

/** A headless Chromium, closed at cleanup. */
export async function launchBrowser() {
  const browser = await chromium.launch(LAUNCH);
  onCleanup(() => browser.close());
  return browser;
}

/**
 * Runs `fn(browser)` in a Chromium of its own that is killed afterwards: a page stuck in one long
 * task keeps `browser.close()` waiting forever (and its memory growing), a kill does not.
 */
export async function inKillableBrowser(fn) {
  const server = await chromium.launchServer(LAUNCH);
  onCleanup(() => server.kill());
  try {
    return await fn(await chromium.connect(server.wsEndpoint()));
  } finally {
    await server.kill();
  }
}
