// Keyboard use (issue 12): with no mouse, a person reaches the filter with `/`, the rows with
// Tab and the arrows, opens one with Enter, fills its form through labels tied to their
// inputs, and runs it. Against server-everything, and the scale server's windowed list.

import { EVERYTHING_URL } from './env';
import { connect, expect, openApp, type Page, test, toolItem } from './helpers';
import { scaleServer, type TestServer } from './spawn';

test('a tool is found, opened, filled and run with the keyboard alone', async ({ page }) => {
  await openApp(page, EVERYTHING_URL);
  await page.locator('#connect').focus();
  await page.keyboard.press('Enter');
  await expect(toolItem(page, 'echo')).toBeVisible();

  await page.locator('body').focus();
  await page.keyboard.press('/');
  await expect(page.locator('#tool-filter')).toBeFocused();
  await page.keyboard.type('echo');
  await expect(page.locator('#tool-filter')).toHaveValue('echo'); // the slash was not typed
  await page.keyboard.press('Tab');
  await expect(toolItem(page, 'echo')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('#tool-panel h2')).toContainText('echo');
  // Opening redraws the row; the focus stays on it.
  await expect(toolItem(page, 'echo')).toBeFocused();
  await expect(toolItem(page, 'echo')).toHaveAttribute('aria-selected', 'true');

  // The form's label names its input.
  const message = page.locator('#tool-panel').getByLabel('message');
  await message.fill('typed, not clicked');
  await message.focus();
  await page.locator('#run-tool').focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('#tool-result')).toContainText('Echo: typed, not clicked');
});

test('the arrows move between rows, one row at a time', async ({ page }) => {
  await openApp(page, EVERYTHING_URL);
  await connect(page);
  const rows = page.locator('ul.items li.item');
  await expect(rows.first()).toBeVisible();
  const first = await rows.nth(0).getAttribute('data-tool');
  const second = await rows.nth(1).getAttribute('data-tool');
  await rows.nth(0).focus();
  await page.keyboard.press('ArrowDown');
  await expect(toolItem(page, second!)).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(toolItem(page, first!)).toBeFocused();
  await page.keyboard.press(' ');
  await expect(page.locator('#tool-panel h2')).toContainText(first!);
});

let servers: TestServer[] = [];
test.afterEach(async () => {
  for (const server of servers) await server.stop();
  servers = [];
});

/** The scale server's 500 tools, connected; its list's rows and how many of them are drawn. */
async function scaleList(page: Page) {
  const server = await scaleServer();
  servers.push(server);
  await server.start();
  await openApp(page, `http://127.0.0.1:${server.port}/mcp`);
  await connect(page);
  const rows = page.locator('ul.items li.item');
  await expect(rows.first()).toBeVisible();
  return { rows, drawn: await rows.count() };
}

test('the arrows go past the drawn window of a long list', async ({ page }) => {
  const { rows, drawn } = await scaleList(page);
  expect(drawn).toBeLessThan(100); // 500 listed, a window of them drawn
  await rows.first().focus();
  const steps = drawn + 20;
  for (let i = 0; i < steps; i++) await page.keyboard.press('ArrowDown');
  const focused = page.locator('ul.items li.item:focus');
  await expect(focused).toHaveAttribute('data-index', String(steps));
});

test('arrows pressed faster than frames each move one row, past the drawn window', async ({ page }) => {
  const { rows, drawn } = await scaleList(page);
  await rows.first().focus();
  // All presses in one task, as a held key outruns the frames: the rows past the window are
  // drawn only after it, and each press must still count once.
  const steps = drawn + 15;
  await page.evaluate((steps) => {
    for (let i = 0; i < steps; i++) {
      const init = { key: 'ArrowDown', bubbles: true, cancelable: true };
      document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', init));
    }
  }, steps);
  const focused = page.locator('ul.items li.item:focus');
  await expect(focused).toHaveAttribute('data-index', String(steps));
  // And back up the same way, past the top of the window.
  await page.evaluate((steps) => {
    for (let i = 0; i < steps; i++) {
      const init = { key: 'ArrowUp', bubbles: true, cancelable: true };
      document.activeElement!.dispatchEvent(new KeyboardEvent('keydown', init));
    }
  }, steps - 3);
  await expect(focused).toHaveAttribute('data-index', '3');
});

