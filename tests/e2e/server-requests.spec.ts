// Traffic the server starts, against server-everything (streamable HTTP): its requests that
// the page answers by itself (roots/list, with id 0), those a person answers (sampling,
// elicitation), its notifications (progress, logging) on the standalone GET stream, and
// cancelling a request in flight.

import { EVERYTHING_URL } from './env';
import { connect, disconnect, events, expect, field, runTool, selectTool, test, type Page } from './helpers';

async function openWithRoots(page: Page, roots: string): Promise<void> {
  await page.goto(`/?url=${encodeURIComponent(EVERYTHING_URL)}`);
  await page.locator('#settings > summary').click();
  await page.locator('#roots').fill(roots);
  await connect(page);
}

/** The text of the events panel (opened). */
test('roots/list (id 0) is answered from the configured roots', async ({ page }) => {
  await openWithRoots(page, 'file:///work/project My project\nfile:///tmp');
  // server-everything asks on the GET stream shortly after initialization, with id 0.
  await expect.poll(() => events(page)).toContain('roots/list (id 0): answered with the configured roots');
  await selectTool(page, 'get-roots-list');
  const result = await runTool(page);
  await expect(result.locator('.content-text')).toContainText('Current MCP Roots (2 total)');
  await expect(result.locator('.content-text')).toContainText('1. My project\n   URI: file:///work/project');
  await expect(result.locator('.content-text')).toContainText('URI: file:///tmp');
  await disconnect(page);
});

test('a sampling request is answered by a person in the page', async ({ page }) => {
  await openWithRoots(page, '');
  const panel = await selectTool(page, 'trigger-sampling-request');
  await field(panel, 'prompt').fill('Say hi');
  await page.locator('#run-tool').click();
  const card = page.locator('#server-requests .server-request[data-method="sampling/createMessage"]');
  await expect(card).toContainText('Resource trigger-sampling-request context: Say hi');
  await expect(card).toContainText('System prompt: You are a helpful test server.');
  await card.locator('.sampling-reply').fill('Hello from a person');
  await card.locator('.answer').click();
  await expect(card).toHaveCount(0);
  const result = page.locator('#tool-result .content-text');
  await expect(result).toContainText('LLM sampling result:');
  await expect(result).toContainText('"text": "Hello from a person"');
  await disconnect(page);
});

test('an elicitation is answered with the generated form, another is declined', async ({ page }) => {
  await openWithRoots(page, '');
  await selectTool(page, 'trigger-elicitation-request');
  await page.locator('#run-tool').click();
  let card = page.locator('#server-requests .server-request[data-method="elicitation/create"]');
  await expect(card.locator('.elicitation-message')).toHaveText('Please provide inputs for the following fields:');
  await field(card, 'name').fill('Ada Lovelace');
  await field(card, 'check').selectOption('true');
  await field(card, 'integer').fill('42');
  await field(card, 'untitledSingleSelectEnum').selectOption({ label: 'Rachel' });
  await card.locator('.answer').click();
  await expect(card).toHaveCount(0);
  let result = page.locator('#tool-result');
  await expect(result).toContainText('User provided the requested information!');
  await expect(result).toContainText('Ada Lovelace');
  await expect(result).toContainText('42');
  await expect(result).toContainText('Rachel');
  await expect(result).not.toContainText('declined');

  await page.locator('#run-tool').click();
  card = page.locator('#server-requests .server-request[data-method="elicitation/create"]');
  await card.locator('.decline').click();
  await expect(card).toHaveCount(0);
  await expect(result).toContainText('User declined to provide the requested information.');
  await disconnect(page);
});

test('progress of a long operation is shown, and a call can be cancelled', async ({ page }) => {
  await openWithRoots(page, '');
  const panel = await selectTool(page, 'trigger-long-running-operation');
  await field(panel, 'duration').fill('2');
  await field(panel, 'steps').fill('4');
  await page.locator('#run-tool').click();
  await expect(page.locator('#progress .progress-label')).toContainText('/ 4');
  await expect(page.locator('#tool-result .content-text')).toContainText('Long running operation completed', { timeout: 15_000 });
  await expect(page.locator('#progress')).toHaveCount(0);

  await field(panel, 'duration').fill('30');
  await field(panel, 'steps').fill('30');
  await page.locator('#run-tool').click();
  await expect(page.locator('#progress .progress-label')).toContainText('/ 30');
  await page.locator('#cancel-request').click();
  // A cancel the person asked for is said quietly, not as a failure (issue 29).
  await expect(page.locator('#tool-result')).not.toHaveClass(/result-error/);
  await expect(page.locator('#tool-result')).toHaveText('Cancelled.');
  await expect(page.locator('#cancel-request')).toHaveCount(0);

  // The session is still good.
  const echo = await selectTool(page, 'echo');
  await field(echo, 'message').fill('still here');
  const result = await runTool(page);
  await expect(result.locator('.content-text')).toHaveText(['Echo: still here']);
  await disconnect(page);
});

