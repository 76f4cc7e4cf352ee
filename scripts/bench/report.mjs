// Printing: the comparison table, the scale cases, the heap, the budgets of issue 10, the
// machine's load.

import os from 'node:os';
import { CATEGORIES } from './bytes.mjs';
import { median, ms, stats } from './lib.mjs';
import { PHASES } from './phases.mjs';

const KB = 1024;
const FRAME_MS = 1000 / 60;
export const BUDGETS = {
  firstPaintGzip: 200 * KB,
  wholeAppGzip: 450 * KB,
  longTaskMs: 50,
  keystrokeMs: FRAME_MS,
  bigResultMs: 200,
  ownTimeMs: 5,
  stormTaskMs: 100,
  // The JS heap after big results are let go may exceed the one before them by this much.
  heapSlackBytes: 1 * KB * KB,
  stormListsInFlight: 1,
};

const kb = (bytes) => (bytes / KB).toFixed(1);
const mb = (bytes) => (bytes / KB / KB).toFixed(1);
const verdict = (ok) => (ok ? 'PASS' : 'FAIL');

export function machineLoad(when) {
  const [one, five, fifteen] = os.loadavg().map((v) => v.toFixed(2));
  const line = `machine load (${when}): load average ${one} / ${five} / ${fifteen} (1 / 5 / 15 min) on ${os.cpus().length} CPUs`;
  return { line, loadavg: os.loadavg(), cpus: os.cpus().length };
}

// ---------------------------------------------------------------- the comparison table

// Each row: a label, how to read a number off one run, how to print it.
const PHASE_LABELS = {
  load: 'load -> Connect usable (ms)',
  connect: 'Connect click -> tools shown (ms)',
  echo: 'echo Run click -> result painted (ms)',
  reconnect: 'reconnect click -> tools shown (ms)',
};
const longTask = (v) => (v === 0 ? '<50' : ms(v));

function comparisonRows() {
  const rows = PHASES.map((phase) => ({ label: PHASE_LABELS[phase], of: (r) => r.times[phase], fmt: ms }));
  // The inspector's connect needs the Tools tab and "List Tools" after "Connected": this row shows
  // the part before them (mcp-lens says "Connected" when its lists are in).
  rows.splice(2, 0, { label: 'Connect click -> status "Connected" (ms)', of: (r) => r.connectedOnly, fmt: ms });
  for (const phase of PHASES) rows.push({ label: `longest task, ${phase} (ms)`, of: (r) => r.longest[phase], fmt: longTask });
  rows.push(...ownTimeRows());
  for (const c of [...CATEGORIES, 'total']) {
    rows.push({ label: `fetched before Connect usable: ${c} (KB transferred)`, of: (r) => r.beforeReady.transferred[c], fmt: kb });
  }
  rows.push({ label: 'fetched before Connect usable: total (KB gzip -9)', of: (r) => r.beforeReady.gzip.total, fmt: kb });
  rows.push({ label: 'fetched from the app in the whole run (KB transferred)', of: (r) => r.wholeRun.transferred.total, fmt: kb });
  return rows;
}

// The client's own time (owntime.mjs) and, beside it, what the network and server took.
const OWN_TIME_ROWS = [
  ['connect', 'clickToSent', 'own time: Connect click -> first request leaves (ms)'],
  ['connect', 'lastByteOwn', 'own time: last list answer -> tools painted (ms)'],
  ['connect', 'lastByteToPainted', '  the same, with the wait for the next frame (ms)'],
  ['connect', 'sentToLastByte', '  first request leaves -> last list answer (ms)'],
  ['echo', 'clickToSent', 'own time: echo Run click -> tools/call leaves (ms)'],
  ['echo', 'lastByteOwn', 'own time: echo answer -> result painted (ms)'],
  ['echo', 'lastByteToPainted', '  the same, with the wait for the next frame (ms)'],
  ['echo', 'sentToLastByte', '  tools/call leaves -> answer (network, server) (ms)'],
];
const ownTimeRows = () => OWN_TIME_ROWS.map(([step, part, label]) => ({ label, of: (r) => r.own?.[step]?.[part] ?? null, fmt: ms }));

