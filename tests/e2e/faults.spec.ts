// Faults with real servers that the test starts, kills and restarts itself.

import { connect, disconnect, events, expect, field, openApp, runTool, selectTool, test, toolItem } from './helpers';
import { everythingServer, pythonServer, type TestServer } from './spawn';

let servers: TestServer[] = [];
test.afterEach(async () => {
  for (const server of servers) await server.stop();
  servers = [];
});

test('a server restarted between calls: the session is renewed and the call replayed', async ({ page }) => {
  const server = await pythonServer();
  servers.push(server);
  await server.start();
  // Sessions belong to the handshake era: pin it (Auto would pick the stateless 2026-07-28).
  await openApp(page, `http://127.0.0.1:${server.port}/mcp`, { version: '2025-11-25' });
  await connect(page);
  let panel = await selectTool(page, 'echo');
  await field(panel, 'message').fill('before the restart');
  let result = await runTool(page);
  await expect(result.locator('.content-text')).toHaveText(['Echo: before the restart']);

  await server.restart(); // the new process knows no sessions: the old id gets 404

  await field(panel, 'message').fill('after the restart');
  await page.locator('#run-tool').click();
  await expect(result.locator('.content-text')).toHaveText(['Echo: after the restart'], { timeout: 20_000 });
  await expect(result).not.toHaveClass(/result-error/);
  await expect.poll(() => events(page)).toContain('The server lost the session');
  await expect(page.locator('#status')).toHaveText('Connected');
  await disconnect(page);
});

test('a server killed during a long call: a clear error, then reconnecting works after a restart', async ({ page }) => {
  const server = await everythingServer();
  servers.push(server);
  await server.start();
  const url = `http://127.0.0.1:${server.port}/mcp`;
  await openApp(page, url);
  await connect(page);
  const panel = await selectTool(page, 'trigger-long-running-operation');
  await field(panel, 'duration').fill('30');
  await field(panel, 'steps').fill('30');
  await page.locator('#run-tool').click();
  await expect(page.locator('#progress')).toBeVisible();

  await server.stop();
  const result = page.locator('#tool-result');
  await expect(result).toHaveClass(/result-error/, { timeout: 20_000 });
  await expect(result).toContainText('Calling the tool failed:');
  // The page still works: the form and the other panels respond.
  await page.locator('#tab-prompts').click();
  await page.locator('#tab-tools').click();

  await server.start();
  await connect(page);
  await expect(toolItem(page, 'echo')).toBeVisible();
  const echo = await selectTool(page, 'echo');
  await field(echo, 'message').fill('back again');
  const again = await runTool(page);
  await expect(again.locator('.content-text')).toHaveText(['Echo: back again']);
  await disconnect(page);
});

test('a stream cut before its answer is resumed with Last-Event-ID; the answer arrives once', async ({ page }) => {
  const server = await pythonServer(['--event-store']);
  servers.push(server);
  await server.start();
  // Resumable streams belong to the handshake era.
  await openApp(page, `http://127.0.0.1:${server.port}/mcp`, { version: '2025-11-25' });
  await connect(page);
  const panel = await selectTool(page, 'interrupted_echo');
  await field(panel, 'message').fill('resumed');
  const result = await runTool(page);
  await expect(result.locator('.content-text')).toHaveText(['Echo after a cut: resumed']);

  const log = page.locator('#wire-log');
  await log.locator('summary').click();
  // The POST stream ended after its priming event; the GET that resumed it named that event.
  const resumed = log.locator('tr.wire-entry[data-direction="sent"]', { hasText: 'GET' });
  await expect(resumed.first()).toBeVisible();
  const gets = await resumed.count();
  let sawLastEventId = false;
  for (let i = 0; i < gets; i += 1) {
    await resumed.nth(i).click();
    if ((await page.locator('#wire-detail').innerText()).includes('last-event-id:')) sawLastEventId = true;
  }
  expect(sawLastEventId).toBe(true);
  // Exactly one answer to the call, and no duplicate reported as an unknown id.
  expect(await events(page)).not.toContain('unknown request id');
  await disconnect(page);
});