test('logging notifications arrive on the standalone GET stream', async ({ page }) => {
  await openWithRoots(page, '');
  await selectTool(page, 'toggle-simulated-logging');
  const result = await runTool(page);
  await expect(result.locator('.content-text')).toContainText('Started simulated');
  await expect.poll(() => events(page), { timeout: 20_000 }).toContain('notifications/message');
  await disconnect(page);
});

test('ping and the log level', async ({ page }) => {
  await openWithRoots(page, '');
  await page.locator('#ping').click();
  await expect(page.locator('#ping-result')).toHaveText(/^Pong in \d+ ms\.$/);
  await page.locator('#log-level').selectOption('debug');
  await expect(page.locator('#log-level-result')).toHaveText('Log level set to debug.');
  await disconnect(page);
});

test('a URL-mode elicitation shows the address as text and a safe link, and is answered', async ({ page }) => {
  await openWithRoots(page, '');
  const panel = await selectTool(page, 'trigger-url-elicitation');
  await field(panel, 'url').fill('https://example.com/authorize?step=1');
  await field(panel, 'elicitationId').fill('e-42');
  await page.locator('#run-tool').click();
  const card = page.locator('#server-requests .server-request[data-method="elicitation/create"]');
  await expect(card.locator('.elicitation-url')).toHaveText('https://example.com/authorize?step=1');
  const link = card.locator('a.elicitation-link');
  await expect(link).toHaveAttribute('href', 'https://example.com/authorize?step=1');
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  await card.locator('.answer').click();
  await expect(card).toHaveCount(0);
  await expect(page.locator('#tool-result')).toContainText('accept');
  await disconnect(page);
});

test('URL elicitation required (-32042): the pages are shown, and sending again goes through', async ({ page }) => {
  await openWithRoots(page, '');
  const panel = await selectTool(page, 'trigger-url-elicitation');
  await field(panel, 'url').fill('https://example.com/after-the-prerequisite');
  await field(panel, 'errorPath').selectOption('true');
  await page.locator('#run-tool').click();
  const result = page.locator('#tool-result');
  await expect(result).toHaveClass(/result-error/);
  await expect(result).toContainText(
    'Calling the tool failed: the server needs you to open a page first (https://modelcontextprotocol.io): ' +
      'MCP error -32042: This request requires browser-based authorization. Open it, then send the request again.',
  );
  const pageItem = result.locator('.url-page');
  await expect(pageItem.locator('.elicitation-message')).toHaveText('Open this link to satisfy the prerequisite, then retry the request.');
  // The link is the browser's own reading of the URL.
  await expect(pageItem.locator('a.elicitation-link')).toHaveAttribute('href', 'https://modelcontextprotocol.io/');
  await expect(pageItem.locator('.host')).toHaveText('modelcontextprotocol.io');
  // The person has done it: the same call again now proceeds (the server asks for its own page).
  await page.locator('#run-tool').click();
  const card = page.locator('#server-requests .server-request[data-method="elicitation/create"]');
  await expect(card.locator('.elicitation-url')).toHaveText('https://example.com/after-the-prerequisite');
  await card.locator('.answer').click();
  await expect(result).toContainText('User completed the URL elicitation flow.');
  await disconnect(page);
});

test('prompt arguments are completed as they are typed (completion/complete)', async ({ page }) => {
  await openWithRoots(page, '');
  await page.locator('#tab-prompts').click();
  await page.locator('li.prompt-item[data-prompt="completable-prompt"]').click();
  const panel = page.locator('#prompt-panel');
  await field(panel, 'department').fill('Eng');
  const suggestions = panel.locator('datalist.suggestions option');
  await expect.poll(() => suggestions.evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value)))
    .toContain('Engineering');
  // Typing fast asks once, when typing pauses, not once per keystroke.
  await field(panel, 'department').fill('');
  await page.locator('#wire-log summary').click();
  await page.locator('#wire-method').fill('completion/complete');
  await page.locator('#wire-direction').selectOption('sent');
  const asked = page.locator('#wire-log tr.wire-entry');
  const before = await asked.count();
  await field(panel, 'department').pressSequentially('Sales', { delay: 20 });
  await expect.poll(() => suggestions.evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value)))
    .toContain('Sales');
  await page.waitForTimeout(500);
  expect(await asked.count() - before).toBeLessThanOrEqual(2);
  await disconnect(page);
});

