#!/usr/bin/env node
// A performance trace of mcp-lens's first connect, and of a reconnect in the same page: where the
// time between the Connect click and the painted tool list goes. Not part of the benchmark
// (bench.mjs measures; this explains).
//
//   node scripts/bench/trace-connect.mjs [--runs N] [--out trace.json] [--wait-chunk] [--profile] [--compile]
//
// Per run, a fresh browser context opens the app with ?url= server-everything, clicks Connect as
// soon as it is usable (as the benchmark does; with --wait-chunk, once the session chunk has
// arrived and the page has been idle for a second), waits for the tools, disconnects and
// reconnects. The page is driven over bare CDP (no Playwright, no DevTools Network domain).
// Printed per connect: click -> first request sent -> last list answer -> tools painted (the
// trace's resource events and user-timing marks), every main-thread task over 2 ms in that span
// with its parts (script, style, layout, paint; with --compile, wasm compilation, whose
// per-function trace events slow the page down several times), and with --profile the self
// time of the hottest functions (V8's sampling profiler, which slows the page down too; build
// with MCP_LENS_KEEP_NAMES=1 for Rust names).
// MCP_LENS_DIST=<dir> traces another build. Traces go to --out (DevTools' Performance panel).

import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { appAndEverything, commandLine, covered, launch, mainThread, openTab, selfTimes, shortName, traced } from './cdp.mjs';
import { ROOT, cleanup, sleep } from './lib.mjs';

const { option, flag } = commandLine(process.argv.slice(2));
const out = option('--out', null);
const runs = Number(option('--runs', '1'));
const waitChunk = flag('--wait-chunk');
const profile = flag('--profile');
const compile = flag('--compile');
const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'blink.user_timing',
  'loading',
  'toplevel',
  'v8.execute',
  ...(profile ? ['disabled-by-default-v8.cpu_profiler', 'v8'] : []),
  ...(compile ? ['v8.wasm', 'disabled-by-default-v8.wasm.detailed'] : []),
];
const DIST = path.resolve(ROOT, process.env.MCP_LENS_DIST || 'dist');
const ECHO = 'li.tool-item[data-tool="echo"]';

// In the page: marks the click, the DOM showing the echo row (a new one) and the frame after it
// painted, as user timing (which the trace records on the same clock as its tasks).
const ARM = `(() => {
  const stale = new Set(document.querySelectorAll('${ECHO}'));
  window.__painted = new Promise((resolve) => {
    const found = () => [...document.querySelectorAll('${ECHO}')].some((el) => !stale.has(el));
    const observer = new MutationObserver(() => {
      if (!found()) return;
      observer.disconnect();
      performance.mark('lens-dom');
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => { performance.mark('lens-painted'); resolve(); };
        channel.port2.postMessage(null);
      });
    });
    observer.observe(document, { subtree: true, childList: true, attributes: true });
  });
  document.querySelector('#connect').addEventListener('click', () => performance.mark('lens-click'), { capture: true, once: true });
})()`;

async function main() {
  const { appUrl, serverUrl } = await appAndEverything(DIST);
  const cdp = await launch('trace-connect-');
  for (let run = 0; run < runs; run++) {
    const { browserContextId } = await cdp.send('Target.createBrowserContext');
    const { page, evaluate, until } = await openTab(cdp, browserContextId);
    const connects = [];
    const events = await traced(cdp, async () => {
      await page('Page.navigate', { url: `${appUrl}?url=${encodeURIComponent(serverUrl)}` });
      await until(`!!document.querySelector('#connect') && !document.querySelector('#connect').disabled`, 'Connect usable');
      if (waitChunk) {
        await until(`performance.getEntriesByType('resource').some((e) => e.name.includes('split_session'))`, 'the session chunk');
        await sleep(1000);
      }
      for (const which of ['first connect', 'reconnect']) {
        await evaluate(ARM);
        await evaluate(`document.querySelector('#connect').click()`);
        await evaluate('window.__painted');
        connects.push(which);
        await sleep(300);
        if (which === 'first connect') {
          await evaluate(`document.querySelector('#disconnect').click()`);
          await until(`document.querySelector('#status')?.textContent.trim() === 'Disconnected'`, 'Disconnected');
          await sleep(500);
        }
      }
    }, CATEGORIES);
    await cdp.send('Target.disposeBrowserContext', { browserContextId });
    if (out) fs.writeFileSync(runs > 1 ? out.replace(/\.json$/, `-${run}.json`) : out, JSON.stringify({ traceEvents: events }));
    console.log(`== run ${run + 1}${waitChunk ? ' (Connect clicked once the session chunk was in)' : ' (Connect clicked as soon as usable)'}`);
    report(events, connects, serverUrl);
  }
  cdp.close();
}

