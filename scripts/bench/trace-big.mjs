#!/usr/bin/env node
// A performance trace of one big result in mcp-lens, from the answer's last byte to its first
// paint: where the time goes. Not part of the benchmark (bench.mjs measures; this explains).
//
//   node scripts/bench/trace-big.mjs [tool] [--runs N] [--out trace.json] [--network]
//
// tool: big_json (default), big_text, many_blocks; with the suffix _sse (big_json_sse) the page
// pins protocol version 2025-06-18 (?version=), to which the scale server answers tools/call with
// an event stream (it answers the stateless era's requests with JSON). The page is
// driven over a bare CDP connection (no Playwright, and no DevTools Network domain unless
// --network, which enables it as Playwright and the benchmark do: with it, Chromium spends tens
// of milliseconds of the main thread when a 10 MB response completes, which a person's page
// without DevTools does not). MCP_LENS_DIST=<dir> traces another build; build it with
// MCP_LENS_KEEP_NAMES=1 for Rust function names. Prints per run: the answer's last byte as the
// page's Resource Timing says (responseEnd), every main-thread task over 2 ms from 60 ms before
// it to the paint of the result with its CPU time (the thread clock: on a busy machine the wall
// time is up to twice that) and, for one over 15 ms, the functions that ran in it, and the self
// time of the hottest functions after it (V8's sampling profiler). Traces go to --out (open them in DevTools' Performance panel).

import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { TRACE_CATEGORIES, commandLine, launch, mainThread, openTab, selfTimes, shortName } from './cdp.mjs';
import { HOST, ROOT, cleanup, freePort, sleep, snapshotDir, startProcess, startStaticServer } from './lib.mjs';

const { args, option, flag } = commandLine(process.argv.slice(2));
const out = option('--out', null);
const runs = Number(option('--runs', '1'));
const network = flag('--network');
const asked = args[0] ?? 'big_json';
const sse = asked.endsWith('_sse');
const tool = asked.replace(/_sse$/, '');
const DIST = path.resolve(ROOT, process.env.MCP_LENS_DIST || 'dist');

