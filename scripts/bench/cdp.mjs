// A bare Chrome DevTools Protocol connection and a headless Chromium to trace, shared by the
// trace scripts (trace-big.mjs, trace-connect.mjs): no Playwright, so no DevTools Network domain
// unless a script enables it (with it, Chromium spends main-thread time on every response), and
// the readers of a performance trace: the renderer's main thread, its tasks, V8's sampled self
// time by function.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { HOST, ROOT, freePort, onCleanup, sleep, snapshotDir, startProcess, startStaticServer } from './lib.mjs';

const { executablePath: CHROMIUM, args: CHROMIUM_ARGS } = JSON.parse(fs.readFileSync(path.join(ROOT, 'tests/chromium.json'), 'utf8'));

/** The command line's `option(name, fallback)` and `flag(name)`, each taken out of `args`. */
export function commandLine(args) {
  return {
    args,
    option(name, fallback) {
      const at = args.indexOf(name);
      return at < 0 ? fallback : args.splice(at, 2)[1];
    },
    flag(name) {
      const at = args.indexOf(name);
      if (at >= 0) args.splice(at, 1);
      return at >= 0;
    },
  };
}

/** The trace categories recorded by default: tasks and V8's sampling profiler. */
export const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'disabled-by-default-v8.cpu_profiler',
  'v8.execute',
  'blink.user_timing',
  'loading',
  'toplevel',
  'v8',
];

/** A bare CDP connection: `send(method, params, sessionId)`, `on(method, fn)`. */
export async function cdpConnect(url) {
  const ws = new WebSocket(url, { perMessageDeflate: false, maxPayload: 1 << 30 });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  let next = 1;
  const waiting = new Map();
  const listeners = new Map();
  ws.on('message', (raw) => {
    const message = JSON.parse(raw);
    if (message.id && waiting.has(message.id)) {
      const { resolve, reject } = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.error) reject(new Error(`${message.error.message}`));
      else resolve(message.result);
    } else if (message.method) {
      for (const fn of listeners.get(message.method) ?? []) fn(message.params, message.sessionId);
    }
  });
  return {
    send(method, params = {}, sessionId) {
      const id = next++;
      ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
      return new Promise((resolve, reject) => waiting.set(id, { resolve, reject }));
    },
    on(method, fn) {
      if (!listeners.has(method)) listeners.set(method, []);
      listeners.get(method).push(fn);
    },
    off(method) {
      listeners.delete(method);
    },
    close: () => ws.close(),
  };
}

/** Starts headless Chromium (a profile of its own, killed at cleanup) and connects to it. */
export async function launch(prefix = 'trace-') {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  // A process group of its own: killing only the browser process left its zygotes, GPU process
  // and renderers running after a failed run.
  const child = spawn(CHROMIUM, [...CHROMIUM_ARGS, '--headless=new', '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  onCleanup(async () => {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
    await sleep(200);
    fs.rmSync(profile, { recursive: true, force: true });
  });
  const url = await new Promise((resolve, reject) => {
    let err = '';
    child.stderr.on('data', (chunk) => {
      err += chunk;
      const found = err.match(/DevTools listening on (ws:\/\/\S+)/);
      if (found) resolve(found[1]);
    });
    child.once('exit', () => reject(new Error(`chromium exited: ${err}`)));
  });
  return cdpConnect(url);
}

/**
 * A new tab of `cdp` (in `browserContextId` if given): `page(method, params)`, `evaluate(expression)` (awaited, by value) and
 * `until(expression, what, timeout)` (polls every 20 ms).
 */
export async function openTab(cdp, browserContextId) {
  const { targetId } = await cdp.send('Target.createTarget', { url: 'about:blank', ...(browserContextId ? { browserContextId } : {}) });
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: true });
  const page = (method, params) => cdp.send(method, params, sessionId);
  const evaluate = async (expression) => {
    const { result, exceptionDetails } = await page('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
    if (exceptionDetails) throw new Error(`${expression}: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
    return result.value;
  };
  const until = async (expression, what, timeout = 60_000) => {
    const deadline = Date.now() + timeout;
    while (!(await evaluate(expression))) {
      if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeout} ms`);
      await sleep(20);
    }
  };
  return { page, evaluate, until };
}

