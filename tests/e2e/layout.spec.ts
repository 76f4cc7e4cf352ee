// Layout (issue 12): on a phone (390 px wide) nothing widens the page: long tool names and
// descriptions wrap, the wire log's table scrolls inside its own box.

import { EVERYTHING_URL } from './env';
import { confirmEmbedCall, connect, expect, openApp, type Page, selectTool, test } from './helpers';

async function pageWidth(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth);
}

test.use({ viewport: { width: 390, height: 844 } });

test('at 390 px wide, no view is wider than the screen', async ({ page }) => {
  await openApp(page, EVERYTHING_URL);
  expect(await pageWidth(page), 'the disconnected app').toBeLessThanOrEqual(390);
  await connect(page);
  expect(await pageWidth(page), 'the tools list').toBeLessThanOrEqual(390);
  for (const tool of ['echo', 'get-structured-content', 'trigger-long-running-operation']) {
    await selectTool(page, tool);
    expect(await pageWidth(page), `the ${tool} panel`).toBeLessThanOrEqual(390);
  }
  await page.locator('#tab-resources').click();
  expect(await pageWidth(page), 'the resources tab').toBeLessThanOrEqual(390);
  await page.locator('#wire-log > summary').click();
  await expect(page.locator('#wire-log table, #wire-log .wire-entry').first()).toBeVisible();
  expect(await pageWidth(page), 'the wire log').toBeLessThanOrEqual(390);
});

test('at 390 px wide, the embed view, the share dialog, the import dialog and a link\'s problems fit', async ({ page }) => {
  const long = 'a-very-long-argument-value-without-any-space-'.repeat(4);
  await page.goto(`/?embed&${new URLSearchParams({ url: EVERYTHING_URL, tool: 'echo', args: JSON.stringify({ message: long }), accent: long })}&connect`);
  await expect(page.locator('#tool-panel')).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('#embed-problems')).toBeVisible();
  await page.locator('#run-tool').click();
  await confirmEmbedCall(page);
  expect(await pageWidth(page), 'the embed view asking before its first call').toBeLessThanOrEqual(390);
  await expect(page.locator('#tool-result')).toContainText('Echo:');
  expect(await pageWidth(page), 'the embed view with a result and a problem').toBeLessThanOrEqual(390);

  await openApp(page, EVERYTHING_URL, { tool: 'echo', args: `{${long}` });
  await expect(page.locator('#link-problems')).toBeVisible();
  expect(await pageWidth(page), 'a deep link\'s problems').toBeLessThanOrEqual(390);
  await connect(page);
  await page.locator('#share').click();
  await expect(page.locator('#share-dialog')).toBeVisible();
  await expect(page.frameLocator('#share-preview').locator('#connect')).toBeVisible();
  expect(await pageWidth(page), 'the share dialog').toBeLessThanOrEqual(390);
  await page.keyboard.press('Escape');
  await page.locator('#import-servers').click();
  await expect(page.locator('#import-export')).toBeVisible();
  expect(await pageWidth(page), 'the import dialog').toBeLessThanOrEqual(390);
});
