// Servers that try to steer the person's secrets, against the real built app. The hostile
// server is our own (tests/servers/hostile_server.py): a real HTTP server that sends the attack.

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
