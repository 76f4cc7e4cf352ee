// Timing inside the page, the same way for both apps.
//
// pageProbe() runs in the page before its scripts (page.addInitScript). It records the long
// tasks (PerformanceObserver 'longtask', >= 50 ms) and keeps "watches": a watch waits for the
// DOM to show something and stamps, on the page clock (performance.now(), ms since navigation
// start):
//   start  the click (or input event) that began the step: the event's timeStamp, i.e. when the
//          input arrived, before the task that handles it; or the moment its predecessor matched
//          (`after`); or navigation start (`fromNavigation`);
//   dom    when the DOM first matched (seen by a MutationObserver, in the microtask right after the
//          change; a frame loop catches changes that are not mutations, such as `disabled`);
//   frame  the next animation frame after that, i.e. when the change is about to be painted;
//   painted  when that frame's rendering work (style, layout, paint) was done on the main thread:
//          a message posted from the frame's callback, which runs after the rendering task.
// A watch is data, not code (the pages' Content-Security-Policy forbids eval):
//   { selector, text?, exact?, enabled?, nonEmpty?, count?, fresh?, minScrollHeight? }  what
//       must be in the DOM (`count` elements at least; `fresh`: not one of those present when the
//       watch was armed; `minScrollHeight`: an element at least this many pixels high to scroll,
//       how a windowed list shows that all its rows are listed while only a few are drawn);
//   { mutation: true, within?, settleFrames? }  instead: any DOM change (inside `within`) after
//       the start. With `settleFrames`, a step that changes nothing (a filter keystroke that lets
//       the same rows through) ends too: after that many frames without a change, it counts as
//       done at the first frame after its start, with `changed: false`;
//   { clickOn: {selector, text?, exact?} | inputOn: {selector} | after: name | fromNavigation }
//       what starts it;
//   { act: 'click' | 'mousedown' }  what the page does to the matched element at once, with no
//       think time (a Radix tab switches on mousedown, a button on click).
// Node reads everything back with readProbe(): the times, the long tasks, and traces (the
// distinct texts an element showed while a watch was active).

import { attachPageBytes } from './bytes.mjs';
import { longestTask, withDeadline } from './lib.mjs';
import { attachWire } from './wire.mjs';

