// A server that floods the page by size, not by count: every message is valid and under the
// 16 MB a message may be, only their sum is hostile (issue 24, item 5). The page must stay
// alive and usable, and its memory bounded: the wire log and the server messages list keep
// a byte budget (the oldest bodies dropped first, each row saying so).
//
// Memory is read from the page itself: the wasm memory's size (it only grows, so it is the
// most the page ever held) and the JavaScript heap, sampled while the flood runs.

import { expect, heapAfterCollection, openApp, sampleMemory, test, trackWasmMemory, type Page } from './helpers';
import { hostileServer, type TestServer } from './spawn';

const MB = 1024 * 1024;
/** Far above what the page needs for one 16 MB message at a time, far below what the flood
 * would take if it were kept: 200 x 10 MB, then 250 x 16 MB. */
const WASM_LIMIT = 768 * MB;
/** What the JavaScript heap may still hold once collected (its peak is garbage the engine
 * collects when it likes: the bytes fetched and decoded, not kept). */
const HEAP_LIMIT = 256 * MB;

let servers: TestServer[] = [];
test.afterEach(async () => {
  for (const server of servers) await server.stop();
  servers = [];
});

async function runFlood(page: Page, tool: string): Promise<void> {
  await page.locator(`li.tool-item[data-tool="${tool}"]`).click();
  await expect(page.locator('#tool-panel h2')).toContainText(tool);
  await page.locator('#run-tool').click();
  await expect(page.locator('#tool-result .content-text')).toHaveText(['flood over'], { timeout: 120_000 });
}

test('a server flooding by size (200 notifications of 10 MB, then 250 answers of 16 MB): the page lives, its memory stays bounded', async ({ page }) => {
  test.setTimeout(300_000);
  const server = await hostileServer();
  servers.push(server);
  await server.start();
  await trackWasmMemory(page);
  await openApp(page, `http://127.0.0.1:${server.port}/mcp`);
  await page.locator('#connect').click();
  await expect(page.locator('#status')).toContainText('Connected', { timeout: 20_000 });

  const sampler = sampleMemory(page);
  let most: { wasm: number; heap: number };
  let kept = 0;
  try {
    await runFlood(page, 'flood_notifications');
    // The server messages list keeps the latest, each cut short (the wire log has the newest
    // whole), fewer than its 200 as its bytes bound it too.
    const events = page.locator('#events');
    await events.locator('summary').click();
    const kept = Number(/\((\d+)\)/.exec((await events.locator('summary').textContent()) ?? '')?.[1]);
    expect(kept).toBeGreaterThan(50);
    expect(kept).toBeLessThan(200);
    await expect(events.locator('li').last()).toContainText('notifications/message');
    await expect(events.locator('li').last()).toContainText('"logger":"flood"');
    await expect(events.locator('li').last()).toContainText('199 xxxx');
    await events.locator('summary').click();
    await runFlood(page, 'flood_answers');
  } finally {
    most = await sampler.stop();
    kept = await heapAfterCollection(page).catch(() => 0);
    test.info().annotations.push({
      type: 'memory',
      description: `most wasm memory ${Math.round(most.wasm / MB)} MB, most JS heap ${Math.round(most.heap / MB)} MB, JS heap kept ${Math.round(kept / MB)} MB`,
    });
  }
  expect(most.wasm).toBeGreaterThan(0); // the memory was found, so the bound below means something
  expect(most.wasm).toBeLessThan(WASM_LIMIT);
  expect(kept).toBeGreaterThan(0);
  expect(kept).toBeLessThan(HEAP_LIMIT);

  // Each stray answer was reported, the latest kept.
  const events = page.locator('#events');
  await events.locator('summary').click();
  await expect(events.locator('summary')).toHaveText('Server messages (200)');
  await expect(events.locator('li').last()).toContainText('unknown request id stray-249');

  // The wire log kept its newest rows; the oldest bodies went, and their rows say so.
  const log = page.locator('#wire-log');
  await log.locator('summary').click();
  await expect(log.locator('tr.wire-entry').first()).toBeVisible({ timeout: 15_000 });
  await expect(log.locator('tr.wire-entry .wire-body-dropped').first()).toBeVisible();
  await log.locator('tr.wire-entry', { has: page.locator('.wire-body-dropped') }).first().click();
  await expect(page.locator('#wire-detail')).toContainText('dropped to bound memory');

  // Still usable at once: another tool opens and answers.
  const started = Date.now();
  await page.locator('li.tool-item[data-tool="open_pages"]').click();
  await expect(page.locator('#tool-panel h2')).toContainText('open_pages');
  expect(Date.now() - started).toBeLessThan(5_000);
  await page.locator('#run-tool').click();
  await expect(page.locator('#tool-result .url-page')).toHaveCount(4);
});
