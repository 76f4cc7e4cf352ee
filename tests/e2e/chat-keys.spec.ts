// Where a provider key goes: only into the headers of requests to that provider's origin. Not to
// an MCP server, not into the wire log (or its export), localStorage, a conversation export, the
// page's address or the console; sessionStorage only when the person ticks "Remember in this
// tab"; and never after a redirect to another origin. Every request the page makes is watched.

import fs from 'node:fs';
import type { Page, Request } from '@playwright/test';
import { expect, test } from './helpers';
import { EVERYTHING_URL, PYTHON_URL } from './env';
import { connectNamed, fakeModel, fakeRequests, idle, lane, lastAnswer, modelWireLog, openChat, send, setProvider, toolCall } from './chat-helpers';
import type { TestServer } from './spawn';

const KEY = 'sk-test-SECRET-4f9a1c';

let fake: TestServer;
test.beforeAll(async () => {
  fake = await fakeModel();
});
test.afterAll(async () => {
  await fake.stop();
});

/** Every request the page sends (URL, headers, body), and every console message. */
function watch(page: Page): { requests: { url: string; text: string }[]; console: string[] } {
  const seen = { requests: [] as { url: string; text: string }[], console: [] as string[] };
  page.on('request', async (request: Request) => {
    const headers = await request.allHeaders().catch(() => ({}));
    seen.requests.push({ url: request.url(), text: `${request.url()}\n${JSON.stringify(headers)}\n${request.postData() ?? ''}` });
  });
  page.on('console', (message) => seen.console.push(message.text()));
  return seen;
}

test('the key goes only to the provider, and nowhere else the page writes', async ({ page }) => {
  const seen = watch(page);
  await page.goto('/');
  await connectNamed(page, EVERYTHING_URL, 'everything');
  await connectNamed(page, PYTHON_URL, 'python', true);
  await openChat(page);
  await setProvider(page, 0, { baseUrl: `http://127.0.0.1:${fake.port}/openai/v1`, model: 'fake-gpt', key: KEY });
  // The model calls the Python server's tool that reports the headers its request carried.
  await page.locator('.chat-tool[data-tool="request_info"] .tool-policy').selectOption('allow');
  await send(page, 'script: call request_info {} | say The server saw: {result}');
  await expect(toolCall(page, 0).locator('.content-text')).toContainText('authorization=(none)');
  await idle(page);
  await expect(lastAnswer(page)).toHaveText('The server saw: authorization=(none); x-mcp-lens-test=(none)');

  // The provider got it, as a bearer token, on both requests.
  const provider = await fakeRequests(fake);
  expect(provider.map((r) => r.headers.authorization)).toEqual([`Bearer ${KEY}`, `Bearer ${KEY}`]);
  // Every request that carries it goes to the provider's origin; none to an MCP server.
  const origin = `http://127.0.0.1:${fake.port}/`;
  const carrying = seen.requests.filter((r) => r.text.includes(KEY));
  expect(carrying.length).toBeGreaterThanOrEqual(2);
  for (const request of carrying) expect(request.url.startsWith(origin), request.url).toBe(true);
  expect(seen.requests.some((r) => r.url.startsWith(EVERYTHING_URL.replace('/mcp', '')))).toBe(true);

  // The wire log shows the model requests with the key redacted, and its export has no key.
  const rows = await modelWireLog(page);
  await rows.first().click();
  await expect(page.locator('#wire-detail .wire-headers')).toContainText('authorization: [redacted]');
  await expect(page.locator('#wire-detail')).not.toContainText(KEY);
  const wireExport = page.waitForEvent('download');
  await page.locator('#wire-traffic').selectOption('');
  await page.locator('#wire-export').click();
  expect(fs.readFileSync(await (await wireExport).path(), 'utf8')).not.toContain(KEY);
  await page.locator('#wire-curl').click();
  await expect(page.locator('#wire-detail .curl')).not.toContainText(KEY);

  // Nor the conversation's exports, the storage, the address or the console.
  for (const button of ['#chat-export-json', '#chat-export-markdown']) {
    const download = page.waitForEvent('download');
    await page.locator(button).click();
    expect(fs.readFileSync(await (await download).path(), 'utf8')).not.toContain(KEY);
  }
  const storage = await page.evaluate(() => [JSON.stringify(localStorage), JSON.stringify(sessionStorage)]);
  expect(storage[0]).not.toContain(KEY);
  expect(storage[1]).not.toContain(KEY);
  expect(page.url()).not.toContain(KEY);
  expect(seen.console.filter((m) => m.includes(KEY))).toEqual([]);

  // "Remember in this tab": sessionStorage (and after a reload the key is back), never localStorage.
  await lane(page).locator('.provider-remember').check();
  expect(await page.evaluate(() => JSON.stringify(sessionStorage))).toContain(KEY);
  await page.reload();
  await openChat(page);
  await lane(page).locator('.lane-summary').click();
  await expect(lane(page).locator('.provider-key')).toHaveValue(KEY);
  expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain(KEY);
  await lane(page).locator('.provider-remember').uncheck();
  expect(await page.evaluate(() => JSON.stringify(sessionStorage))).not.toContain(KEY);
});

test('a redirect is not followed: the key never reaches the address it points to', async ({ page }) => {
  const seen = watch(page);
  await page.goto('/');
  await openChat(page);
  // The fake answers /redirect/... with a 307 to localhost (another origin, the same server).
  await setProvider(page, 0, { baseUrl: `http://127.0.0.1:${fake.port}/redirect/openai/v1`, model: 'fake-gpt', key: KEY });
  await fetch(`http://127.0.0.1:${fake.port}/requests`, { method: 'DELETE' });
  await send(page, 'hello');
  await idle(page);
  await expect(lane(page).locator('.chat-error')).toContainText('redirect, which is not followed');
  // The server (which also listens as localhost) got the first request only; Chromium reports
  // the redirect's target as a request, but without the key (and it never arrived).
  const provider = await fakeRequests(fake);
  expect(provider.map((r) => r.path)).toEqual(['/redirect/openai/v1/chat/completions']);
  expect(provider[0].headers.authorization).toBe(`Bearer ${KEY}`);
  expect(seen.requests.filter((r) => r.url.includes('localhost') && r.text.includes(KEY))).toEqual([]);
});
