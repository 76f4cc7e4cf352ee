// The budgets of issue 10 (and the storm's of issue 9), checked against what the benchmark
// measured and printed with PASS/FAIL (n/a where a budget cannot be measured from outside); and
// issue 28's budgets by path, against the slow-network section (printPathBudgets).

import path from 'node:path';
import { median, ms } from './lib.mjs';
import { KB, OWN_TIME_ROWS, cell, kb, keyTimes, longTask, mb } from './report.mjs';

const FRAME_MS = 1000 / 60;
export const BUDGETS = {
  firstPaintGzip: 200 * KB,
  embedFirstPaintGzip: 150 * KB,
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

const verdict = (ok) => (ok ? 'PASS' : 'FAIL');

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
export function printBudgets({ lensFiles, inspectorFiles, lensRuns, inspectorRuns, scale, storm, embed = null }) {
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
  if (embed?.loopback?.download != null) {
    line(
      `embed view's first-paint download <= ${kb(BUDGETS.embedFirstPaintGzip)} KB gzip -9 (in a docs page's iframe, before its Connect was usable): ` +
        `${kb(embed.loopback.download)} KB; time to first paint from the docs page's navigation ${ms(embed.loopback.docsToReady)} ms on loopback` +
        (embed.throttled?.docsToReady != null ? `, ${ms(embed.throttled.docsToReady)} ms throttled` : ''),
      embed.loopback.download <= BUDGETS.embedFirstPaintGzip,
    );
  }
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
  // --filter-only measured nothing else.
  if (scale && !scale.filterOnly) scaleBudgets(line, scale);
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
  for (const key of ['big_text', 'big_json', 'many_blocks', 'big_json_sse']) {
    const c = find(key);
    const size = key === 'many_blocks' ? '5,000-block' : key === 'big_json_sse' ? '10 MB event-stream' : '10 MB';
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

// ---------------------------------------------------------------- issue 28: by path, slow profile

export const PATH_BUDGETS = {
  connectPathBytes: 400 * KB,
  toolsRatio: 0.7,
  firstPaintBytes: 200 * KB,
  embedFirstPaintBytes: 150 * KB,
  firstUseLaterMs: 300,
  firstUseAtOnceMs: 1000,
  embedConnectBytes: 300 * KB,
};

/**
 * The budgets of issue 28 against the slow-network section's results (slownet.mjs), with
 * PASS/FAIL; each judged on the median over the runs (the worst beside it). Returns the lines.
 */
export function printPathBudgets(slow) {
  const B = PATH_BUDGETS;
  const results = [];
  const line = (text, ok) => {
    results.push({ text, ok });
    console.log(ok === null ? `n/a   ${text}` : `${verdict(ok)}  ${text}`);
  };
  const med = (runs, of) => {
    const values = runs.map(of).filter((v) => v !== null && v !== undefined);
    return values.length ? { median: median(values), worst: Math.max(...values), n: values.length } : null;
  };
  const L = slow.lensAtOnce;
  const I = slow.inspectorAtOnce;

  const bytes = med(L, (r) => r.beforeDone.body.total);
  if (bytes) {
    const server = med(L, (r) => r.beforeDone.server);
    const headers = med(L, (r) => r.beforeDone.transferred.total - r.beforeDone.body.total);
    line(
      `connect path <= ${kb(B.connectPathBytes)} KB gzip (the app's files fetched from navigation until the tool list, Connect clicked at once): ` +
        `${kb(bytes.median)} KB (worst ${kb(bytes.worst)}; plus ${kb(headers.median)} KB of headers and ${kb(server.median)} KB of the server's answers)` +
        (slow.fullConnect.length ? `; full app &connect ${kb(med(slow.fullConnect, (r) => r.beforeDone.body.total).median)} KB` : ''),
      bytes.median <= B.connectPathBytes,
    );
  } else line('connect path: no mcp-lens run finished', false);

  const lensTools = med(L, (r) => r.done);
  const inspectorTools = med(I, (r) => r.done);
  if (lensTools && inspectorTools) {
    const ratio = lensTools.median / inspectorTools.median;
    line(
      `navigation -> tools listed (Connect at once) <= ${B.toolsRatio}x the inspector's: mcp-lens ${ms(lensTools.median)} ms, inspector ${ms(inspectorTools.median)} ms: ${ratio.toFixed(2)}x`,
      ratio <= B.toolsRatio,
    );
  } else if (!I.length && !inspectorTools && slow.inspectorSkipped) {
    line(`navigation -> tools listed <= ${B.toolsRatio}x the inspector's: needs the inspector`, null);
  } else line(`navigation -> tools listed <= ${B.toolsRatio}x the inspector's: ${lensTools ? 'no inspector run finished' : 'no mcp-lens run finished'}`, false);

  for (const [view, runs, budget] of [
    ['full app', L, B.firstPaintBytes],
    ['embed view', slow.embedLoad, B.embedFirstPaintBytes],
  ]) {
    const paint = med(runs, (r) => r.firstPaint.body.total);
    if (!paint) {
      line(`first paint, ${view}: no run finished`, false);
      continue;
    }
    const waiting = [...new Set(runs.flatMap((r) => (r.waited ?? []).map((w) => path.basename(w.name))))];
    const waits = waiting.length ? `${waiting.length} JS/wasm file(s) requested only after the stylesheet's last byte (${waiting.join(', ')})` : 'no request waited for the stylesheet';
    line(
      `first paint, ${view} <= ${kb(budget)} KB gzip with every request started without waiting for the stylesheet: ${kb(paint.median)} KB (worst ${kb(paint.worst)}); ${waits}`,
      paint.median <= budget && !waiting.length,
    );
  }

  for (const [name, { atOnce, later }] of Object.entries(slow.firstUse)) {
    for (const [when, runs, budget] of [
      ['2 s after the list', later, B.firstUseLaterMs],
      ['at once', atOnce, B.firstUseAtOnceMs],
    ]) {
      const t = med(runs, (u) => u.ms);
      if (!t) {
        line(`first use, ${name}, clicked ${when} <= ${budget} ms: no run finished`, false);
        continue;
      }
      line(`first use, ${name}, clicked ${when} <= ${budget} ms: ${ms(t.median)} ms (worst ${ms(t.worst)})`, t.median <= budget);
    }
  }

  const embedBytes = med(slow.embedConnect, (r) => r.beforeDone.body.total);
  const embedTime = med(slow.embedConnect, (r) => r.done);
  if (embedBytes) {
    line(`embed &connect <= ${kb(B.embedConnectBytes)} KB gzip before its tool is shown: ${kb(embedBytes.median)} KB (worst ${kb(embedBytes.worst)})`, embedBytes.median <= B.embedConnectBytes);
    if (inspectorTools) {
      line(
        `embed &connect faster than the inspector's full path (navigation -> its tool shown, against navigation -> tools listed): ${ms(embedTime.median)} ms against ${ms(inspectorTools.median)} ms`,
        embedTime.median < inspectorTools.median,
      );
    } else line("embed &connect faster than the inspector's full path: needs the inspector", null);
  } else line('embed &connect: no run finished', false);
  if (!slow.fullConnect.length) line(`full app &connect: ${slow.fullConnectWhy ?? 'no run finished'}`, null);
  return results;
}