test('sidebar servers are chosen with the keyboard', async ({ page }) => {
  await openApp(page, EVERYTHING_URL);
  const entries = page.locator('#servers .server-entry');
  await page.locator('#add-server').focus();
  await page.keyboard.press('Enter');
  await expect(entries).toHaveCount(2);
  await expect(entries.nth(1)).toHaveAttribute('aria-current', 'true');
  await entries.nth(0).focus();
  await page.keyboard.press('Enter');
  await expect(entries.nth(0)).toHaveAttribute('aria-current', 'true');
  await expect(page.locator('#server-url')).toHaveValue(EVERYTHING_URL);
  await entries.nth(1).focus();
  await page.keyboard.press(' ');
  await expect(entries.nth(1)).toHaveAttribute('aria-current', 'true');
  await expect(page.locator('#server-url')).toHaveValue('');
  // The arrows move between the entries; Enter opens the one reached.
  await page.keyboard.press('ArrowUp');
  await expect(entries.nth(0)).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await expect(entries.nth(0)).toBeFocused(); // the first stays
  await page.keyboard.press('ArrowDown');
  await expect(entries.nth(1)).toBeFocused();
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  await expect(entries.nth(0)).toHaveAttribute('aria-current', 'true');
  await expect(page.locator('#server-url')).toHaveValue(EVERYTHING_URL);
});

test('a dialog takes the focus when opened, and Escape closes it back to its button', async ({ page }) => {
  await openApp(page, EVERYTHING_URL);
  for (const opener of ['#import-servers', '#export-servers']) {
    await page.locator(opener).focus();
    await page.keyboard.press('Enter');
    const dialog = page.locator('#import-export');
    await expect(dialog).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(dialog.locator(':focus')).toHaveCount(1); // the tab order goes on inside it
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(page.locator(opener)).toBeFocused();
  }
});

test('the embed view with the keyboard alone: Tab to Connect, fill in, run; `/` and the arrows in its tabs', async ({ page }) => {
  await page.goto(`/?embed&${new URLSearchParams({ url: EVERYTHING_URL, tool: 'echo' })}`);
  await expect(page.locator('#connect')).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(page.locator('#connect')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('#status')).toContainText('Connected', { timeout: 20_000 });
  // Tab reaches the form's field, then Run.
  const message = page.locator('#tool-panel [data-path="/message"]');
  for (let i = 0; i < 15 && !(await message.evaluate((e) => e === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(message).toBeFocused();
  await page.keyboard.type('typed in the widget');
  for (let i = 0; i < 15 && !(await page.locator('#run-tool').evaluate((e) => e === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(page.locator('#run-tool')).toBeFocused();
  await page.keyboard.press('Enter');
  // The first call asks, with the focus on the question: Tab to "Run it", Enter.
  await expect(page.locator('#embed-ask')).toBeFocused();
  for (let i = 0; i < 4 && !(await page.locator('#embed-ask-run').evaluate((e) => e === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(page.locator('#embed-ask-run')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('#tool-result')).toContainText('Echo: typed in the widget');

  // Not narrowed: the list's filter with `/`, the rows with the arrows, Enter opens.
  await page.goto(`/?embed&connect&${new URLSearchParams({ url: EVERYTHING_URL })}`);
  await expect(toolItem(page, 'echo')).toBeVisible({ timeout: 20_000 });
  await page.locator('body').focus();
  await page.keyboard.press('/');
  await expect(page.locator('#tool-filter')).toBeFocused();
  await page.keyboard.type('e');
  await page.keyboard.press('Tab');
  const rows = page.locator('ul.items li.item');
  await expect(rows.first()).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(rows.nth(1)).toBeFocused();
  const name = await rows.nth(1).getAttribute('data-tool');
  await page.keyboard.press('Enter');
  await expect(page.locator('#tool-panel h2')).toContainText(name!);
});

test('the share dialog with the keyboard alone: open, set an option, copy, close', async ({ page }) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await openApp(page, EVERYTHING_URL);
  await connect(page);
  await page.locator('#share').focus();
  await page.keyboard.press('Enter');
  const dialog = page.locator('#share-dialog');
  await expect(dialog).toBeFocused();
  // Tab order: Close, then the options, in order.
  await page.keyboard.press('Tab');
  await expect(dialog.locator('#share-close')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.locator('#share-connect')).toBeFocused();
  await page.keyboard.press('Space');
  await expect(dialog.locator('#share-connect')).toBeChecked();
  const copy = dialog.locator('#copy-snippet');
  for (let i = 0; i < 12 && !(await copy.evaluate((e) => e === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(copy).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toContainText('Copied.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toContain('&amp;connect');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(page.locator('#share')).toBeFocused();
});
