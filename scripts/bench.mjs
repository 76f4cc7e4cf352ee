#!/usr/bin/env node
// mcp-lens benchmark, side by side with the official MCP Inspector: prints numbers, it is not a test.
//
//   node scripts/bench.mjs [--runs N] [--json] [--strict] [--sizes-only] [--no-inspector] [--scale-only | --filter-only | --storm-only | --slow-net-only | --embed-only]
//
// 1. Sizes: every file of dist/ (and of the inspector's web client,
//    node_modules/@modelcontextprotocol/inspector-client/dist), raw and gzip -9, by type.
// 2. Servers, all on 127.0.0.1 and free ports, stopped on exit, errors and SIGINT/SIGTERM: one
//    static server that serves both apps from memory (uncompressed, the same way for both),
//    @modelcontextprotocol/server-everything (Streamable HTTP with CORS, kept on loopback by
//    tests/servers/loopback.cjs), tests/servers/scale_server.py (5,000 tools, 10 MB results) and
//    tests/servers/hostile_server.py (its `storm` tool).
// 3. Comparison runs, alternating the apps (mcp-lens run 1, inspector run 1, mcp-lens run 2, ...),
//    each in a fresh browser context of one headless Chromium, against server-everything. Per run,
//    timed in the page (bench/probe.mjs: from the click's input event to the next animation frame
//    after the DOM showed the outcome): load -> Connect usable; Connect click -> tools shown; echo
//    Run click -> result painted; a reconnect; the longest main-thread task (PerformanceObserver
//    'longtask') of each; the client's own time of connect and echo apart from the network's
//    (bench/owntime.mjs: click -> request leaves, last byte -> painted); and the bytes the page
//    fetched from the app's origin (CDP Network events) by type, before the Connect button was
//    usable and in the whole run. The inspector (1.0.3, its web client only, no proxy process) is
//    connected in Direct mode: the page talks to the server itself. Its tool list needs the Tools
//    tab and "List Tools": its connect time includes both, done without think time
//    (bench/inspector.mjs says how).
//    mcp-lens's wire is checked on every run (bench/wire.mjs): the handshake's shape, round trips,
//    the DELETE at Disconnect, the reconnect without server/discover.
// 4. Scale cases against the scale server, each app in one page (bench/scale.mjs): connect, all
//    5,000 tools listed (mcp-lens's Load all; the inspector cannot: it shows one page at a time),
//    filter keystrokes with 5,000 and with 500 tools listed, 10 MB results (big_text, big_json,
//    and big_json as an event stream in a page of its own)
//    and 5,000 blocks (many_blocks) to their first part painted, mcp-lens's wire log with the
//    10 MB answer opened, the heap at each stage. 60 s per case; a case that takes longer says
//    "timeout" and the rest still run; a case an app cannot do says "n/a" and why.
// 5. The storm (bench/storm.mjs): 10,000 messages before a tool's answer, up to 3 runs per app;
//    the longest task, tasks over 50 ms, the re-lists sent and in flight, the cards shown.
// 6. Slow network, by path (issue 28; bench/slownet.mjs), both apps alternating, up to 3 runs:
//    each app served gzip -9 by the same static server (the inspector's web client from the same
//    origin as its `/config`, answered there as its proxy would; Direct mode kept), each case in
//    a fresh page throttled by CDP to Lighthouse's mobile profile (150 ms round trip, 1.6 Mbit/s
//    down, 750 kbit/s up; bench/throttle.mjs), cache off, against a server-everything of its own
//    that holds every CORS preflight one round trip (150 ms) before answering it
//    (bench/hold-preflights.cjs, a preload of the server: Chromium's throttling does not delay
//    preflights, which the network service makes for the page; the same server for both apps, so
//    both pay the same). Per run: navigation -> Connect usable and -> tools listed with Connect
//    clicked by the page the moment it is usable (the inspector's Tools tab and List Tools the
//    moment each is possible); mcp-lens's self-connecting links, the embed's
//    `?embed&url=...&tool=echo&connect` -> echo shown, and the full app's `?url=...&connect` ->
//    tools listed when it connects by itself ("n/a" until it does: found out once, by a page that
//    sends nothing to the server 3 s after its files are in); the embed view's Connect usable
//    (its first paint); the first use of each lazily loaded part (bench/first-use.mjs: the import
//    and export dialogs, today's import chunk; the share dialog and a tool's form, in the session
//    chunk) clicked at once after the list and 2 s after it. From each page's requests
//    (bench/timeline.mjs, CDP Network events): the bytes before the outcome by type (gzip -9
//    bodies; as transferred with the headers beside), the server's, the preflights and how long
//    each took, when each file (chunk, JS) was requested and arrived, and the first paint's JS
//    and wasm requests that started only after the stylesheet's last byte. Printed side by side
//    with the ratio (bench/slow-report.mjs), then issue 28's budgets (bench/budgets.mjs).
// 7. The embed view in a docs page (bench/embed.mjs, mcp-lens only): the example docs page
//    (tests/e2e/docs-page/) served from an origin of its own and a sub-path, its first widget's
//    first-paint download (gzip -9) and its time to first paint (Connect usable) from the docs
//    page's navigation and from the iframe's, on loopback and throttled; the median of the runs.
// 8. Prints the table (metric | mcp-lens median (min-max) | inspector median (min-max) | ratio
//    mcp-lens / inspector), the scale cases, the storm, the machine's load average at start and
//    end (bench/report.mjs), and the budgets of issue 10 (and issue 9's storm) for mcp-lens with
//    PASS/FAIL (bench/budgets.mjs):
//      the embed view's first-paint download <= 150 KB gzip -9 (in the docs page's iframe);
//      first paint <= 200 KB gzip -9: the gzip -9 sizes of the files (wasm, JS, CSS, HTML) the page
//        fetched before the Connect button was usable (CDP), beside what was transferred;
//      whole app <= 450 KB gzip -9: every file of dist/;
//      no long task > 50 ms at load, connect, echo call: the worst over the runs;
//      the client's own time < 5 ms each way (click -> request leaves, last byte -> painted) for
//        connect and echo: the median over the runs, the worst beside it;
//      a keystroke in the 5,000-tool filter within one frame: the worst key, input -> next frame
//        <= 16.7 ms;
//      5,000 tools listed with no long task over 50 ms;
//      a 10 MB result (text, JSON, many blocks) beginning within 200 ms of the answer's last byte,
//        no long task over 50 ms (the server's time to make 10 MB is printed beside it);
//      the wire log showing a 10 MB message's beginning within 200 ms, no long task over 50 ms;
//      the JS heap back within 1 MB of its level before the results once they are let go;
//      a storm of 10,000 messages: no task over 100 ms, at most one tools/list in flight.
//    And, after the slow-network section, issue 28's budgets by path (medians over its runs):
//      connect path <= 400 KB gzip (the app's files fetched from navigation until the tool list,
//        Connect clicked at once); navigation -> tools listed <= 0.7x the inspector's;
//      first paint <= 200 KB gzip (full app), <= 150 KB (embed view), with no JS or wasm request
//        of it started only after the stylesheet's last byte;
//      first use of each lazily loaded part <= 300 ms (clicked 2 s after the list), <= 1 s (at
//        once);
//      the embed's &connect <= 300 KB gzip before its tool is shown, and sooner than the
//        inspector's tools listed.
//    --json adds one JSON summary line at the end.
//
// --no-inspector skips the inspector (for machines without it); --scale-only runs only the scale
// cases; --filter-only only mcp-lens's 5,000-tool filter case (connect, Load all, the keystrokes),
// --runs times, each in a fresh page, with a summary over the runs; --storm-only only the storm, --slow-net-only only the slow network, --embed-only only
// the embed view in a docs page (each without the comparison runs); --sizes-only measures
// only the files. MCP_LENS_DIST=<dir> measures another build; BENCH_DEBUG=1 prints stack traces
// on errors.
//
// Exit status: 0; 1 on a real error (a server did not start, a selector never appeared, a page
// error or wasm panic in a comparison run, a wire check failed) or, with --strict, when a size
// budget (first paint, whole app) is over; 2 on bad arguments; 130/143 when interrupted (servers
// and browser are stopped first). A scale case that times out and a storm run that fails are
// reported, not errors.

