// Scale cases against tests/servers/scale_server.py (5,000 tools in pages of 500; big_text and
// big_json answer 10 MB, many_blocks 5,000 text blocks): each app in one page, the cases one
// after the other, each with a generous timeout. A case that takes longer is reported as
// "timeout" and the next one still runs; if the page no longer answers at all, the rest of that
// app's cases are "skipped". A case an app cannot do is "n/a", with the reason.
//   connect      Connect click -> the first page of 500 tools listed (mcp-lens lists it at
//                connect; the inspector after its Tools tab and "List Tools", as in the comparison)
//   connectAll   mcp-lens: Connect click -> all 5,000 listed, its "Load all" clicked by the page
//                probe the moment it shows (no think time). Long lists are windowed (only the
//                rows in view are in the DOM, spacers stand for the rest; src/ui/browse/window.rs),
//                so "all listed" is the list's scroll height reaching 5,000 rows of 48 px. The
//                inspector cannot: "List More Tools" replaces the list with the next page (it
//                shows one page at a time), so its row is n/a and says how long that took
//   filter       per keystroke in the tools filter (type "scale_4999", then delete it: 20 keys):
//                the input event -> the first DOM change in the list -> the next frame; a key
//                that lets the same rows through changes nothing and ends at its first frame.
//                With all 5,000 listed (mcp-lens), and (filter500, both apps, at the end after a
//                reconnect for mcp-lens) with the first page listed
//   select       a click on the big_text row (after the filter case) -> its panel's title shown
//   big_text, many_blocks, big_json
//                Run click -> the first non-empty result text in the DOM -> the next frame (a
//                10 MB text shows its first 16 KB, more on request); split at the moment the
//                answer's last byte arrived (CDP) into the server's and network's share and the
//                app's share
//   big_json_sse mcp-lens only, in a page of its own that asks for protocol version 2025-06-18
//                (`?version=`): the scale server answers that era's tools/call as an event stream
//                (text/event-stream, one 10 MB data line) where it answers the stateless era
//                plain JSON, so this is big_json through the SSE parser. Connect, select, Run as
//                big_json; the inspector's row is n/a (its own era choice decides the framing)
//   wire log     mcp-lens only (the inspector has no wire log): open it; click big_text's answer
//                row -> #wire-detail's body (its beginning) shown
// each with the longest main-thread task in its window. The heap (JS heap used after a forced
// garbage collection, CDP HeapProfiler.collectGarbage + Runtime.getHeapUsage; for mcp-lens also
// the wasm linear memory, which never shrinks: it shows the high-water mark) is read at each
// stage, including after the results are let go: another tool selected (the result's DOM goes;
// mcp-lens lets a big last result go when its panel closes and keeps small ones), Disconnect,
// and (mcp-lens) the wire log cleared (it keeps every message, 10 MB bodies included, up to its
// cap of entries); the report compares the last of these with the heap before the results.

import process from 'node:process';
import { sumFetched } from './bytes.mjs';
import { TOOLS_PANEL, connectChain, openInspector } from './inspector.mjs';
import { openLens } from './lens.mjs';
import { brief, childrenRss, closeSoon, sleep, withDeadline } from './lib.mjs';
import { readProbe, step, waitWatch, watch, watchAll } from './probe.mjs';

const CASE_TIMEOUT_MS = 60_000;
// A case stops when everything the benchmark started (browser, servers) uses more than this: a
// page that swallows memory must not take the machine (and whatever else runs on it) down.
const MEMORY_GUARD_BYTES = 4 * 1024 ** 3;
const TOOLS = 5000;
// mcp-lens's list rows are 48 px high (ROW_HEIGHT in src/ui/browse/window.rs): a windowed list
// of all tools scrolls this far.
const ALL_ROWS_PX = TOOLS * 48;
const FILTER_TEXT = 'scale_4999';
// Frames a keystroke may take to change the list before it counts as changing nothing.
const SETTLE_FRAMES = 3;
// big_json last: the one most likely to stall a page for longer than a case may take.
const BIG_TOOLS = ['big_text', 'many_blocks', 'big_json'];
export const CASES = {
  connect: 'connect -> first page (500 tools) listed',
  connectAll: `connect -> all ${TOOLS} tools listed (Load all at once)`,
  filter: `filter keystroke, ${TOOLS} tools listed (type "${FILTER_TEXT}", delete it)`,
  select: 'select a tool (after the filter case)',
  ...Object.fromEntries(BIG_TOOLS.map((t) => [t, `${t}: Run -> first part painted`])),
  big_json_sse: 'big_json as an event stream: Run -> first part painted',
  wireOpen: 'wire log: open',
  wireExpand: 'wire log: open the 10 MB answer',
  filter500: 'filter keystroke, 500 tools listed',
};

