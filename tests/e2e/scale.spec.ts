// Scale (issue 10): 5,000 tools and 10 MB results from tests/servers/scale_server.py, started by
// each test. What is asserted is behaviour, with generous bounds, never tight timings (the
// benchmark times things): long lists are drawn a window at a time and filter correctly; many
// filter edits do not make a later click slow; a 10 MB result and a 10 MB message in the wire
// log show their beginning, more on request, and Copy and Download give the whole.

import { statSync, readFileSync } from 'node:fs';
import { connect, expect, field, openApp, test, toolItem, type Page } from './helpers';
import { scaleServer, type TestServer } from './spawn';

const MEGABYTE = 1024 * 1024;

let servers: TestServer[] = [];
test.afterEach(async () => {
  for (const server of servers) await server.stop();
  servers = [];
});

async function connectToScale(page: Page): Promise<void> {
  const server = await scaleServer();
  servers.push(server);
  await server.start();
  await openApp(page, `http://127.0.0.1:${server.port}/mcp`);
  await connect(page);
  await page.locator('#tab-tools').click();
  await expect(toolItem(page, 'big_text')).toBeVisible();
}

async function loadAll(page: Page): Promise<void> {
  await expect(page.locator('.load-more')).toContainText('500 listed; the server has more.');
  await page.locator('#load-all').click();
  await expect(page.locator('#load-all')).toHaveCount(0, { timeout: 30_000 });
}

/** Filters the tool list, selects `name` and runs it with its defaults. */
async function run(page: Page, name: string): Promise<void> {
  await page.locator('#tool-filter').fill(name);
  await toolItem(page, name).click();
  await expect(page.locator('#tool-panel h2')).toContainText(name);
  await page.locator('#run-tool').click();
  await expect(page.locator('#tool-panel')).toHaveAttribute('data-runs', '1', { timeout: 30_000 });
}

test('5,000 tools: drawn a window at a time, filtered exactly, scrolled to the end', async ({ page }) => {
  await connectToScale(page);
  const rows = page.locator('li.tool-item');
  await loadAll(page);
  const list = page.locator('ul.items');
  // Every tool is in the list (each row has the same height), but only the rows in view and a
  // margin are in the DOM.
  expect(await list.evaluate((ul) => ul.scrollHeight)).toBeGreaterThanOrEqual(5000 * 48);
  expect(await rows.count()).toBeLessThan(200);
  expect(await page.locator('li').count()).toBeLessThan(300);

  // Scrolled to the end, the last tools are drawn.
  await list.evaluate((ul) => { ul.scrollTop = ul.scrollHeight; });
  await expect(toolItem(page, 'scale_4999')).toBeVisible();
  expect(await rows.count()).toBeLessThan(200);

  // The filter narrows the whole list, not the drawn rows, and shows its matches from the top.
  await page.locator('#tool-filter').fill('scale_4999');
  await expect(rows).toHaveCount(1);
  await expect(toolItem(page, 'scale_4999')).toBeVisible();
  await page.locator('#tool-filter').fill('SCALE_49');
  await expect(rows).toHaveCount(100);
  // Descriptions are searched too, case-insensitively, each item on its own: "number 12:"
  // is in scale_0012's description only (not 120, 1200 or another tool's text after it).
  await page.locator('#tool-filter').fill('NUMBER 12:');
  await expect(rows).toHaveCount(1);
  await expect(toolItem(page, 'scale_0012')).toBeVisible();
  await page.locator('#tool-filter').fill('echoes the');
  await expect(rows).toHaveCount(1);
  await expect(toolItem(page, 'echo')).toBeVisible();
  // A click anywhere in a row opens it (the list listens for its rows).
  await page.locator('#tool-filter').fill('number 12:');
  await toolItem(page, 'scale_0012').locator('.item-name').click();
  await expect(page.locator('#tool-panel h2')).toContainText('scale_0012');
  await expect(toolItem(page, 'scale_0012')).toHaveClass(/selected/);
  await page.locator('#tool-filter').fill('no such tool');
  await expect(rows).toHaveCount(0);
  await expect(page.locator('.list-pane')).toContainText('No tools.');
  await page.locator('#tool-filter').fill('');
  await expect(toolItem(page, 'big_text')).toBeVisible();
  expect(await rows.count()).toBeGreaterThan(10);
  expect(await rows.count()).toBeLessThan(200);
});

