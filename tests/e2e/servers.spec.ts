// Many servers at once: a sidebar of named servers, each with its own connection, settings
// remembered in localStorage without secrets (tokens only in the tab's sessionStorage, and
// only when asked).

import { EVERYTHING_PORT, EVERYTHING_URL, PYTHON_URL } from './env';

// The name a server entry gets from the URL (its host and port).
const EVERYTHING_NAME = `127.0.0.1:${EVERYTHING_PORT}`;
import { connect, expect, field, openApp, runTool, selectTool, test, toolItem, type Page } from './helpers';

/** Opens the settings (a no-op when they are open already). */
async function openSettings(page: Page): Promise<void> {
  if ((await page.locator('#settings').getAttribute('open')) === null) {
    await page.locator('#settings > summary').click();
  }
}

test('two servers connected at once, each with its own session and tools', async ({ page }) => {
  await openApp(page, EVERYTHING_URL);
  await connect(page);

  await page.locator('#add-server').click();
  await expect(page.locator('#server-url')).toHaveValue('');
  await page.locator('#server-url').fill(PYTHON_URL);
  await openSettings(page);
  await page.locator('#server-name').fill('python');
  await connect(page);
  await expect(page.locator('#server-info .server-name')).toHaveText('mcp-lens-python-test');

  const sidebar = page.locator('#servers');
  await expect(sidebar.locator('li.server-entry')).toHaveCount(2);
  await expect(sidebar.locator('.connected-count')).toHaveText('2 connected');
  const everything = sidebar.locator(`li.server-entry[data-server="${EVERYTHING_NAME}"]`);
  const python = sidebar.locator('li.server-entry[data-server="python"]');
  await expect(everything.locator('.server-entry-status')).toHaveText('Connected');
  await expect(python.locator('.server-entry-status')).toHaveText('Connected');

  // Switch back: the first session is still live.
  await everything.click();
  await expect(page.locator('#server-info .server-name')).toHaveText('mcp-servers/everything');
  await expect(page.locator('#server-url')).toHaveValue(EVERYTHING_URL);
  let panel = await selectTool(page, 'echo');
  await field(panel, 'message').fill('to everything');
  let result = await runTool(page);
  await expect(result.locator('.content-text')).toHaveText(['Echo: to everything']);

  await python.click();
  await expect(page.locator('#server-info .server-name')).toHaveText('mcp-lens-python-test');
  await expect(toolItem(page, 'calculate')).toBeVisible();
  panel = await selectTool(page, 'echo');
  await field(panel, 'message').fill('to python');
  result = await runTool(page);
  await expect(result.locator('.content-text')).toHaveText(['Echo: to python']);

  // The wire log tells the servers apart.
  await page.locator('#wire-log summary').click();
  // The log lists its servers once it is open (the toggle event comes a task after the click).
  await expect
    .poll(() => page.locator('#wire-server option').allInnerTexts())
    .toEqual(expect.arrayContaining([EVERYTHING_NAME, 'python']));
  await page.locator('#wire-server').selectOption('python');
  await page.locator('#wire-method').fill('tools/call');
  await expect(page.locator('#wire-log tr.wire-entry[data-direction="sent"]')).toHaveCount(1);

  // Removing a server ends its session.
  await page.locator('#remove-server').click();
  await expect(sidebar.locator('li.server-entry')).toHaveCount(1);
  await expect(sidebar.locator('.connected-count')).toHaveText('1 connected');
});

test('server settings are remembered without secrets; tokens only in the tab, on request', async ({ page }) => {
  await openApp(page, PYTHON_URL);
  await page.locator('#bearer-token').fill('tab-secret-1');
  await openSettings(page);
  await page.locator('#server-name').fill('kept');
  await page.locator('#roots').fill('file:///kept');
  await page.locator('#add-server').click();
  await page.locator('#server-url').fill(EVERYTHING_URL);
  await page.locator('#bearer-token').fill('tab-secret-2');
  await openSettings(page);
  await page.locator('#remember-secrets').check();

  await page.goto('/');
  const sidebar = page.locator('#servers');
  await expect(sidebar.locator('li.server-entry')).toHaveCount(2);
  await sidebar.locator('li.server-entry[data-server="kept"]').click();
  await expect(page.locator('#server-url')).toHaveValue(PYTHON_URL);
  await openSettings(page);
  await expect(page.locator('#roots')).toHaveValue('file:///kept');
  await expect(page.locator('#bearer-token')).toHaveValue(''); // not remembered
  await sidebar.locator(`li.server-entry[data-server="${EVERYTHING_NAME}"]`).click();
  await expect(page.locator('#bearer-token')).toHaveValue('tab-secret-2'); // remembered in this tab

  const local = await page.evaluate(() => JSON.stringify(localStorage));
  expect(local).toContain(PYTHON_URL);
  expect(local).not.toContain('tab-secret');
  await expect(page).not.toHaveURL(/tab-secret/);
});

test('remembered secrets are keyed by entry and bound to their origin; URL credentials are redacted', async ({ page }) => {
  await openApp(page, PYTHON_URL);
  await page.locator('#bearer-token').fill('bound-token-1');
  await page.locator('#custom-headers').fill('X-Api-Key: bound-key-1');
  await expect(page.locator('#custom-headers')).toHaveClass(/masked/);
  await openSettings(page);
  await page.locator('#remember-secrets').check();
  // Editing the URL keystroke by keystroke on the same origin keeps one secrets entry.
  await page.locator('#server-url').press('End');
  await page.locator('#server-url').pressSequentially('?x=1', { delay: 10 });
  let secretKeys = await page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('mcp-lens.secrets.')));
  expect(secretKeys).toHaveLength(1);
  // A brand-new entry for another host gets nothing prefilled.
  await page.locator('#add-server').click();
  await page.locator('#server-url').fill(EVERYTHING_URL);
  await expect(page.locator('#bearer-token')).toHaveValue('');
  // Moving the first entry to another origin clears its secrets and says so.
  await page.locator('#servers li.server-entry').first().click();
  await expect(page.locator('#bearer-token')).toHaveValue('bound-token-1');
  await page.locator('#server-url').fill(EVERYTHING_URL.replace('127.0.0.1', 'localhost'));
  await expect(page.locator('#bearer-token')).toHaveValue('');
  await expect(page.locator('#custom-headers')).toHaveValue('');
  await expect(page.locator('#secrets-note')).toContainText('The token, custom headers and sign-in secrets were cleared');
  // A key in the URL: warned about, and redacted in what is saved.
  await page.locator('#server-url').fill(`${PYTHON_URL}?api_key=url-secret-9`);
  await expect(page.locator('#url-credential-warning')).toBeVisible();
  await expect.poll(() => page.evaluate(() => localStorage.getItem('mcp-lens.servers') ?? '')).toContain('api_key=[redacted]');
  const local = await page.evaluate(() => JSON.stringify(localStorage));
  expect(local).not.toContain('url-secret-9');
  expect(local).not.toContain('bound-');
  secretKeys = await page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('mcp-lens.secrets.')));
  expect(secretKeys.length).toBeLessThanOrEqual(1);
});
