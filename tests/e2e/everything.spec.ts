// mcp-lens against @modelcontextprotocol/server-everything 2026.8.31 (streamable HTTP, TS SDK).
// Every expected text below was taken from the real server's answers (see tests/README.md).

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { EVERYTHING_URL } from './env';
import {
  connect,
  disconnect,
  expect,
  expectServerInfo,
  field,
  getPrompt,
  openApp,
  readResource,
  runTool,
  selectPrompt,
  selectTool,
  test,
  toolItem,
} from './helpers';

// The static resources are the package's docs/*.md files, served verbatim.
const EXTENSION_URI = 'demo://resource/static/document/extension.md';
const EXTENSION_TEXT = readFileSync(
  path.join(__dirname, '../../node_modules/@modelcontextprotocol/server-everything/dist/docs/extension.md'),
  'utf8',
);

test('server-everything: connect, tools, prompt, resource, disconnect', async ({ page }) => {
  await openApp(page, EVERYTHING_URL);
  await connect(page);

  await expectServerInfo(page, { name: 'mcp-servers/everything', version: '2.0.0', protocolVersion: '2025-11-25' });

  // Tools
  await page.locator('#tab-tools').click();
  await expect(toolItem(page, 'echo')).toBeVisible();
  await expect(toolItem(page, 'get-sum')).toBeVisible();
  await expect(toolItem(page, 'get-tiny-image')).toBeVisible();

  // The filter narrows the list.
  await page.locator('#tool-filter').fill('get-sum');
  await expect(toolItem(page, 'get-sum')).toBeVisible();
  await expect(toolItem(page, 'echo')).toBeHidden();
  await page.locator('#tool-filter').fill('');
  await expect(toolItem(page, 'echo')).toBeVisible();

  // echo: {"message": string} -> "Echo: <message>"
  let panel = await selectTool(page, 'echo');
  await field(panel, 'message').fill('hello from mcp-lens');
  let result = await runTool(page);
  await expect(result.locator('.content-text')).toHaveText(['Echo: hello from mcp-lens']);
  await expect(result).not.toHaveClass(/result-error/);

  // get-sum: {"a": number, "b": number} -> "The sum of <a> and <b> is <a+b>."
  panel = await selectTool(page, 'get-sum');
  await field(panel, 'a').fill('2.5');
  await field(panel, 'b').fill('4');
  result = await runTool(page);
  await expect(result.locator('.content-text')).toHaveText(['The sum of 2.5 and 4 is 6.5.']);
  await expect(result).not.toHaveClass(/result-error/);

  // Prompts: args-prompt (city required, state optional) -> one user message.
  await page.locator('#tab-prompts').click();
  await expect(page.locator('li.prompt-item[data-prompt="simple-prompt"]')).toBeVisible();
  const promptPanel = await selectPrompt(page, 'args-prompt');
  await field(promptPanel, 'city').fill('Paris');
  await field(promptPanel, 'state').fill('Texas');
  const prompt = await getPrompt(page);
  await expect(prompt.locator('.prompt-message')).toHaveCount(1);
  await expect(prompt.locator('.prompt-message .role')).toHaveText(['user']);
  await expect(prompt.locator('.prompt-message .content-text')).toHaveText(["What's weather in Paris, Texas?"]);

  // Resources: a static markdown document, text content.
  const resource = await readResource(page, EXTENSION_URI);
  await expect(resource.locator('.content-text').first()).toContainText('# Everything Server - Extension Points');
  await expect(resource.locator('.content-text')).toHaveText([EXTENSION_TEXT]);

  await disconnect(page);
});

test('server-everything: args-prompt with only the required argument', async ({ page }) => {
  await openApp(page, EVERYTHING_URL);
  await connect(page);

  const promptPanel = await selectPrompt(page, 'args-prompt');
  await field(promptPanel, 'city').fill('Paris');
  const prompt = await getPrompt(page);
  await expect(prompt.locator('.prompt-message .content-text')).toHaveText(["What's weather in Paris?"]);

  await disconnect(page);
});

