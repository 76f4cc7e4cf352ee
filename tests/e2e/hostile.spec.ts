// Servers that try to steer the person's secrets, against the real built app. The hostile
// server is our own (tests/servers/hostile_server.py): a real HTTP server that sends the attack.

import { test as plain } from '@playwright/test';
import { connectExpectingError, expect, openApp, test } from './helpers';
import { hostileServer, type TestServer } from './spawn';

let servers: TestServer[] = [];
test.afterEach(async () => {
  for (const server of servers) await server.stop();
  servers = [];
});

async function start(): Promise<TestServer> {
  const server = await hostileServer();
  servers.push(server);
  await server.start();
  return server;
}

test('a legacy SSE endpoint on another origin is refused, and the token goes nowhere', async ({ page }) => {
  const hostile = await start();
  const collector = await start(); // another origin: same host, another port
  const posted: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST') posted.push(request.url());
  });
  for (const endpoint of [`http://127.0.0.1:${collector.port}/steal`, `//127.0.0.1:${collector.port}/steal`]) {
    const sse = `http://127.0.0.1:${hostile.port}/sse?endpoint=${encodeURIComponent(endpoint)}`;
    await openApp(page, sse, { transport: 'sse' });
    await page.locator('#bearer-token').fill('secret-token-h0stile');
    const error = await connectExpectingError(page);
    await expect(error).toContainText(
      `the server's endpoint event sends messages to another origin (http://127.0.0.1:${collector.port})`,
    );
    await expect(error).toContainText(`only to the origin you connected to (http://127.0.0.1:${hostile.port})`);
  }
  expect(posted).toEqual([]);
  const received = await (await fetch(`http://127.0.0.1:${collector.port}/posts`)).json();
  expect(received).toEqual([]);
});

// Plain Playwright `test`: this one provokes a violation on purpose.
plain('the built app runs under a strict Content-Security-Policy that blocks injected script', async ({ page }) => {
  await page.goto('/');
  const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(policy).toContain("script-src 'self' 'wasm-unsafe-eval' 'sha256-");
  expect(policy).toContain("object-src 'none'");
  expect(policy).toContain("base-uri 'none'");
  await expect(page.locator('#connect')).toBeEnabled(); // the hashed bootstrap ran
  // Injected inline script (what an HTML-injection bug would lead to) does not run.
  const outcome = await page.evaluate(async () => {
    const violated = new Promise<string>((resolve) =>
      document.addEventListener('securitypolicyviolation', (e) => resolve(e.violatedDirective), { once: true }),
    );
    const script = document.createElement('script');
    script.textContent = 'window.__injected = true';
    document.body.append(script);
    return { directive: await violated, ran: (window as unknown as { __injected?: boolean }).__injected === true };
  });
  expect(outcome).toEqual({ directive: 'script-src-elem', ran: false });
});

test('spoofing text is shown as what it is: names, hosts and links', async ({ page }) => {
  const hostile = await start();
  await openApp(page, `http://127.0.0.1:${hostile.port}/mcp`);
  await page.locator('#connect').click();
  await expect(page.locator('#status')).toContainText('Connected', { timeout: 20_000 });
  // A right-to-left override in a name is shown, not obeyed.
  await expect(page.locator('#server-info .server-name')).toHaveText('hostile⟦U+202E⟧tset');
  const spoofed = page.locator('li.tool-item .item-name', { hasText: 'read_file' });
  await expect(spoofed).toHaveText('read_file⟦U+202E⟧exe.txt');
  await expect(spoofed).toHaveCSS('unicode-bidi', 'isolate');

  await page.locator('li.tool-item[data-tool="open_pages"]').click();
  await page.locator('#run-tool').click();
  const pages = page.locator('#tool-result .url-page');
  await expect(pages).toHaveCount(4);
  // 1. A leading no-break space: not a link (it would open on the app's own origin).
  await expect(pages.nth(0).locator('a')).toHaveCount(0);
  await expect(pages.nth(0)).toContainText('not a plain http(s) address');
  // 2. An internationalised host: its real (punycode) name, with a warning.
  await expect(pages.nth(1).locator('.host')).toHaveText('xn--pple-43d.com');
  await expect(pages.nth(1).locator('.idn-warning')).toBeVisible();
  await expect(pages.nth(1).locator('a.elicitation-link')).toHaveAttribute('href', 'https://xn--pple-43d.com/login');
  // 3. A right-to-left override in the path: shown, and not a link.
  await expect(pages.nth(2).locator('.elicitation-url')).toHaveText('https://example.com/⟦U+202E⟧gnp.exe');
  await expect(pages.nth(2).locator('a')).toHaveCount(0);
  // 4. A user name before "@": the host it really opens is the one shown.
  await expect(pages.nth(3).locator('.host')).toHaveText('evil.example');
  await expect(pages.nth(3).locator('.userinfo-warning')).toBeVisible();
});