export function pageProbe(initialWatches) {
  const probe = {
    longtaskSupported:
      typeof PerformanceObserver !== 'undefined' && PerformanceObserver.supportedEntryTypes.includes('longtask'),
    longtasks: [],
    watches: {},
    traces: {},
  };
  window.__probe = probe;
  // The app's linear memory: the first memory a wasm instance exports (the main module's; the
  // split chunks import it). Seen by wrapping WebAssembly's instantiation, since the split
  // build's loader announces nothing.
  let memory = null;
  const keepMemory = (result) => {
    const exported = (result?.instance ?? result)?.exports?.memory;
    if (!memory && exported instanceof WebAssembly.Memory) memory = exported;
    return result;
  };
  for (const name of ['instantiate', 'instantiateStreaming']) {
    const original = WebAssembly[name];
    WebAssembly[name] = function (...args) {
      return original.apply(this, args).then(keepMemory);
    };
  }
  window.__probeWasmBytes = () => memory?.buffer?.byteLength ?? null;
  if (probe.longtaskSupported) {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) probe.longtasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  }

  const active = new Map(); // name -> { spec, record, stale }
  const textOk = (el, spec) =>
    spec.text === undefined || (spec.exact ? el.textContent.trim() === spec.text : el.textContent.includes(spec.text));
  const find = (spec, stale) => {
    let count = 0;
    let first = null;
    for (const el of document.querySelectorAll(spec.selector)) {
      if (stale?.has(el) || (spec.enabled && el.disabled) || (spec.nonEmpty && !el.textContent) || !textOk(el, spec)) continue;
      if (spec.minScrollHeight && el.scrollHeight < spec.minScrollHeight) continue;
      first ??= el;
      if (++count >= (spec.count ?? 1)) return first;
    }
    return null;
  };
  const inside = (records, within) =>
    records.some((r) => {
      const el = r.target instanceof Element ? r.target : r.target.parentElement;
      return !within || Boolean(el?.closest(within));
    });
  // The frame's rendering runs right after its callbacks, in the same task: a message posted
  // from a callback is handled once it is done.
  const afterPaint = (done) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => done(performance.now());
    channel.port2.postMessage(null);
  };
  const matched = (name, watch, el, now) => {
    watch.record.dom = now;
    active.delete(name);
    if (watch.spec.act === 'click') el.click();
    if (watch.spec.act === 'mousedown') el.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, cancelable: true, button: 0 }));
    requestAnimationFrame(() => {
      watch.record.frame = performance.now();
      afterPaint((t) => {
        watch.record.painted = t;
      });
    });
    for (const other of active.values()) if (other.spec.after === name) other.record.start = now;
  };
  // A settling watch whose step changed nothing: done at the first frame after its start.
  const unchanged = (name, watch) => {
    const { record } = watch;
    Object.assign(record, { dom: null, frame: record.firstFrame, painted: record.firstPainted, changed: false });
    active.delete(name);
  };
  const countFrame = (name, watch, now) => {
    const { record, spec } = watch;
    if (!spec.settleFrames || record.start === null) return;
    record.framesSince = (record.framesSince ?? 0) + 1;
    if (record.framesSince === 1) {
      record.firstFrame = now;
      afterPaint((t) => {
        record.firstPainted = t;
      });
    }
    if (record.framesSince > spec.settleFrames) unchanged(name, watch);
  };
  const trace = () => {
    for (const [selector, texts] of Object.entries(probe.traces)) {
      const text = document.querySelector(selector)?.textContent?.trim() ?? '(absent)';
      if (texts[texts.length - 1] !== text) texts.push(text);
    }
  };
  const check = (records) => {
    if (!active.size) return;
    trace();
    const now = performance.now();
    for (const [name, watch] of [...active]) {
      if (watch.record.start === null) continue; // waits for its click, input or predecessor
      if (watch.spec.mutation) {
        if (records.length && inside(records, watch.spec.within)) matched(name, watch, null, now);
        continue;
      }
      const el = find(watch.spec, watch.stale);
      if (el) matched(name, watch, el, now);
    }
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
  let looping = false;
  const frame = () => {
    check([]);
    const now = performance.now();
    for (const [name, watch] of [...active]) countFrame(name, watch, now);
    looping = active.size > 0;
    if (looping) requestAnimationFrame(frame);
  };
  const startLoop = () => {
    if (looping) return;
    looping = true;
    requestAnimationFrame(frame);
  };
  const startOn = (key) => (event) => {
    const target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    for (const watch of active.values()) {
      const on = watch.spec[key];
      if (!on || watch.record.start !== null) continue;
      const el = target.closest(on.selector);
      if (el && textOk(el, on)) watch.record.start = Math.min(event.timeStamp, performance.now());
    }
  };
  document.addEventListener('click', startOn('clickOn'), true);
  document.addEventListener('input', startOn('inputOn'), true);

  window.__probeWatch = (name, spec) => {
    const record = { armedAt: performance.now(), start: null, dom: null, frame: null, painted: null, changed: true, staleAtArm: 0 };
    const stale = spec.fresh ? new Set(document.querySelectorAll(spec.selector)) : null;
    record.staleAtArm = stale?.size ?? 0;
    if (spec.fromNavigation) record.start = 0;
    else if (!spec.clickOn && !spec.inputOn && !spec.after) record.start = record.armedAt;
    probe.watches[name] = record;
    active.set(name, { spec, record, stale });
    startLoop();
  };
  window.__probeTrace = (selector) => {
    probe.traces[selector] = [];
    trace();
  };
  for (const [name, spec] of Object.entries(initialWatches ?? {})) window.__probeWatch(name, spec);
}

/** Arms a watch (see the header) in the page. */
export async function watch(page, name, spec) {
  await page.evaluate(([n, s]) => window.__probeWatch(n, s), [name, spec]);
}

