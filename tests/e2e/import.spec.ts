// mcp.json import and export (src/ui/import.rs over crates/client/src/mcp_config.rs): each
// format by paste, file picker and drag and drop; a malformed file; a stdio entry; export and
// import again; header values and tokens never in localStorage.

import { APP_URL, EVERYTHING_PORT, EVERYTHING_SSE_URL, EVERYTHING_URL } from './env';
import { connect, expect, test, toolItem, type Page } from './helpers';

const CHUNK = /\/pack-import\.wasm$/;
const sidebar = (page: Page) => page.locator('#servers');
const entry = (page: Page, name: string) => sidebar(page).locator(`li.server-entry[data-server="${name}"]`);

async function openImport(page: Page): Promise<void> {
  await page.locator('#import-servers').click();
  await expect(page.locator('#import-export')).toBeVisible();
}

async function importText(page: Page, text: string): Promise<void> {
  await openImport(page);
  await page.locator('#import-text').fill(text);
  await page.locator('#import-run').click();
}

/** Every value in localStorage, as one string. */
const localStorageText = (page: Page) =>
  page.evaluate(() => Object.keys(localStorage).map((k) => `${k}=${localStorage.getItem(k)}`).join('\n'));

test('Claude Desktop / Cursor mcpServers: remote servers join the sidebar, secrets stay in memory', async ({ page }) => {
  const requested: string[] = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  await page.goto('/');
  await expect(sidebar(page).locator('li.server-entry')).toHaveCount(1);
  // The dialog's code is fetched only when it is first opened.
  expect(requested.some((p) => CHUNK.test(p))).toBe(false);
  await importText(
    page,
    JSON.stringify({
      mcpServers: {
        everything: { url: EVERYTHING_URL, headers: { 'X-Api-Key': 'header-secret-1', Authorization: 'Bearer token-secret-2' } },
        files: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp/a b'], env: { API_KEY: 'env-secret-3' } },
      },
    }),
  );
  expect(requested.some((p) => CHUNK.test(p))).toBe(true);
  await expect(page.locator('#import-result .import-summary')).toHaveText('Added 1 server: everything.');
  // Nothing was lost: the empty entry is still there, the new one is selected.
  await expect(sidebar(page).locator('li.server-entry')).toHaveCount(2);
  await expect(entry(page, 'everything')).toHaveClass(/selected/);
  await expect(page.locator('#server-url')).toHaveValue(EVERYTHING_URL);
  await expect(page.locator('#bearer-token')).toHaveValue('token-secret-2');
  await expect(page.locator('#custom-headers')).toHaveValue('X-Api-Key: header-secret-1');

  // The stdio entry: why, and a ready bridge command (values of env never repeated).
  const stdio = page.locator('li.import-stdio[data-server="files"]');
  await expect(stdio).toContainText('which a browser page cannot start');
  await expect(stdio.locator('.bridge-command')).toHaveText(
    `API_KEY="$API_KEY" npx -y supergateway@4.0.0 --stdio 'npx -y @modelcontextprotocol/server-filesystem '\\''/tmp/a b'\\''' --outputTransport streamableHttp --stateful --port 8000 --cors`,
  );
  await expect(page.locator('#import-export')).not.toContainText('env-secret-3');
  await stdio.locator('button.add-bridge').click();
  await expect(entry(page, 'files')).toBeVisible();
  await expect(page.locator('#server-url')).toHaveValue('http://localhost:8000/mcp');

  // Secrets are in no storage; the header name is remembered, its value is not.
  const stored = await localStorageText(page);
  expect(stored).toContain('X-Api-Key');
  for (const secret of ['header-secret-1', 'token-secret-2', 'env-secret-3']) expect(stored).not.toContain(secret);
  const session = await page.evaluate(() => JSON.stringify(sessionStorage));
  expect(session).not.toContain('secret');

  // The imported server works (headers included: server-everything ignores them).
  await entry(page, 'everything').click();
  await connect(page);
  await expect(toolItem(page, 'echo')).toBeVisible();

  await page.reload();
  await expect(entry(page, 'everything')).toBeVisible();
  await entry(page, 'everything').click();
  await expect(page.locator('#bearer-token')).toHaveValue('');
  await expect(page.locator('#custom-headers')).toHaveValue('X-Api-Key: ');
});