const ms = (us) => (us / 1000).toFixed(1);
const short = (name) => shortName(name, 90);

function report(events, connects, serverUrl) {
  // The page's main thread: where its marks are (the busiest renderer thread otherwise).
  const mark = events.find((e) => e.name === 'lens-click');
  const main = mark ? { pid: mark.pid, tid: mark.tid } : mainThread(events);
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid);
  const marks = (name) => events.filter((e) => e.name === name && e.cat?.includes('blink.user_timing')).map((e) => e.ts).sort((a, b) => a - b);
  const clicks = marks('lens-click');
  const doms = marks('lens-dom');
  const painted = marks('lens-painted');
  const sends = events.filter((e) => e.name === 'ResourceSendRequest').map((e) => ({ ts: e.ts, url: e.args.data.url, id: e.args.data.requestId }));
  const finishes = new Map(events.filter((e) => e.name === 'ResourceFinish').map((e) => [e.args.data.requestId, e.ts]));
  const chunk = sends.find((s) => s.url.includes('split_session'));
  connects.forEach((which, n) => {
    const click = clicks[n];
    const end = painted[n];
    if (click === undefined || end === undefined) return console.log(`  ${which}: marks missing`);
    const mcp = sends.filter((s) => s.url === serverUrl && s.ts >= click - 1000 && s.ts <= end);
    const firstSent = mcp[0]?.ts;
    const lastAnswer = Math.max(...mcp.map((s) => finishes.get(s.id) ?? 0).filter((t) => t <= doms[n]));
    console.log(`  ${which}: click -> first request sent ${firstSent ? ms(firstSent - click) : '?'} ms, -> last answer ${ms(lastAnswer - click)} ms, last answer -> DOM ${ms(doms[n] - lastAnswer)} ms, -> painted ${ms(end - lastAnswer)} ms; click -> painted ${ms(end - click)} ms (${mcp.length} requests)`);
    if (n === 0 && chunk) console.log(`    session chunk requested at ${ms(chunk.ts - click)} ms from the click, finished at ${ms((finishes.get(chunk.id) ?? NaN) - click)} ms`);
    const tasks = onMain.filter((e) => e.name === 'RunTask' && e.ph === 'X' && e.ts + e.dur > click && e.ts < end).sort((a, b) => a.ts - b.ts);
    for (const task of tasks) {
      if (task.dur < 2000) continue;
      const inside = onMain.filter((e) => e.ph === 'X' && e !== task && e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur);
      const sum = (test) => covered(inside.filter((e) => test(e.name)));
      const compiled = inside.filter((e) => /wasm/i.test(e.name) && /compile/i.test(e.name));
      const compileUs = covered(compiled);
      const parts = [
        ['script', sum((x) => x === 'FunctionCall' || x === 'v8.callFunction' || x === 'EventDispatch' || x === 'FireAnimationFrame' || x === 'TimerFire')],
        ['wasm compile', compileUs],
        ['style', sum((x) => x === 'UpdateLayoutTree' || x === 'RecalculateStyles')],
        ['layout', sum((x) => x === 'Layout')],
        ['paint', sum((x) => x === 'Paint' || x === 'PrePaint' || x === 'Layerize' || x === 'Commit')],
      ].filter(([, us]) => us > 200);
      const top = inside.filter((e) => e.dur > 1000 && !/RunTask|OnHandleReady|RunMicrotasks|MicrotaskCheckpoint|Receive mojo|ThreadControllerImpl/.test(e.name)).slice(0, 4).map((e) => `${e.name} ${ms(e.dur)}`);
      console.log(`    +${ms(task.ts - click).padStart(6)}  ${ms(task.dur).padStart(5)} ms  ${parts.map(([k, v]) => `${k} ${ms(v)}`).join(', ')} | ${top.join(', ')} ${compile ? ` (${compiled.length} compile events)` : ''}`);
      if (profile && task.dur > 20_000) {
        const { top: hot, inclusive } = selfTimes(events, main, task.ts, task.ts + task.dur);
        const rust = inclusive.filter(([name]) => /mcp_lens|leptos|tachys|reactive_graph|wasm_split|session/.test(name)).slice(0, 14);
        console.log(`      self: ${hot.slice(0, 6).map(([n, us]) => `${short(n)} ${ms(us)}`).join('; ')}`);
        console.log(`      inclusive: ${rust.map(([n, us]) => `${short(n)} ${ms(us)}`).join('; ')}`);
      }
    }
    if (!profile) return;
    const { top, total } = selfTimes(events, main, click, end);
    console.log(`    self time click -> painted (sampled, ${ms(total)} ms busy):`);
    for (const [name, us] of top.slice(0, 20)) console.log(`      ${ms(us).padStart(6)} ms  ${short(name)}`);
  });
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(cleanup);
