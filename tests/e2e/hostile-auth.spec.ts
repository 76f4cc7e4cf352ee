// Sign-in and address attacks against the real built app, each with a hostile party of our own
// on loopback: an MCP server whose authorization server's sign-in page tries to drive the
// mcp-lens tab and whose token endpoint redirects the code elsewhere (tests/servers/hostile_auth.mjs);
// a crafted link whose server address a browser reads differently than a naive parser; an
// address with a password and a key in it.

import { expect, openApp, test } from './helpers';
import { freePort, TestServer } from './spawn';

let servers: TestServer[] = [];
test.afterEach(async () => {
  for (const server of servers) await server.stop();
  servers = [];
});

async function hostileAuth(): Promise<{ mcpUrl: string; observed: () => Promise<any> }> {
  const port = await freePort();
  const collectorPort = await freePort();
  const server = new TestServer('node', ['tests/servers/hostile_auth.mjs', '--port', String(port), '--collector-port', String(collectorPort)], port);
  servers.push(server);
  await server.start();
  return {
    mcpUrl: `http://127.0.0.1:${port}/mcp`,
    observed: async () => (await fetch(`http://127.0.0.1:${port}/observed`)).json(),
  };
}

test('a hostile sign-in page cannot reach the mcp-lens tab, and a token endpoint redirect does not carry the code away', async ({ page }) => {
  const hostile = await hostileAuth();
  await openApp(page, hostile.mcpUrl);
  const appUrl = page.url();
  await page.locator('#connect').click();
  await expect(page.locator('#sign-in')).toHaveText('Sign in', { timeout: 20_000 });
  const [popup] = await Promise.all([page.waitForEvent('popup'), page.locator('#sign-in').click()]);
  await popup.waitForEvent('close', { timeout: 20_000 });
  // The authorization server's page found no opener to send to a look-alike (item 9).
  await expect.poll(async () => (await hostile.observed()).opener).toBe('null');
  expect(page.url()).toBe(appUrl);
  await expect(page.locator('#look-alike')).toHaveCount(0);
  // The token request was answered 307 elsewhere: refused, not re-posted there (item 7).
  await expect(page.locator('#sign-in-reason')).toContainText('it is a redirect, which is not followed', { timeout: 20_000 });
  const observed = await hostile.observed();
  expect(observed.tokenRequests).toBe(1);
  expect(observed.stolen).toEqual([]);
  // The redirect came back without `iss`: the steps say so plainly (item 3).
  await expect(page.locator('#auth-view')).toContainText('carries no iss (RFC 9207), so nothing proves the code came from');
});

test('a crafted link whose address a browser reads as another host is refused, naming the host requests would go to', async ({ page }) => {
  const hostile = await hostileAuth();
  const evil = new URL(hostile.mcpUrl);
  // `evil\@good`: a browser reads the host before the backslash (evil); a parser that ends the
  // authority only at `/?#` and cuts userinfo at the last `@` reads the one after it.
  const crafted = `http://${evil.host}\\@127.0.0.1:9/mcp`;
  const requests: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(new URL(page.url() || 'http://x').origin)) requests.push(request.url());
  });
  await openApp(page, crafted);
  await expect(page.locator('#url-target')).toContainText(`programs read differently: a browser sends its requests to http://${evil.host}`);
  await page.locator('#connect').click();
  await expect(page.locator('#connect-error')).toContainText(`a browser sends its requests to http://${evil.host}`);
  expect(requests.filter((url) => url.includes(evil.host))).toEqual([]);
  expect((await hostile.observed()).tokenRequests).toBe(0);
});

test('a password and a key in the server address appear nowhere: not the name, the page, storage, an error or the export', async ({ page }) => {
  const address = 'http://user:PASSW0RD@127.0.0.1:9/mcp?api_key=SECRETKEY&x=1';
  await openApp(page, address);
  await page.locator('#connect').click();
  await expect(page.locator('#connect-error')).toContainText('carries a user name or password');
  const name = await page.locator('.server-entry-name').first().innerText();
  expect(name).toBe('127.0.0.1:9');
  // The URL field holds what the person typed; everything made from it must not.
  const text = await page.evaluate(() => {
    const field = document.querySelector<HTMLInputElement>('#server-url');
    const markup = document.body.innerText;
    return { markup, local: JSON.stringify({ ...localStorage }), field: field?.value ?? '' };
  });
  for (const secret of ['PASSW0RD', 'SECRETKEY']) {
    expect(text.markup).not.toContain(secret);
    expect(text.local).not.toContain(secret);
  }
  await page.locator('#export-servers').click();
  const exported = await page.locator('#export-text').inputValue();
  expect(exported).not.toContain('PASSW0RD');
  expect(exported).not.toContain('SECRETKEY');
});
