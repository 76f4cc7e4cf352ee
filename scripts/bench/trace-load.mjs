#!/usr/bin/env node
// A performance trace of mcp-lens's page load: which main-thread tasks are long, and what is in
// them. Not part of the benchmark (bench.mjs measures "long task, load"; this explains it).
//
//   node scripts/bench/trace-load.mjs [--runs N] [--after MS] [--over MS] [--out trace.json]
//                                     [--network] [--compile] [--no-profile]
//
// Per run, a fresh browser context opens the app with ?url= server-everything, as the benchmark
// does, and the trace goes on for --after ms (3000) after Connect is usable, so what comes after
// the window (the session chunk, the warm-up connect) is seen too. The window is the
// benchmark's (`step` in probe.mjs): navigation start -> the frame after #connect is present
// and enabled; a task counts for the benchmark if it begins before that frame.
// Printed per run: when the page's files were requested and finished (the main module, the
// app shell chunk, the session chunk), first contentful paint, Connect usable, and every
// main-thread task over --over ms (30) with what it ran: its first script (the function or the
// script it entered), its parts (script, wasm compile, style, layout, paint, GC), the trace's
// wasm events (compile, instantiate, streaming), and the hottest functions by self time and by
// inclusive time (V8's sampling profiler; build with MCP_LENS_KEEP_NAMES=1 for Rust names, and
// never ship that build). --compile adds V8's per-function wasm compile events (which slow the
// page down); --network turns on the DevTools Network domain with the benchmark's buffer sizes
// (the benchmark measures with it on; Chromium then does some work per response on the main
// thread); --no-profile leaves the sampling profiler off (it slows the page down a little).
// MCP_LENS_DIST=<dir> traces another build. Traces go to --out (DevTools' Performance panel).

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { commandLine, covered, launch, mainThread, openTab, selfTimes, shortName, traced } from './cdp.mjs';
import { HOST, ROOT, cleanup, freePort, sleep, snapshotDir, startProcess, startStaticServer } from './lib.mjs';

const { option, flag } = commandLine(process.argv.slice(2));
const out = option('--out', null);
const runs = Number(option('--runs', '3'));
const after = Number(option('--after', '3000'));
const over = Number(option('--over', '30'));
const network = flag('--network');
const compile = flag('--compile');
const profile = !flag('--no-profile');
const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'blink.user_timing',
  'loading',
  'toplevel',
  'v8',
  'v8.execute',
  'v8.wasm',
  ...(profile ? ['disabled-by-default-v8.cpu_profiler'] : []),
  ...(compile ? ['disabled-by-default-v8.wasm.detailed'] : []),
];
const DIST = path.resolve(ROOT, process.env.MCP_LENS_DIST || 'dist');

// In the page, before its scripts: marks Connect usable (present and enabled) and the next frame,
// as the benchmark's probe sees them, and the long tasks the page itself reports.
const PROBE = `(() => {
  window.__longtasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__longtasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch (_) {}
  let done = false;
  const check = () => {
    if (done) return;
    const button = document.querySelector('#connect');
    if (!button || button.disabled) return;
    done = true;
    performance.mark('lens-usable');
    requestAnimationFrame(() => {
      window.__usableFrame = performance.now();
      performance.mark('lens-usable-frame');
    });
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
  const loop = () => { check(); if (!done) requestAnimationFrame(loop); };
  requestAnimationFrame(loop);
})()`;

