// The wire log: every message both ways, filterable, exported as JSON and copied as curl,
// with the bearer token and custom header values never shown, exported or logged.

import { readFileSync } from 'node:fs';
import { PYTHON_URL } from './env';
import { connect, disconnect, expect, field, openApp, runTool, selectTool, test } from './helpers';

const TOKEN = 'secret-token-w1re';
const CUSTOM = 'custom-secret-value';

test('the wire log shows, filters, exports and copies requests without secrets', async ({ page }) => {
  const console: string[] = [];
  page.on('console', (message) => console.push(message.text()));
  await openApp(page, PYTHON_URL);
  await page.locator('#bearer-token').fill(TOKEN);
  await page.locator('#custom-headers').fill(`X-Mcp-Lens-Test: ${CUSTOM}`);
  await connect(page);
  const panel = await selectTool(page, 'echo');
  await field(panel, 'message').fill('logged');
  await runTool(page);

  const log = page.locator('#wire-log');
  await log.locator('summary').click();
  const methods = () => log.locator('tr.wire-entry .wire-method').allInnerTexts();
  // Auto speaks the stateless era with this server: discover instead of initialize.
  await expect.poll(methods).toEqual(expect.arrayContaining(['server/discover', 'tools/list', 'tools/call', '(result)']));

  // Answers are timed against their requests.
  const answer = log.locator('tr.wire-entry[data-direction="received"]', { hasText: '(result)' }).first();
  await expect(answer.locator('.wire-duration')).toHaveText(/^\d+ ms$/);

  // Filters: only the requests we sent whose method mentions tools/call.
  await page.locator('#wire-direction').selectOption('sent');
  await page.locator('#wire-method').fill('tools/call');
  await expect(log.locator('tr.wire-entry')).toHaveCount(1);
  const call = log.locator('tr.wire-entry').first();
  await expect(call.locator('.wire-status')).toHaveText('200');
  await call.click();
  const detail = page.locator('#wire-detail');
  await expect(detail).toContainText('authorization: [redacted]');
  await expect(detail).toContainText('x-mcp-lens-test: [redacted]');
  // The stateless era's routing headers are shown as they are.
  await expect(detail).toContainText('mcp-method: tools/call');
  await expect(detail).toContainText('mcp-name: echo');
  await expect(detail).toContainText('"name": "echo"');
  await page.locator('#wire-curl').click();
  const curl = detail.locator('pre.curl');
  await expect(curl).toContainText(`curl --globoff -X 'POST' '${PYTHON_URL}'`);
  // Literals single-quoted; only the placeholders are live, outside the quotes.
  await expect(curl).toContainText(`-H 'authorization: Bearer '"$MCP_TOKEN"`);
  await expect(curl).toContainText(`-H 'x-mcp-lens-test: '"$X_MCP_LENS_TEST"`);
  await expect(curl).toContainText('"method":"tools/call"');

  // Export what the filter shows.
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#wire-export').click()]);
  const exported = readFileSync((await download.path()) as string, 'utf8');
  const entries = JSON.parse(exported);
  expect(entries).toHaveLength(1);
  expect(entries[0].method).toBe('tools/call');
  expect(entries[0].direction).toBe('sent');

  // No secret anywhere: not in the export, the page's markup, or the console.
  await page.locator('#wire-direction').selectOption('');
  await page.locator('#wire-method').fill('');
  const [all] = await Promise.all([page.waitForEvent('download'), page.locator('#wire-export').click()]);
  const everything = readFileSync((await all.path()) as string, 'utf8');
  expect(JSON.parse(everything).length).toBeGreaterThan(5);
  for (const secret of [TOKEN, CUSTOM]) {
    expect(everything).not.toContain(secret);
    expect(await page.content()).not.toContain(secret);
    expect(console.join('\n')).not.toContain(secret);
  }
  await expect(page).not.toHaveURL(new RegExp(TOKEN));

  // The cap bounds memory: keep 3 entries.
  await page.locator('#wire-cap').fill('3');
  await page.locator('#wire-cap').press('Enter');
  await page.locator('#wire-cap').blur();
  await expect(log.locator('summary')).toHaveText('Wire log (3)');
  await disconnect(page);
});
