// What a hostile page that frames mcp-lens can and cannot do (issue 24, item 4), against the
// real built app as a default deployment serves it: a widget does not reach the reader's own
// machine or network, the first call of a widget shows what would run and waits for a second
// click, the full app refuses to run in a frame, a widget offers no sign-in, and the framing
// page hears only that the widget connected or failed.

import { APP_URL, EVERYTHING_URL } from './env';
import { allowPrivateNetworkEmbeds, expect, test } from './helpers';
import { freePort, TestServer } from './spawn';

const embed = (params: Record<string, string>, flags: string[] = []) => `/?${['embed', ...flags].join('&')}&${new URLSearchParams(params)}`;

let servers: TestServer[] = [];
test.afterEach(async () => {
  for (const server of servers) await server.stop();
  servers = [];
});

test('by default a widget refuses an address on the reader\'s machine, sends it nothing, and the framing page hears only "error"', async ({ page }) => {
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(EVERYTHING_URL)) sent.push(request.url());
  });
  await page.addInitScript(() => {
    (window as any).received = [];
    addEventListener('message', (e) => (window as any).received.push(e.data));
  });
  const src = new URL(embed({ url: EVERYTHING_URL, tool: 'write_file', args: '{"path":"/tmp/x"}' }, ['connect']), APP_URL).href;
  await page.setContent(`<p>A page on any site.</p><iframe id="w" title="w" src="${src.replace(/&/g, '&amp;')}" style="width: 500px; height: 300px"></iframe>`);
  const widget = page.frameLocator('#w');
  await expect(widget.locator('#connect-error')).toContainText('an address on your own machine or network');
  await expect(widget.locator('#connect-error')).toContainText('open it in mcp-lens instead');
  await expect(widget.locator('#status')).not.toContainText('Connected');
  expect(sent).toEqual([]);
  // The widget told its parent that it failed, and not why.
  const received = await page.evaluate(() => (window as any).received.filter((m: any) => m?.type !== 'height'));
  expect(received).toEqual([{ source: 'mcp-lens', type: 'error' }]);
});

test('a widget\'s first call shows the server, the tool and the arguments, and runs only on a second click', async ({ page }) => {
  await allowPrivateNetworkEmbeds(page);
  const calls: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(EVERYTHING_URL) && request.postData()?.includes('"tools/call"')) calls.push(request.postData()!);
  });
  await page.goto(embed({ url: EVERYTHING_URL, tool: 'echo', args: JSON.stringify({ message: 'from the framing page' }) }, ['connect']));
  await expect(page.locator('#tool-panel')).toBeVisible({ timeout: 20_000 });
  await page.locator('#run-tool').click();
  const ask = page.locator('#embed-ask');
  await expect(ask).toContainText(`This page asks to run the tool echo on ${new URL(EVERYTHING_URL).origin} with these arguments:`);
  await expect(ask.locator('.embed-ask-arguments')).toContainText('"message": "from the framing page"');
  await expect(ask).toBeFocused();
  // Its "Run it" is not under the Run button: one caught click cannot say yes.
  const run = await page.locator('#run-tool').boundingBox();
  const yes = await page.locator('#embed-ask-run').boundingBox();
  expect(Math.abs(run!.y - yes!.y) > 10 || Math.abs(run!.x - yes!.x) > 10).toBe(true);
  await page.locator('#embed-ask-cancel').click();
  await expect(ask).toHaveCount(0);
  await page.waitForTimeout(300);
  expect(calls).toEqual([]);
  await page.locator('#run-tool').click();
  await page.locator('#embed-ask-run').click();
  await expect(page.locator('#tool-result')).toContainText('Echo: from the framing page');
  expect(calls).toHaveLength(1);
  // Once said yes to, later calls go at once.
  await page.locator('#run-tool').click();
  await expect(page.locator('#tool-panel')).toHaveAttribute('data-runs', '2', { timeout: 20_000 });
  await expect(ask).toHaveCount(0);
});

test('the full app refuses to run inside another page\'s frame; it offers to open in its own tab', async ({ page }) => {
  const appUrl = new URL(`/?url=${encodeURIComponent(EVERYTHING_URL)}&connect`, APP_URL);
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(EVERYTHING_URL)) sent.push(request.url());
  });
  await page.setContent(`<iframe id="app" title="app" src="${appUrl.href.replace(/&/g, '&amp;')}" style="width: 900px; height: 600px; opacity: 0.01"></iframe>`);
  const framed = page.frameLocator('#app');
  await expect(framed.locator('#framed-refusal')).toContainText('does not run inside another page\'s frame');
  await expect(framed.locator('#framed-refusal a')).toHaveAttribute('target', '_blank');
  await expect(framed.locator('#connect')).toHaveCount(0);
  await expect(framed.locator('#server-url')).toHaveCount(0);
  expect(sent).toEqual([]);
});

test('a widget offers no sign-in by default; the full app does', async ({ page }) => {
  await allowPrivateNetworkEmbeds(page);
  const port = await freePort();
  const server = new TestServer('node', ['tests/servers/hostile_auth.mjs', '--port', String(port), '--collector-port', String(await freePort())], port);
  servers.push(server);
  await server.start();
  const url = `http://127.0.0.1:${port}/mcp`;
  await page.goto(embed({ url }, ['connect']));
  await expect(page.locator('#sign-in-bar')).toContainText('it wants you to sign in', { timeout: 20_000 });
  await expect(page.locator('#sign-in-off')).toContainText('Signing in is off in widgets on this site');
  await expect(page.locator('#sign-in')).toHaveCount(0);

  // A deployment that allows it (MCP_LENS_EMBED_ALLOW="private-network sign-in") offers it.
  await page.unrouteAll({ behavior: 'wait' });
  await allowPrivateNetworkEmbeds(page, 'private-network sign-in');
  await page.goto(embed({ url }, ['connect']));
  await expect(page.locator('#sign-in')).toHaveText('Sign in', { timeout: 20_000 });
});