// The cases where both apps do the same work (the same number of tools listed), so a ratio means
// something: the inspector lists 500 tools where mcp-lens lists 5,000 for the others.
export const COMPARABLE = new Set(['connect', 'filter500', ...BIG_TOOLS]);

/** A case that could not finish: `status` says why ("timeout", "stopped (memory)"). */
class CaseStop extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** Whether the page still runs script (a page stuck in one long task does not). */
async function answers(page) {
  return withDeadline(page.evaluate(() => true), 10_000, 'a ping of the page').catch(() => false);
}

/**
 * Runs the cases in order: `cases` is a list of [key, fn]. Each gives a row, or a row that says
 * "timeout" or "error" (with why) instead of throwing, so one case cannot stop the others; once
 * the page stops answering (`stuckBefore`, or after a timeout), the rest are "skipped".
 */
async function runCases(page, cases, stuckBefore = false) {
  const rows = [];
  let stuck = stuckBefore;
  for (const [key, fn] of cases) {
    if (stuck) {
      rows.push({ key, status: 'skipped', note: 'the page stopped answering in an earlier case' });
      continue;
    }
    try {
      rows.push({ key, status: 'ok', ...(await fn()) });
    } catch (error) {
      const timedOut = error instanceof CaseStop || /Timeout \d+ms exceeded|did not happen within/.test(error.message);
      rows.push({ key, status: error.status ?? (timedOut ? 'timeout' : 'error'), note: brief(error).slice(0, 300) });
      if (process.env.BENCH_DEBUG) console.error(`scale case ${key}:`, error);
      stuck = timedOut && !(await answers(page));
    }
  }
  return { rows, stuck };
}

let serial = 0;

/** Waits for watch `name` up to the case's timeout, checking the memory guard every second. */
async function waitGuarded(page, name) {
  const deadline = Date.now() + CASE_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (await waitWatch(page, name, { timeout: 1000, soft: true })) return;
    const rss = childrenRss();
    if (rss > MEMORY_GUARD_BYTES) {
      const after = ((Date.now() - deadline + CASE_TIMEOUT_MS) / 1000).toFixed(0);
      throw new CaseStop('stopped (memory)', `stopped after ${after} s: the browser and servers used ${(rss / 1024 ** 3).toFixed(1)} GB (guard ${MEMORY_GUARD_BYTES / 1024 ** 3} GB), still no outcome`);
    }
  }
  throw new CaseStop('timeout', `no outcome within ${CASE_TIMEOUT_MS} ms`);
}

/** Arms a watch (named `base` and a serial number), does `act()`, waits for it, returns its step. */
async function timed(page, base, spec, act) {
  const name = `${base}${serial++}`;
  await watch(page, name, spec);
  await withDeadline(act(), CASE_TIMEOUT_MS, `${base}: the action`);
  await waitGuarded(page, name);
  return step(await readProbe(page), name);
}

/** Types FILTER_TEXT into `input` and deletes it, one timed keystroke at a time. */
async function filterKeystrokes(page, input, within) {
  await page.locator(input).click();
  const keys = [...FILTER_TEXT, ...Array(FILTER_TEXT.length).fill('Backspace')];
  const steps = [];
  for (const key of keys) {
    const s = await timed(page, 'key', { inputOn: { selector: input }, mutation: true, within, settleFrames: SETTLE_FRAMES }, () => page.keyboard.press(key));
    steps.push({ key, ms: s.ms, toDom: s.changed ? s.dom - s.start : null, longest: s.longest });
  }
  return { keys: steps };
}

/**
 * Runs a big tool: `select()` shows its form, then a click on `run` is timed until the first
 * non-empty `result` element. The wire's tools/call request tells when its answer had arrived.
 */
async function bigResult(page, wire, { select, run, result }) {
  await select();
  const before = wire.list.length;
  const s = await timed(page, 'run', { clickOn: run, selector: result, nonEmpty: true, fresh: true }, () =>
    page.locator(run.selector, run.text ? { hasText: run.text } : {}).first().click(),
  );
  await wire.resolvePostData();
  const call = wire.list.slice(before).find((r) => r.rpc === 'tools/call');
  const probe = await readProbe(page);
  const split = {};
  if (call?.lastDataAt) {
    const arrived = call.wallStart + (call.lastDataAt - call.start) * 1000 - probe.timeOrigin;
    Object.assign(split, { toAnswer: arrived - s.start, answerToFrame: s.frame - arrived });
  }
  const shown = await page.evaluate((selector) => {
    const texts = [...document.querySelectorAll(selector)];
    return { blocks: texts.length, chars: texts.reduce((n, el) => n + el.textContent.length, 0) };
  }, result);
  return { ms: s.ms, longest: s.longest, ...split, ...shown };
}

