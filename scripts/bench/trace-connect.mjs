#!/usr/bin/env node
// A performance trace of mcp-lens's first connect, and of a reconnect in the same page: where the
// client's own time goes between the Connect click and the first request, and between the last
// list answer and the painted tool list. Not part of the benchmark (bench.mjs measures; this
// explains).
//
//   node scripts/bench/trace-connect.mjs [--runs N] [--out trace.json] [--wait-chunk] [--profile]
//        [--compile] [--quiet] [--no-trace]
//
// Per run, a fresh browser context opens the app with ?url= server-everything, clicks Connect as
// soon as it is usable (as the benchmark does; with --wait-chunk, once the session chunk has
// arrived and the page has been idle for a second), waits for the tools, disconnects and
// reconnects. Clicks are real mouse events (CDP Input.dispatchMouseEvent: move, press, release,
// as Playwright's click in the benchmark). The page is driven over bare CDP (no Playwright, no
// DevTools Network domain).
// Printed per connect: click (the click event's timeStamp) -> first request sent -> last list
// answer's last byte -> the DOM showing the tools (MutationObserver) -> the next frame -> that
// frame rendered; the main thread's CPU time (the trace's thread clock, which does not run while
// the thread waits for a core: on a busy machine wall times are up to twice that) in each
// own-time window; and unless --quiet every main-thread task in the two windows with its parts
// over 0.1 ms. --compile records V8's lazy wasm compilation (per-function events, which slow the
// page down several times); --profile the self and inclusive time of the hottest functions in
// each window (V8's sampling profiler, which slows the page down too; build with
// MCP_LENS_KEEP_NAMES=1 for Rust names). At the end, per connect over the runs, the own times as
// the benchmark counts them (page clock, median and range) and the traced CPU times.
// --no-trace measures the page clock only (no tracing cost). MCP_LENS_DIST=<dir> traces another
// build. The first run's trace goes to --out (DevTools' Performance panel).

import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { appAndEverything, commandLine, cpuAt, lastBytes, launch, openTab, selfTimes, shortName, taskLines, traced } from './cdp.mjs';
import { ROOT, cleanup, sleep } from './lib.mjs';

const { option, flag } = commandLine(process.argv.slice(2));
const out = option('--out', null);
const runs = Number(option('--runs', '1'));
const waitChunk = flag('--wait-chunk');
const profile = flag('--profile');
const compile = flag('--compile');
const quiet = flag('--quiet');
const noTrace = flag('--no-trace');
const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'blink.user_timing',
  'loading',
  'toplevel',
  'v8.execute',
  'v8',
  ...(profile ? ['disabled-by-default-v8.cpu_profiler'] : []),
  ...(compile ? ['v8.wasm', 'disabled-by-default-v8.wasm.detailed'] : []),
];
const DIST = path.resolve(ROOT, process.env.MCP_LENS_DIST || 'dist');
const ECHO = 'li.tool-item[data-tool="echo"]';
const CONNECTS = ['first connect', 'reconnect'];

// In the page, per connect: the click's timeStamp and when its handler ran (page clock), the DOM
// showing a new echo row and the frame after it rendered, also as user timing marks (which the
// trace records on the same clock as its tasks).
const ARM = `(() => {
  const stale = new Set(document.querySelectorAll('${ECHO}'));
  window.__connect = {};
  window.__painted = new Promise((resolve) => {
    const found = () => [...document.querySelectorAll('${ECHO}')].some((el) => !stale.has(el));
    const observer = new MutationObserver(() => {
      if (!found()) return;
      observer.disconnect();
      window.__connect.dom = performance.now();
      performance.mark('lens-dom');
      requestAnimationFrame(() => {
        window.__connect.frame = performance.now();
        const channel = new MessageChannel();
        channel.port1.onmessage = () => { window.__connect.painted = performance.now(); performance.mark('lens-painted'); resolve(window.__connect); };
        channel.port2.postMessage(null);
      });
    });
    observer.observe(document, { subtree: true, childList: true, attributes: true });
  });
  document.querySelector('#connect').addEventListener('click', (event) => {
    window.__connect.click = event.timeStamp;
    window.__connect.handler = performance.now();
    performance.mark('lens-click');
  }, { capture: true, once: true });
})()`;

// The page's resource timing of the connect's requests to the server: when fetch was called and
// each answer's end (the last byte), on the page clock.
const TIMING = (serverUrl, since) => `performance.getEntriesByType('resource')
  .filter((e) => e.name === ${JSON.stringify(serverUrl)} && e.startTime >= ${since} - 1)
  .map((e) => [e.startTime, e.responseEnd])`;

