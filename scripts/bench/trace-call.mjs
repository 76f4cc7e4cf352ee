#!/usr/bin/env node
// A performance trace of mcp-lens's echo tool call, as the benchmark makes it: where the client's
// own time goes between the Run click and the request leaving, and between the answer's last byte
// and the painted result. Not part of the benchmark (bench.mjs measures; this explains).
//
//   node scripts/bench/trace-call.mjs [--calls N] [--pages P] [--out trace.json] [--network]
//        [--light] [--profile] [--interval US] [--compile] [--trace-all] [--no-trace] [--quiet]
//
// Per page (a fresh browser context; --pages, default 1) the app opens with ?url= server-everything,
// Connect is clicked, the echo tool opened, and after --settle ms (default 1000: the panel's
// warm-up runs after its first paint) N calls are made (--calls, default 6): a message typed into
// the form (CDP Input.insertText, as Playwright's fill) and Run clicked with real mouse events
// (CDP Input.dispatchMouseEvent: move, press, release, as Playwright's click). The page is driven
// over bare CDP (no Playwright; no DevTools Network domain unless --network, which turns it on as
// the benchmark's probe does and then takes the answer's last byte as the benchmark does, from
// Network.dataReceived). The first call of a page is what the benchmark measures (the page's
// first Run); the later ones show the same path once its code has run.
// The first page is traced (every page with --trace-all, none with --no-trace; --light leaves out
// the disabled-by-default timeline category, whose instrumentation slows layout and paint down).
// Printed per traced call: click (the click event's timeStamp) -> fetch called
// (ResourceSendRequest) -> the answer's last byte (the renderer's last ResourceReceivedData) ->
// the DOM showing the result (MutationObserver) -> the next frame painted; the main thread's CPU
// time (the trace's thread clock, which does not run while the thread waits for a core: on a
// busy machine the wall times are up to twice that) in each own-time window; and unless --quiet
// every main-thread task in the two windows with its parts over 0.1 ms. --compile records V8's
// lazy wasm compilation (per-function events; they slow the page down). With --profile, V8's
// sampling profiler (the CDP Profiler domain, every --interval microseconds, default 100) gives
// the self and inclusive time of the functions in each window over the traced pages, first calls
// apart from later ones (build with MCP_LENS_KEEP_NAMES=1 for Rust names; the profiler slows the
// page down). At the end, per call number over all pages, the own times as the benchmark counts
// them (page clock, median and range), and the CPU times of the traced ones.
// MCP_LENS_DIST=<dir> traces another build. The first page's trace goes to --out (DevTools'
// Performance panel).

import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { appAndEverything, commandLine, cpuAt, lastBytes, launch, openTab, shortName, taskLines, traced } from './cdp.mjs';
import { ROOT, cleanup, sleep } from './lib.mjs';

const { option, flag } = commandLine(process.argv.slice(2));
const out = option('--out', null);
const calls = Number(option('--calls', '6'));
const profile = flag('--profile');
const interval = Number(option('--interval', '100'));
const network = flag('--network');
const compile = flag('--compile');
const pages = Number(option('--pages', '1'));
const noTrace = flag('--no-trace');
const settle = Number(option('--settle', '1000'));
const light = flag('--light');
const traceAll = flag('--trace-all');
const quiet = flag('--quiet');
const CATEGORIES = [
  'devtools.timeline',
  ...(light ? [] : ['disabled-by-default-devtools.timeline']),
  'blink.user_timing',
  'loading',
  'toplevel',
  'v8.execute',
  'v8',
  ...(compile ? ['v8.wasm', 'disabled-by-default-v8.wasm.detailed'] : []),
  ...(option('--categories', '') || '').split(',').filter(Boolean),
];
const DIST = path.resolve(ROOT, process.env.MCP_LENS_DIST || 'dist');
const ECHO = 'li.tool-item[data-tool="echo"]';
const INPUT = '#tool-panel input[data-path="/message"]';