const exactly = (text) => new RegExp(`^${text}$`);

/** Clicks `row` unless `title` shows the tool already, then waits for `title`. */
async function selectTool(title, row) {
  if (await title.count()) return;
  await row.click({ timeout: CASE_TIMEOUT_MS });
  await title.waitFor({ timeout: CASE_TIMEOUT_MS });
}

/**
 * A function that reads the heap into `heap` under a label; `baseline` marks the reading that the
 * heap after the results are let go is compared with. `stuck()` says the page no longer answers.
 */
function heapReader(cdp, page, heap, stuck) {
  return async (state, { baseline = false } = {}) => {
    if (stuck()) {
      heap.push({ state, baseline, error: 'page not answering' });
      return;
    }
    try {
      const read = async () => {
        await cdp.send('HeapProfiler.collectGarbage');
        const usage = await cdp.send('Runtime.getHeapUsage');
        return { jsUsed: usage.usedSize, wasm: await page.evaluate(() => window.__probeWasmBytes()) };
      };
      heap.push({ state, baseline, ...(await withDeadline(read(), 15_000, 'heap')) });
    } catch (error) {
      heap.push({ state, baseline, error: brief(error) });
    }
  };
}

// ---------------------------------------------------------------- mcp-lens

/** The id of the first tools/call the app sent, as its wire log shows it. */
async function firstCallId(page) {
  return page.evaluate(() => {
    const sent = [...document.querySelectorAll('#wire-log tr.wire-entry[data-direction="sent"]')];
    const call = sent.find((row) => row.querySelector('.wire-method')?.textContent === 'tools/call');
    return call?.querySelector('.wire-id')?.textContent ?? null;
  });
}

async function expandBigAnswer(page) {
  const id = await firstCallId(page);
  if (id === null) throw new Error('no tools/call row in the wire log');
  const row = page
    .locator('#wire-log tr.wire-entry[data-direction="received"]')
    .filter({ has: page.locator('.wire-id', { hasText: exactly(id) }) });
  const s = await timed(page, 'wireExpand', { clickOn: { selector: '#wire-log tr.wire-entry' }, selector: '#wire-detail pre.wire-body', nonEmpty: true }, () =>
    row.first().click(),
  );
  await page.locator('#wire-log > summary').click();
  return s;
}

const lensBig = (page, wire, tool) =>
  bigResult(page, wire, {
    select: () => selectTool(page.locator('#tool-panel h2', { hasText: exactly(tool) }), page.locator(`li.tool-item[data-tool="${tool}"]`)),
    run: { selector: '#run-tool' },
    result: '#tool-result .content-text',
  });

const LENS_ECHO = 'li.tool-item[data-tool="echo"]';

/**
 * The first connect as one chain: Connect click -> the first page listed -> "Load all" clicked by
 * the probe at once -> the list as high as all tools (`all`).
 */
const LENS_CONNECT_CHAIN = {
  connect: { clickOn: { selector: '#connect' }, selector: LENS_ECHO },
  loadAll: { after: 'connect', selector: '#load-all', enabled: true, act: 'click' },
  all: { after: 'loadAll', selector: 'ul.items', minScrollHeight: ALL_ROWS_PX },
};

/** Connect -> all tools listed: the whole chain, with "Load all" -> listed in the note. */
async function lensConnectAll(page) {
  await waitGuarded(page, 'all');
  const probe = await readProbe(page);
  const whole = step(probe, 'connect', 'all');
  const loadAll = step(probe, 'all');
  return { ...whole, note: `of which "Load all" click -> all listed ${loadAll.ms.toFixed(1)} ms (9 more pages), longest task ${loadAll.longest ? loadAll.longest.toFixed(1) : '<50'} ms` };
}

/** Connects again after the results were let go (not timed): connect lists the first page. */
async function lensReconnect(page) {
  await page.locator('#connect').click({ timeout: CASE_TIMEOUT_MS });
  await page.locator(LENS_ECHO).waitFor({ timeout: CASE_TIMEOUT_MS });
}