/** Records a trace of `categories` while `during()` runs; resolves to its events. */
export async function traced(cdp, during, categories = TRACE_CATEGORIES) {
  const events = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
  await cdp.send('Tracing.start', { traceConfig: { includedCategories: categories }, transferMode: 'ReportEvents' });
  try {
    await during();
  } finally {
    const done = new Promise((resolve) => cdp.on('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.end');
    await done;
    cdp.off('Tracing.dataCollected');
    cdp.off('Tracing.tracingComplete');
  }
  return events;
}

/** The page's renderer main thread: the CrRendererMain with the most tasks. */
export function mainThread(events) {
  const names = events.filter((e) => e.name === 'thread_name' && e.args.name === 'CrRendererMain');
  let best = null;
  let most = -1;
  for (const n of names) {
    const count = events.filter((e) => e.pid === n.pid && e.tid === n.tid && e.name === 'RunTask').length;
    if (count > most) [best, most] = [n, count];
  }
  return best;
}

/**
 * Self time by function from the V8 sampling profile (ProfileChunk events) of `main`'s process
 * between `from` and `to` (trace microseconds): `top` [name, microseconds] sorted, `inclusive` the
 * same with the time of what each function called, and the busy total.
 */
export function selfTimes(events, main, from, to = Infinity) {
  const nodes = new Map();
  const self = new Map();
  const inclusive = new Map();
  let time = null;
  let total = 0;
  for (const e of events) {
    if (e.pid !== main.pid) continue;
    if (e.name === 'Profile') time = e.args.data.startTime;
    if (e.name !== 'ProfileChunk') continue;
    const data = e.args.data;
    for (const node of data.cpuProfile?.nodes ?? []) nodes.set(node.id, node);
    const samples = data.cpuProfile?.samples ?? [];
    const deltas = data.timeDeltas ?? [];
    for (let i = 0; i < samples.length; i++) {
      time += deltas[i] ?? 0;
      if (time < from || time > to) continue;
      const node = nodes.get(samples[i]);
      const name = node?.callFrame?.functionName || node?.callFrame?.url || '(anon)';
      if (name === '(idle)') continue;
      const delta = deltas[i + 1] ?? 0;
      self.set(name, (self.get(name) ?? 0) + delta);
      total += delta;
      // Every function on the sample's stack, once.
      const seen = new Set();
      for (let at = node; at; at = nodes.get(at.parent)) {
        const frame = at.callFrame?.functionName || '(anon)';
        if (seen.has(frame)) continue;
        seen.add(frame);
        inclusive.set(frame, (inclusive.get(frame) ?? 0) + delta);
      }
    }
  }
  const sorted = (map) => [...map.entries()].sort((a, b) => b[1] - a[1]);
  return { top: sorted(self), inclusive: sorted(inclusive), total };
}

/** The time covered by `spans` (nested or overlapping ones counted once). */
export function covered(spans) {
  let total = 0;
  let end = -Infinity;
  for (const e of [...spans].sort((a, b) => a.ts - b.ts)) {
    const from = Math.max(e.ts, end);
    if (e.ts + e.dur > from) total += e.ts + e.dur - from;
    end = Math.max(end, e.ts + e.dur);
  }
  return total;
}

/** A Rust symbol without its hash and mangling noise, or any other name, cut to `width` characters. */
export const shortName = (name, width = 90) =>
  name
    .replace(/17h[0-9a-f]{16}E.*$/, '')
    .replace(/^_ZN/, '')
    .replace(/\$u7b\$\$u7b\$closure\$u7d\$\$u7d\$/g, '{{closure}}')
    .replace(/\$LT\$/g, '<')
    .replace(/\$GT\$/g, '>')
    .replace(/\$u20\$/g, ' ')
    .replace(/\$RF\$/g, '&')
    .replace(/\$C\$/g, ',')
    .replace(/\.\./g, '::')
    .replace(/(\d+)([a-z_])/g, (m, n, c) => `::${c}`)
    .slice(0, width);

/**
 * What a trace script drives: `dist` served on 127.0.0.1 (`appUrl`) and server-everything's
 * Streamable HTTP endpoint (`serverUrl`), both stopped at cleanup.
 */
export async function appAndEverything(dist) {
  const appUrl = await startStaticServer(await snapshotDir(dist));
  const port = await freePort();
  const serverUrl = `http://${HOST}:${port}/mcp`;
  const entry = 'node_modules/@modelcontextprotocol/server-everything/dist/index.js';
  await startProcess('server-everything', process.execPath, ['-r', './tests/servers/loopback.cjs', entry, 'streamableHttp'], { env: { PORT: String(port) }, url: serverUrl });
  return { appUrl, serverUrl };
}

/**
 * The main thread's CPU time (trace `tts`, microseconds) at trace time `ts`, from `onMain` (its
 * complete events sorted by time): inside a task, interpolated over its wall time; between tasks,
 * where the last one ended. (The thread clock does not run while the thread waits for a core.)
 */
export function cpuAt(onMain, ts) {
  let inner = null;
  let ended = 0;
  for (const e of onMain) {
    if (e.tts === undefined || e.tdur === undefined || e.dur === 0) continue;
    if (e.ts > ts) break;
    if (e.ts + e.dur <= ts) ended = Math.max(ended, e.tts + e.tdur);
    else if (!inner || e.dur < inner.dur) inner = e;
  }
  return inner ? inner.tts + ((ts - inner.ts) / inner.dur) * inner.tdur : ended;
}

/**
 * The main-thread tasks of `onMain` between `from` and `to` (over 0.1 ms), each a line: its start
 * from `zero` and its length (ms), then its parts over 0.1 ms (name, length@start), the first
 * `parts` of them; `suffix(inside)` adds to the line.
 */
export function taskLines(onMain, from, to, zero, { parts = 12, suffix = () => '' } = {}) {
  const ms = (us) => (us / 1000).toFixed(2);
  const top = onMain.filter((e) => e.name === 'RunTask' && e.ts + e.dur > from && e.ts < to && e.dur >= 100);
  return top.map((task) => {
    const inside = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur && e.dur >= 100 && !/^(RunTask|ThreadControllerImpl::RunTask|OnHandleReady|Receive mojo message|SimpleWatcher::OnHandleReady)$/.test(e.name));
    const named = inside.map((e) => `${e.name}${e.args?.data?.type ? `(${e.args.data.type})` : ''}${e.args?.data?.functionName ? `(${e.args.data.functionName})` : ''} ${ms(e.dur)}@${ms(e.ts - zero)}`);
    return `${ms(task.ts - zero).padStart(7)}  ${ms(task.dur).padStart(6)} ms  ${named.slice(0, parts).join(', ')}${suffix(inside)}`;
  });
}

/** Per request id of the trace's resource events, when its answer's last byte arrived. */
export function lastBytes(events) {
  const lastData = new Map();
  for (const e of events) {
    if (e.name === 'ResourceReceivedData' || e.name === 'ResourceFinish' || e.name === 'ResourceReceiveResponse') {
      const id = e.args.data.requestId;
      const at = e.name === 'ResourceFinish' ? lastData.get(id) ?? e.ts : Math.max(lastData.get(id) ?? 0, e.ts);
      lastData.set(id, at);
    }
  }
  return lastData;
}