function cell(runs, row) {
  const values = runs.map(row.of).filter((v) => v !== null && v !== undefined);
  if (!values.length) return { text: 'n/a', median: null };
  const s = stats(values);
  const range = s.min === s.max ? '' : ` (${row.fmt(s.min)}-${row.fmt(s.max)})`;
  return { text: `${row.fmt(s.median)}${range}`, median: s.median, stats: s };
}

function printTable(header, lines) {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ');
  console.log(fmt(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const l of lines) console.log(fmt(l));
}

/** Prints metric | mcp-lens median (min-max) | inspector median (min-max) | ratio; returns the stats. */
export function printComparison(lens, inspector) {
  const out = {};
  const lines = comparisonRows().map((row) => {
    const a = cell(lens, row);
    const b = cell(inspector, row);
    const ratio = a.median && b.median ? (a.median / b.median).toFixed(2) : 'n/a';
    out[row.label] = { lens: a.stats ?? null, inspector: b.stats ?? null };
    return [row.label, a.text, b.text, ratio];
  });
  printTable(['metric', 'mcp-lens median (min-max)', 'inspector median (min-max)', 'ratio lens/insp'], lines);
  console.log('(longest task: only tasks >= 50 ms are reported by the browser; "<50" means none.)');
  return out;
}

// ---------------------------------------------------------------- scale

const keyTimes = (c) => c.keys.map((k) => k.ms);

/** A case's time and longest task as table cells, and its time as a number (for the ratio). */
function caseCells(c) {
  if (!c) return { time: '', longest: '', value: null };
  if (c.status !== 'ok') return { time: c.status, longest: '', value: null };
  if (c.keys) {
    const times = keyTimes(c);
    return { time: `median ${ms(median(times))}, max ${ms(Math.max(...times))}`, longest: longTask(Math.max(...c.keys.map((k) => k.longest))), value: median(times) };
  }
  return { time: ms(c.ms), longest: longTask(c.longest), value: c.ms };
}

/** What a case's row cannot say: the split of a big result, the keys, or why it failed. */
function caseNote(c) {
  if (!c) return null;
  if (c.status !== 'ok') return c.note ?? null;
  if (c.keys) {
    const changed = c.keys.filter((k) => k.toDom !== null);
    const dom = changed.length ? `; input -> DOM changed median ${ms(median(changed.map((k) => k.toDom)))} ms` : '';
    const keys = c.keys.map((k) => `${k.key === 'Backspace' ? '⌫' : k.key} ${Math.round(k.ms)}${k.toDom === null ? '=' : ''}`).join(', ');
    return `per key (ms to the next frame; "=" the list did not change): ${keys}${dom}`;
  }
  const notes = c.note ? [c.note] : [];
  if (c.toAnswer !== undefined) notes.push(`click -> answer fully arrived ${ms(c.toAnswer)} ms, then -> painted ${ms(c.answerToFrame)} ms`);
  if (c.blocks !== undefined) notes.push(`${c.blocks} text element(s), ${c.chars} characters shown`);
  return notes.join('; ') || null;
}

/** `first`, with each item of `second` it lacks placed right after the item before it in `second`. */
function mergeInOrder(first, second) {
  const merged = [...first];
  second.forEach((item, i) => {
    if (merged.includes(item)) return;
    merged.splice(i === 0 ? 0 : merged.indexOf(second[i - 1]) + 1, 0, item);
  });
  return merged;
}

/** Prints the scale cases of both apps side by side, the notes, and the heap at each stage. */
export function printScale(cases, comparable, lens, inspector) {
  const find = (app, key) => app?.cases.find((c) => c.key === key);
  const lines = Object.entries(cases)
    .filter(([key]) => find(lens, key) || find(inspector, key))
    .map(([key, label]) => {
      const a = caseCells(find(lens, key));
      const b = caseCells(find(inspector, key));
      const ratio = comparable.has(key) && a.value && b.value ? (a.value / b.value).toFixed(2) : '';
      return [label, a.time, a.longest, b.time, b.longest, ratio];
    });
  printTable(['case', 'mcp-lens (ms)', 'longest task', 'inspector (ms)', 'longest task', 'ratio'], lines);
  console.log('(ratio only where both list the same tools: the inspector shows 500 at a time.)');
  for (const [key, label] of Object.entries(cases)) {
    for (const [app, who] of [[lens, 'mcp-lens'], [inspector, 'inspector']]) {
      const note = caseNote(find(app, key));
      if (note) console.log(`  ${label}, ${who}: ${note}`);
    }
  }
  console.log('');
  const states = mergeInOrder(lens.heap.map((h) => h.state), inspector?.heap.map((h) => h.state) ?? []);
  const heapOf = (app, state) => app?.heap.find((h) => h.state === state);
  const js = (h) => (!h ? '' : h.error ? (h.error === 'page not answering' ? 'page stuck' : 'error') : mb(h.jsUsed));
  printTable(
    ['heap at', 'mcp-lens JS heap (MB)', 'mcp-lens wasm memory (MB)', 'inspector JS heap (MB)'],
    states.map((state) => {
      const a = heapOf(lens, state);
      return [state, js(a), a?.wasm == null ? '' : mb(a.wasm), js(heapOf(inspector, state))];
    }),
  );
  for (const [app, who] of [[lens, 'mcp-lens'], [inspector, 'inspector']]) {
    const line = heapLetGoLine(app);
    if (line) console.log(`${who}: ${line}`);
  }
  for (const [app, who] of [[lens, 'mcp-lens'], [inspector, 'inspector']]) {
    if (app?.problems.length) console.log(`${who} page problems: ${app.problems.slice(0, 5).join(' | ')}`);
  }
}

// ---------------------------------------------------------------- storm

const count = (v) => String(Math.round(v));
const STORM_ROWS = [
  { label: 'Run click -> "storm over" painted (ms)', of: (r) => r.ms, fmt: ms },
  { label: 'Run click -> the last long task ended (ms)', of: (r) => r.calm, fmt: ms },
  { label: 'longest task (ms)', of: (r) => r.longest, fmt: longTask },
  { label: 'tasks over 50 ms', of: (r) => r.over50, fmt: count },
  { label: 'tools/list sent (re-lists)', of: (r) => r.lists, fmt: count },
  { label: 'most tools/list in flight at once', of: (r) => r.listsInFlight, fmt: count },
  { label: "answers POSTed to the server's requests", of: (r) => r.answers, fmt: count },
  { label: 'server-request cards shown', of: (r) => r.cards, fmt: count },
];

/** Prints the storm runs of both apps side by side (median (min-max) over the runs). */
export function printStorm(lens, inspector) {
  const lines = STORM_ROWS.map((row) => [row.label, cell(lens.runs, row).text, inspector ? cell(inspector.runs, row).text : 'not run']);
  printTable(['storm case', 'mcp-lens median (min-max)', 'inspector median (min-max)'], lines);
  for (const [app, who] of [[lens, 'mcp-lens'], [inspector, 'inspector']]) {
    if (app?.failed) console.log(`${who}: a run failed: ${app.failed}`);
    const hidden = app?.runs.find((r) => r.hidden)?.hidden;
    if (hidden) console.log(`${who}: its answer is not painted by itself: ${hidden}; its window ends when the answer had arrived and the page was calm`);
    const problems = [...new Set(app?.runs.flatMap((r) => r.problems) ?? [])];
    if (problems.length) console.log(`${who} page problems: ${problems.slice(0, 5).join(' | ')}`);
  }
}

/** The JS heap after the results were let go (the last reading) against the baseline reading. */
function heapLetGoLine(app) {
  const base = app?.heap.find((h) => h.baseline && !h.error);
  const last = app?.heap.at(-1);
  if (!base || !last || last.error || last === base) return null;
  const wasm = last.wasm == null ? '' : `; wasm memory ${mb(last.wasm)} MB (it never shrinks: the high-water mark)`;
  return `JS heap after the results were let go (${last.state}) ${mb(last.jsUsed)} MB against ${mb(base.jsUsed)} MB before them (${base.state}): ${last.jsUsed - base.jsUsed >= 0 ? '+' : ''}${mb(last.jsUsed - base.jsUsed)} MB${wasm}`;
}

// ---------------------------------------------------------------- budgets

/** The client's own time under 5 ms each way: the median over the runs (the worst beside it). */
function ownTimeBudgets(line, lensRuns, inspectorRuns) {
  for (const [step, part, label] of OWN_TIME_ROWS.filter(([, p]) => p === 'clickToSent' || p === 'lastByteOwn')) {
    const row = { of: (r) => r.own?.[step]?.[part] ?? null, fmt: ms };
    const a = cell(lensRuns, row);
    const b = cell(inspectorRuns, row);
    const text = label.replace('own time: ', '').replace(' (ms)', '');
    if (a.median === null) {
      line(`client's own time, ${text} < ${BUDGETS.ownTimeMs} ms: not measured`, false);
      continue;
    }
    const other = b.median === null ? '' : `; inspector median ${ms(b.median)} ms`;
    line(`client's own time, ${text} < ${BUDGETS.ownTimeMs} ms: mcp-lens median ${ms(a.median)} ms (worst ${ms(a.stats.max)})${other}`, a.median < BUDGETS.ownTimeMs);
  }
}

const PAINT_CATEGORIES = ['wasm', 'js', 'css', 'html'];

/** Checks the budgets of issue 10 with what was measured (null where it was not), and prints them. */
export function printBudgets({ lensFiles, inspectorFiles, lensRuns, inspectorRuns, scale, storm }) {
  const results = [];
  const line = (text, ok) => {
    results.push({ text, ok });
    console.log(ok === null ? `n/a   ${text}` : `${verdict(ok)}  ${text}`);
  };
  const firstPaint = (fetched) => PAINT_CATEGORIES.reduce((sum, c) => sum + fetched.gzip[c], 0);
  const firstPaintRaw = (fetched) => PAINT_CATEGORIES.reduce((sum, c) => sum + fetched.transferred[c], 0);
  const paintSource = lensRuns.length ? lensRuns[0].beforeReady : (scale?.beforeReady ?? null);
  if (paintSource) {
    const other = inspectorRuns.length ? `; inspector ${kb(firstPaint(inspectorRuns[0].beforeReady))} KB` : '';
    line(
      `first-paint download <= ${kb(BUDGETS.firstPaintGzip)} KB gzip -9 (wasm+JS+CSS+HTML fetched before Connect was usable): ` +
        `mcp-lens ${kb(firstPaint(paintSource))} KB (${kb(firstPaintRaw(paintSource))} KB as transferred, uncompressed)${other}`,
      firstPaint(paintSource) <= BUDGETS.firstPaintGzip,
    );
  } else line('first-paint download: needs a page load (the comparison runs or the scale cases)', null);
  const otherApp = inspectorFiles ? `; inspector ${kb(inspectorFiles.gzip.total)} KB` : '';
  line(`whole app <= ${kb(BUDGETS.wholeAppGzip)} KB gzip -9 (all files of dist/): mcp-lens ${kb(lensFiles.gzip.total)} KB${otherApp}`, lensFiles.gzip.total <= BUDGETS.wholeAppGzip);
  for (const phase of ['load', 'connect', 'echo']) {
    if (!lensRuns.length) break;
    const worst = Math.max(...lensRuns.map((r) => r.longest[phase]));
    const other = inspectorRuns.length ? `; inspector worst ${longTask(Math.max(...inspectorRuns.map((r) => r.longest[phase])))} ms` : '';
    line(`no long task > ${BUDGETS.longTaskMs} ms at ${phase}: mcp-lens worst ${longTask(worst)} ms over ${lensRuns.length} runs${other}`, worst <= BUDGETS.longTaskMs);
  }
  if (lensRuns.length) ownTimeBudgets(line, lensRuns, inspectorRuns);
  const filter = scale?.cases.find((c) => c.key === 'filter' && c.keys);
  if (filter) {
    const times = keyTimes(filter);
    line(
      `5,000-tool filter keystroke within one frame (${ms(BUDGETS.keystrokeMs)} ms, input -> next frame, worst key): worst ${ms(Math.max(...times))} ms, median ${ms(median(times))} ms`,
      Math.max(...times) <= BUDGETS.keystrokeMs,
    );
  } else if (scale) line('5,000-tool filter keystroke: the case did not finish', false);
  if (scale) scaleBudgets(line, scale);
  if (storm) stormBudgets(line, storm);
  return results;
}

/** The scale budgets beyond the filter keystroke: listing, big results, the wire log, memory. */
function scaleBudgets(line, scale) {
  const find = (key) => scale.cases.find((c) => c.key === key);
  const noLongTask = (c) => c.longest <= BUDGETS.longTaskMs;
  const all = find('connectAll');
  if (all?.status === 'ok') {
    line(`5,000 tools listed (connect -> Load all -> all listed) with no long task over ${BUDGETS.longTaskMs} ms: longest ${longTask(all.longest)} ms, ${ms(all.ms)} ms in all`, noLongTask(all));
  } else line(`5,000 tools listed with no long task over ${BUDGETS.longTaskMs} ms: ${all?.status ?? 'not run'}`, false);
  for (const key of ['big_text', 'big_json', 'many_blocks']) {
    const c = find(key);
    const size = key === 'many_blocks' ? '5,000-block' : '10 MB';
    const what = `${size} result (${key}) beginning within ${BUDGETS.bigResultMs} ms of its arrival, no long task over ${BUDGETS.longTaskMs} ms`;
    if (c?.status !== 'ok' || c.answerToFrame === undefined) {
      line(`${what}: ${c?.status ?? 'not run'}`, false);
      continue;
    }
    line(
      `${what} (answer's last byte -> first text painted): ${ms(c.answerToFrame)} ms, longest task ${longTask(c.longest)} ms ` +
        `(click -> painted ${ms(c.ms)} ms, of which server and network ${ms(c.toAnswer)} ms)`,
      c.answerToFrame <= BUDGETS.bigResultMs && noLongTask(c),
    );
  }
  const wire = find('wireExpand');
  const wireWhat = `wire log: a 10 MB message's beginning within ${BUDGETS.bigResultMs} ms of the click, no long task over ${BUDGETS.longTaskMs} ms`;
  if (wire?.status === 'ok') line(`${wireWhat}: ${ms(wire.ms)} ms, longest task ${longTask(wire.longest)} ms`, wire.ms <= BUDGETS.bigResultMs && noLongTask(wire));
  else line(`${wireWhat}: ${wire?.status ?? 'not run'}`, false);
  const base = scale.heap.find((h) => h.baseline && !h.error);
  const last = scale.heap.at(-1);
  if (base && last && !last.error && last !== base) {
    const grown = last.jsUsed - base.jsUsed;
    line(`JS heap back to its baseline after the results are let go (within ${mb(BUDGETS.heapSlackBytes)} MB): ${grown >= 0 ? '+' : ''}${mb(grown)} MB (${last.state})`, grown <= BUDGETS.heapSlackBytes);
    // The results live in the wasm memory, which cannot shrink: whether they were let go is not
    // visible from outside, only how high it went.
    line(`wasm memory back to its baseline: not measurable from outside (a wasm memory never shrinks; its high-water mark: ${last.wasm == null ? 'unknown' : `${mb(last.wasm)} MB`})`, null);
  }
}

function stormBudgets(line, { lens, inspector }) {
  if (!lens.runs.length) {
    line(`storm of 10,000: no task over ${BUDGETS.stormTaskMs} ms: no run finished (${lens.failed})`, false);
    return;
  }
  const worst = (app, of) => Math.max(...app.runs.map(of));
  const other = (of, fmt, unit = '') => (inspector?.runs.length ? `; inspector worst ${fmt(worst(inspector, of))}${unit}` : '');
  const longest = (r) => r.longest;
  line(
    `storm of 10,000: no task over ${BUDGETS.stormTaskMs} ms: mcp-lens worst ${longTask(worst(lens, longest))} ms over ${lens.runs.length} run(s)${other(longest, longTask, ' ms')}`,
    worst(lens, longest) <= BUDGETS.stormTaskMs,
  );
  const inFlight = (r) => r.listsInFlight;
  line(
    `storm of 10,000: at most ${BUDGETS.stormListsInFlight} tools/list in flight: mcp-lens worst ${worst(lens, inFlight)} (${lens.runs.map((r) => r.lists).join(', ')} sent)${other(inFlight, String)}`,
    worst(lens, inFlight) <= BUDGETS.stormListsInFlight,
  );
}