async function main() {
  const { appUrl, serverUrl } = await appAndEverything(DIST);
  const cdp = await launch('trace-connect-');
  const seen = { 'first connect': [], reconnect: [] };
  for (let run = 0; run < runs; run++) {
    const { browserContextId } = await cdp.send('Target.createBrowserContext');
    const { page, evaluate, until } = await openTab(cdp, browserContextId);
    const calls = [];
    const click = async (selector) => {
      const [x, y] = await evaluate(`(() => { const b = document.querySelector('${selector}'); b.scrollIntoView({ block: 'nearest' }); const r = b.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`);
      const mouse = (type, extra = {}) => page('Input.dispatchMouseEvent', { type, x, y, button: 'left', clickCount: 1, ...extra });
      await mouse('mouseMoved', { button: 'none', clickCount: 0 });
      await mouse('mousePressed');
      await mouse('mouseReleased');
    };
    const drive = async () => {
      await page('Page.navigate', { url: `${appUrl}?url=${encodeURIComponent(serverUrl)}` });
      await until(`!!document.querySelector('#connect') && !document.querySelector('#connect').disabled`, 'Connect usable');
      if (waitChunk) {
        await until(`performance.getEntriesByType('resource').some((e) => e.name.includes('pack-session'))`, 'the session chunk');
        await sleep(1000);
      }
      for (const which of CONNECTS) {
        await evaluate(ARM);
        await click('#connect');
        // A click that missed (Connect moved after it was drawn, as it once did in narrow
        // windows) must fail the run with what the page showed, not wait forever.
        let timer;
        const stuck = new Promise((_, reject) => {
          timer = setTimeout(async () => {
            const shown = await evaluate(`JSON.stringify({ clicked: 'click' in window.__connect, status: document.querySelector('#status')?.textContent, error: document.querySelector('#connect-error')?.textContent })`);
            reject(new Error(`${which}: the tools were not drawn within 60 s of the click; the page: ${shown}`));
          }, 60_000);
        });
        const call = await Promise.race([evaluate('window.__painted'), stuck]).finally(() => clearTimeout(timer));
        // The last answer before the DOM showed the tools: the last list answer (the GET stream
        // stays open; it has no end yet).
        const timing = await evaluate(TIMING(serverUrl, call.click));
        call.fetch = timing.length ? Math.min(...timing.map(([start]) => start)) : null;
        const ends = timing.map(([, end]) => end).filter((end) => end > 0 && end <= call.dom);
        call.lastByte = ends.length ? Math.max(...ends) : null;
        call.requests = timing.length;
        calls.push(call);
        seen[which].push(call);
        await sleep(300);
        if (which === 'first connect') {
          await click('#disconnect');
          await until(`document.querySelector('#status')?.textContent.trim() === 'Disconnected'`, 'Disconnected');
          await sleep(500);
        }
      }
    };
    const events = noTrace ? (await drive(), null) : await traced(cdp, drive, CATEGORIES);
    await cdp.send('Target.disposeBrowserContext', { browserContextId });
    if (out && run === 0 && events) fs.writeFileSync(out, JSON.stringify({ traceEvents: events }));
    console.log(`== run ${run + 1}${waitChunk ? ' (Connect clicked once the session chunk was in)' : ' (Connect clicked as soon as usable)'}`);
    if (events) report(events, calls, serverUrl);
  }
  cdp.close();
  summary(seen);
}

const ms = (us) => (us / 1000).toFixed(2);
const short = (name) => shortName(name, 100);

