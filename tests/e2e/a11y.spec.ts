// Accessibility (issue 12): axe-core over the app's views, against server-everything. Any
// serious or critical violation fails, with its rule, its nodes and axe's help text.

import AxeBuilder from '@axe-core/playwright';
import { CLOSED_URL, EVERYTHING_URL } from './env';
import { confirmEmbedCall, connect, connectExpectingError, expect, openApp, type Page, selectTool, test } from './helpers';

async function expectNoSeriousViolations(page: Page, view: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const report = serious.map((v) => `${v.id} (${v.impact}): ${v.help}\n  ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join('\n  ')}`);
  expect(report, `axe on ${view}`).toEqual([]);
}

test('every view has no serious or critical accessibility violation', async ({ page }) => {
  await openApp(page, EVERYTHING_URL);
  await expectNoSeriousViolations(page, 'the disconnected app');
  await connect(page);
  await expectNoSeriousViolations(page, 'the tools list');
  const panel = await selectTool(page, 'echo');
  await expectNoSeriousViolations(page, 'the echo form');
  // Live regions are there before what they announce: the status, and the result's region.
  await expect(page.locator('#status')).toHaveAttribute('role', 'status');
  await expect(panel.locator('.outcome-live[aria-live="polite"]')).toHaveCount(1);
  await panel.locator('[data-path="/message"]').fill('checked');
  await page.locator('#run-tool').click();
  await expect(page.locator('#tool-result')).toContainText('Echo:');
  await expect(panel.locator('.outcome-live #tool-result')).toHaveCount(1);
  await expectNoSeriousViolations(page, 'a tool result');
  await page.locator('#tab-prompts').click();
  await expectNoSeriousViolations(page, 'the prompts tab');
  await page.locator('#tab-resources').click();
  await expectNoSeriousViolations(page, 'the resources tab');
  await page.locator('#wire-log > summary').click();
  await expectNoSeriousViolations(page, 'the wire log');
});

test('an error and a server request card have no serious accessibility violation', async ({ page }) => {
  await openApp(page, CLOSED_URL);
  await connectExpectingError(page);
  await expectNoSeriousViolations(page, 'a connect error');
  await page.locator('#server-url').fill(EVERYTHING_URL);
  await connect(page);
  await selectTool(page, 'trigger-elicitation-request');
  await page.locator('#run-tool').click();
  await expect(page.locator('.server-request').first()).toBeVisible();
  await expectNoSeriousViolations(page, 'an elicitation card');
});

const embed = (params: Record<string, string>, flags: string[] = []) => `/?${['embed', ...flags].join('&')}&${new URLSearchParams(params)}`;

test('the embed view: its problems, a focused form, a result, the tabs, in light and dark', async ({ page }) => {
  await page.goto(embed({ url: EVERYTHING_URL, tool: 'echo', args: '{"message": ', accent: 'not-a-colour' }));
  await expect(page.locator('#embed-problems li')).toHaveCount(2);
  await expectNoSeriousViolations(page, 'the embed view, disconnected, with problems');
  await page.locator('#connect').click();
  await expect(page.locator('#status')).toContainText('Connected', { timeout: 20_000 });
  await expectNoSeriousViolations(page, 'the embed view, the echo form');
  await page.locator('#tool-panel [data-path="/message"]').fill('checked');
  await page.locator('#run-tool').click();
  await expect(page.locator('#embed-ask')).toBeVisible();
  await expectNoSeriousViolations(page, 'the embed view asking before its first call');
  await confirmEmbedCall(page);
  await expect(page.locator('#tool-result')).toContainText('Echo: checked');
  await expectNoSeriousViolations(page, 'the embed view, a result');

  // Dark, with a host accent (its text colour chosen for contrast), connected at once.
  await page.goto(embed({ url: EVERYTHING_URL, tool: 'echo', theme: 'dark', accent: '#ffcc00', args: '{"message":"dark"}' }, ['connect']));
  await expect(page.locator('#tool-panel')).toBeVisible({ timeout: 20_000 });
  await page.locator('#run-tool').click();
  await confirmEmbedCall(page);
  await expect(page.locator('#tool-result')).toContainText('Echo: dark');
  await expectNoSeriousViolations(page, 'the embed view in dark with an accent');

  // Not narrowed: the tabs, as in the full app; and the connect error.
  await page.goto(embed({ url: EVERYTHING_URL }, ['connect']));
  await expect(page.locator('li.tool-item').first()).toBeVisible({ timeout: 20_000 });
  await expectNoSeriousViolations(page, 'the embed view with its tabs');
  await page.goto(embed({ url: CLOSED_URL }, ['connect']));
  await expect(page.locator('#connect-error')).toBeVisible({ timeout: 20_000 });
  await expectNoSeriousViolations(page, 'the embed view, a connect error');
});

test('the share dialog, the import and export dialogs, and a deep link\'s problems', async ({ page }) => {
  await openApp(page, EVERYTHING_URL, { tool: 'echo', args: 'not json' });
  await expect(page.locator('#link-problems')).toBeVisible();
  await expectNoSeriousViolations(page, 'a deep link\'s problems');
  await connect(page);
  await page.locator('#tool-panel [data-path="/message"]').fill('shared');
  await page.locator('#share').click();
  const dialog = page.locator('#share-dialog');
  await expect(dialog).toBeVisible();
  await expect(page.frameLocator('#share-preview').locator('#connect')).toBeVisible();
  await expectNoSeriousViolations(page, 'the share dialog');
  await dialog.locator('#share-accent').fill('red;}');
  await dialog.locator('#share-height').fill('5');
  await expect(dialog.locator('#share-problems li')).toHaveCount(2);
  await expectNoSeriousViolations(page, 'the share dialog with problems');
  await page.keyboard.press('Escape');

  await page.locator('#import-servers').click();
  await expect(page.locator('#import-export')).toBeVisible();
  await expectNoSeriousViolations(page, 'the import dialog');
  await page.locator('#import-text').fill('{\n "mcpServers": {\n  "a": {"url": "http://127.0.0.1:1/mcp"}\n  "b": {}\n }\n}');
  await page.locator('#import-run').click();
  await expect(page.locator('#import-error')).toBeVisible();
  await expectNoSeriousViolations(page, 'the import dialog with an error');
  await page.locator('#import-text').fill(JSON.stringify({ mcpServers: { files: { command: 'npx', args: ['-y', 'server-filesystem', '/tmp'] }, ws: { type: 'ws', url: 'ws://h' } } }));
  await page.locator('#import-run').click();
  await expect(page.locator('#import-result')).toBeVisible();
  await expectNoSeriousViolations(page, 'the import dialog with a stdio entry and a skipped one');
  await page.keyboard.press('Escape');
  await page.locator('#export-servers').click();
  await expect(page.locator('#export-text')).toBeVisible();
  await expectNoSeriousViolations(page, 'the export dialog');
});

test('the full app in dark: the tools, a result, the wire log', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await openApp(page, EVERYTHING_URL);
  await connect(page);
  await selectTool(page, 'echo');
  await page.locator('#tool-panel [data-path="/message"]').fill('dark');
  await page.locator('#run-tool').click();
  await expect(page.locator('#tool-result')).toContainText('Echo: dark');
  await page.locator('#wire-log > summary').click();
  await expectNoSeriousViolations(page, 'the full app in dark');
});