test('typing and deleting a filter key by key leaves the right rows, each showing its own tool', async ({ page }) => {
  // The drawn rows' elements are reused for the next rows (browse/rows.rs): after every key,
  // each drawn row must show its own tool's name and description, once, in the list's order.
  await connectToScale(page);
  await loadAll(page);
  const filter = page.locator('#tool-filter');
  await filter.click();
  const drawn = () =>
    page.locator('ul.items').evaluate((ul) =>
      [...ul.querySelectorAll('li.tool-item')].map((li) => ({
        tool: li.getAttribute('data-tool'),
        index: Number(li.getAttribute('data-index')),
        name: li.querySelector('.item-name')?.textContent,
        description: li.querySelector('.item-description')?.textContent,
      })),
    );
  const text = 'scale_4999';
  const steps = [...[...text].map((_, n) => text.slice(0, n + 1)), ...[...text].map((_, n) => text.slice(0, text.length - n - 1))];
  for (const [n, value] of steps.entries()) {
    await page.keyboard.press(n < text.length ? text[n] : 'Backspace');
    await expect(filter).toHaveValue(value);
    // Short match sets are drawn whole: 1 and 10 rows; scale_49 has 100.
    const expected = { scale_4999: 1, scale_499: 10 }[value];
    if (expected) await expect(page.locator('li.tool-item')).toHaveCount(expected);
    await expect(async () => {
      const rows = await drawn();
      expect(rows.length).toBeGreaterThan(0);
      for (const [i, row] of rows.entries()) {
        expect(row.name).toBe(row.tool);
        const number = /^scale_(\d{4})$/.exec(row.tool ?? '');
        if (number) expect(row.description).toBe(`Scale tool number ${Number(number[1])}: answers with its own name.`);
        if (value.startsWith('scale')) expect(`${row.tool} ${row.description}`.toLowerCase()).toContain(value);
        if (i > 0) expect(row.index).toBeGreaterThan(rows[i - 1].index);
      }
      if (value.startsWith('scale_4')) expect(rows[0].tool).toBe(`scale_${value.slice('scale_'.length).padEnd(4, '0')}`);
    }).toPass({ timeout: 5_000 });
  }
  await expect(toolItem(page, 'big_text')).toHaveCount(1);
  // The tab opened again draws each row once (its list patched, not made anew).
  await page.locator('#tab-tools').click();
  await expect(toolItem(page, 'big_text')).toHaveCount(1);
  await expect(toolItem(page, 'echo')).toHaveCount(1);
});

test('after many filter edits, a click on a tool opens its form promptly', async ({ page }) => {
  await connectToScale(page);
  await loadAll(page);
  const filter = page.locator('#tool-filter');
  for (let n = 0; n < 30; n++) {
    await filter.fill('scale_1');
    await filter.fill('scale_2');
    await filter.fill('');
  }
  await expect(toolItem(page, 'scale_0005')).toBeVisible();
  const started = Date.now();
  await toolItem(page, 'scale_0005').click();
  await expect(page.locator('#tool-panel h2')).toContainText('scale_0005', { timeout: 2_000 });
  expect(Date.now() - started).toBeLessThan(2_000);
  await expect(toolItem(page, 'scale_0005')).toHaveClass(/selected/);
  // The selection survives more edits, and another click moves it.
  await filter.fill('scale_000');
  await expect(toolItem(page, 'scale_0005')).toHaveClass(/selected/);
  await toolItem(page, 'scale_0006').click();
  await expect(page.locator('#tool-panel h2')).toContainText('scale_0006', { timeout: 2_000 });
  await expect(page.locator('li.tool-item.selected')).toHaveCount(1);
});

test('a 10 MB text result shows its beginning, more on request; Copy and Download give all of it', async ({ page }) => {
  test.setTimeout(120_000);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await connectToScale(page);
  await run(page, 'big_text');
  const text = page.locator('#tool-result .content-text');
  await expect(text).toContainText('line 00000000: the quick brown fox jumps over the lazy dog');
  const shown = page.locator('#tool-result .text-shown');
  await expect(shown).toHaveText('Showing 8.0 KB of 10.0 MB.');
  const length = () => text.evaluate((pre) => pre.textContent?.length ?? 0);
  expect(await length()).toBeLessThan(50_000);

  await page.locator('#tool-result .show-more').click();
  await expect(text).toContainText('line 00002000:');
  expect(await length()).toBeLessThan(400_000);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.locator('#tool-result .download-text').click(),
  ]);
  expect(download.suggestedFilename()).toBe('result.txt');
  expect(statSync((await download.path()) as string).size).toBe(10 * MEGABYTE);

  await page.locator('#tool-result .copy-text').click();
  await expect(page.locator('#tool-result .copied')).toHaveText('Copied.');
  const copied = await page.evaluate(async () => {
    const text = await navigator.clipboard.readText();
    return { length: text.length, end: text.slice(-30) };
  });
  expect(copied.length).toBe(10 * MEGABYTE);

  // Show all draws the rest a part per frame, and ends.
  await page.locator('#tool-result .show-all').click();
  await expect(shown).toHaveText('All 10.0 MB shown.', { timeout: 60_000 });
  expect(await length()).toBe(10 * MEGABYTE);
  await expect(page.locator('#tool-result .show-more')).toHaveCount(0);
  expect(copied.end).toBe((await text.evaluate((pre) => pre.textContent?.slice(-30))) ?? '');
});

