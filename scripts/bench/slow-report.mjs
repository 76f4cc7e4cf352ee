// Printing the slow-network section (slownet.mjs): the paths side by side (median (min-max) over
// the runs, and the ratio mcp-lens / inspector), the bytes before the tool list by type, when
// each file arrived, the first paint's requests that waited for the stylesheet, and the first use
// of each lazily loaded part. The budgets: budgets.mjs.

import { CATEGORIES } from './bytes.mjs';
import { median, ms } from './lib.mjs';
import { LATER_MS } from './first-use.mjs';
import { cell, kb, printTable } from './report.mjs';

const count = (v) => String(Math.round(v));

/** One side-by-side row: mcp-lens's runs and the inspector's (either may be absent: `why`). */
function row(label, lensRuns, lensOf, inspectorRuns, inspectorOf, fmt, { lensWhy = null, inspectorWhy = 'n/a' } = {}) {
  const a = lensWhy && !lensRuns.length ? { text: `n/a (${lensWhy})`, median: null } : cell(lensRuns, { of: lensOf, fmt });
  const b = inspectorOf ? cell(inspectorRuns, { of: inspectorOf, fmt }) : { text: inspectorWhy, median: null };
  const ratio = a.median && b.median ? (a.median / b.median).toFixed(2) : '';
  return [label, a.text, b.text, ratio];
}

