// What the page keeps while a server stays connected: each tool's (prompt's, template's) form
// values and last result, the selection per tab, across switching items and tabs and list
// changes.

import { EVERYTHING_URL } from './env';
import { connect, disconnect, expect, field, openApp, runTool, selectTool, test, toolItem } from './helpers';
import { pythonServer, type TestServer } from './spawn';

let servers: TestServer[] = [];
test.afterEach(async () => {
  for (const server of servers) await server.stop();
  servers = [];
});

test('form values and the last result stay per tool across tools and tabs', async ({ page }) => {
  await openApp(page, EVERYTHING_URL);
  await connect(page);
  let panel = await selectTool(page, 'echo');
  await field(panel, 'message').fill('first echo');
  const result = await runTool(page);
  await expect(result.locator('.content-text')).toHaveText(['Echo: first echo']);
  await field(panel, 'message').fill('typed, not sent');

  panel = await selectTool(page, 'get-sum');
  await field(panel, 'a').fill('2');
  await field(panel, 'b').fill('3');
  await expect(page.locator('#tool-result')).toHaveCount(0); // get-sum has no result yet

  // Another tab and back: the selection and everything typed are still there.
  await page.locator('#tab-prompts').click();
  await page.locator('#tab-tools').click();
  panel = page.locator('#tool-panel');
  await expect(field(panel, 'a')).toHaveValue('2');
  await expect(field(panel, 'b')).toHaveValue('3');

  panel = await selectTool(page, 'echo');
  await expect(field(panel, 'message')).toHaveValue('typed, not sent');
  await expect(page.locator('#tool-result .content-text')).toHaveText(['Echo: first echo']);
  await disconnect(page);
});

test('while a new call runs, the last result is marked as previous', async ({ page }) => {
  await openApp(page, EVERYTHING_URL);
  await connect(page);
  const panel = await selectTool(page, 'trigger-long-running-operation');
  await field(panel, 'duration').fill('1');
  await field(panel, 'steps').fill('2');
  const result = await runTool(page);
  await expect(result.locator('.content-text')).toContainText('Long running operation completed', { timeout: 15_000 });
  await page.locator('#run-tool').click();
  await expect(page.locator('#tool-panel .outcome')).toHaveClass(/previous/);
  await expect(page.locator('#tool-panel .previous-note')).toBeVisible();
  await expect(page.locator('#tool-panel .outcome')).not.toHaveClass(/previous/, { timeout: 15_000 });
  await disconnect(page);
});

test('the open panel follows a changed tool list, keeping what was typed', async ({ page }) => {
  const server = await pythonServer();
  servers.push(server);
  await server.start();
  await openApp(page, `http://127.0.0.1:${server.port}/mcp`, { version: '2025-11-25' });
  await connect(page);
  let panel = await selectTool(page, 'echo');
  await field(panel, 'message').fill('still here');
  panel = await selectTool(page, 'add_tool');
  await runTool(page);
  await expect(toolItem(page, 'added_1')).toBeVisible({ timeout: 10_000 });
  // The list was replaced; the selected tool is found again by name, its panel kept.
  await expect(toolItem(page, 'add_tool')).toHaveClass(/selected/);
  await expect(page.locator('#tool-result .content-text')).toHaveText(['Added added_1.']);
  panel = await selectTool(page, 'echo');
  await expect(field(panel, 'message')).toHaveValue('still here');
  await disconnect(page);
});
