// Resources a session subscribes to (server-everything sends notifications/resources/updated
// for them every 5 s once its toggle-subscriber-updates tool is on), and lists that come in
// pages (tests/servers/paging_server.py). Both servers are started by the test itself, so no
// other test shares their subscriptions.

import { connect, disconnect, events, expect, openApp, runTool, selectTool, test, toolNames, type Page } from './helpers';
import { everythingServer, pagingServer, type TestServer } from './spawn';

let servers: TestServer[] = [];
test.afterEach(async () => {
  for (const server of servers) await server.stop();
  servers = [];
});

async function started(server: Promise<TestServer>): Promise<TestServer> {
  const running = await server;
  servers.push(running);
  await running.start();
  return running;
}

const EXTENSION_URI = 'demo://resource/static/document/extension.md';

async function selectResource(page: Page, uri: string) {
  await page.locator('#tab-resources').click();
  await page.locator(`li.resource-item[data-uri="${uri}"]`).click();
  const panel = page.locator('#resource-panel');
  await expect(panel).toBeVisible();
  return panel;
}

const updatesSent = async (page: Page) => ((await events(page)).match(/notifications\/resources\/updated/g) ?? []).length;

test('subscribe: an update is read again and marked; after unsubscribing no more come', async ({ page }) => {
  test.setTimeout(60_000);
  const server = await started(everythingServer());
  await openApp(page, `http://127.0.0.1:${server.port}/mcp`);
  await connect(page);

  let panel = await selectResource(page, EXTENSION_URI);
  const toggle = panel.locator('#subscribe-resource');
  await expect(toggle).toHaveText('Subscribe');
  await toggle.click();
  await expect(toggle).toHaveText('Unsubscribe');
  await expect(toggle).toHaveAttribute('data-subscribed', 'true');
  await expect(panel.locator('#resource-updated')).toHaveCount(0);

  // The server's own switch for sending updates to this session (one at once, then every 5 s).
  await selectTool(page, 'toggle-subscriber-updates');
  const started_ = await runTool(page);
  await expect(started_.locator('.content-text')).toContainText('Started simulated resource updated notifications');

  // The update arrived while another tab was shown: the resource was read again anyway.
  panel = await selectResource(page, EXTENSION_URI);
  const marked = panel.locator('#resource-updated');
  await expect(marked).toHaveText(/^updated at \d\d:\d\d:\d\d$/, { timeout: 15_000 });
  await expect(page.locator('#resource-result .content-text').first()).toContainText('# Everything Server - Extension Points');
  // And again with the next one, 5 s later.
  await expect(marked).toHaveAttribute('data-updates', '2', { timeout: 15_000 });

  await toggle.click();
  await expect(toggle).toHaveText('Subscribe');
  await expect(toggle).toHaveAttribute('data-subscribed', 'false');
  const seen = await updatesSent(page);
  const marks = await marked.getAttribute('data-updates');
  await page.waitForTimeout(7_000); // more than the server's 5 s pace
  expect(await updatesSent(page)).toBe(seen);
  await expect(marked).toHaveAttribute('data-updates', marks ?? '');
  await disconnect(page);
});

test('a paginated list: the first page, then Load more, then Load all', async ({ page }) => {
  const server = await started(pagingServer());
  await openApp(page, `http://127.0.0.1:${server.port}/mcp`);
  await connect(page);

  await page.locator('#tab-tools').click();
  const items = page.locator('li.tool-item');
  await expect(items).toHaveCount(100);
  await expect(page.locator('.load-more')).toContainText('100 listed; the server has more.');
  await page.locator('#load-more').click();
  await expect(items).toHaveCount(200);
  await expect(page.locator('.load-more')).toContainText('200 listed');
  await page.locator('#load-all').click();
  await expect(items).toHaveCount(250);
  await expect(page.locator('#load-more')).toHaveCount(0);
  await expect(page.locator('#load-all')).toHaveCount(0);
  const names = await toolNames(page);
  expect(names).toEqual(Array.from({ length: 250 }, (_, n) => `tool_${String(n).padStart(3, '0')}`));
  // The Python SDK says `ttlMs: 0` (stale at once): a list paged through is not started over
  // at its first page when its tab is opened again, only by Refresh.
  await expect(page.locator('.lifetime-text')).toHaveText(
    'stale: Refresh lists it again, for this sign-in only (private)',
  );
  // A tool of the last page works like any other.
  await selectTool(page, 'tool_249');
  const result = await runTool(page);
  await expect(result.locator('.content-text')).toHaveText(['called tool_249']);

  // Resources page the same way (10 a page); this server offers no subscriptions.
  await page.locator('#tab-resources').click();
  const resources = page.locator('li.resource-item');
  await expect(resources).toHaveCount(10);
  await page.locator('#load-more').click();
  await expect(resources).toHaveCount(20);
  await page.locator('#load-all').click();
  await expect(resources).toHaveCount(25);
  await expect(page.locator('#load-more')).toHaveCount(0);
  const panel = await selectResource(page, 'page://r24');
  await expect(panel.locator('#subscribe-resource')).toHaveCount(0);
  await panel.locator('#read-resource').click();
  await expect(page.locator('#resource-result .content-text')).toHaveText(['resource r24']);
  await disconnect(page);
});