async function main() {
  const appUrl = await startStaticServer(await snapshotDir(DIST));
  const port = await freePort();
  const serverUrl = `http://${HOST}:${port}/mcp`;
  const entry = 'node_modules/@modelcontextprotocol/server-everything/dist/index.js';
  await startProcess('server-everything', process.execPath, ['-r', './tests/servers/loopback.cjs', entry, 'streamableHttp'], { env: { PORT: String(port) }, url: serverUrl });
  const cdp = await launch('trace-load-');
  console.log(`${path.relative(ROOT, DIST) || DIST}; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' / ')} on ${os.cpus().length} CPUs`);
  const worst = [];
  for (let run = 0; run < runs; run++) {
    const { browserContextId } = await cdp.send('Target.createBrowserContext');
    const { page, evaluate, until } = await openTab(cdp, browserContextId);
    if (network) await page('Network.enable', { maxTotalBufferSize: 1 << 20, maxResourceBufferSize: 1 << 19 });
    await page('Page.enable');
    await page('Page.addScriptToEvaluateOnNewDocument', { source: PROBE });
    let seen = null;
    const events = await traced(cdp, async () => {
      await page('Page.navigate', { url: `${appUrl}?url=${encodeURIComponent(serverUrl)}` });
      await until('window.__usableFrame !== undefined', 'Connect usable');
      await sleep(after);
      seen = await evaluate('({ frame: window.__usableFrame, longtasks: window.__longtasks })');
    }, CATEGORIES);
    await cdp.send('Target.disposeBrowserContext', { browserContextId });
    if (out) fs.writeFileSync(runs > 1 ? out.replace(/\.json$/, `-${run}.json`) : out, JSON.stringify({ traceEvents: events }));
    console.log(`== load ${run + 1} (load average ${os.loadavg()[0].toFixed(2)})`);
    worst.push(report(events, seen, new URL(appUrl).origin));
  }
  console.log(`longest task in the load window per run (the page's own longtask entries): ${worst.map((w) => (w ? w.toFixed(0) : '<50')).join(', ')} ms`);
  cdp.close();
}

const ms = (us) => (us / 1000).toFixed(1);
const short = (name) => shortName(name, 100);

const SCRIPT = new Set(['FunctionCall', 'v8.callFunction', 'EventDispatch', 'FireAnimationFrame', 'TimerFire', 'FireIdleCallback', 'EvaluateScript', 'v8.evaluateModule', 'v8.run', 'RunMicrotasks', 'V8.RunMicrotasks']);
const GC = /GC|Scavenge|MarkCompact|Sweep/;
const WASM = /wasm/i;

/** What the task ran first: its outermost script entry, named by function or script. */
function entryOf(inside) {
  const call = inside.find((e) => e.name === 'FunctionCall' || e.name === 'EvaluateScript' || e.name === 'v8.evaluateModule' || e.name === 'FireAnimationFrame' || e.name === 'TimerFire' || e.name === 'FireIdleCallback' || e.name === 'EventDispatch');
  if (!call) return inside.find((e) => e.dur > 500)?.name ?? '?';
  const d = call.args?.data ?? {};
  const where = d.functionName || d.type || (d.url ? path.basename(d.url.split('?')[0]) : '') || d.timerId || '';
  return `${call.name}${where ? ` ${where}` : ''}${d.url && d.functionName ? ` (${path.basename(d.url.split('?')[0])}:${d.lineNumber ?? '?'})` : ''}`;
}