// In the page, per call: the click's timeStamp and when its handler ran (page clock), a mark at
// the DOM showing this call's result and one when the frame after it was rendered.
const arm = (text) => `(() => {
  const runs = document.querySelector('#tool-panel').dataset.runs;
  const shown = () => document.querySelector('#tool-panel').dataset.runs !== runs
    && document.querySelector('#tool-result .content-text')?.textContent.includes(${JSON.stringify(text)});
  window.__call = {};
  window.__painted = new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (!shown()) return;
      observer.disconnect();
      window.__call.dom = performance.now();
      performance.mark('lens-dom');
      requestAnimationFrame(() => {
        window.__call.frame = performance.now();
        const channel = new MessageChannel();
        channel.port1.onmessage = () => { window.__call.painted = performance.now(); performance.mark('lens-painted'); resolve(window.__call); };
        channel.port2.postMessage(null);
      });
    });
    observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  });
  document.addEventListener('click', (event) => {
    window.__call.click = event.timeStamp;
    window.__call.handler = performance.now();
    performance.mark('lens-click');
  }, { capture: true, once: true });
})()`;

async function main() {
  const { appUrl, serverUrl } = await appAndEverything(DIST);
  const cdp = await launch('trace-call-');
  const timings = [];
  const profiles = { first: { send: newSamples(), paint: newSamples() }, later: { send: newSamples(), paint: newSamples() } };
  for (let p = 0; p < pages; p++) {
    const { seen, events, cpu } = await onePage(cdp, appUrl, serverUrl, (p === 0 || traceAll) && !noTrace);
    timings.push(seen);
    if (events) {
      if (out && p === 0) fs.writeFileSync(out, JSON.stringify({ traceEvents: events }));
      report(events, seen, serverUrl, cpu, profiles);
    }
  }
  cdp.close();
  if (profile) printProfiles(profiles);
  summary(timings);
}

/** One fresh browser context: connect, open echo, `calls` calls; traced if `trace`. */
async function onePage(cdp, appUrl, serverUrl, trace) {
  const { browserContextId } = await cdp.send('Target.createBrowserContext');
  const { page, evaluate, until } = await openTab(cdp, browserContextId);
  // As the benchmark's probe does (bench/probe.mjs): the Network domain on, with small buffers.
  if (network) await page('Network.enable', { maxTotalBufferSize: 1 << 20, maxResourceBufferSize: 1 << 19 });
  await page('Page.navigate', { url: `${appUrl}?url=${encodeURIComponent(serverUrl)}` });
  await until(`!!document.querySelector('#connect') && !document.querySelector('#connect').disabled`, 'Connect usable');
  await evaluate(`document.querySelector('#connect').click()`);
  await until(`!!document.querySelector('${ECHO}')`, 'echo listed');
  await evaluate(`document.querySelector('${ECHO}').click()`);
  await until(`!!document.querySelector('${INPUT}')`, 'the echo form');
  await sleep(settle);
  // Playwright's click: the button scrolled into view if needed, the mouse to its middle.
  let center = null;
  const aim = async () => {
    center = await evaluate(`(() => { const b = document.querySelector('#run-tool'); b.scrollIntoView({ block: 'nearest' }); const r = b.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`);
  };
  const mouse = (type, extra = {}) => page('Input.dispatchMouseEvent', { type, x: center[0], y: center[1], button: 'left', clickCount: 1, ...extra });
  if (profile && trace) {
    await page('Profiler.enable');
    await page('Profiler.setSamplingInterval', { interval });
    await page('Profiler.start');
  }
  // With the Network domain on, the answer's last byte as the benchmark takes it (owntime.mjs):
  // the last Network.dataReceived (else the headers), turned into the page's clock through the
  // request's own wall time.
  const requests = new Map();
  if (network) {
    cdp.on('Network.requestWillBeSent', (e) => {
      if (e.request.url === serverUrl && e.request.method === 'POST') requests.set(e.requestId, { start: e.timestamp, wallStart: e.wallTime * 1000, last: null });
    });
    for (const name of ['Network.responseReceived', 'Network.dataReceived']) {
      cdp.on(name, (e) => {
        const r = requests.get(e.requestId);
        if (r) r.last = Math.max(r.last ?? 0, e.timestamp);
      });
    }
  }
  const timeOrigin = await evaluate('performance.timeOrigin');
  const seen = [];
  const run = async () => {
    for (let n = 0; n < calls; n++) {
      const text = `bench ${n}`;
      // Playwright's fill: focus, select all, insert the text.
      await evaluate(`(() => { const el = document.querySelector('${INPUT}'); el.focus(); el.select(); })()`);
      await page('Input.insertText', { text });
      await sleep(n === 0 ? 100 : 300);
      await evaluate(arm(text));
      await aim();
      await mouse('mouseMoved', { button: 'none', clickCount: 0 });
      await mouse('mousePressed');
      await mouse('mouseReleased');
      const call = await evaluate('window.__painted');
      // When fetch was called and the answer's last byte came, as the page's resource timing says.
      const timing = await evaluate(`(() => {
        const e = performance.getEntriesByType('resource').filter((e) => e.name === ${JSON.stringify(serverUrl)} && e.startTime >= ${call.click} - 1)[0];
        return e ? [e.startTime, e.responseEnd] : [null, null];
      })()`);
      [call.fetch, call.lastByte] = timing;
      if (network) {
        const onPage = (r, t) => r.wallStart + (t - r.start) * 1000 - timeOrigin;
        const r = [...requests.values()].find((q) => onPage(q, q.start) >= call.click - 1 && q.last !== null);
        call.lastByte = r ? onPage(r, r.last) : null;
        call.cdpFetch = r ? onPage(r, r.start) : null;
      }
      seen.push(call);
      await sleep(200);
    }
  };
  const events = trace ? await traced(cdp, run, CATEGORIES) : (await run(), null);
  for (const name of ['Network.requestWillBeSent', 'Network.responseReceived', 'Network.dataReceived']) cdp.off(name);
  const cpu = profile && trace ? (await page('Profiler.stop')).profile : null;
  await cdp.send('Target.disposeBrowserContext', { browserContextId });
  return { seen, events, cpu };
}