test('VS Code servers (JSONC, inputs) by file picker; MCP Inspector config by drag and drop', async ({ page }) => {
  await page.goto('/');
  await openImport(page);
  const vscode = `{
  // .vscode/mcp.json
  "inputs": [{ "type": "promptString", "id": "key", "password": true }],
  "servers": {
    "vs-http": { "type": "http", "url": "${EVERYTHING_URL}", "headers": { "X-Key": "\${input:key}" } },
    "vs-sse": { "type": "sse", "url": "${EVERYTHING_SSE_URL}" },
  }
}`;
  await page.locator('#import-file').setInputFiles({ name: 'mcp.json', mimeType: 'application/json', buffer: Buffer.from(vscode) });
  await expect(page.locator('#import-result .import-summary')).toHaveText('Added 2 servers: vs-http, vs-sse.');
  await expect(page.locator('#import-result .import-note')).toHaveText(
    'vs-http: fill in X-Key (the file names a placeholder, not a value).',
  );
  await entry(page, 'vs-sse').click();
  await expect(page.locator('#transport')).toHaveValue('sse');

  const inspector = JSON.stringify({
    mcpServers: {
      'default-server': { type: 'streamable-http', url: EVERYTHING_URL, note: 'For Streamable HTTP connections' },
      everything: { type: 'stdio', command: 'npx', args: ['@modelcontextprotocol/server-everything'] },
    },
  });
  const dataTransfer = await page.evaluateHandle((text) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([text], 'inspector.json', { type: 'application/json' }));
    return transfer;
  }, inspector);
  await page.locator('#import-export .drop-zone').dispatchEvent('drop', { dataTransfer });
  await expect(page.locator('#import-result .import-summary')).toHaveText('Added 1 server: default-server.');
  await expect(page.locator('li.import-stdio[data-server="everything"] .bridge-command')).toContainText(
    "--stdio 'npx @modelcontextprotocol/server-everything' --outputTransport streamableHttp",
  );
  await expect(page.locator('#transport')).toHaveValue('streamable-http');
  await connect(page);
});

test('a malformed file names the line at fault, and nothing in the sidebar is lost', async ({ page }) => {
  await page.goto('/');
  await importText(page, JSON.stringify({ mcpServers: { kept: { url: EVERYTHING_URL } } }));
  await expect(sidebar(page).locator('li.server-entry')).toHaveCount(2);
  const before = await localStorageText(page);

  await page.locator('#import-text').fill('{\n  "mcpServers": {\n    "a": { "url": "http://127.0.0.1:1/mcp" }\n    "b": {}\n  }\n}');
  await page.locator('#import-run').click();
  await expect(page.locator('#import-error')).toHaveText(/^Nothing was imported\. Line 4, column 5: /);
  await expect(sidebar(page).locator('li.server-entry')).toHaveCount(2);
  expect(await localStorageText(page)).toBe(before);

  // Bad entries are skipped by key and line; the good ones are read.
  await page.locator('#import-text').fill('{"servers": {\n"ok": {"type": "http", "url": "http://127.0.0.1:1/mcp"},\n"ws": {"type": "ws", "url": "ws://h"}\n}}');
  await page.locator('#import-run').click();
  await expect(page.locator('#import-result .import-skipped')).toHaveText(
    'Skipped. Line 3, key servers.ws.type: "ws" is not a transport a browser page can use (http, streamable-http or sse).',
  );
  await expect(entry(page, 'ok')).toBeVisible();
  await expect(entry(page, 'kept')).toBeVisible();

  // Server text is text: markup in a name is shown, never run.
  await page.locator('#import-text').fill(JSON.stringify({ mcpServers: { '<img src=x onerror=alert(1)>': { url: 'http://127.0.0.1:1/mcp' } } }));
  await page.locator('#import-run').click();
  await expect(page.locator('#import-result .import-summary')).toHaveText('Added 1 server: <img src=x onerror=alert(1)>.');
  await expect(page.locator('#servers img')).toHaveCount(0);
});

