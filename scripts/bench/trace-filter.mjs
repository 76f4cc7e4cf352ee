#!/usr/bin/env node
// A performance trace of the 5,000-tool filter's keystrokes in mcp-lens: where each key's time
// goes, from its input event to the next frame after the list changed (the benchmark's filter
// case, bench/scale.mjs). Not part of the benchmark (bench.mjs measures; this explains).
//
//   node scripts/bench/trace-filter.mjs [--runs N] [--out trace.json] [--tools N] [--profile [--top N]]
//
// Like the benchmark: all tools listed (Connect, Load all), the filter typed "scale_4999" and
// deleted again, one key at a time, each timed in the page (input event -> the first change in
// the list pane -> the next animation frame; a key that changes nothing ends at its first
// frame). The page is 1280x720 (Playwright's default) and driven over a bare CDP connection
// (bench/cdp.mjs). MCP_LENS_DIST=<dir> traces another build; build it with MCP_LENS_KEEP_NAMES=1
// for Rust function names. Prints per key its time and the main thread's work in that window by
// kind (script, which includes the wasm; style; layout; paint, i.e. pre-paint, paint, layerize
// and commit; other), the style and layout forced inside script, and the rendering of the frame
// that ends it (after the window: the frame's own style, layout and paint); with --profile (V8's
// sampling profiler, which slows the wasm down), for the --top (2) slowest keys the self time of
// the hottest functions in their windows. Traces go to --out.

import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { TRACE_CATEGORIES, commandLine, launch, mainThread, openTab, selfTimes, traced } from './cdp.mjs';
import { HOST, ROOT, cleanup, freePort, median, sleep, snapshotDir, startProcess, startStaticServer } from './lib.mjs';

const { option, flag } = commandLine(process.argv.slice(2));
const out = option('--out', null);
const runs = Number(option('--runs', '1'));
const tools = Number(option('--tools', '5000'));
const top = Number(option('--top', '2'));
const profiling = flag('--profile');
const DIST = path.resolve(ROOT, process.env.MCP_LENS_DIST || 'dist');
const FILTER_TEXT = 'scale_4999';
const KEYS = [...FILTER_TEXT, ...Array(FILTER_TEXT.length).fill('Backspace')];
// Frames a key may take to change the list before it counts as changing nothing (as the bench).
const SETTLE_FRAMES = 3;

// Trace event names by kind; an event's self time goes to its own kind, or its nearest
// enclosing event's that has one.
const KINDS = {
  // Blink's dispatch of the key's events and its editing of the text field, apart from the
  // listeners' script.
  input: ['EventDispatch', 'Editor::HandleKeyboardEvent', 'TypingCommand::InsertText'],
  script: ['FunctionCall', 'TimerFire', 'FireAnimationFrame', 'RunMicrotasks', 'v8.callFunction', 'V8.Execute', 'HandlePostMessage', 'v8.run', 'EvaluateScript', 'v8.compile', 'V8.GCScavenger', 'MajorGC', 'MinorGC', 'V8.GC_MC_BACKGROUND_MARKING'],
  style: ['UpdateLayoutTree', 'RecalculateStyles', 'ParseAuthorStyleSheet', 'ScheduleStyleRecalculation'],
  layout: ['Layout', 'UpdateLayer', 'IntersectionObserverController::computeIntersections', 'ComputeIntersections'],
  paint: ['PrePaint', 'Paint', 'PaintImage', 'Layerize', 'Commit', 'UpdateLayerTree', 'CompositeLayers', 'HitTest', 'ScrollLayer'],
};
const KIND_OF = new Map(Object.entries(KINDS).flatMap(([kind, names]) => names.map((n) => [n, kind])));

/** The page-side timing (installed once): `__arm(i)` starts key i's watch, `__keys[i]` its times. */
const PAGE_TIMING = `(() => {
  window.__keys = [];
  let current = null;
  const afterPaint = (done) => { const c = new MessageChannel(); c.port1.onmessage = () => done(performance.now()); c.port2.postMessage(null); };
  document.addEventListener('input', (e) => {
    if (current && current.start === null) current.start = Math.min(e.timeStamp, performance.now());
  }, true);
  new MutationObserver(() => {
    const k = current;
    if (!k || k.start === null || k.dom !== null) return;
    k.dom = performance.now();
    requestAnimationFrame(() => { k.frame = performance.now(); afterPaint((t) => { k.painted = t; k.done = true; }); });
  }).observe(document.querySelector('.list-pane'), { subtree: true, childList: true, attributes: true, characterData: true });
  const frames = () => {
    const k = current;
    if (!k || k.done) return;
    if (k.start !== null && k.dom === null) {
      k.frames += 1;
      if (k.frames === 1) { k.firstFrame = performance.now(); afterPaint((t) => { k.firstPainted = t; }); }
      if (k.frames > ${SETTLE_FRAMES}) { k.frame = k.firstFrame; k.painted = k.firstPainted; k.changed = false; k.done = true; return; }
    }
    requestAnimationFrame(frames);
  };
  window.__arm = (i) => {
    current = { i, start: null, dom: null, frame: null, painted: null, frames: 0, changed: true, done: false };
    current.armed = performance.mark('filter-key-' + i).startTime;
    window.__keys[i] = current;
    requestAnimationFrame(frames);
  };
})()`;