const shortName = (name) => name.replace(/^mcp-lens-[0-9a-f]+\//, '').replace(/^snippets\/[^/]+\//, 'snippets/');

/** Prints the paths side by side; returns nothing (the budgets read the results). */
export function printSlowNetwork(slow, { inspector }) {
  const L = slow.lensAtOnce;
  const I = slow.inspectorAtOnce;
  const noInspector = inspector ? 'n/a' : 'not run';
  const lines = [
    row('navigation -> Connect usable (ms)', L, (r) => r.ready, I, (r) => r.ready, ms),
    row('navigation -> tools listed, Connect clicked at once (ms)', L, (r) => r.done, I, (r) => r.done, ms),
    row('  of which Connect click -> tools listed (ms)', L, (r) => r.click, I, (r) => r.click, ms),
    row('navigation -> tools listed, full app ?url=...&connect (ms)', slow.fullConnect, (r) => r.done, [], null, ms, {
      lensWhy: slow.fullConnectWhy ? 'does not connect by itself' : 'no run finished',
      inspectorWhy: 'n/a (no such link)',
    }),
    row('navigation -> echo shown, embed ?embed&tool=echo&connect (ms)', slow.embedConnect, (r) => r.done, [], null, ms, { inspectorWhy: 'n/a (no embed view)' }),
    row('navigation -> Connect usable, embed view (ms)', slow.embedLoad, (r) => r.ready, [], null, ms, { inspectorWhy: 'n/a (no embed view)' }),
  ];
  for (const c of [...CATEGORIES, 'total']) {
    lines.push(row(`fetched before tools listed (at once): ${c} (KB gzip)`, L, (r) => r.beforeDone.body[c], I, (r) => r.beforeDone.body[c], kb));
  }
  lines.push(row('  total as transferred, with the headers (KB)', L, (r) => r.beforeDone.transferred.total, I, (r) => r.beforeDone.transferred.total, kb));
  lines.push(row("  and the MCP server's answers by then (KB)", L, (r) => r.beforeDone.server, I, (r) => r.beforeDone.server, kb));
  lines.push(row('CORS preflights before tools listed', L, (r) => r.preflights.length, I, (r) => r.preflights.length, count));
  lines.push(row('  each: sent -> answered (ms, median of the run)', L, (r) => (r.preflights.length ? median(r.preflights) : null), I, (r) => (r.preflights.length ? median(r.preflights) : null), ms));
  if (slow.fullConnect.length) {
    lines.push(row('fetched before tools listed, full app &connect (KB gzip)', slow.fullConnect, (r) => r.beforeDone.body.total, [], null, kb, { inspectorWhy: '' }));
  }
  for (const c of [...CATEGORIES, 'total']) {
    lines.push(row(`fetched before echo shown, embed &connect: ${c} (KB gzip)`, slow.embedConnect, (r) => r.beforeDone.body[c], [], null, kb, { inspectorWhy: '' }));
  }
  lines.push(row('first paint: fetched before Connect usable, full app (KB gzip)', L, (r) => r.firstPaint.body.total, I, (r) => r.firstPaint.body.total, kb));
  lines.push(row('first paint: fetched before Connect usable, embed view (KB gzip)', slow.embedLoad, (r) => r.firstPaint.body.total, [], null, kb, { inspectorWhy: '' }));
  printTable(['slow profile', 'mcp-lens median (min-max)', `inspector median (min-max)${inspector ? '' : ` (${noInspector})`}`, 'ratio lens/insp'], lines);
  console.log("(times: from the page's navigation start to the next frame after the DOM showed it. bytes: of every request to the app's");
  console.log(' origin started before the DOM showed it, the gzip -9 bodies as the server sent them (headers apart); the MCP server does');
  console.log(' not compress its answers.)');

  printStylesheet('mcp-lens full app', L);
  printStylesheet('mcp-lens embed view', slow.embedLoad);
  if (I.length) printStylesheet('inspector', I);

  console.log('');
  printArrivals('mcp-lens full app, Connect clicked at once', L);
  console.log('');
  printArrivals('mcp-lens embed view, ?embed&tool=echo&connect', slow.embedConnect);
  if (slow.fullConnect.length) {
    console.log('');
    printArrivals('mcp-lens full app, ?url=...&connect', slow.fullConnect);
  }
  if (I.length) {
    console.log('');
    printArrivals('inspector, Connect clicked at once', I);
  }
  console.log('');
  printFirstUse(slow.firstUse);
  if (slow.failures.length) {
    console.log('');
    console.log(`slow-network cases that failed (left out of the numbers): ${slow.failures.length}`);
    for (const f of slow.failures) console.log(`  ${f}`);
  }
}

/** The first paint's JS and wasm requests that started only after the stylesheet had arrived. */
function printStylesheet(who, runs) {
  if (!runs.length) return;
  const waited = runs.map((r) => r.waited ?? []);
  const names = [...new Set(waited.flat().map((w) => shortName(w.name)))];
  if (!names.length) {
    console.log(`${who}: every JS and wasm request of the first paint started before the stylesheet's last byte (${runs.length} run(s))`);
    return;
  }
  const after = waited.flat().map((w) => w.after);
  console.log(
    `${who}: ${median(waited.map((w) => w.length))} JS/wasm request(s) of the first paint started only after the stylesheet's last byte ` +
      `(median over ${runs.length} run(s); ${ms(median(after))} ms after it, median): ${names.join(', ')}`,
  );
}

/** Each file of the app: its size, and when it was requested and arrived (median (min-max)). */
function printArrivals(title, runs) {
  if (!runs.length) return;
  const byName = new Map();
  for (const r of runs) {
    const phase = (t) => (r.readyDom !== null && t <= r.readyDom ? 'first paint' : t <= r.doneDom ? 'before the outcome' : 'after it');
    for (const a of r.arrivals) {
      if (!byName.has(a.name)) byName.set(a.name, []);
      byName.get(a.name).push({ ...a, phase: phase(a.requested) });
    }
  }
  const range = (values, fmt = ms) => {
    const kept = values.filter((v) => v !== null);
    if (!kept.length) return 'n/a';
    const lo = Math.min(...kept);
    const hi = Math.max(...kept);
    return lo === hi ? fmt(lo) : `${fmt(median(kept))} (${fmt(lo)}-${fmt(hi)})`;
  };
  const files = [...byName.entries()].sort((a, b) => median(a[1].map((x) => x.requested)) - median(b[1].map((x) => x.requested)));
  console.log(`-- when each file arrived: ${title} (ms from navigation, median (min-max) over ${runs.length} run(s)) --`);
  printTable(
    ['file', 'KB transferred', 'requested', 'first byte', 'last byte', 'requested during'],
    files.map(([name, seen]) => [
      shortName(name),
      kb(median(seen.map((s) => s.bytes))),
      range(seen.map((s) => s.requested)),
      range(seen.map((s) => s.answered)),
      range(seen.map((s) => s.arrived)),
      [...new Set(seen.map((s) => s.phase))].join(' / ') + (seen.length < runs.length ? ` (${seen.length} of ${runs.length} runs)` : ''),
    ]),
  );
  const outcome = runs.map((r) => r.done);
  console.log(`the outcome showed at ${range(outcome)} ms${runs[0].ready !== null ? `; Connect usable at ${range(runs.map((r) => r.ready))} ms` : ''}`);
}

/** Each lazily loaded part's first use, at once and 2 s after the list. */
function printFirstUse(firstUse) {
  const lines = Object.entries(firstUse).map(([name, { atOnce, later }]) => {
    const fetched = [...new Set([...atOnce, ...later].flatMap((u) => u.fetched).map(shortName))];
    const of = (u) => u.ms;
    return [name, fetched.join(', ') || 'nothing (already here)', cell(atOnce, { of, fmt: ms }).text, cell(later, { of, fmt: ms }).text];
  });
  console.log(`-- first use on the slow profile, mcp-lens (click -> shown, ms, median (min-max)) --`);
  printTable(['part', 'fetched by the first use', 'clicked at once after the list', `clicked ${LATER_MS / 1000} s after the list`], lines);
}
