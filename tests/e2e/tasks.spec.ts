// Tasks (MCP 2025-11-25) against server-everything 2026.8.31 (streamable HTTP, TS SDK 1.32.2):
// `simulate-research-query` declares `execution.taskSupport: "required"`, so Run sends a
// task-augmented tools/call; the server answers at once with a task (ttl 300000 ms,
// pollInterval 1000 ms) and walks it through four stages of 1 s each, announcing each status
// change with notifications/tasks/status on the GET stream; the app also polls tasks/get
// every pollInterval and fetches tasks/result once the task ends. Texts are the server's own
// (dist/tools/simulate-research-query.js).

import { EVERYTHING_URL } from './env';
import { connect, disconnect, expect, field, openApp, selectTool, test, type Page } from './helpers';

const STAGES = ['Gathering sources', 'Analyzing content', 'Synthesizing findings', 'Generating report'];

/** The report the server returns for a topic without clarification, verbatim. */
function report(topic: string): string {
  return `# Research Report: ${topic}

## Research Parameters
- **Topic**: ${topic}


## Synthesis
This research query was processed through 4 stages:
${STAGES.map((stage, i) => `- Stage ${i + 1}: ${stage} ✓`).join('\n')}

---

## About This Demo (SEP-1686: Tasks)

This tool demonstrates MCP's task-based execution pattern for long-running operations:

**Task Lifecycle Demonstrated:**
1. \`tools/call\` with \`task\` parameter → Server returns \`CreateTaskResult\` (not the final result)
2. Client polls \`tasks/get\` → Server returns current status and \`statusMessage\`
3. Status progressed: \`working\` → \`completed\`
4. Client calls \`tasks/result\` → Server returns this final result


**Key Concepts:**
- Tasks enable "call now, fetch later" patterns
- \`statusMessage\` provides human-readable progress updates
- Tasks have TTL (time-to-live) for automatic cleanup
- \`pollInterval\` suggests how often to check status
- Elicitation requests use \`relatedTask\` to queue via tasks/result (works on all transports)

*This is a simulated research report from the Everything MCP Server.*
`;
}

async function startResearch(page: Page, topic: string) {
  const panel = await selectTool(page, 'simulate-research-query');
  await field(panel, 'topic').fill(topic);
  await page.locator('#run-tool').click();
  const card = page.locator('#tool-result .task');
  await expect(card.locator('.task-tool')).toHaveText('simulate-research-query');
  return card;
}

test('a task tool runs as a task: working, then completed with its result, also in the Tasks tab', async ({ page }) => {
  await openApp(page, EVERYTHING_URL);
  await connect(page);
  // The server declares tasks, so the tab is there before any task.
  await page.locator('#tab-tasks').click();
  await expect(page.locator('#tasks')).toContainText('No tasks yet: run a tool that supports tasks.');

  const card = await startResearch(page, 'ocean tides');
  await expect(card.locator('.task-times')).toContainText('ttl 300000 ms · poll every 1000 ms');
  await expect(card).toHaveAttribute('data-status', 'working');
  await expect(card.locator('.task-status')).toHaveText('working');
  await expect(card.locator('.task-message')).toHaveText(/^(Gathering sources|Analyzing content|Synthesizing findings|Generating report)\.\.\.$/);
  await expect(card.locator('.cancel-task')).toBeVisible();

  await expect(card).toHaveAttribute('data-status', 'completed', { timeout: 15_000 });
  await expect(card.locator('.task-status')).toHaveText('completed');
  // Storing the result does not touch the message: the last stage's stays.
  await expect(card.locator('.task-message')).toHaveText('Generating report...');
  await expect(card.locator('.cancel-task')).toHaveCount(0);
  await expect(card.locator('.content-text')).toHaveText([report('ocean tides')]);
  const taskId = await card.getAttribute('data-task-id');
  expect(taskId).toMatch(/^[0-9a-f]{32}$/);

  // The Tasks tab shows the same task; tasks/list (Refresh) knows it too.
  await page.locator('#tab-tasks').click();
  const listed = page.locator(`#tasks .task[data-task-id="${taskId}"]`);
  await expect(listed).toHaveAttribute('data-status', 'completed');
  await expect(listed.locator('.content-text')).toHaveText([report('ocean tides')]);
  await page.locator('#refresh-tasks').click();
  await expect(page.locator('#tasks .task')).toHaveCount(1);
  await expect(listed.locator('.task-status')).toHaveText('completed');
  await disconnect(page);
});

test('a task is cancelled and stays cancelled, without a result', async ({ page }) => {
  await openApp(page, EVERYTHING_URL);
  await connect(page);
  const card = await startResearch(page, 'volcanoes');
  await expect(card).toHaveAttribute('data-status', 'working');
  await card.locator('.cancel-task').click();
  await expect(card).toHaveAttribute('data-status', 'cancelled');
  await expect(card.locator('.task-status')).toHaveText('cancelled');
  await expect(card.locator('.task-message')).toHaveText('Client cancelled task execution.');
  await expect(card.locator('.cancel-task')).toHaveCount(0);
  // Longer than the four stages take: the research does not complete it after all.
  await page.waitForTimeout(5_000);
  await expect(card).toHaveAttribute('data-status', 'cancelled');
  await expect(card.locator('.result')).toHaveCount(0);

  // A second task in the same session completes; the Tasks tab lists both, newest first.
  const second = await startResearch(page, 'glaciers');
  await expect(second).toHaveAttribute('data-status', 'completed', { timeout: 15_000 });
  await page.locator('#tab-tasks').click();
  await expect(page.locator('#tasks .task .task-status')).toHaveText(['completed', 'cancelled']);
  await disconnect(page);
});

test('a task that needs input asks through tasks/result and completes with the answer', async ({ page }) => {
  await openApp(page, EVERYTHING_URL);
  await connect(page);
  const panel = await selectTool(page, 'simulate-research-query');
  await field(panel, 'topic').fill('python');
  await field(panel, 'ambiguous').selectOption('true');
  await page.locator('#run-tool').click();
  const card = page.locator('#tool-result .task');
  await expect(card).toHaveAttribute('data-status', 'input_required', { timeout: 10_000 });
  await expect(card.locator('.task-message')).toHaveText('Found multiple interpretations for "python". Requesting clarification...');
  const request = page.locator('#server-requests .server-request[data-method="elicitation/create"]');
  await expect(request.locator('.elicitation-message')).toHaveText(
    `The research query "python" could have multiple interpretations. Please clarify what you're looking for:`,
  );
  await field(request, 'interpretation').selectOption({ label: 'Python snake species' });
  await request.locator('.answer').click();
  await expect(card).toHaveAttribute('data-status', 'completed', { timeout: 15_000 });
  const result = card.locator('.content-text');
  await expect(result).toContainText('# Research Report: python (snake)');
  await expect(result).toContainText('- **Clarification**: snake');
  await expect(result).toContainText('Status progressed: `working` → `input_required` → `working` → `completed`');
  await expect(result).toContainText('After receiving clarification ("snake"), the task resumed processing and completed.');
  await disconnect(page);
});
