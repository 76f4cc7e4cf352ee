// A bare Chrome DevTools Protocol connection to a headless Chromium of its own (no Playwright),
// for the trace scripts (trace-big.mjs, trace-filter.mjs): Playwright's own CDP traffic and its
// Network domain would be part of what they trace.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { ROOT, onCleanup, sleep } from './lib.mjs';

const { executablePath: CHROMIUM, args: CHROMIUM_ARGS } = JSON.parse(fs.readFileSync(path.join(ROOT, 'tests/chromium.json'), 'utf8'));

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

export async function launch() {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'trace-big-'));
  const child = spawn(CHROMIUM, [...CHROMIUM_ARGS, '--headless=new', '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'] });
  onCleanup(async () => {
    child.kill('SIGKILL');
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

/** The value of option `name` in `args` (taken out of it), or `fallback`. */
export function takeOption(args, name, fallback) {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  return args.splice(at, 2)[1];
}

/** Whether flag `name` is in `args` (taken out of it). */
export function takeFlag(args, name) {
  const at = args.indexOf(name);
  if (at >= 0) args.splice(at, 1);
  return at >= 0;
}

/**
 * A new page in the browser of `cdp`: `page(method, params)` sends to it, `evaluate(expression)`
 * returns its value (awaited), `until(expression, what)` polls until it is true.
 */
export async function newPage(cdp) {
  const { targetId } = await cdp.send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: true });
  const page = (method, params) => cdp.send(method, params, sessionId);
  const evaluate = async (expression) => {
    const { result, exceptionDetails } = await page('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
    if (exceptionDetails) throw new Error(`${expression.slice(0, 200)}: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
    return result.value;
  };
  const until = async (expression, what, timeout = 60_000) => {
    const deadline = Date.now() + timeout;
    while (!(await evaluate(expression))) {
      if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeout} ms`);
      await sleep(20);
    }
  };
  return { targetId, page, evaluate, until };
}

/**
 * Ends the trace started on `cdp` (its events collected into an array by the caller's
 * Tracing.dataCollected listener) and writes it to `out` (a run's own file when there are
 * several), if asked.
 */
export async function endTrace(cdp, events, { out, run, runs }) {
  const done = new Promise((resolve) => cdp.on('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.end');
  await done;
  cdp.off('Tracing.dataCollected');
  cdp.off('Tracing.tracingComplete');
  if (out) fs.writeFileSync(runs > 1 ? out.replace(/\.json$/, `-${run}.json`) : out, JSON.stringify({ traceEvents: events }));
}

/** The renderer's main thread of a trace: the CrRendererMain with the most tasks. */
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

/** Prints the self time by function from the V8 sampling profile (ProfileChunk events) between `from` and `to` (trace µs). */
export function profile(events, main, from, to = Infinity, heading = 'self time from 60 ms before the last byte') {
  const nodes = new Map();
  const self = new Map();
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
    }
  }
  const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 25);
  console.log(`  ${heading} (sampled, ${(total / 1000).toFixed(1)} ms busy):`);
  for (const [name, us] of top) console.log(`    ${(us / 1000).toFixed(1).padStart(6)} ms  ${name.slice(0, 150)}`);
}