test('a 10 MB JSON text shows its beginning formatted; many blocks show the first ones and a count', async ({ page }) => {
  await connectToScale(page);
  await run(page, 'big_json');
  const json = page.locator('#tool-result .content-text');
  await expect(json).toHaveClass(/json/);
  await expect(json).toContainText('"id": 0,');
  await expect(page.locator('#tool-result .text-shown')).toHaveText(/^Showing \d+\.\d KB of 10\.\d MB\.$/);
  expect(await json.evaluate((pre) => pre.textContent?.length ?? 0)).toBeLessThan(200_000);

  await run(page, 'many_blocks');
  const blocks = page.locator('#tool-result .content-text');
  await expect(blocks).toHaveCount(50);
  await expect(blocks.first()).toHaveText('block 0');
  const count = page.locator('#tool-result .blocks-shown');
  await expect(count).toHaveText('Showing the first 50 of 5000 blocks; 4950 more.');
  await page.locator('#tool-result .show-more').click();
  await expect(blocks).toHaveCount(100);
  await expect(blocks.nth(99)).toHaveText('block 99');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.locator('#tool-result .download-text').click(),
  ]);
  const all = JSON.parse(readFileSync((await download.path()) as string, 'utf8'));
  expect(all).toHaveLength(5000);
  expect(all[4999]).toEqual({ type: 'text', text: 'block 4999' });
  await page.locator('#tool-result .show-all').click();
  await expect(count).toHaveText('All 5000 blocks shown.', { timeout: 30_000 });
  await expect(blocks).toHaveCount(5000);
});

test('a 10 MB result is let go when its panel closes; small ones are kept', async ({ page }) => {
  await connectToScale(page);
  await page.locator('#tool-filter').fill('echo');
  await toolItem(page, 'echo').click();
  await field(page.locator('#tool-panel'), 'message').fill('small');
  await page.locator('#run-tool').click();
  await expect(page.locator('#tool-result .content-text')).toHaveText('Echo: small');
  await run(page, 'big_text');
  await expect(page.locator('#tool-result .content-text')).toContainText('line 00000000');
  await page.locator('#tool-filter').fill('');
  await toolItem(page, 'echo').click();
  await expect(page.locator('#tool-result .content-text')).toHaveText('Echo: small');
  await toolItem(page, 'big_text').click();
  await expect(page.locator('#tool-result .released')).toContainText('The last result (10.0 MB) was let go');
  await page.locator('#run-tool').click();
  await expect(page.locator('#tool-result .content-text')).toContainText('line 00000000', { timeout: 30_000 });
});

test('the wire log opens a 10 MB message at once: its beginning, more on request, all of it to download', async ({ page }) => {
  await connectToScale(page);
  await run(page, 'big_text');
  await expect(page.locator('#tool-result .content-text')).toContainText('line 00000000');
  const log = page.locator('#wire-log');
  await log.locator('summary').click();
  const answer = log.locator('tr.wire-entry[data-direction="received"]', { hasText: '(result)' }).last();
  const started = Date.now();
  await answer.click();
  const body = page.locator('#wire-detail .wire-body');
  await expect(body).toContainText('"text": "line 00000000: the quick brown fox', { timeout: 2_000 });
  expect(Date.now() - started).toBeLessThan(2_000);
  await expect(page.locator('#wire-detail .text-shown')).toHaveText(/^Showing \d+\.\d KB of 10\.\d MB\.$/);
  expect(await body.evaluate((pre) => pre.textContent?.length ?? 0)).toBeLessThan(200_000);
  const status = page.locator('#wire-detail .text-shown');
  const before = Number(await status.getAttribute('data-shown'));
  await page.locator('#wire-detail .show-more').click();
  await expect.poll(async () => Number(await status.getAttribute('data-shown'))).toBeGreaterThan(before + 100_000);
  await expect(status).toHaveText(/^Showing \d+\.\d KB of 10\.\d MB\.$/);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.locator('#wire-detail .download-text').click(),
  ]);
  expect(download.suggestedFilename()).toBe('message.json');
  const message = JSON.parse(readFileSync((await download.path()) as string, 'utf8'));
  expect(message.result.content[0].text.length).toBe(10 * MEGABYTE);
  // Another message replaces it.
  await log.locator('tr.wire-entry[data-direction="sent"]', { hasText: 'tools/call' }).last().click();
  await expect(page.locator('#wire-detail .wire-body')).toContainText('"name": "big_text"');
});