import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { measureFiles, printFiles } from './bench/bytes.mjs';
import { INSPECTOR_DIST, inspectorRun } from './bench/inspector.mjs';
import { lensRun } from './bench/lens.mjs';
import {
  HOST,
  ROOT,
  UsageError,
  brief,
  cleanup,
  freePort,
  gzipSizes,
  inKillableBrowser,
  interrupted,
  launchBrowser,
  median,
  ms,
  startProcess,
  startStaticServer,
  snapshotDir,
} from './bench/lib.mjs';
import { BUDGETS, PATH_BUDGETS, printBudgets, printPathBudgets } from './bench/budgets.mjs';
import { machineLoad, printComparison, printScale, printStorm } from './bench/report.mjs';
import { CASES, COMPARABLE, inspectorScale, lensScale } from './bench/scale.mjs';
import { STORM_MESSAGES, stormRuns } from './bench/storm.mjs';
import { INSPECTOR_CONFIG, slowNetwork } from './bench/slownet.mjs';
import { printSlowNetwork } from './bench/slow-report.mjs';
import { SLOW_NETWORK, profileText } from './bench/throttle.mjs';
import { ARTIFACT, attribute, printAttribution } from './bench/attribution.mjs';
import { embedInDocs } from './bench/embed.mjs';
import { reportLensWire } from './bench/wire.mjs';