test('export writes the sidebar in each format without secrets, and imports back the same', async ({ page, browser }) => {
  await page.goto('/');
  await importText(
    page,
    JSON.stringify({
      mcpServers: {
        everything: { url: EVERYTHING_URL, headers: { 'X-Api-Key': 'header-secret-1', Authorization: 'Bearer token-secret-2' } },
        legacy: { type: 'sse', url: EVERYTHING_SSE_URL },
      },
    }),
  );
  await page.locator('#export-servers').click();
  await expect(page.locator('#import-export h3')).toHaveText('Export servers');
  const exported: Record<string, string> = {};
  for (const format of ['mcpServers', 'vscode', 'inspector']) {
    await page.locator('#export-format').selectOption(format);
    const text = await page.locator('#export-text').inputValue();
    expect(text).not.toContain('secret');
    exported[format] = text;
  }
  expect(JSON.parse(exported.vscode).servers.legacy).toEqual({ type: 'sse', url: EVERYTHING_SSE_URL });
  expect(JSON.parse(exported.mcpServers).mcpServers.everything).toEqual({ url: EVERYTHING_URL, headers: { 'X-Api-Key': '' } });
  expect(JSON.parse(exported.inspector).mcpServers.everything).toEqual({ type: 'streamable-http', url: EVERYTHING_URL });

  const download = page.waitForEvent('download');
  await page.locator('#export-download').click();
  expect((await download).suggestedFilename()).toBe('mcp-inspector.json');

  // Round trip: a fresh browser profile imports each export and gets the same entries.
  for (const [format, text] of Object.entries(exported)) {
    const context = await browser.newContext();
    const fresh = await context.newPage();
    await fresh.goto(APP_URL);
    await importText(fresh, text);
    await expect(fresh.locator('#import-result .import-summary'), format).toHaveText('Added 2 servers: everything, legacy.');
    await entry(fresh, 'legacy').click();
    await expect(fresh.locator('#server-url')).toHaveValue(EVERYTHING_SSE_URL);
    await expect(fresh.locator('#transport')).toHaveValue('sse');
    await entry(fresh, 'everything').click();
    await expect(fresh.locator('#server-url')).toHaveValue(EVERYTHING_URL);
    await context.close();
  }
});

test(`an imported name that is taken gets a number; port ${EVERYTHING_PORT} stays one entry per import`, async ({ page }) => {
  await page.goto('/');
  const text = JSON.stringify({ mcpServers: { twin: { url: EVERYTHING_URL } } });
  await importText(page, text);
  await page.locator('#import-run').click();
  await expect(entry(page, 'twin')).toBeVisible();
  await expect(entry(page, 'twin (2)')).toBeVisible();
  await page.locator('#close-dialog').click();
  await expect(page.locator('#import-export')).toHaveCount(0);
});

test('an import chunk that cannot be fetched is an error, and the next opening retries', async ({ page }) => {
  let refuse = true;
  await page.route(CHUNK, (route) => (refuse ? route.abort('connectionrefused') : route.continue()));
  await page.goto('/');
  await page.locator('#import-servers').click();
  await expect(page.locator('#servers p.error[role="alert"]')).toContainText('could not be downloaded');
  refuse = false;
  await page.locator('#import-servers').click(); // closes
  await page.locator('#import-servers').click(); // opens again
  await expect(page.locator('#import-export')).toBeVisible();
});

test('a 1 MB file of 80,000 entries: the first 1,000 are read, the rest said to be left out, and the page stays responsive', async ({ page }) => {
  test.setTimeout(120_000);
  await page.goto('/');
  await expect(sidebar(page).locator('li.server-entry')).toHaveCount(1);
  // 1,000 remote servers, then 79,000 entries of nothing (each one a line to report).
  const servers = Array.from({ length: 1_000 }, (_, n) => `"s${n}":{"url":"http://h${n}.test/mcp"}`);
  const empty = Array.from({ length: 79_000 }, (_, n) => `"e${n}":{}`);
  const text = `{"mcpServers":{\n${servers.join(',\n')},\n${empty.join(',')}\n}}`;
  expect(text.length).toBeLessThanOrEqual(1 << 20);
  expect(text.length).toBeGreaterThan(900_000);
  await openImport(page);
  const started = Date.now();
  await page.locator('#import-file').setInputFiles({ name: 'mcp.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await expect(page.locator('#import-left-out')).toHaveText(
    'The file lists 80,000 servers; the first 1,000 were read and 79,000 were left out (at most 1,000 are imported at once).',
    { timeout: 60_000 },
  );
  test.info().annotations.push({ type: 'import', description: `80,000 entries imported in ${Date.now() - started} ms` });
  await expect(page.locator('#import-result .import-summary')).toContainText('Added 1000 servers: s0, s1,');
  await expect(sidebar(page).locator('li.server-entry')).toHaveCount(1_001);
  // Still responsive: the dialog closes and a sidebar entry opens at once.
  const clicked = Date.now();
  await page.locator('#close-dialog').click();
  await expect(page.locator('#import-export')).toBeHidden();
  await entry(page, 's999').click();
  await expect(page.locator('#server-url')).toHaveValue('http://h999.test/mcp');
  expect(Date.now() - clicked).toBeLessThan(3_000);
});
