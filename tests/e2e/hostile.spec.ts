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