function report(events, calls, serverUrl) {
  const mark = events.find((e) => e.name === 'lens-click');
  const main = { pid: mark.pid, tid: mark.tid };
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X').sort((a, b) => a.ts - b.ts);
  const marks = (name) => events.filter((e) => e.name === name && e.cat?.includes('blink.user_timing')).map((e) => e.ts).sort((a, b) => a - b);
  const clickMarks = marks('lens-click');
  const paintedMarks = marks('lens-painted');
  const sends = events.filter((e) => e.name === 'ResourceSendRequest').map((e) => ({ ts: e.ts, url: e.args.data.url, id: e.args.data.requestId }));
  const lastData = lastBytes(events);
  const chunk = sends.find((s) => s.url.includes('pack-session'));
  calls.forEach((call, n) => {
    const which = CONNECTS[n];
    // The page clock -> the trace's: the click mark was made `handler - click` ms after the click.
    const click = clickMarks[n] - (call.handler - call.click) * 1000;
    const painted = paintedMarks[n];
    const dom = painted - (call.painted - call.dom) * 1000;
    const frame = painted - (call.painted - call.frame) * 1000;
    const mcp = sends.filter((s) => s.url === serverUrl && s.ts >= click - 1000 && s.ts <= painted);
    const sent = mcp[0];
    const lasts = mcp.map((s) => lastData.get(s.id)).filter((t) => t !== undefined && t <= dom);
    const last = lasts.length ? Math.max(...lasts) : undefined;
    console.log(`  ${which}: click -> fetch ${sent ? ms(sent.ts - click) : '?'} ms; -> last list byte ${last ? ms(last - click) : '?'} ms; last byte -> DOM ${last ? ms(dom - last) : '?'} ms, -> frame ${last ? ms(frame - last) : '?'}, -> painted ${last ? ms(painted - last) : '?'} ms (rendering ${ms(painted - frame)}); ${mcp.length} requests`);
    if (n === 0 && chunk) console.log(`    session chunk requested at ${ms(chunk.ts - click)} ms from the click, finished at ${ms((lastData.get(chunk.id) ?? NaN) - click)} ms`);
    if (!sent || !last) return;
    const cpu = {
      send: cpuAt(onMain, sent.ts) - cpuAt(onMain, click),
      script: cpuAt(onMain, dom) - cpuAt(onMain, last),
      render: cpuAt(onMain, painted) - cpuAt(onMain, frame),
    };
    call.cpu = cpu;
    console.log(`    main thread's CPU time: click -> fetch ${ms(cpu.send)} ms; last byte -> DOM ${ms(cpu.script)} ms + rendering ${ms(cpu.render)} ms = ${ms(cpu.script + cpu.render)} ms`);
    if (!quiet) {
      console.log('    click -> fetch:');
      for (const line of taskLines(onMain, click - 2000, sent.ts + 500, click, { parts: 14, suffix: (inside) => (compile ? ` (${inside.filter((e) => /wasm/i.test(e.name) && /compil/i.test(e.name)).length} compile events)` : '') })) console.log(`      ${line}`);
      console.log('    last byte -> painted:');
      for (const line of taskLines(onMain, last - 500, painted, last, { parts: 14, suffix: (inside) => (compile ? ` (${inside.filter((e) => /wasm/i.test(e.name) && /compil/i.test(e.name)).length} compile events)` : '') })) console.log(`      ${line}`);
    }
    if (profile) {
      for (const [label, from, to] of [['click -> fetch', click, sent.ts], ['last byte -> painted', last, painted]]) {
        const { top, inclusive, total } = selfTimes(events, main, from, to);
        console.log(`    ${label}, sampled ${ms(total)} ms busy; self: ${top.slice(0, 8).map(([name, us]) => `${short(name)} ${ms(us)}`).join('; ')}`);
        const ours = inclusive.filter(([name]) => /mcp_lens|leptos|tachys|reactive_graph|wasm_split|session|wasm-function/.test(name)).slice(0, 30);
        console.log(`      inclusive:\n${ours.map(([name, us]) => `        ${ms(us).padStart(6)}  ${short(name)}`).join('\n')}`);
      }
    }
  });
}



/** Per connect over the runs: the own times as the benchmark counts them (page clock). */
function summary(seen) {
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const fmt = (values) => `${median(values).toFixed(1)} (${Math.min(...values).toFixed(1)}-${Math.max(...values).toFixed(1)})`;
  console.log(`== own time over ${runs} run(s), median (min-max), ms (page clock; resource timing's last byte):`);
  for (const which of CONNECTS) {
    const calls = seen[which].filter((c) => c.fetch !== null && c.lastByte !== null);
    if (!calls.length) continue;
    const sent = calls.map((c) => c.fetch - c.click);
    const own = calls.map((c) => c.dom - c.lastByte + (c.painted - c.frame));
    const script = calls.map((c) => c.dom - c.lastByte);
    const render = calls.map((c) => c.painted - c.frame);
    console.log(`   ${which}: click -> fetch ${fmt(sent)}; last byte -> painted (own) ${fmt(own)} = script ${fmt(script)} + rendering ${fmt(render)}`);
    const traced = calls.filter((c) => c.cpu);
    if (traced.length) {
      const cpu = (key) => fmt(traced.map((c) => c.cpu[key] / 1000));
      console.log(`     main thread's CPU time (${traced.length} traced): click -> fetch ${cpu('send')}; last byte -> DOM ${cpu('script')}; rendering ${cpu('render')}`);
    }
  }
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(cleanup);
