// notifications/tools/list_changed: the page fetches the list again by itself. The server
// (one the test starts, since it changes) adds a tool and says so: on the GET stream in the
// handshake era, on subscriptions/listen in the stateless era.

import { connect, disconnect, expect, openApp, runTool, selectTool, test, toolItem } from './helpers';
import { pythonServer, type TestServer } from './spawn';

let servers: TestServer[] = [];
test.afterEach(async () => {
  for (const server of servers) await server.stop();
  servers = [];
});

for (const version of ['2025-11-25', 'auto']) {
  test(`a changed tool list is fetched again (${version})`, async ({ page }) => {
    const server = await pythonServer();
    servers.push(server);
    await server.start();
    await openApp(page, `http://127.0.0.1:${server.port}/mcp`, { version });
    await connect(page);
    await expect(toolItem(page, 'added_1')).toHaveCount(0);
    await selectTool(page, 'add_tool');
    const result = await runTool(page);
    await expect(result.locator('.content-text')).toHaveText(['Added added_1.']);
    // No reload, no click: the notification made the page list the tools again.
    await expect(toolItem(page, 'added_1')).toBeVisible({ timeout: 10_000 });
    await selectTool(page, 'added_1');
    const added = await runTool(page);
    await expect(added.locator('.content-text')).toHaveText(['I am added_1.']);
    await disconnect(page);
  });
}
