// What a hostile page that frames mcp-lens can and cannot do (issue 24, item 4), against the
// real built app: a widget does not reach the reader's own machine or network, the first call
// of a widget shows what would run and waits for a second click, the full app refuses to run in
// a frame, a widget offers no sign-in, and the framing page hears only that the widget connected
// or failed.
//
// The suite's build lets widgets reach loopback (every test server is there: scripts/test.sh);
// this spec serves the same build as other deployments would, on an origin of its own: as it
// ships (nothing allowed), and allowing sign-in too (what `MCP_LENS_EMBED_ALLOW` writes).

import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { APP_URL, EVERYTHING_URL, HOST } from './env';
import { expect, test } from './helpers';
import { freePort, TestServer } from './spawn';

const DIST = path.resolve(__dirname, '../..', process.env.MCP_LENS_DIST || 'dist');
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.wasm': 'application/wasm',
  '.css': 'text/css',
  '.json': 'application/json',
};

/** The built app served with `allow` as its embed setting (null: none, the default), on its own port. */
async function deployment(allow: string | null): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((request, response) => {
    let pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname);
    if (pathname.endsWith('/')) pathname += 'index.html';
    const file = path.join(DIST, pathname);
    if (!file.startsWith(DIST + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    let body: Buffer | string = fs.readFileSync(file);
    if (pathname === '/index.html') {
      body = body.toString('utf8').replace(/<meta name="mcp-lens-embed-allow"[^>]*>/, '');
      if (allow) body = body.replace('<head>', `<head><meta name="mcp-lens-embed-allow" content="${allow}">`);
    }
    response.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://${HOST}:${port}/`, close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }) };
}

let deployments: { close: () => Promise<void> }[] = [];
async function serve(allow: string | null): Promise<string> {
  const served = await deployment(allow);
  deployments.push(served);
  return served.url;
}
test.afterEach(async () => {
  for (const served of deployments) await served.close();
  deployments = [];
});

const embed = (params: Record<string, string>, flags: string[] = []) => `/?${['embed', ...flags].join('&')}&${new URLSearchParams(params)}`;

let servers: TestServer[] = [];
test.afterEach(async () => {
  for (const server of servers) await server.stop();
  servers = [];
});

test('by default a widget refuses an address on the reader\'s machine, sends it nothing, and the framing page hears only "error"', async ({ page }) => {
  const shipped = await serve(null);
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(EVERYTHING_URL)) sent.push(request.url());
  });
  await page.setContent('<p>A page on any site.</p>');
  await page.evaluate(() => {
    (window as any).received = [];
    addEventListener('message', (e) => (window as any).received.push(e.data));
  });
  const src = new URL(embed({ url: EVERYTHING_URL, tool: 'write_file', args: '{"path":"/tmp/x"}' }, ['connect']), shipped).href;
  await page.evaluate((src) => {
    const frame = document.createElement('iframe');
    Object.assign(frame, { id: 'w', title: 'w', src });
    frame.style.cssText = 'width: 500px; height: 300px';
    document.body.append(frame);
  }, src);
  const widget = page.frameLocator('#w');
  await expect(widget.locator('#connect-error')).toContainText('an address on your own machine or network');
  await expect(widget.locator('#connect-error')).toContainText('open it in mcp-lens instead');
  await expect(widget.locator('#status')).not.toContainText('Connected');
  expect(sent).toEqual([]);
  // The widget told its parent that it failed, and not why.
  await expect.poll(() => page.evaluate(() => (window as any).received.filter((m: any) => m?.type !== 'height'))).toEqual([{ source: 'mcp-lens', type: 'error' }]);
});

test('a widget\'s first call shows the server, the tool and the arguments, and runs only on a second click', async ({ page }) => {
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

test('a widget offers no sign-in unless the deployment allows it', async ({ page }) => {
  const port = await freePort();
  const server = new TestServer('node', ['tests/servers/hostile_auth.mjs', '--port', String(port), '--collector-port', String(await freePort())], port);
  servers.push(server);
  await server.start();
  const url = `http://127.0.0.1:${port}/mcp`;
  // The suite's build allows loopback addresses, not sign-in.
  await page.goto(embed({ url }, ['connect']));
  await expect(page.locator('#sign-in-bar')).toContainText('it wants you to sign in', { timeout: 20_000 });
  await expect(page.locator('#sign-in-off')).toContainText('Signing in is off in widgets on this site');
  await expect(page.locator('#sign-in')).toHaveCount(0);

  // A deployment built with MCP_LENS_EMBED_ALLOW="private-network sign-in" offers it.
  const allowing = await serve('private-network sign-in');
  await page.goto(new URL(embed({ url }, ['connect']), allowing).href);
  await expect(page.locator('#sign-in')).toHaveText('Sign in', { timeout: 20_000 });
});
