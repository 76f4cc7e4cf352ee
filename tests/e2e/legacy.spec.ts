// The legacy HTTP+SSE transport (protocol 2024-11-05) and the transport choice.
//
// Auto tries Streamable HTTP first; a server that answers that POST with 400, 404 or 405 gets
// the legacy transport: GET the SSE URL (through fetch, so headers can be sent), wait for the
// `endpoint` event (a relative URL, resolved against the SSE URL), POST there, and read the
// answers from the stream.

import { EVERYTHING_SSE_URL, EVERYTHING_URL, PYTHON_SSE_URL } from './env';
import {
  connect,
  connectExpectingError,
  disconnect,
  expect,
  field,
  openApp,
  readResource,
  runTool,
  selectTool,
  test,
  toolItem,
} from './helpers';

test('Auto opens a URL ending in /sse as legacy SSE at once (server-everything in sse mode)', async ({ page }) => {
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST') posts.push(new URL(request.url()).pathname);
  });
  await openApp(page, EVERYTHING_SSE_URL);
  await connect(page);
  await expect(page.locator('#server-info .server-name')).toHaveText('mcp-servers/everything');
  await expect(page.locator('#server-info .transport')).toHaveText('SSE (legacy)');
  await expect(page.locator('#server-info .transport-reason')).toContainText('the URL ends in /sse');
  // Where messages go is shown, and it is the SSE URL's own origin.
  await expect(page.locator('#server-info .transport-reason')).toContainText(`messages are POSTed to ${new URL(EVERYTHING_SSE_URL).origin}`);
  // No probe POSTs to /sse: every POST went to the endpoint the stream named.
  expect(posts.length).toBeGreaterThan(0);
  expect(posts.every((p) => p === '/message')).toBe(true);

  const panel = await selectTool(page, 'echo');
  await field(panel, 'message').fill('over legacy SSE');
  const result = await runTool(page);
  await expect(result.locator('.content-text')).toHaveText(['Echo: over legacy SSE']);

  const resource = await readResource(page, 'demo://resource/static/document/extension.md');
  await expect(resource.locator('.content-text')).toContainText('# Everything Server - Extension Points');
  await disconnect(page);
});

test('Auto names both failures and suggests /mcp when a URL misses the MCP path', async ({ page }) => {
  const root = new URL(EVERYTHING_URL).origin;
  await openApp(page, `${root}/`);
  const error = await connectExpectingError(page);
  // The Streamable HTTP answer first (what the URL really answered), then the fallback's.
  await expect(error).toContainText('over Streamable HTTP, the server answered HTTP 404');
  await expect(error).toContainText('Auto then tried the legacy HTTP+SSE transport, which failed too');
  await expect(error).toContainText(`try ${root}/mcp or ${root}/sse`);
});

test('legacy SSE chosen explicitly against the Python SDK server', async ({ page }) => {
  await page.goto(`/?url=${encodeURIComponent(PYTHON_SSE_URL)}&transport=sse`);
  await expect(page.locator('#transport')).toHaveValue('sse');
  await connect(page);
  await expect(page.locator('#server-info .server-name')).toHaveText('mcp-lens-python-test');
  await expect(page.locator('#server-info .transport')).toHaveText('SSE (legacy)');
  await expect(page.locator('#server-info .transport-reason')).toContainText('chosen in the connection settings');

  const panel = await selectTool(page, 'calculate');
  await field(panel, 'a').fill('2.5');
  await field(panel, 'b').fill('4');
  await field(panel, 'operation').selectOption({ label: 'multiply' });
  await field(panel, 'negate').selectOption('true');
  const result = await runTool(page);
  await expect(result.locator('.content-text')).toHaveText(['Result: -10.0']);
  await disconnect(page);
});

test('Auto keeps Streamable HTTP for a Streamable HTTP server', async ({ page }) => {
  await openApp(page, EVERYTHING_URL);
  await expect(page.locator('#transport')).toHaveValue('auto');
  await connect(page);
  await expect(page.locator('#server-info .transport')).toHaveText('Streamable HTTP');
  await expect(page.locator('#server-info .transport-reason')).toContainText('accepted the Streamable HTTP POST');
  await expect(toolItem(page, 'echo')).toBeVisible();
  await disconnect(page);
});

test('Streamable HTTP chosen explicitly does not fall back', async ({ page }) => {
  await page.goto(`/?url=${encodeURIComponent(EVERYTHING_SSE_URL)}&transport=streamable-http`);
  const error = await connectExpectingError(page);
  await expect(error).toContainText('Initialize failed: the server answered HTTP 404');
});
