// The split build (scripts/wasm-split.mjs, src/ui/lazy.rs): the first paint needs only the main
// module; the session chunk (the client and the connected panels) is fetched after it, and a
// chunk that cannot be fetched is an error the person can retry, never a dead page.

import { EVERYTHING_URL } from './env';
import { connect, expect, openApp, test, toolItem } from './helpers';

const CHUNK = /\/split_session\.wasm$/;

test('the session chunk is fetched after the first paint, and Connect uses it', async ({ page }) => {
  const requested: string[] = [];
  const failed: string[] = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
  });
  await openApp(page, EVERYTHING_URL);
  await expect.poll(() => requested.some((p) => CHUNK.test(p))).toBe(true);
  // Its timing entry appears once it has arrived (with the chunk it shares with the import
  // dialogs' chunk, `chunk_N.wasm`, fetched beside it).
  await expect
    .poll(() => page.evaluate(() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/split_session.wasm'))))
    .toBe(true);
  // Fetched after the first paint, from the page's own timeline.
  const times = await page.evaluate(() => {
    const paint = performance.getEntriesByName('first-contentful-paint')[0];
    const chunk = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/split_session.wasm'));
    const main = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/mcp-lens_bg.wasm'));
    return { paint: paint?.startTime, chunk: chunk?.startTime, main: main?.startTime };
  });
  expect(times.paint).toBeDefined();
  expect(times.main).toBeDefined();
  expect(times.chunk, JSON.stringify(times)).toBeGreaterThanOrEqual(times.paint!);
  await connect(page);
  await expect(toolItem(page, 'echo')).toBeVisible();
  expect(requested.filter((p) => CHUNK.test(p))).toHaveLength(1);
  // Every file the page names exists (the build removed Trunk's unsplit copy and its links).
  expect(failed.filter((f) => !f.includes('/mcp'))).toEqual([]);
});

test('a session chunk that cannot be fetched: Connect says so, and the next Connect retries', async ({ page }) => {
  let refuse = true;
  await page.route(CHUNK, (route) => (refuse ? route.abort('connectionrefused') : route.continue()));
  await openApp(page, EVERYTHING_URL);
  await page.locator('#connect').click();
  const error = page.locator('#connect-error');
  await expect(error).toContainText('could not be downloaded');
  await expect(page.locator('#status')).toContainText('Error');
  refuse = false;
  await connect(page);
  await expect(toolItem(page, 'echo')).toBeVisible();
});