test('an endless event-stream line fails its call at the size limit, and the page stays usable', async ({ page }) => {
  const hostile = await start();
  await openApp(page, `http://127.0.0.1:${hostile.port}/mcp`);
  await page.locator('#settings > summary').click();
  await expect(page.locator('#max-message')).toHaveValue('16');
  await page.locator('#max-message').fill('1');
  await page.locator('#connect').click();
  await expect(page.locator('#status')).toContainText('Connected', { timeout: 20_000 });
  await page.locator('li.tool-item[data-tool="endless_line"]').click();
  await page.locator('#run-tool').click();
  await expect(page.locator('#tool-result')).toContainText(
    'Calling the tool failed: the server sent an event-stream event larger than 1 MB, the most one message may be',
    { timeout: 20_000 },
  );
  // Still responsive: another tool opens and answers.
  await page.locator('li.tool-item[data-tool="open_pages"]').click();
  await page.locator('#run-tool').click();
  await expect(page.locator('#tool-result .url-page')).toHaveCount(4);
  const memory = await page.evaluate(() => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0);
  expect(memory).toBeLessThan(200 * 1024 * 1024);
});

test('a message storm: list changes coalesce, person requests are capped, the call still answers', async ({ page }) => {
  const hostile = await start();
  const lists: string[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  const isList = (request: import('@playwright/test').Request) =>
    request.method() === 'POST' && (request.postData() ?? '').includes('"tools/list"');
  page.on('request', (request) => {
    if (!isList(request)) return;
    lists.push(request.postData() ?? '');
    inFlight += 1;
    mostInFlight = Math.max(mostInFlight, inFlight);
  });
  for (const done of ['requestfinished', 'requestfailed'] as const) {
    page.on(done, (request) => {
      if (isList(request)) inFlight -= 1;
    });
  }
  await openApp(page, `http://127.0.0.1:${hostile.port}/mcp`);
  await page.locator('#connect').click();
  await expect(page.locator('#status')).toContainText('Connected', { timeout: 20_000 });
  const listsAtConnect = lists.length;
  await page.locator('li.tool-item[data-tool="storm"]').click();
  await page.locator('#run-tool').click();
  await expect(page.locator('#tool-result .content-text')).toHaveText(['storm over'], { timeout: 30_000 });
  // 2,000 list_changed: never more than one re-list in flight (each change arriving during
  // one causes at most one more after it), so a small fraction of 2,000 requests.
  await expect.poll(() => lists.length - listsAtConnect).toBeGreaterThan(0);
  expect(mostInFlight).toBe(1);
  expect(lists.length - listsAtConnect).toBeLessThan(200);
  // 200 elicitations: 16 wait for the person, the rest are declined and said so.
  await expect(page.locator('#server-requests .server-request')).toHaveCount(16);
  await page.locator('#events summary').click();
  await expect(page.locator('#events')).toContainText('declined: 16 requests were already waiting');
  // The page still answers a click at once.
  await page.locator('li.tool-item[data-tool="open_pages"]').click();
  await expect(page.locator('#tool-panel h2')).toContainText('open_pages');
});

test('a redirect is not followed with the person\'s token and headers', async ({ page }) => {
  const hostile = await start();
  const collector = await start();
  const to = `http://127.0.0.1:${collector.port}/steal`;
  await openApp(page, `http://127.0.0.1:${hostile.port}/redirect?to=${encodeURIComponent(to)}`, {
    transport: 'streamable-http',
    version: '2025-11-25',
  });
  await page.locator('#bearer-token').fill('secret-token-r3direct');
  await page.locator('#custom-headers').fill('X-Api-Key: secret-key-r3direct');
  const error = await connectExpectingError(page);
  await expect(error).toContainText('Initialize failed: the server answered with a redirect.');
  await expect(error).toContainText('does not follow a redirect with your token or custom headers');
  const received = await (await fetch(`http://127.0.0.1:${collector.port}/posts`)).json();
  expect(received).toEqual([]);
});

test('an output schema pattern that backtracks exponentially is checked in linear time, or not run', async ({ page }) => {
  const hostile = await start();
  await openApp(page, `http://127.0.0.1:${hostile.port}/mcp`);
  await page.locator('#connect').click();
  await expect(page.locator('#status')).toContainText('Connected', { timeout: 20_000 });
  // With ^(a+)+$ run on 40 a's and a '!', the browser's engine would take hours; the linear
  // engine answers at once.
  await page.locator('li.tool-item[data-tool="redos"]').click();
  await page.locator('#run-tool').click();
  await expect(page.locator('#tool-result')).toContainText('Must match the pattern ^(a+)+$.', { timeout: 10_000 });
  // A lookahead is beyond the linear engine, and the shape is catastrophic: not run at all.
  await page.locator('li.tool-item[data-tool="redos_lookahead"]').click();
  await page.locator('#run-tool').click();
  await expect(page.locator('#tool-result')).toContainText('The pattern ^(?=a)(a+)+$ could not be checked.', {
    timeout: 10_000,
  });
  await page.locator('li.tool-item[data-tool="open_pages"]').click();
  await expect(page.locator('#tool-panel h2')).toContainText('open_pages');
});