/** Per call index, over the pages: the own times as the benchmark counts them (page clock). */
function summary(timings) {
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const fmt = (values) => `${median(values).toFixed(1)} (${Math.min(...values).toFixed(1)}-${Math.max(...values).toFixed(1)})`;
  console.log(`== own time over ${timings.length} page(s), median (min-max), ms${timings.length > 1 && !noTrace ? '; the first page was traced' : ''}:`);
  for (let n = 0; n < calls; n++) {
    const calls = timings.map((t) => t[n]).filter((c) => c && c.fetch !== null && c.lastByte !== null);
    if (!calls.length) continue;
    const sent = calls.map((c) => c.fetch - c.click);
    const own = calls.map((c) => c.dom - c.lastByte + (c.painted - c.frame));
    const script = calls.map((c) => c.dom - c.lastByte);
    const render = calls.map((c) => c.painted - c.frame);
    console.log(`   call ${n + 1}: click -> fetch ${fmt(sent)}; last byte -> painted (own) ${fmt(own)} = script ${fmt(script)} + rendering ${fmt(render)}`);
    const traced = calls.filter((c) => c.cpu);
    if (traced.length) {
      const cpu = (key) => fmt(traced.map((c) => c.cpu[key] / 1000));
      console.log(`     main thread's CPU time (${traced.length} traced): click -> fetch ${cpu('send')}; last byte -> DOM ${cpu('script')}; rendering ${cpu('render')}`);
    }
  }
}

const ms = (us) => (us / 1000).toFixed(2);

const short = (name) => shortName(name, 110);