const DIST = path.resolve(ROOT, process.env.MCP_LENS_DIST || 'dist');
// A storm run takes 10-30 s per app on 2 cores: at most this many, fewer with a smaller --runs.
const STORM_RUNS = 3;
// A slow-network run (every case once, both apps) takes about 90 s: at most this many.
const SLOW_NETWORK_RUNS = 3;
// An embed page load takes well under a second on loopback: at most this many of each case.
const EMBED_RUNS = 7;
const USAGE = 'usage: node scripts/bench.mjs [--runs N] [--json] [--strict] [--sizes-only] [--no-inspector] [--scale-only | --filter-only | --storm-only | --slow-net-only | --embed-only]';
const HELP = `${USAGE}

Measures mcp-lens beside the official MCP Inspector 1.0.3 (Direct mode) on this machine:
sizes, comparison runs against server-everything, scale cases against scale_server.py, the
storm against hostile_server.py, the paths on a slow network, and the budgets of issues 10
and 28 with PASS/FAIL.

  --runs N        comparison runs per app (default 7); storm runs: N, at most ${STORM_RUNS}
  --json          a JSON summary line at the end
  --strict        exit 1 when a size budget (first paint, whole app) is over
  --sizes-only    only the files' sizes
  --scale-only    only the scale cases (no comparison runs, no storm)
  --filter-only   only mcp-lens's 5,000-tool filter case, N runs (default 7), each in a fresh page
  --storm-only    only the storm (no comparison runs, no scale cases)
  --slow-net-only only the slow network by path (both apps served gzip -9, throttled, up to
                  ${SLOW_NETWORK_RUNS} runs; issue 28's budgets; no other section)
  --embed-only    only the embed view in a docs page (its first-paint download and time)
  --no-inspector  mcp-lens alone (for machines without the inspector)

MCP_LENS_DIST=<dir> measures another build; BENCH_DEBUG=1 prints stack traces on errors.`;

function parseArgs(argv) {
  const options = { runs: 7, json: false, strict: false, sizesOnly: false, inspector: true, scaleOnly: false, stormOnly: false };
  const flags = { '--json': 'json', '--strict': 'strict', '--sizes-only': 'sizesOnly', '--scale-only': 'scaleOnly', '--filter-only': 'filterOnly', '--storm-only': 'stormOnly', '--slow-net-only': 'slowNetOnly', '--embed-only': 'embedOnly' };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (flags[arg]) options[flags[arg]] = true;
    else if (arg === '--no-inspector') options.inspector = false;
    else if (arg === '--runs' || arg.startsWith('--runs=')) {
      const raw = arg === '--runs' ? argv[++i] : arg.slice('--runs='.length);
      const runs = Number(raw);
      if (!Number.isInteger(runs) || runs < 1) throw new UsageError(`--runs needs a positive integer, got ${raw}`);
      options.runs = runs;
    } else if (arg === '--help' || arg === '-h') {
      console.log(HELP);
      process.exit(0);
    } else throw new UsageError(`unknown argument: ${arg}`);
  }
  if ([options.scaleOnly, options.filterOnly, options.stormOnly, options.slowNetOnly, options.embedOnly].filter(Boolean).length > 1) {
    throw new UsageError('--scale-only, --filter-only, --storm-only, --slow-net-only and --embed-only exclude each other');
  }
  // The filter case is mcp-lens's alone (the inspector lists 500 tools at a time).
  if (options.filterOnly) options.inspector = false;
  return options;
}

// ---------------------------------------------------------------- the apps and servers

async function loadApp(dir) {
  const snapshot = await snapshotDir(dir);
  const gzip = gzipSizes(snapshot);
  return { snapshot, gzip, files: measureFiles(snapshot, gzip) };
}