test('a request with no answer and no progress times out and is cancelled on the server', async ({ page }) => {
  await page.goto(`/?url=${encodeURIComponent(EVERYTHING_URL)}`);
  await page.locator('#settings > summary').click();
  await page.locator('#request-timeout').fill('1');
  await connect(page);
  const panel = await selectTool(page, 'trigger-long-running-operation');
  // One step of 5 s: the first progress comes after the 1 s timeout.
  await field(panel, 'duration').fill('5');
  await field(panel, 'steps').fill('1');
  await page.locator('#run-tool').click();
  const result = page.locator('#tool-result');
  await expect(result).toHaveClass(/result-error/, { timeout: 10_000 });
  await expect(result).toContainText('Calling the tool failed: no answer and no progress for 1 seconds; the request was cancelled.');
  await page.locator('#wire-log summary').click();
  await page.locator('#wire-method').fill('notifications/cancelled');
  await expect(page.locator('#wire-log tr.wire-entry[data-direction="sent"]')).toHaveCount(1);
  await disconnect(page);
});

test('an answer being typed stays when another server request arrives', async ({ page }) => {
  await openWithRoots(page, '');
  await selectTool(page, 'trigger-elicitation-request');
  await page.locator('#run-tool').click();
  const elicitation = page.locator('#server-requests .server-request[data-method="elicitation/create"]');
  await field(elicitation, 'name').fill('Typed before the next request');
  // A second request (sampling) arrives while the first is being answered.
  const panel = await selectTool(page, 'trigger-sampling-request');
  await field(panel, 'prompt').fill('Another request');
  await page.locator('#run-tool').click();
  const sampling = page.locator('#server-requests .server-request[data-method="sampling/createMessage"]');
  await expect(sampling).toBeVisible();
  await sampling.locator('.sampling-reply').fill('typed into the second card');
  await expect(field(elicitation, 'name')).toHaveValue('Typed before the next request');
  // Answering one card leaves the other as it was.
  await sampling.locator('.decline').click();
  await expect(sampling).toHaveCount(0);
  await expect(field(elicitation, 'name')).toHaveValue('Typed before the next request');
  await elicitation.locator('.decline').click();
  await disconnect(page);
});

test('the maximum total time and the time to answer server requests are settings', async ({ page }) => {
  await page.goto(`/?url=${encodeURIComponent(EVERYTHING_URL)}`);
  await page.locator('#settings > summary').click();
  await expect(page.locator('#max-total')).toHaveValue('600');
  await expect(page.locator('#server-request-timeout')).toHaveValue('300');
  // The total limit is never below the idle timeout: lower both.
  await page.locator('#request-timeout').fill('1.5');
  await page.locator('#max-total').fill('2');
  await page.locator('#server-request-timeout').fill('1');
  await connect(page);
  // Progress every second keeps the idle timeout away, but not the total limit.
  let panel = await selectTool(page, 'trigger-long-running-operation');
  await field(panel, 'duration').fill('6');
  await field(panel, 'steps').fill('6');
  await page.locator('#run-tool').click();
  const result = page.locator('#tool-result');
  await expect(result).toContainText('still running after the maximum of 2 seconds; the request was cancelled.', { timeout: 10_000 });
  // An elicitation nobody answers is declined after one second.
  panel = await selectTool(page, 'trigger-elicitation-request');
  // The card lives about one second, less than one poll of a loaded machine may take: the page
  // itself notes that it was drawn.
  const cardSelector = '#server-requests .server-request[data-method="elicitation/create"]';
  await page.evaluate((selector) => {
    const seen = window as unknown as { elicitationCardSeen: boolean };
    seen.elicitationCardSeen = false;
    new MutationObserver((_, observer) => {
      if (document.querySelector(selector)) {
        seen.elicitationCardSeen = true;
        observer.disconnect();
      }
    }).observe(document.body, { childList: true, subtree: true });
  }, cardSelector);
  await page.locator('#run-tool').click();
  await page.waitForFunction(() => (window as unknown as { elicitationCardSeen: boolean }).elicitationCardSeen, null, {
    timeout: 10_000,
  });
  const card = page.locator(cardSelector);
  await expect(card).toHaveCount(0, { timeout: 5_000 });
  await expect(page.locator('#tool-result')).toContainText('Nobody answered within 1 seconds', { timeout: 5_000 });
  // Both are remembered with the server's settings.
  await page.reload();
  await page.locator('#settings > summary').click();
  await expect(page.locator('#max-total')).toHaveValue('2');
  await expect(page.locator('#server-request-timeout')).toHaveValue('1');
});
