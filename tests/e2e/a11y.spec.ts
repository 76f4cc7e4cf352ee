// Accessibility (issue 12): axe-core over the app's views, against server-everything. Any
// serious or critical violation fails, with its rule, its nodes and axe's help text.

import AxeBuilder from '@axe-core/playwright';
import { CLOSED_URL, EVERYTHING_URL } from './env';
import { connect, connectExpectingError, expect, openApp, selectTool, test, type Page } from './helpers';

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