async function loadApps(options) {
  const lens = await loadApp(DIST).catch((error) => {
    throw new Error(`${error.message}: build the app first (trunk build --release)`);
  });
  let inspector = null;
  if (options.inspector) {
    const dir = path.join(ROOT, INSPECTOR_DIST);
    if (!fs.existsSync(dir)) throw new Error(`${INSPECTOR_DIST} is missing: run npm ci, or pass --no-inspector`);
    inspector = await loadApp(dir);
  }
  return { lens, inspector };
}

/**
 * server-everything on loopback; with `holdPreflightsMs`, every CORS preflight is held that long
 * before the server sees it (bench/hold-preflights.cjs: the slow network's round trip, which
 * Chromium's throttling does not add to preflights).
 */
async function startEverything({ holdPreflightsMs = 0 } = {}) {
  const entry = 'node_modules/@modelcontextprotocol/server-everything/dist/index.js';
  if (!fs.existsSync(path.join(ROOT, entry))) throw new Error(`${entry} is missing: run npm ci`);
  const port = await freePort();
  const url = `http://${HOST}:${port}/mcp`;
  const hold = holdPreflightsMs ? ['-r', './scripts/bench/hold-preflights.cjs'] : [];
  const env = { PORT: String(port), ...(holdPreflightsMs ? { BENCH_PREFLIGHT_HOLD_MS: String(holdPreflightsMs) } : {}) };
  return startProcess('server-everything', process.execPath, ['-r', './tests/servers/loopback.cjs', ...hold, entry, 'streamableHttp'], { env, url });
}

/** Starts one of tests/servers/*.py on a free port; resolves to its /mcp URL once it answers. */
async function startPythonServer(script, args = []) {
  const python = '.venv/bin/python';
  if (!fs.existsSync(path.join(ROOT, python))) throw new Error(`${python} is missing: run scripts/setup.sh`);
  const port = await freePort();
  const url = `http://${HOST}:${port}/mcp`;
  return startProcess(script, python, [`tests/servers/${script}`, '--port', String(port), ...args], { url });
}

const startScaleServer = () => startPythonServer('scale_server.py', ['--tools', '5000']);
const startHostileServer = () => startPythonServer('hostile_server.py');

// ---------------------------------------------------------------- the parts

/**
 * --filter-only: the filter case `options.runs` times, each in a browser and page of its own,
 * each run's scale table, then the keys of all runs together (what the budget is judged on).
 */
async function filterSection(options, apps) {
  const scaleUrl = await startScaleServer();
  const runs = [];
  for (let run = 1; run <= options.runs; run++) {
    console.log('');
    console.log(`== filter case, run ${run} of ${options.runs}: against scale_server.py (${scaleUrl}) ==`);
    const scale = await inKillableBrowser((b) => lensScale(b, { appUrl: apps.lens.url, scaleUrl, gzip: apps.lens.gzip, filterOnly: true }));
    printScale(CASES, COMPARABLE, scale, null);
    runs.push(scale);
  }
  const cases = runs.map((r) => r.cases.find((c) => c.key === 'filter' && c.keys));
  const done = cases.filter(Boolean);
  console.log('');
  if (done.length) {
    const line = (c) => {
      const times = c.keys.map((k) => k.ms);
      return `median ${ms(median(times))}, worst ${ms(Math.max(...times))}`;
    };
    console.log(`filter keystroke over ${done.length} run(s) (ms, input -> next frame): ${done.map(line).join('; ')}`);
  }
  if (done.length < runs.length) console.log(`filter case: ${runs.length - done.length} of ${runs.length} run(s) did not finish`);
  const filter = done.length ? { key: 'filter', status: 'ok', keys: done.flatMap((c) => c.keys) } : null;
  return { cases: filter ? [filter] : [], heap: [], problems: runs.flatMap((r) => r.problems), filterOnly: true };
}

async function comparisonRuns(browser, options, apps, serverUrl) {
  console.log('');
  const who = apps.inspector ? 'mcp-lens and the inspector alternating' : 'mcp-lens only (--no-inspector)';
  console.log(`== comparison (${options.runs} runs each, ${who}; headless Chromium ${browser.version()}; server-everything ${serverUrl}) ==`);
  const lens = [];
  const inspector = [];
  for (let i = 0; i < options.runs; i++) {
    const l = await lensRun(browser, { appUrl: apps.lens.url, serverUrl, gzip: apps.lens.gzip });
    lens.push(l);
    console.log(`mcp-lens  run ${i + 1}: ${runLine(l)}`);
    if (!apps.inspector) continue;
    const r = await inspectorRun(browser, { appUrl: apps.inspector.url, serverUrl, gzip: apps.inspector.gzip });
    inspector.push(r);
    console.log(`inspector run ${i + 1}: ${runLine(r)}`);
  }
  return { lens, inspector };
}