/** `filterOnly` (bench.mjs --filter-only): connect, all listed, the filter case, nothing else. */
export async function lensScale(browser, { appUrl, scaleUrl, gzip, filterOnly = false }) {
  const { context, page, cdp, problems, wire, pageBytes } = await openLens(browser, appUrl, scaleUrl);
  const heap = [];
  let stuck = false;
  const heapAt = heapReader(cdp, page, heap, () => stuck);
  try {
    const loaded = await readProbe(page);
    const beforeReady = sumFetched(pageBytes, gzip, loaded.timeOrigin + loaded.watches.load.dom);
    await heapAt('page loaded');
    await watchAll(page, LENS_CONNECT_CHAIN);
    const first = await runCases(page, [
      [
        'connect',
        async () => {
          await page.locator('#connect').click();
          await waitGuarded(page, 'connect');
          return step(await readProbe(page), 'connect');
        },
      ],
      ['connectAll', () => lensConnectAll(page)],
    ]);
    stuck = first.stuck;
    const filterCase = ['filter', () => filterKeystrokes(page, '#tool-filter', '.list-pane')];
    if (filterOnly) {
      const only = await runCases(page, [filterCase], stuck);
      stuck = only.stuck;
      return { cases: [...first.rows, ...only.rows], heap, problems: [...problems], beforeReady };
    }
    await heapAt(`${TOOLS} tools listed (before the results)`, { baseline: true });
    const second = await runCases(page, [
      filterCase,
      [
        'select',
        () =>
          timed(page, 'select', { clickOn: { selector: 'li.tool-item' }, selector: '#tool-panel h2', text: 'big_text', exact: true }, () =>
            page.locator('li.tool-item[data-tool="big_text"]').click({ timeout: CASE_TIMEOUT_MS }),
          ),
      ],
      ...BIG_TOOLS.map((tool) => [tool, () => lensBig(page, wire, tool)]),
    ], stuck);
    stuck = second.stuck;
    await heapAt('after the 3 results');
    const third = await runCases(page, [
      ['wireOpen', () => timed(page, 'wireOpen', { clickOn: { selector: '#wire-log > summary' }, selector: '#wire-log tr.wire-entry' }, () => page.locator('#wire-log > summary').click())],
      ['wireExpand', () => expandBigAnswer(page)],
    ], stuck);
    stuck = third.stuck;
    await heapAt('wire log opened, 10 MB answer expanded, log closed');
    if (!stuck) await letGo(page, heapAt, { other: LENS_ECHO, disconnect: '#disconnect', clearLog: '#wire-clear' });
    const fourth = await runCases(page, [
      [
        'filter500',
        async () => {
          await lensReconnect(page);
          return filterKeystrokes(page, '#tool-filter', '.list-pane');
        },
      ],
    ], stuck);
    stuck = fourth.stuck;
    const sse = await lensEventStream(browser, { appUrl, scaleUrl });
    return { cases: [...first.rows, ...second.rows, ...third.rows, ...fourth.rows, ...sse.rows], heap, problems: [...problems, ...sse.problems], beforeReady };
  } finally {
    if (!stuck) await closeSoon(context);
  }
}

// The era whose tools/call the scale server answers as an event stream.
const SSE_ERA = '2025-06-18';

/** big_json answered as an event stream, in a page of its own (see `big_json_sse` above). */
async function lensEventStream(browser, { appUrl, scaleUrl }) {
  const { context, page, problems, wire } = await openLens(browser, appUrl, scaleUrl, `&version=${SSE_ERA}`);
  let stuck = false;
  try {
    const { rows, stuck: stopped } = await runCases(page, [
      [
        'big_json_sse',
        async () => {
          await page.locator('#connect').click();
          await page.locator(LENS_ECHO).waitFor({ timeout: CASE_TIMEOUT_MS });
          const before = wire.list.length;
          const row = await lensBig(page, wire, 'big_json');
          const call = wire.list.slice(before).find((r) => r.rpc === 'tools/call');
          const type = call?.mimeType ?? null;
          if (type && !type.includes('text/event-stream')) throw new Error(`the answer came as ${type}, not as an event stream`);
          return { ...row, note: `protocol ${SSE_ERA}, answered as ${type ?? 'an unknown type'}` };
        },
      ],
    ]);
    stuck = stopped;
    return { rows, problems: [...problems] };
  } finally {
    if (!stuck) await closeSoon(context);
  }
}