async function main() {
  const appUrl = await startStaticServer(await snapshotDir(DIST));
  const port = await freePort();
  const scaleUrl = `http://${HOST}:${port}/mcp`;
  await startProcess('scale_server.py', path.join(ROOT, '.venv/bin/python'), ['tests/servers/scale_server.py', '--port', String(port), '--tools', String(tools)], { url: scaleUrl });
  const cdp = await launch('trace-filter-');
  for (let run = 0; run < runs; run++) {
    const { page, evaluate, until } = await openTab(cdp);
    await page('Emulation.setDeviceMetricsOverride', { width: 1280, height: 720, deviceScaleFactor: 1, mobile: false });
    await page('Page.navigate', { url: `${appUrl}?url=${encodeURIComponent(scaleUrl)}` });
    await until(`!!document.querySelector('#connect') && !document.querySelector('#connect').disabled`, 'Connect usable');
    await evaluate(`document.querySelector('#connect').click()`);
    await until(`!!document.querySelector('li.tool-item[data-tool="echo"]')`, 'the first page listed');
    if (tools > 500) {
      await until(`!!document.querySelector('#load-all') && !document.querySelector('#load-all').disabled`, 'Load all usable');
      await evaluate(`document.querySelector('#load-all').click()`);
      await until(`document.querySelector('ul.items').scrollHeight >= ${tools * 48}`, 'all listed');
    }
    await evaluate(PAGE_TIMING);
    await evaluate(`document.querySelector('#tool-filter').focus()`);
    await sleep(300);
    // The sampling profiler slows the wasm down: only with --profile.
    const categories = [...TRACE_CATEGORIES.filter((c) => profiling || !c.includes('cpu_profiler')), 'blink', 'cc'];
    let keys = null;
    const events = await traced(
      cdp,
      async () => {
        await sleep(300);
        for (const [i, key] of KEYS.entries()) {
          await evaluate(`window.__arm(${i})`);
          await pressKey(page, key);
          await until(`window.__keys[${i}].done`, `key ${i} (${key})`, 10_000);
          await sleep(50);
        }
        await sleep(200);
        keys = await evaluate(`window.__keys`);
      },
      categories,
    );
    if (out) fs.writeFileSync(runs > 1 ? out.replace(/\.json$/, `-${run}.json`) : out, JSON.stringify({ traceEvents: events }));
    console.log(`run ${run + 1}:`);
    report(events, keys);
    await page('Page.close');
  }
  cdp.close();
}

/** One key as Playwright's keyboard.press sends it: keyDown (with its text), keyUp. */
async function pressKey(page, key) {
  if (key === 'Backspace') {
    const common = { key, code: 'Backspace', windowsVirtualKeyCode: 8, nativeVirtualKeyCode: 8 };
    await page('Input.dispatchKeyEvent', { type: 'rawKeyDown', ...common });
    await page('Input.dispatchKeyEvent', { type: 'keyUp', ...common });
    return;
  }
  const code = /[a-z]/.test(key) ? `Key${key.toUpperCase()}` : /[0-9]/.test(key) ? `Digit${key}` : 'Minus';
  const vk = /[a-z]/.test(key) ? key.toUpperCase().charCodeAt(0) : /[0-9]/.test(key) ? key.charCodeAt(0) : 189;
  const common = { key, code, windowsVirtualKeyCode: vk, nativeVirtualKeyCode: vk };
  await page('Input.dispatchKeyEvent', { type: 'keyDown', text: key, unmodifiedText: key, ...common, ...(key === '_' ? { modifiers: 8 } : {}) });
  await page('Input.dispatchKeyEvent', { type: 'keyUp', ...common });
}