const runLine = (r) =>
  `load ${ms(r.times.load)}, connect ${ms(r.times.connect)}, echo ${ms(r.times.echo)}, reconnect ${ms(r.times.reconnect)} ms; ` +
  `longest task ${Object.values(r.longest).map((v) => (v ? ms(v) : '<50')).join(' | ')}`;

async function stormSection(options, apps) {
  const stormUrl = await startHostileServer();
  const runs = Math.min(options.runs, STORM_RUNS);
  console.log('');
  console.log(`== storm: ${STORM_MESSAGES.toLocaleString('en')} messages before the answer, hostile_server.py (${stormUrl}), ${runs} run(s) each, a fresh context each ==`);
  const lens = await inKillableBrowser((b) => stormRuns(b, 'lens', { appUrl: apps.lens.url, stormUrl, runs }));
  const inspector = apps.inspector ? await inKillableBrowser((b) => stormRuns(b, 'inspector', { appUrl: apps.inspector.url, stormUrl, runs })) : null;
  printStorm(lens, inspector);
  return { lens, inspector };
}

async function slowNetworkSection(options, apps) {
  const lens = { appUrl: await startStaticServer(apps.lens.snapshot, { gzip: true }), gzip: apps.lens.gzip };
  const inspector = apps.inspector
    ? { appUrl: await startStaticServer(apps.inspector.snapshot, { gzip: true, answers: { '/config': INSPECTOR_CONFIG } }), gzip: apps.inspector.gzip }
    : null;
  const serverUrl = await startEverything({ holdPreflightsMs: SLOW_NETWORK.latency });
  const runs = Math.min(options.runs, SLOW_NETWORK_RUNS);
  console.log('');
  console.log(
    `== slow network, by path (issue 28): ${apps.inspector ? 'mcp-lens and the inspector alternating' : 'mcp-lens only (--no-inspector)'}, ` +
      `served gzip -9, ${profileText()}, cache off, a fresh page per case, ${runs} run(s); server-everything ${serverUrl} ` +
      `holding each CORS preflight ${SLOW_NETWORK.latency} ms (one round trip: Chromium does not throttle preflights) ==`,
  );
  const slow = await inKillableBrowser((b) => slowNetwork(b, { lens, inspector, serverUrl, runs }));
  console.log('');
  printSlowNetwork(slow, { inspector: Boolean(apps.inspector) });
  return slow;
}

async function embedSection(options, apps) {
  const runs = Math.min(options.runs, EMBED_RUNS);
  console.log('');
  console.log(`== the embed view in a docs page (tests/e2e/docs-page/guide/, another origin, a sub-path), ${runs} run(s) of each case ==`);
  return inKillableBrowser((b) =>
    embedInDocs(b, { startApp: (gzip) => startStaticServer(apps.lens.snapshot, { gzip }), gzip: apps.lens.gzip, runs }),
  );
}

/** The wasm attribution (bench/attribution.mjs), from the cargo artifact when it is there. */
function printLensAttribution(files) {
  if (!fs.existsSync(ARTIFACT)) return;
  console.log('');
  const built = new Date(fs.statSync(ARTIFACT).mtimeMs).toISOString();
  console.log(`== where mcp-lens's wasm goes (bench/attribution.mjs: ${path.relative(ROOT, ARTIFACT)} of ${built}, split again, by function names) ==`);
  const shippedGzip = Object.fromEntries(files.files.filter((f) => f.category === 'wasm').map((f) => [path.basename(f.name), f.gzip]));
  try {
    printAttribution(attribute(ARTIFACT), { shippedGzip, top: 10 });
  } catch (error) {
    console.log(`attribution failed: ${brief(error)}`);
  }
}

function printInspectorWire(inspector) {
  if (!inspector.length) return;
  const sequences = [...new Set(inspector.map((r) => r.connectWire))];
  console.log(`inspector connect wire (not checked): ${sequences.join(' || ')}`);
  const again = [...new Set(inspector.map((r) => r.reconnectWire))];
  console.log(`inspector reconnect wire (not checked): ${again.join(' || ')}`);
}