/** Lets the results go step by step, reading the heap after each: another tool, Disconnect, the log. */
async function letGo(page, heapAt, { other, disconnect, clearLog }) {
  await page.locator(other).first().click({ timeout: CASE_TIMEOUT_MS }).catch(() => {});
  await sleep(200);
  await heapAt('another tool selected (echo)');
  await page.locator(disconnect).first().click({ timeout: CASE_TIMEOUT_MS }).catch(() => {});
  await sleep(500);
  await heapAt('after Disconnect');
  if (!clearLog) return;
  await page.evaluate((selector) => document.querySelector(selector)?.click(), clearLog).catch(() => {});
  await sleep(200);
  await heapAt('after the wire log is cleared');
}

// ---------------------------------------------------------------- the inspector

const inspectorRow = (page, tool) => page.locator(`${TOOLS_PANEL} span.truncate`, { hasText: exactly(tool) });

/**
 * The inspector shows one page at a time ("List More Tools" replaces the list with the next
 * page): times one such click until the next page's first row, then goes back to page 1 (Clear,
 * List Tools; not timed).
 */
async function inspectorNextPage(page) {
  const s = await timed(page, 'nextPage', { clickOn: { selector: 'button', text: 'List More Tools', exact: true }, selector: `${TOOLS_PANEL} span.truncate`, text: 'scale_0500', exact: true }, () =>
    page.getByRole('button', { name: 'List More Tools', exact: true }).click(),
  );
  const listed = await page.locator(`${TOOLS_PANEL} span.truncate`).count();
  await page.getByRole('button', { name: 'Clear', exact: true }).first().click();
  await page.getByRole('button', { name: 'List Tools', exact: true }).click();
  await inspectorRow(page, 'big_text').waitFor({ timeout: CASE_TIMEOUT_MS });
  return {
    status: 'n/a',
    note: `it shows one page at a time: "List More Tools" replaced the list with the next page (${listed} rows) in ${s.ms.toFixed(1)} ms, longest task ${s.longest ? s.longest.toFixed(1) : '<50'} ms`,
  };
}

const inspectorBig = (page, wire, tool) =>
  bigResult(page, wire, {
    select: () => selectTool(page.locator(`${TOOLS_PANEL} h3`, { hasText: exactly(tool) }), inspectorRow(page, tool)),
    run: { selector: 'button', text: 'Run Tool', exact: true },
    result: `${TOOLS_PANEL} pre`,
  });

export async function inspectorScale(browser, { appUrl, scaleUrl }) {
  const { context, page, cdp, problems, wire } = await openInspector(browser, appUrl, scaleUrl);
  const heap = [];
  let stuck = false;
  const heapAt = heapReader(cdp, page, heap, () => stuck);
  try {
    await heapAt('page loaded');
    const first = await runCases(page, [
      [
        'connect',
        async () => {
          await watchAll(page, connectChain('', 'big_text'));
          await page.getByRole('button', { name: 'Connect', exact: true }).click();
          await waitGuarded(page, 'tools');
          return step(await readProbe(page), 'connected', 'tools');
        },
      ],
      [
        'filter500',
        async () => {
          await page.locator(`${TOOLS_PANEL} button[name="search"]`).first().click();
          return filterKeystrokes(page, `${TOOLS_PANEL} input[name="search"]`, TOOLS_PANEL);
        },
      ],
      ['connectAll', () => inspectorNextPage(page)],
      ['filter', async () => ({ status: 'n/a', note: `it lists one page of 500 at a time, never all ${TOOLS}` })],
    ]);
    stuck = first.stuck;
    await heapAt('first page listed (before the results)', { baseline: true });
    const second = await runCases(
      page,
      [
        [
          'select',
          () =>
            timed(page, 'select', { clickOn: { selector: `${TOOLS_PANEL} span.truncate` }, selector: `${TOOLS_PANEL} h3`, text: 'big_text', exact: true }, () =>
              inspectorRow(page, 'big_text').click({ timeout: CASE_TIMEOUT_MS }),
            ),
        ],
        ...BIG_TOOLS.map((tool) => [tool, () => inspectorBig(page, wire, tool)]),
      ],
      stuck,
    );
    stuck = second.stuck;
    await heapAt('after the 3 results');
    if (!stuck) await letGo(page, heapAt, { other: `${TOOLS_PANEL} span.truncate >> text=/^echo$/`, disconnect: 'button:has-text("Disconnect")' });
    const noWireLog = { status: 'n/a', note: 'it has no wire log (its History pane lists requests and answers, not the HTTP messages)' };
    const third = ['wireOpen', 'wireExpand'].map((key) => ({ key, ...noWireLog }));
    return { cases: [...first.rows, ...second.rows, ...third], heap, problems: [...problems] };
  } finally {
    if (!stuck) await closeSoon(context);
  }
}
