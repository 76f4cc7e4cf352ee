// Printing: the comparison table, the scale cases, the heap, the storm, the machine's load
// (the budgets: budgets.mjs).

import os from 'node:os';
import { CATEGORIES } from './bytes.mjs';
import { median, ms, stats } from './lib.mjs';
import { PHASES } from './phases.mjs';

export const KB = 1024;

export const kb = (bytes) => (bytes / KB).toFixed(1);
export const mb = (bytes) => (bytes / KB / KB).toFixed(1);

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
export const longTask = (v) => (v === 0 ? '<50' : ms(v));

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
export const OWN_TIME_ROWS = [
  ['connect', 'clickToSent', 'own time: Connect click -> first request leaves (ms)'],
  ['connect', 'lastByteOwn', 'own time: last list answer -> tools painted (ms)'],
  ['connect', 'lastByteToPainted', '  the same, with the wait for the next frame (ms)'],
  ['connect', 'sentToLastByte', '  first request leaves -> last list answer (ms)'],
  ['reconnect', 'clickToSent', 'own time: reconnect click -> first request leaves (ms)'],
  ['reconnect', 'lastByteOwn', 'own time: reconnect, last list answer -> tools painted (ms)'],
  ['echo', 'clickToSent', 'own time: echo Run click -> tools/call leaves (ms)'],
  ['echo', 'lastByteOwn', 'own time: echo answer -> result painted (ms)'],
  ['echo', 'lastByteToPainted', '  the same, with the wait for the next frame (ms)'],
  ['echo', 'sentToLastByte', '  tools/call leaves -> answer (network, server) (ms)'],
];
const ownTimeRows = () => OWN_TIME_ROWS.map(([step, part, label]) => ({ label, of: (r) => r.own?.[step]?.[part] ?? null, fmt: ms }));

export function cell(runs, row) {
  const values = runs.map(row.of).filter((v) => v !== null && v !== undefined);
  if (!values.length) return { text: 'n/a', median: null };
  const s = stats(values);
  const range = s.min === s.max ? '' : ` (${row.fmt(s.min)}-${row.fmt(s.max)})`;
  return { text: `${row.fmt(s.median)}${range}`, median: s.median, stats: s };
}

export function printTable(header, lines) {
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

export const keyTimes = (c) => c.keys.map((k) => k.ms);

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

/** The JS heap after the results were let go (the last reading) against the baseline reading. */
function heapLetGoLine(app) {
  const base = app?.heap.find((h) => h.baseline && !h.error);
  const last = app?.heap.at(-1);
  if (!base || !last || last.error || last === base) return null;
  const wasm = last.wasm == null ? '' : `; wasm memory ${mb(last.wasm)} MB (it never shrinks: the high-water mark)`;
  return `JS heap after the results were let go (${last.state}) ${mb(last.jsUsed)} MB against ${mb(base.jsUsed)} MB before them (${base.state}): ${last.jsUsed - base.jsUsed >= 0 ? '+' : ''}${mb(last.jsUsed - base.jsUsed)} MB${wasm}`;
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