// ---------------------------------------------------------------- main

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const start = machineLoad('start');
  console.log(start.line);
  const apps = await loadApps(options);
  printFiles(`sizes: mcp-lens (${path.relative(ROOT, DIST) || DIST}/)`, apps.lens.files);
  if (apps.inspector) {
    console.log('');
    printFiles(`sizes: MCP Inspector 1.0.3 web client (${INSPECTOR_DIST}/)`, apps.inspector.files);
  }
  printLensAttribution(apps.lens.files);
  const summary = { machine: { start }, sizes: { lens: apps.lens.files, inspector: apps.inspector?.files ?? null } };
  let exitCode = 0;
  let runs = { lens: [], inspector: [] };
  let scale = null;
  let storm = null;
  let embed = null;
  let slow = null;

  if (!options.sizesOnly) {
    apps.lens.url = await startStaticServer(apps.lens.snapshot);
    if (apps.inspector) apps.inspector.url = await startStaticServer(apps.inspector.snapshot);
    const only = options.scaleOnly || options.filterOnly || options.stormOnly || options.slowNetOnly || options.embedOnly;
    if (!only) {
      const browser = await launchBrowser();
      const serverUrl = await startEverything();
      runs = await comparisonRuns(browser, options, apps, serverUrl);
      console.log('');
      summary.comparison = printComparison(runs.lens, runs.inspector);
      console.log('');
      const wire = reportLensWire(runs.lens);
      printInspectorWire(runs.inspector);
      summary.wire = wire.wire;
      summary.connectBreakdown = wire.connectBreakdown;
      summary.reconnectBreakdown = wire.reconnectBreakdown;
      if (wire.violations.length) exitCode = 1;
      await browser.close();
    }
    if (!only || options.scaleOnly) {
      const scaleUrl = await startScaleServer();
      console.log('');
      console.log(`== scale: against scale_server.py (${scaleUrl}), each app in one page, 60 s per case ==`);
      scale = await inKillableBrowser((b) => lensScale(b, { appUrl: apps.lens.url, scaleUrl, gzip: apps.lens.gzip }));
      const inspectorScaled = apps.inspector ? await inKillableBrowser((b) => inspectorScale(b, { appUrl: apps.inspector.url, scaleUrl })) : null;
      printScale(CASES, COMPARABLE, scale, inspectorScaled);
      summary.scale = { lens: scale, inspector: inspectorScaled };
    }
    if (options.filterOnly) {
      scale = await filterSection(options, apps);
      summary.scale = { lens: scale, inspector: null };
    }
    if (!only || options.stormOnly) {
      storm = await stormSection(options, apps);
      summary.storm = storm;
    }
    if (!only || options.slowNetOnly) slow = await slowNetworkSection(options, apps);
    if (!only || options.embedOnly) {
      embed = await embedSection(options, apps);
      summary.embed = embed;
    }
  }

  console.log('');
  console.log('== budgets (issue 10; the storm: issue 9) ==');
  const budgets = printBudgets({
    lensFiles: apps.lens.files,
    inspectorFiles: apps.inspector?.files ?? null,
    lensRuns: runs.lens,
    inspectorRuns: runs.inspector,
    scale,
    storm,
    embed,
  });
  summary.budgets = { limits: BUDGETS, results: budgets };
  if (slow) {
    console.log('');
    console.log('== budgets by path (issue 28; the slow profile, medians over the runs) ==');
    summary.pathBudgets = { limits: PATH_BUDGETS, results: printPathBudgets(slow) };
    summary.slowNetwork = slow;
  }
  const sizeFailed = budgets.some((b) => b.ok === false && /download|whole app/.test(b.text));
  if (sizeFailed && options.strict) {
    console.log('\nOVER A SIZE BUDGET (--strict)');
    exitCode = 1;
  }
  const end = machineLoad('end');
  console.log('');
  console.log(start.line);
  console.log(end.line);
  summary.machine.end = end;
  if (options.json) console.log(JSON.stringify(summary, (_, v) => (typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 10) / 10 : v)));
  return exitCode;
}

let code = 1;
try {
  code = await main();
} catch (error) {
  if (interrupted() !== null) {
    // The browser and servers were stopped under our feet: not an error of its own.
  } else if (error instanceof UsageError) {
    console.error(`bench: ${error.message}`);
    code = 2;
  } else {
    console.error(`bench: ERROR ${brief(error)}`);
    if (process.env.BENCH_DEBUG) console.error(error.stack);
    code = 1;
  }
} finally {
  await cleanup();
}
process.exit(interrupted() ?? code);