/** Arms several watches at once (a chain: each `after` the previous). */
export async function watchAll(page, specs) {
  await page.evaluate((all) => {
    for (const [n, s] of Object.entries(all)) window.__probeWatch(n, s);
  }, specs);
}

export async function readProbe(page) {
  return withDeadline(page.evaluate(() => ({ ...window.__probe, timeOrigin: performance.timeOrigin })), 30_000, 'reading the probe');
}

/**
 * A step: the start of watch `from` -> the next frame after watch `to` matched (ms), and the
 * longest task in that window; null if either did not happen.
 */
export function step(probe, from, to = from) {
  const start = probe.watches[from]?.start ?? null;
  const end = probe.watches[to] ?? null;
  if (start === null || end?.frame == null) return null;
  const { dom, frame, painted, changed } = end;
  return { ms: frame - start, longest: longestTask(probe.longtasks, start, frame), start, dom, frame, painted, changed };
}

/**
 * Waits until the watch `name` reached its frame and that frame was rendered. On timeout throws an Error that says what the
 * page showed (`describe(page)`) and what it reported (`notes()`), unless `soft`: then returns false.
 */
export async function waitWatch(page, name, { timeout, what = name, describe = async () => '', notes = () => [], soft = false }) {
  try {
    const seen = page.waitForFunction((n) => window.__probe?.watches[n]?.painted != null, name, { timeout, polling: 25 });
    await withDeadline(seen, timeout + 1000, `waiting for ${what}`);
    return true;
  } catch (error) {
    if (soft && /Timeout|no answer within/i.test(error.message)) return false;
    const seen = await describe(page).catch(() => '(page not readable)');
    const said = notes();
    const extra = said.length ? `; page: ${said.slice(0, 5).join(' | ')}` : '';
    throw new Error(`${what} did not happen within ${timeout} ms (${error.message.split('\n')[0]})${seen ? `; ${seen}` : ''}${extra}`);
  }
}

/**
 * A fresh browser context and page with the probe installed (`initialWatches` armed at
 * navigation start), a CDP session with the Network domain on, the page's requests to the app
 * (`pageBytes`) and to the server (`wire`), and the page's complaints: `problems` (page errors,
 * and console lines matching `fatal`) fail a run, `notes` (other console errors, failed
 * requests, HTTP errors of the app) only explain a timeout. `waitStep(name, what)` waits for a
 * watch and says what the page showed (`describe(page)`) if it does not come.
 */
export async function openPage(browser, { appUrl, serverUrl, initialWatches, describe, fatal = null, initScript = null }) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems = [];
  const notes = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    if (fatal && fatal.test(message.text())) problems.push(`console: ${message.text().slice(0, 300)}`);
    else notes.push(`console error: ${message.text().slice(0, 200)}`);
  });
  page.on('requestfailed', (request) => notes.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`));
  page.on('response', (response) => {
    if (response.status() >= 400 && response.url().startsWith(appUrl)) notes.push(`HTTP ${response.status()} ${response.url()}`);
  });
  if (initScript) await page.addInitScript(initScript);
  await page.addInitScript(pageProbe, initialWatches);
  const cdp = await context.newCDPSession(page);
  // The probe reads the network's events, never a response body: with DevTools' default
  // buffers the page's renderer keeps (and decodes as text, on its main thread) a copy of every
  // response, which made a 10 MB answer a task of 70-140 ms that a page without DevTools never
  // has. Small buffers keep that work out of the measurement.
  await cdp.send('Network.enable', { maxTotalBufferSize: 1 << 20, maxResourceBufferSize: 1 << 19 });
  const allNotes = () => [...problems, ...notes];
  return {
    context,
    page,
    cdp,
    problems,
    allNotes,
    pageBytes: attachPageBytes(cdp, new URL(appUrl).origin),
    wire: attachWire(cdp, new URL(serverUrl).origin),
    waitStep: (name, what, timeout = 30_000) => waitWatch(page, name, { timeout, what, describe, notes: allNotes }),
  };
}