async function main() {
  const appUrl = await startStaticServer(await snapshotDir(DIST));
  const port = await freePort();
  const scaleUrl = `http://${HOST}:${port}/mcp`;
  await startProcess('scale_server.py', path.join(ROOT, '.venv/bin/python'), ['tests/servers/scale_server.py', '--port', String(port), '--tools', '50'], { url: scaleUrl });
  const cdp = await launch('trace-big-');
  const { page, evaluate, until } = await openTab(cdp);
  if (network) await page('Network.enable');
  await page('Page.navigate', { url: `${appUrl}?url=${encodeURIComponent(scaleUrl)}${sse ? '&version=2025-06-18' : ''}` });
  await until(`!!document.querySelector('#connect') && !document.querySelector('#connect').disabled`, 'Connect usable');
  await evaluate(`document.querySelector('#connect').click()`);
  const row = `li.tool-item[data-tool="${tool}"]`;
  await until(`!!document.querySelector('${row}')`, `${tool} listed`);
  await evaluate(`document.querySelector('${row}').click()`);
  await until(`document.querySelector('#tool-panel h2')?.textContent.startsWith('${tool}')`, `${tool} panel`);
  // Long tasks, and the paint after the result (the probe's way: the frame after the DOM shows it).
  await evaluate(`(() => {
    window.__long = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__long.push([e.startTime, e.duration]); }).observe({ type: 'longtask' });
  })()`);
  for (let run = 0; run < runs; run++) {
    const events = [];
    cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
    await cdp.send('Tracing.start', {
      traceConfig: { includedCategories: TRACE_CATEGORIES },
      transferMode: 'ReportEvents',
    });
    await sleep(300);
    await evaluate(`(() => {
      const runs = document.querySelector('#tool-panel').dataset.runs;
      window.__shown = new Promise((resolve) => {
        const check = () => {
          const text = document.querySelector('#tool-panel').dataset.runs !== runs && document.querySelector('#tool-result .content-text')?.textContent;
          if (text) requestAnimationFrame(() => resolve(performance.now()));
          else requestAnimationFrame(check);
        };
        new MutationObserver((_, observer) => {
          const text = document.querySelector('#tool-panel').dataset.runs !== runs && document.querySelector('#tool-result .content-text')?.textContent;
          if (text) { observer.disconnect(); requestAnimationFrame(() => resolve(performance.now())); }
        }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
      });
      window.__clicked = performance.now();
      window.__long = [];
      performance.clearResourceTimings();
      document.querySelector('#run-tool').click();
    })()`);
    const shown = await evaluate(`window.__shown`);
    await sleep(300);
    const page = await evaluate(`(() => {
      const calls = performance.getEntriesByType('resource').filter((e) => e.name.includes('/mcp'));
      const big = calls.sort((a, b) => b.decodedBodySize - a.decodedBodySize)[0] ?? calls[0];
      return { clicked: window.__clicked, responseEnd: big?.responseEnd, size: big?.decodedBodySize, long: window.__long };
    })()`);
    const done = new Promise((resolve) => cdp.on('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.end');
    await done;
    cdp.off('Tracing.dataCollected');
    cdp.off('Tracing.tracingComplete');
    if (out) fs.writeFileSync(runs > 1 ? out.replace(/\.json$/, `-${run}.json`) : out, JSON.stringify({ traceEvents: events }));
    const afterEnd = page.long.filter(([start, dur]) => start + dur > page.responseEnd);
    console.log(`run ${run + 1}: click -> last byte ${(page.responseEnd - page.clicked).toFixed(1)} ms, last byte -> painted ${(shown - page.responseEnd).toFixed(1)} ms, ${((page.size ?? 0) / 1e6).toFixed(1)} MB; long tasks after the last byte: ${afterEnd.map(([s, d]) => `+${(s - page.responseEnd).toFixed(0)}:${d.toFixed(0)}`).join(' ') || 'none'}`);
    report(events, shown - page.responseEnd);
  }
  cdp.close();
}

function report(events, toPaint) {
  const sizes = new Map();
  for (const e of events) {
    if (e.name === 'ResourceFinish') sizes.set(e.args.data.requestId, e);
  }
  const finish = [...sizes.values()].sort((a, b) => (b.args.data.decodedBodyLength ?? 0) - (a.args.data.decodedBodyLength ?? 0))[0];
  if (!finish) return console.log('  no answer found in the trace');
  // The page's own renderer (the one that received the answer), not another tab's such as
  // the new-tab page, which may run more tasks in the first run.
  const main = events.find((e) => e.name === 'thread_name' && e.args.name === 'CrRendererMain' && e.pid === finish.pid) ?? mainThread(events);
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid);
  const t0 = finish.ts;
  const tasks = onMain.filter((e) => e.name === 'RunTask' && e.ph === 'X' && e.ts + e.dur > t0 - 60_000 && e.ts < t0 + (toPaint + 30) * 1000).sort((a, b) => a.ts - b.ts);
  console.log('  main-thread tasks over 2 ms (times from ResourceFinish):');
  for (const task of tasks) {
    if (task.dur < 2000) continue;
    const inner = onMain
      .filter((e) => e.ph === 'X' && e !== task && e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur && e.dur > 1000 && !/RunTask|OnHandleReady|RunMicrotasks|MicrotaskCheckpoint|Receive mojo/.test(e.name))
      .map((e) => `${e.name} ${(e.dur / 1000).toFixed(1)}`)
      .slice(0, 5);
    const cpu = task.tdur !== undefined ? ` (CPU ${(task.tdur / 1000).toFixed(1)})` : '';
    console.log(`    +${((task.ts - t0) / 1000).toFixed(1).padStart(6)}  ${(task.dur / 1000).toFixed(1).padStart(5)} ms${cpu}  ${inner.join(', ')}`);
    // A task over 15 ms: what ran in it (self time, sampled).
    if (task.dur >= 15_000) {
      const { top } = selfTimes(events, main, task.ts, task.ts + task.dur);
      console.log(`        ${top.slice(0, 8).map(([name, us]) => `${shortName(name, 60)} ${(us / 1000).toFixed(1)}`).join(' | ')}`);
    }
  }
  profile(events, main, t0 - 60_000);
}

/** Self time by function from the V8 sampling profile, from `from` on. */
function profile(events, main, from) {
  const { top, total } = selfTimes(events, main, from);
  console.log(`  self time from 60 ms before the last byte (sampled, ${(total / 1000).toFixed(1)} ms busy):`);
  for (const [name, us] of top.slice(0, 25)) console.log(`    ${(us / 1000).toFixed(1).padStart(6)} ms  ${name.slice(0, 150)}`);
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(cleanup);