function report(events, seen, serverUrl, cpu, profiles) {
  const firstMark = events.find((e) => e.name === 'lens-click');
  const main = { pid: firstMark.pid, tid: firstMark.tid };
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X').sort((a, b) => a.ts - b.ts);
  const marks = (name) => events.filter((e) => e.name === name && e.cat?.includes('blink.user_timing')).map((e) => e.ts).sort((a, b) => a - b);
  const clickMarks = marks('lens-click');
  const paintedMarks = marks('lens-painted');
  const sends = events.filter((e) => e.name === 'ResourceSendRequest' && e.args.data.url === serverUrl).map((e) => ({ ts: e.ts, id: e.args.data.requestId }));
  const lastData = lastBytes(events);
  const windows = { first: { send: [], paint: [] }, later: { send: [], paint: [] } };
  const cpus = [];
  seen.forEach((call, n) => {
    // The page clock -> the trace's: the click mark was made `handler - click` ms after the click.
    const click = clickMarks[n] - (call.handler - call.click) * 1000;
    const painted = paintedMarks[n];
    const dom = painted - (call.painted - call.dom) * 1000;
    const frame = painted - (call.painted - call.frame) * 1000;
    const sent = sends.find((s) => s.ts >= click - 1000 && s.ts <= painted);
    const last = sent ? lastData.get(sent.id) : undefined;
    console.log(`== call ${n + 1}: click -> fetch ${sent ? ms(sent.ts - click) : '?'} ms; fetch -> last byte ${last ? ms(last - sent.ts) : '?'} ms; last byte -> DOM ${last ? ms(dom - last) : '?'} ms, -> frame ${last ? ms(frame - last) : '?'}, -> painted ${last ? ms(painted - last) : '?'} ms (rendering ${ms(painted - frame)})`);
    if (!sent || !last) return;
    const which = n === 0 ? windows.first : windows.later;
    which.send.push([click, sent.ts]);
    which.paint.push([last, painted]);
    const cpu = {
      send: cpuAt(onMain, sent.ts) - cpuAt(onMain, click),
      script: cpuAt(onMain, dom) - cpuAt(onMain, last),
      render: cpuAt(onMain, painted) - cpuAt(onMain, frame),
    };
    console.log(`   main thread's CPU time: click -> fetch ${ms(cpu.send)} ms; last byte -> DOM ${ms(cpu.script)} ms + rendering ${ms(cpu.render)} ms = ${ms(cpu.script + cpu.render)} ms`);
    cpus.push(cpu);
    if (quiet) return;
    console.log('   click -> fetch:');
    for (const line of taskLines(onMain, click - 2000, sent.ts + 500, click)) console.log(`     ${line}`);
    console.log('   last byte -> painted:');
    for (const line of taskLines(onMain, last - 500, painted, last)) console.log(`     ${line}`);
  });
  seen.forEach((call, n) => {
    call.cpu = cpus[n];
  });
  if (!cpu) return;
  for (const key of ['first', 'later']) {
    addSamples(profiles[key].send, cpu, windows[key].send);
    addSamples(profiles[key].paint, cpu, windows[key].paint);
  }
}



const newSamples = () => ({ self: new Map(), inclusive: new Map(), total: 0, calls: 0 });

/** Adds the self and inclusive time by function of the CPU profile's samples inside `spans`. */
function addSamples(into, cpu, spans) {
  const nodes = new Map(cpu.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of cpu.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const add = (map, key, us) => map.set(key, (map.get(key) ?? 0) + us);
  into.calls += spans.length;
  let time = cpu.startTime;
  for (let i = 0; i < cpu.samples.length; i++) {
    time += cpu.timeDeltas[i];
    if (!spans.some(([from, to]) => time >= from && time <= to)) continue;
    const delta = cpu.timeDeltas[i + 1] ?? 0;
    const node = nodes.get(cpu.samples[i]);
    const name = node.callFrame.functionName || node.callFrame.url || '(anon)';
    if (name === '(idle)') continue;
    add(into.self, name, delta);
    into.total += delta;
    const names = new Set();
    for (let at = node.id; at !== undefined; at = parent.get(at)) names.add(nodes.get(at).callFrame.functionName || '(anon)');
    for (const n of names) add(into.inclusive, n, delta);
  }
}

function printProfiles(profiles) {
  const sorted = (map) => [...map.entries()].sort((a, b) => b[1] - a[1]);
  for (const [label, key] of [['first call', 'first'], ['later calls', 'later']]) {
    for (const [part, what] of [['click -> fetch', 'send'], ['last byte -> painted', 'paint']]) {
      const { self, inclusive, total, calls } = profiles[key][what];
      if (!calls) continue;
      console.log(`== ${label}, ${part}: sampled ${ms(total / calls)} ms busy per call (${calls} calls)`);
      console.log(`   self: ${sorted(self).slice(0, 16).map(([n, us]) => `${short(n)} ${ms(us / calls)}`).join('; ')}`);
      const ours = sorted(inclusive).filter(([name]) => !/^\(|^$/.test(name)).slice(0, 45);
      console.log(`   inclusive:\n${ours.map(([n, us]) => `     ${ms(us / calls).padStart(6)}  ${short(n)}`).join('\n')}`);
    }
  }
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(cleanup);