/** Self time (µs) by kind of the main thread's complete events within [from, to] (trace µs). */
function byKind(onMain, from, to) {
  const totals = { input: 0, script: 0, style: 0, layout: 0, paint: 0, other: 0, forcedStyle: 0, forcedLayout: 0 };
  // Nesting by a stack over the events sorted by start (longer first on ties).
  const sorted = onMain.filter((e) => e.ph === 'X' && e.dur > 0 && e.ts < to && e.ts + e.dur > from).sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const stack = [];
  const clip = (e) => Math.max(0, Math.min(e.ts + e.dur, to) - Math.max(e.ts, from));
  const close = (upTo) => {
    while (stack.length && stack.at(-1).end <= upTo) {
      const frame = stack.pop();
      const self = frame.clipped - frame.children;
      if (frame.kind) totals[frame.kind] += self;
      else if (frame.event.name === 'RunTask' || frame.event.name === 'ThreadControllerImpl::RunTask') totals.other += self;
      else totals.other += self;
      if (frame.forced) totals[frame.forced] += frame.clipped;
    }
  };
  for (const e of sorted) {
    close(e.ts);
    const parent = stack.at(-1);
    if (parent) parent.children += clip(e);
    const own = KIND_OF.get(e.name);
    const kind = own ?? parent?.kind ?? null;
    // Style or layout inside script: forced by the page's own code (reading a layout value).
    const inScript = stack.some((f) => f.kind === 'script' || f.kind === 'input');
    const forced = inScript && (own === 'style' || own === 'layout') && !stack.some((f) => f.kind === own) ? (own === 'style' ? 'forcedStyle' : 'forcedLayout') : null;
    stack.push({ event: e, end: e.ts + e.dur, clipped: clip(e), children: 0, kind, forced });
  }
  close(Infinity);
  return totals;
}

function report(events, keys) {
  const main = mainThread(events);
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid);
  // The page clock -> the trace clock, by each key's mark.
  const marks = new Map(events.filter((e) => e.cat?.includes('blink.user_timing') && e.name.startsWith('filter-key-')).map((e) => [Number(e.name.slice('filter-key-'.length)), e.ts]));
  const f = (us) => (us / 1000).toFixed(1);
  const rows = [];
  for (const k of keys) {
    const mark = marks.get(k.i);
    if (mark === undefined || k.start === null) {
      console.log(`  key ${k.i}: no mark or no input event`);
      continue;
    }
    const toTrace = (t) => mark + (t - k.armed) * 1000;
    const from = toTrace(k.start);
    const to = toTrace(k.frame);
    const t = byKind(onMain, from, to);
    // The frame that ends the window: its rendering after the rAF callbacks (not in the time).
    const frameEnd = onMain.filter((e) => e.ph === 'X' && e.ts >= to - 500 && e.ts < to + 30_000 && (e.name === 'Paint' || e.name === 'Commit' || e.name === 'Layerize'));
    const after = byKind(onMain, to, frameEnd.length ? Math.max(...frameEnd.map((e) => e.ts + e.dur)) : to);
    const ms = k.frame - k.start;
    rows.push({ k, ms, from, to });
    const key = KEYS[k.i] === 'Backspace' ? '⌫' : KEYS[k.i];
    const busy = t.input + t.script + t.style + t.layout + t.paint + t.other;
    console.log(
      `  ${String(k.i).padStart(2)} ${key} ${ms.toFixed(1).padStart(5)} ms${k.changed ? ' ' : '='} input->dom ${k.dom === null ? '  -  ' : (k.dom - k.start).toFixed(1).padStart(5)}` +
        ` | busy ${f(busy).padStart(5)}: script ${f(t.script).padStart(4)}, key events and editing ${f(t.input).padStart(4)}, style ${f(t.style).padStart(4)} (forced ${f(t.forcedStyle).padStart(4)}), layout ${f(t.layout).padStart(4)} (forced ${f(t.forcedLayout).padStart(4)}), paint ${f(t.paint)}, other ${f(t.other)}, idle ${f(to - from - busy)}` +
        ` | its frame: style ${f(after.style)}, layout ${f(after.layout)}, paint ${f(after.paint)}, script ${f(after.script)}`,
    );
  }
  const times = rows.map((r) => r.ms);
  console.log(`  median ${median(times).toFixed(1)} ms, worst ${Math.max(...times).toFixed(1)} ms`);
  for (const r of profiling ? [...rows].sort((a, b) => b.ms - a.ms).slice(0, top) : []) {
    const { top: hottest, total } = selfTimes(events, main, r.from, r.to + 5000);
    console.log(`  key ${r.k.i} (${KEYS[r.k.i]}, ${r.ms.toFixed(1)} ms): self time in its window (sampled, ${(total / 1000).toFixed(1)} ms busy):`);
    for (const [name, us] of hottest.slice(0, 25)) console.log(`    ${(us / 1000).toFixed(1).padStart(6)} ms  ${name.slice(0, 150)}`);
  }
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(cleanup);
