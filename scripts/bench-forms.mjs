#!/usr/bin/env node
// Schema-form benchmark: prints numbers, it is not a test.
//
//   node scripts/bench-forms.mjs [--runs N] [--skip-native]
//
// 1. Native: the schema layer on a 500-property schema (tests/schema_bench.rs, release build):
//    building the form model, drafts to and from values, validation.
// 2. Chromium: the built app (dist/) and tests/servers/forms_server.py, both started here on
//    127.0.0.1 and stopped on exit. Per run (a fresh page): connect, then click the `wide` tool
//    (200 fields) and time, in the page, click -> all 200 inputs in the DOM -> the next frame;
//    then typing one character into the last field -> the next frame (the cost of one keystroke
//    in a 200-field form); the longest main-thread task (>= 50 ms) in each; and click on `huge`
//    (a 1 MB schema of 3,000 properties) -> its first 250 fields painted.

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const HOST = '127.0.0.1';
const { executablePath: CHROMIUM, args: CHROMIUM_ARGS } = JSON.parse(
  fs.readFileSync(path.join(ROOT, 'tests/chromium.json'), 'utf8'),
);
const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1]) || (args.includes('--runs') ? NaN : 5);
if (!Number.isInteger(runs) || runs < 1) {
  console.error('usage: node scripts/bench-forms.mjs [--runs N] [--skip-native]');
  process.exit(2);
}

const children = [];
function stopAll() {
  for (const child of children) child.kill('SIGTERM');
}
process.on('exit', stopAll);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, HOST, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function start(command, argv, url) {
  const child = spawn(command, argv, { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-2000)));
  for (let i = 0; i < 300; i++) {
    try {
      const response = await fetch(url);
      if (response.status < 500) return;
    } catch {}
    if (child.exitCode !== null) throw new Error(`${command} ${argv.join(' ')} exited:\n${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer:\n${stderr}`);
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const ms = (v) => `${v.toFixed(1)} ms`;

// Runs in the page: long tasks, and a timer armed by a click or an input in the form.
function instrument() {
  window.__forms = { longtasks: [], rendered: null, typed: null };
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__forms.longtasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {}
  const afterFrame = (then) => requestAnimationFrame(() => setTimeout(then, 0));
  // Which tool's click to time, and how many inputs (selector, count) mean "rendered".
  window.__forms.watch = { tool: 'wide', selector: '#tool-panel [data-path^="/f"]', count: 200 };
  document.addEventListener('click', (event) => {
    const { tool, selector, count } = window.__forms.watch;
    const item = event.target.closest?.(`li.tool-item[data-tool="${tool}"]`);
    if (!item) return;
    const clicked = performance.now();
    window.__forms.rendered = null;
    const poll = () => {
      if (document.querySelectorAll(selector).length >= count) {
        afterFrame(() => (window.__forms.rendered = { clicked, done: performance.now() }));
      } else {
        requestAnimationFrame(poll);
      }
    };
    poll();
  }, true);
  document.addEventListener('input', (event) => {
    if (event.target.getAttribute?.('data-path') !== '/f195') return;
    const typed = performance.now();
    afterFrame(() => (window.__forms.typed = { typed, done: performance.now() }));
  }, true);
}

function longestIn(tasks, from, to) {
  return tasks
    .filter((t) => t.start <= to && t.start + t.duration >= from)
    .reduce((max, t) => Math.max(max, t.duration), 0);
}

async function main() {
  if (!args.includes('--skip-native')) {
    console.log('== native (cargo test --release --test schema_bench) ==');
    const native = spawnSync('cargo', ['test', '--release', '--locked', '--test', 'schema_bench', '--', '--ignored', '--nocapture'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    if (native.status !== 0) throw new Error(`the native benchmark failed:\n${native.stderr.slice(-3000)}`);
    for (const line of native.stdout.split('\n')) if (/^500-property|^  /.test(line)) console.log(line);
  }

  if (!fs.existsSync(path.join(ROOT, 'dist/index.html'))) throw new Error('dist/ is missing: build the app first (bash scripts/build.sh)');
  const appPort = await freePort();
  const formsPort = await freePort();
  const appUrl = `http://${HOST}:${appPort}/`;
  const formsUrl = `http://${HOST}:${formsPort}/mcp`;
  await start('python3', ['-m', 'http.server', String(appPort), '--bind', HOST, '--directory', 'dist'], appUrl);
  await start('.venv/bin/python', ['tests/servers/forms_server.py', '--port', String(formsPort)], formsUrl);
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  console.log(`\n== Chromium ${browser.version()}: the 200-field form of tests/servers/forms_server.py (${runs} runs) ==`);
  const render = [];
  const keystroke = [];
  const longest = [];
  const huge = [];
  try {
    for (let i = 0; i < runs; i++) {
      const page = await browser.newPage();
      const problems = [];
      page.on('pageerror', (e) => problems.push(e.message));
      page.on('console', (m) => /panicked at/.test(m.text()) && problems.push(m.text()));
      await page.addInitScript(instrument);
      await page.goto(`${appUrl}?url=${encodeURIComponent(formsUrl)}&version=2025-11-25`);
      await page.locator('#connect').click();
      await page.locator('li.tool-item[data-tool="wide"]').click({ timeout: 20_000 });
      await page.waitForFunction(() => window.__forms.rendered !== null, null, { timeout: 20_000 });
      await page.locator('#tool-panel input[data-path="/f195"]').pressSequentially('x');
      await page.waitForFunction(() => window.__forms.typed !== null, null, { timeout: 20_000 });
      const f = await page.evaluate(() => window.__forms);
      // The megabyte schema (3,000 properties): its first 250 fields.
      await page.evaluate(() => (window.__forms.watch = { tool: 'huge', selector: '#tool-panel input[data-path^="/p"]', count: 250 }));
      await page.locator('li.tool-item[data-tool="huge"]').click();
      await page.waitForFunction(() => window.__forms.rendered !== null, null, { timeout: 20_000 });
      const h = await page.evaluate(() => window.__forms.rendered.done - window.__forms.rendered.clicked);
      if (problems.length) throw new Error(problems.join('\n'));
      const r = f.rendered.done - f.rendered.clicked;
      const k = f.typed.done - f.typed.typed;
      const l = longestIn(f.longtasks, f.rendered.clicked, f.typed.done);
      render.push(r);
      keystroke.push(k);
      longest.push(l);
      huge.push(h);
      console.log(`run ${i + 1}: click -> 200 fields painted ${ms(r)}, keystroke -> next frame ${ms(k)}, longest task ${l ? ms(l) : '<50 ms'}; megabyte schema -> first 250 fields painted ${ms(h)}`);
      await page.close();
    }
  } finally {
    await browser.close();
  }
  console.log('');
  console.log(`click -> 200-field form painted: median ${ms(median(render))} (min ${ms(Math.min(...render))}, max ${ms(Math.max(...render))})`);
  console.log(`keystroke in the 200-field form -> next frame: median ${ms(median(keystroke))} (max ${ms(Math.max(...keystroke))})`);
  console.log(`click -> megabyte schema (3,000 fields) showing its first 250: median ${ms(median(huge))} (max ${ms(Math.max(...huge))})`);
  const worst = Math.max(...longest);
  console.log(`longest main-thread task: ${worst ? ms(worst) : '<50 ms'}`);
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(`bench-forms: ${error.message}`);
    process.exit(1);
  },
);