function report(events, seen, origin) {
  const usable = events.find((e) => e.name === 'lens-usable');
  const main = usable ? { pid: usable.pid, tid: usable.tid } : mainThread(events);
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid);
  const mark = (name) => events.find((e) => e.name === name && e.pid === main.pid)?.ts;
  const nav = events.filter((e) => e.name === 'navigationStart' && e.pid === main.pid).map((e) => e.ts).sort((a, b) => b - a)[0]
    ?? events.find((e) => e.name === 'ResourceSendRequest' && e.args?.data?.url?.includes('?url='))?.ts;
  const usableFrame = mark('lens-usable-frame');
  const fcp = events.find((e) => e.name === 'firstContentfulPaint' && e.pid === main.pid)?.ts;
  const at = (ts) => (ts === undefined ? '?' : `${ms(ts - nav)}`);
  // The page's files: requested -> finished, relative to navigation.
  const sends = events.filter((e) => e.name === 'ResourceSendRequest').map((e) => ({ ts: e.ts, url: e.args.data.url, id: e.args.data.requestId }));
  const finishes = new Map(events.filter((e) => e.name === 'ResourceFinish').map((e) => [e.args.data.requestId, e.ts]));
  const files = sends
    .filter((s) => s.url.startsWith(origin) && /\.(wasm|js)(\?|$)/.test(s.url))
    .map((s) => `${path.basename(s.url)} ${at(s.ts)}-${at(finishes.get(s.id))}`);
  console.log(`  first contentful paint ${at(fcp)} ms, Connect usable ${at(mark('lens-usable'))} ms, its frame ${at(usableFrame)} ms (page clock ${seen?.frame?.toFixed(1)})`);
  console.log(`  files (ms from navigation, requested-finished): ${files.join(', ')}`);
  const pageTasks = (seen?.longtasks ?? []).map((t) => `${t.start.toFixed(0)}+${t.duration.toFixed(0)}${t.start <= seen.frame ? ' (in the load window)' : ''}`);
  console.log(`  the page's longtask entries (start+duration ms): ${pageTasks.join(', ') || 'none'}`);
  const inWindow = (seen?.longtasks ?? []).filter((t) => t.start <= seen.frame).map((t) => t.duration);
  // Wasm events anywhere on the main thread, with when they happened.
  const wasmEvents = onMain.filter((e) => WASM.test(e.name) && (e.dur ?? 0) > 1000);
  const tasks = onMain.filter((e) => e.name === 'RunTask' && e.ph === 'X' && e.ts >= nav && e.dur >= over * 1000).sort((a, b) => a.ts - b.ts);
  for (const task of tasks) {
    const inside = onMain.filter((e) => e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= task.ts + task.dur).sort((a, b) => a.ts - b.ts || b.dur - a.dur);
    const spans = inside.filter((e) => e.ph === 'X');
    const sum = (test) => covered(spans.filter((e) => test(e.name)));
    const parts = [
      ['script', sum((x) => SCRIPT.has(x))],
      ['wasm compile', sum((x) => WASM.test(x) && /compile/i.test(x))],
      ['wasm instantiate', sum((x) => WASM.test(x) && /instantiat/i.test(x))],
      ['parse/compile JS', sum((x) => x === 'v8.compile' || x === 'v8.compileModule' || x === 'V8.CompileCode' || x === 'v8.parseOnBackground')],
      ['GC', sum((x) => GC.test(x))],
      ['style', sum((x) => x === 'UpdateLayoutTree' || x === 'RecalculateStyles' || x === 'ParseAuthorStyleSheet')],
      ['layout', sum((x) => x === 'Layout')],
      ['paint', sum((x) => x === 'Paint' || x === 'PrePaint' || x === 'Layerize' || x === 'Commit' || x === 'UpdateLayer')],
      ['HTML', sum((x) => x === 'ParseHTML')],
    ].filter(([, us]) => us > 300);
    const where = task.ts <= usableFrame ? 'IN the load window' : 'after the load window';
    console.log(`  task at ${at(task.ts).padStart(7)} ms  ${ms(task.dur).padStart(6)} ms (CPU ${task.tdur === undefined ? '?' : ms(task.tdur)} ms)  ${where}: ${entryOf(spans)}`);
    console.log(`      parts: ${parts.map(([k, v]) => `${k} ${ms(v)}`).join(', ')}`);
    const wasm = wasmEvents.filter((e) => e.ts >= task.ts && e.ts < task.ts + task.dur);
    if (wasm.length) {
      const byName = new Map();
      for (const e of wasm) byName.set(e.name, [(byName.get(e.name)?.[0] ?? 0) + 1, (byName.get(e.name)?.[1] ?? 0) + e.dur]);
      console.log(`      wasm events: ${[...byName].map(([n, [count, us]]) => `${n} x${count} ${ms(us)}`).join(', ')}`);
    }
    const big = spans.filter((e) => e.dur > 3000 && !/RunTask|OnHandleReady|RunMicrotasks|MicrotaskCheckpoint|Receive mojo|ThreadControllerImpl|ThreadController|SimpleWatcher/.test(e.name)).slice(0, 8);
    console.log(`      events over 3 ms: ${big.map((e) => `${e.name}${e.args?.data?.functionName ? `(${e.args.data.functionName})` : ''} ${ms(e.dur)}`).join(', ')}`);
    if (profile) {
      const { top, inclusive, total } = selfTimes(events, main, task.ts, task.ts + task.dur);
      console.log(`      sampled ${ms(total)} ms; self: ${top.slice(0, 8).map(([n, us]) => `${short(n)} ${ms(us)}`).join('; ')}`);
      const rust = inclusive.filter(([name]) => !/^\(|^$/.test(name)).slice(0, 16);
      const ours = inclusive.filter(([name]) => /mcp_lens(?!_client|_protocol)|Sidebar|ConnectionBar|ThemeChoice/.test(name)).slice(0, 12);
      if (ours.length) console.log(`      inclusive, mcp-lens UI: ${ours.map(([n, us]) => `${short(n)} ${ms(us)}`).join('; ')}`);
      console.log(`      inclusive: ${rust.map(([n, us]) => `${short(n)} ${ms(us)}`).join('; ')}`);
    }
  }
  return inWindow.length ? Math.max(...inWindow) : 0;
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(cleanup);