test('server-everything: connecting again ends the previous session with DELETE first', async ({ page }) => {
  // What the page sends, in order: method, JSON-RPC method (for POSTs) and the session header.
  const wire: { method: string; rpc?: string; session?: string }[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(EVERYTHING_URL) || request.method() === 'OPTIONS') return;
    const body = request.postData();
    wire.push({
      method: request.method(),
      rpc: body ? JSON.parse(body).method : undefined,
      session: request.headers()['mcp-session-id'],
    });
  });
  await openApp(page, EVERYTHING_URL);
  await connect(page);
  // Auto tried the stateless era first; server-everything refused it, so initialize followed.
  expect(wire.map((r) => r.rpc).slice(0, 2)).toEqual(['server/discover', 'initialize']);
  const first = wire.find((r) => r.rpc === 'notifications/initialized')?.session;
  expect(first, 'notifications/initialized carries the session id').toBeTruthy();
  // Every request after initialize carries the session id and protocol version.
  const afterInitialize = wire.slice(wire.findIndex((r) => r.rpc === 'initialize') + 1);
  expect(afterInitialize.every((r) => r.session === first)).toBe(true);

  wire.length = 0;
  await page.locator('#connect').click();
  // The status is already "Connected": wait for the new session's lists on the wire instead.
  await expect.poll(() => wire.some((r) => r.rpc === 'tools/list')).toBe(true);
  await expect(page.locator('#status')).toHaveText('Connected');
  // An answer to one of the server's own requests (a POST without a method) may still be on
  // its way from the first session; what the app itself starts comes after the DELETE.
  const started = wire.filter((r) => !(r.method === 'POST' && r.rpc === undefined));
  expect(started[0]).toEqual({ method: 'DELETE', rpc: undefined, session: first });
  // The first connect learned that server-everything refuses server/discover: straight to
  // initialize this time.
  expect(started[1].rpc).toBe('initialize');
  expect(started[1].session).toBeUndefined();
  const second = wire.find((r) => r.rpc === 'notifications/initialized')?.session;
  expect(second).toBeTruthy();
  expect(second).not.toBe(first);
  await expect(toolItem(page, 'echo')).toBeVisible();
  await disconnect(page);
});

test('server-everything: image content is shown as an image, structured content as JSON', async ({ page }) => {
  await openApp(page, EVERYTHING_URL);
  await connect(page);

  await selectTool(page, 'get-tiny-image');
  let result = await runTool(page);
  const image = result.locator('.content-image img');
  await expect(image).toHaveAttribute('src', /^data:image\/png;base64,/);
  // The browser decoded it: a real image, not a broken one.
  await expect.poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  await expect(result.locator('.content-text')).toHaveText(["Here's the image you requested:", 'The image above is the MCP logo.']);

  const panel = await selectTool(page, 'get-structured-content');
  await field(panel, 'location').selectOption({ label: 'Chicago' });
  result = await runTool(page);
  // The text block and the structuredContent carry the same weather object, pretty-printed.
  const structured = result.locator('.structured .content-text');
  await expect(structured).toContainText('"temperature":');
  const shown = JSON.parse((await structured.textContent()) ?? '');
  expect(Object.keys(shown).sort()).toEqual(['conditions', 'humidity', 'temperature']);
  expect(JSON.parse((await result.locator('.content-text').first().textContent()) ?? '')).toEqual(shown);
  await disconnect(page);
});

test('server-everything: Run sends its request before the panel shows "Working…", a prompt and a read too', async ({ page }) => {
  // The button's label when the page's request goes to fetch: the request must leave
  // before the panel's effects re-render it (a first call's "Working…" costs it that time).
  await page.addInitScript(() => {
    const w = window as unknown as { labelsAtFetch: string[]; watched: string | null };
    w.labelsAtFetch = [];
    w.watched = null;
    const original = window.fetch;
    window.fetch = function (input: RequestInfo | URL, init?: RequestInit) {
      const body = typeof init?.body === 'string' ? init.body : '';
      if (w.watched && /"method":"(tools\/call|prompts\/get|resources\/read)"/.test(body)) {
        w.labelsAtFetch.push(document.querySelector(w.watched)?.textContent ?? '(no button)');
      }
      return original.call(this, input, init);
    };
  });
  const labelsAtClick = async (button: string) => {
    await page.evaluate((button) => {
      const w = window as unknown as { labelsAtFetch: string[]; watched: string | null };
      w.labelsAtFetch = [];
      w.watched = button;
    }, button);
    await page.locator(button).click();
    await expect(page.locator(button)).not.toHaveText('Working…');
    return page.evaluate(() => (window as unknown as { labelsAtFetch: string[] }).labelsAtFetch);
  };
  await openApp(page, EVERYTHING_URL);
  await connect(page);

  const panel = await selectTool(page, 'echo');
  await field(panel, 'message').fill('first');
  expect(await labelsAtClick('#run-tool')).toEqual(['Run']);
  await expect(page.locator('#tool-panel')).toHaveAttribute('data-runs', '1');
  await expect(page.locator('#tool-result .content-text')).toHaveText(['Echo: first']);
  // Again: the previous result stays, the count goes on.
  await field(panel, 'message').fill('second');
  expect(await labelsAtClick('#run-tool')).toEqual(['Run']);
  await expect(page.locator('#tool-panel')).toHaveAttribute('data-runs', '2');
  await expect(page.locator('#tool-result .content-text')).toHaveText(['Echo: second']);

  await selectPrompt(page, 'simple-prompt');
  expect(await labelsAtClick('#get-prompt')).toEqual(['Get prompt']);
  await expect(page.locator('#prompt-result .prompt-message')).toHaveCount(1);
  await page.locator('#tab-resources').click();
  await page.locator(`li.resource-item[data-uri="${EXTENSION_URI}"]`).click();
  expect(await labelsAtClick('#read-resource')).toEqual(['Read']);
  await expect(page.locator('#resource-result .content-text')).toHaveText([EXTENSION_TEXT]);
  await disconnect(page);
});
