// The storm case (issue 9's budget: a storm of 10,000 messages leaves no main-thread task over
// 100 ms, and at most one re-list per kind in flight), against tests/servers/hostile_server.py:
// its `storm` tool answers on an event stream that first carries `messages` messages (of 10,000:
// 7,408 notifications/tools/list_changed, 1,851 pings and 740 elicitation requests), then the
// answer "storm over". Each run in a fresh browser context:
//   Run click (messages = 10,000) -> "storm over" painted, and on until the page had no long
//   task for 1 s (what the storm left behind: the re-lists it caused, the answers to its requests);
// and over that window: the longest main-thread task and the number over 50 ms, the time until
// the last long task ended, the tools/list requests sent and the most in flight at once (CDP),
// the answers the page POSTed to the server's requests, and the server-request cards shown.
// mcp-lens, and the inspector in Direct mode: it switches to its Elicitations tab at the first
// elicitation request, so its answer is not painted until a person goes back to the Tools tab;
// its window runs from the click until its answer had arrived and the page was calm.

import { TOOLS_PANEL, openInspector } from './inspector.mjs';
import { openLens } from './lens.mjs';
import { brief, closeSoon, sleep } from './lib.mjs';
import { readProbe, step, waitWatch, watch } from './probe.mjs';

export const STORM_MESSAGES = 10_000;
const STORM_TIMEOUT_MS = 120_000;
// The storm's window ends when the page had no long task for this long (what the storm left
// behind, re-lists and answers, is counted), or after QUIET_TIMEOUT_MS at most.
const QUIET_MS = 1000;
const QUIET_TIMEOUT_MS = 60_000;
const TASK_OVER_MS = 50;

/** The most requests of `list` in flight at one moment (each from its start to its end). */
function mostInFlight(list) {
  const edges = list.flatMap((r) => [
    [r.start, 1],
    [r.endAt ?? r.lastDataAt ?? r.headersAt ?? Infinity, -1],
  ]);
  edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let most = 0;
  for (const [, delta] of edges) {
    now += delta;
    most = Math.max(most, now);
  }
  return most;
}

/** Resolves once the tools/call among `requests` (from index `from`) has its whole answer. */
async function callAnswered(wire, from, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const call = wire.list.slice(from).find((r) => r.method === 'POST' && r.postData?.includes('"tools/call"'));
    if (call?.endAt) return;
    await sleep(250);
  }
  throw new Error(`the storm's answer did not arrive within ${timeoutMs} ms`);
}

/**
 * Waits until the page had no long task for QUIET_MS (page clock), at most QUIET_TIMEOUT_MS;
 * returns the page time then.
 */
async function calm(page) {
  const deadline = Date.now() + QUIET_TIMEOUT_MS;
  for (;;) {
    const { now, lastEnd } = await page.evaluate(() => ({
      now: performance.now(),
      lastEnd: Math.max(0, ...window.__probe.longtasks.map((t) => t.start + t.duration)),
    }));
    if (now - lastEnd >= QUIET_MS || Date.now() > deadline) return now;
    await sleep(200);
  }
}

/**
 * Runs the storm in an opened page: `prepare()` shows the storm tool's form with 10,000
 * messages, `run` is the Run button ({ selector, text? }), `result` the answer's element (null:
 * the app does not show it by itself, `hidden` says why), `cards` the server-request cards.
 * The storm's window runs from the Run click until the page was calm again (no long task for
 * QUIET_MS) after the answer was painted, or had arrived.
 */
async function stormRun(opened, { prepare, run, result, hidden, cards }) {
  const { page, wire, problems } = opened;
  await prepare();
  const spec = result ? { selector: result, text: 'storm over' } : { selector: 'storm-answer-not-shown' };
  await watch(page, 'storm', { clickOn: run, ...spec });
  const before = wire.list.length;
  await page.locator(run.selector, run.text ? { hasText: run.text } : {}).first().click();
  if (result) await waitWatch(page, 'storm', { timeout: STORM_TIMEOUT_MS, what: 'the "storm over" answer' });
  else await callAnswered(wire, before, STORM_TIMEOUT_MS);
  const end = await calm(page);
  const probe = await readProbe(page);
  const start = probe.watches.storm.start;
  await wire.resolvePostData();
  const during = wire.list.slice(before).filter((r) => !r.preflightFor);
  const lists = during.filter((r) => r.rpc === 'tools/list');
  const tasks = probe.longtasks.filter((t) => t.start + t.duration >= start && t.start <= end);
  const lastTaskEnd = Math.max(start, ...tasks.map((t) => t.start + t.duration));
  return {
    ms: result ? step(probe, 'storm').ms : null,
    hidden: result ? null : hidden,
    calm: lastTaskEnd - start,
    longest: Math.max(0, ...tasks.map((t) => t.duration)),
    over50: tasks.filter((t) => t.duration > TASK_OVER_MS).length,
    lists: lists.length,
    listsInFlight: mostInFlight(lists),
    answers: during.filter((r) => r.rpc === 'response').length,
    cards: await page.locator(cards).count(),
    problems: [...problems],
  };
}

/** The storm in mcp-lens: Connect, the storm tool, 10,000 messages. */
const LENS_STORM = {
  open: openLens,
  prepare: async (page) => {
    await page.locator('#connect').click();
    await page.locator('li.tool-item[data-tool="storm"]').click({ timeout: 30_000 });
    await page.locator('#tool-panel [data-path="/messages"]').fill(String(STORM_MESSAGES));
  },
  run: { selector: '#run-tool' },
  result: '#tool-result .content-text',
  cards: '.server-request',
};

/** The storm in the inspector: Connect, Tools tab, List Tools, the storm tool, 10,000 messages. */
const INSPECTOR_STORM = {
  open: openInspector,
  prepare: async (page) => {
    await page.getByRole('button', { name: 'Connect', exact: true }).click();
    await page.locator('button[role="tab"][id$="-trigger-tools"]').click({ timeout: 30_000 });
    await page.getByRole('button', { name: 'List Tools', exact: true }).click();
    await page.locator(`${TOOLS_PANEL} span.truncate`, { hasText: /^storm$/ }).click({ timeout: 30_000 });
    await page.locator('#messages').fill(String(STORM_MESSAGES));
  },
  run: { selector: 'button', text: 'Run Tool' },
  result: null,
  hidden: 'its Elicitations tab replaces the Tools tab at the first elicitation request',
  // Each elicitation request waits in its Elicitations tab as a form titled so.
  cards: 'text="Information Request"',
};

/** One storm run of an app (LENS_STORM or INSPECTOR_STORM) in a fresh context. */
async function stormOnce(browser, app, appUrl, stormUrl) {
  const opened = await app.open(browser, appUrl, stormUrl);
  try {
    return await stormRun(opened, { ...app, prepare: () => app.prepare(opened.page) });
  } finally {
    await closeSoon(opened.context);
  }
}

/**
 * `runs` storm runs of one app (`app`: 'lens' or 'inspector'); a run that fails ends the app's
 * runs with its reason.
 */
export async function stormRuns(browser, app, { appUrl, stormUrl, runs }) {
  const spec = app === 'lens' ? LENS_STORM : INSPECTOR_STORM;
  const results = [];
  for (let i = 0; i < runs; i++) {
    try {
      results.push(await stormOnce(browser, spec, appUrl, stormUrl));
    } catch (error) {
      return { runs: results, failed: brief(error).slice(0, 300) };
    }
  }
  return { runs: results, failed: null };
}
