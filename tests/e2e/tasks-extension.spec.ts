// The 2026-07-28 extensions a person inspecting a server meets, through the real built app
// against tests/servers/tasks_ext_server.py (the Python SDK mcp 2.3.0 and its extension
// interface; no registry server speaks the tasks extension yet):
// - Tasks as an extension (SEP-2663): the page declares `io.modelcontextprotocol/tasks` in each
//   request's `_meta`; the server answers `render`, `long_job` and `broken_job` with a task,
//   which the page follows with tasks/get, answers with tasks/update, cancels with
//   tasks/cancel, and shows in the tool's panel and the Tasks tab.
// - List lifetimes (SEP-2549): tools/list and prompts/list carry `ttlMs` (4 s here); the page
//   shows it over the list and lists again only once it ran out, or when the person asks.

import { connect, expect, field, openApp, selectTool, test, type Page } from './helpers';
import { freePort, TestServer } from './spawn';

const EXTENSION = 'io.modelcontextprotocol/tasks';
let server: TestServer | null = null;

test.afterEach(async () => {
  await server?.stop();
  server = null;
});

async function started(listTtlMs = 600_000): Promise<string> {
  const port = await freePort();
  server = new TestServer(
    '.venv/bin/python',
    ['tests/servers/tasks_ext_server.py', '--port', String(port), '--list-ttl-ms', String(listTtlMs)],
    port,
  );
  await server.start();
  return `http://127.0.0.1:${port}/mcp`;
}

type Post = { rpc: string; params: Record<string, any>; name?: string };

/** Every JSON-RPC request the page POSTs, with its params and its Mcp-Name header. */
function record(page: Page): Post[] {
  const posts: Post[] = [];
  page.on('request', (request) => {
    const body = request.postData();
    if (request.method() !== 'POST' || !body) return;
    const message = JSON.parse(body);
    if (!message.method) return;
    posts.push({ rpc: message.method, params: message.params ?? {}, name: request.headers()['mcp-name'] });
  });
  return posts;
}

async function run(page: Page, tool: string) {
  await selectTool(page, tool);
  await page.locator('#run-tool').click();
  const card = page.locator('#tool-result .task');
  await expect(card.locator('.task-tool')).toHaveText(tool);
  return card;
}

test('a tool the server runs as a task is followed, its question answered with tasks/update, its result shown', async ({ page }) => {
  const posts = record(page);
  await openApp(page, await started());
  await connect(page);
  await expect(page.locator('#server-info .protocol-version')).toContainText('2026-07-28');
  const discover = posts.find((p) => p.rpc === 'server/discover');
  expect(discover?.params._meta['io.modelcontextprotocol/clientCapabilities'].extensions[EXTENSION]).toEqual({});
  // The server declares the extension: the Tasks tab is there before any task.
  await page.locator('#tab-tasks').click();
  await expect(page.locator('#tasks')).toContainText('No tasks yet');

  const panel = await selectTool(page, 'render');
  await field(panel, 'pages').fill('2');
  await page.locator('#run-tool').click();
  const card = page.locator('#tool-result .task');
  await expect(card).toHaveAttribute('data-shape', 'extension');
  await expect(card.locator('.task-shape')).toHaveText('tasks extension (SEP-2663)');
  await expect(card.locator('.task-times')).toContainText('ttl 600000 ms · poll every 500 ms');
  await expect(card.locator('.task-tool')).toHaveText('render');

  // After 1.5 s the task needs input: its elicitation is a server request card.
  const question = page.locator('#server-requests .server-request[data-method="elicitation/create"]');
  await expect(question.locator('.elicitation-message')).toHaveText('Which format should the pages be rendered in?', {
    timeout: 10_000,
  });
  await expect(card).toHaveAttribute('data-status', 'input_required');
  await expect(card.locator('.task-message')).toHaveText('Which format?');
  await expect(card.locator('.task-waiting')).toContainText('Waiting for 1 answer(s)');
  await field(question, 'format').selectOption('pdf');
  await question.locator('.answer').click();

  await expect(card).toHaveAttribute('data-status', 'completed', { timeout: 10_000 });
  await expect(card.locator('.content-text')).toHaveText(['Rendered 2 pages as pdf.']);
  await expect(card.locator('.cancel-task')).toHaveCount(0);
  const taskId = await card.getAttribute('data-task-id');
  const update = posts.filter((p) => p.rpc === 'tasks/update');
  expect(update).toEqual([
    {
      rpc: 'tasks/update',
      params: expect.objectContaining({
        taskId,
        inputResponses: { 'format-1': { action: 'accept', content: { format: 'pdf' } } },
      }),
      name: taskId!,
    },
  ]);
  const gets = posts.filter((p) => p.rpc === 'tasks/get');
  expect(gets.length).toBeGreaterThanOrEqual(3);
  expect(gets.every((p) => p.params.taskId === taskId && p.name === taskId)).toBe(true);
  // Neither the 2025-11-25 result call nor a task-augmented call: the server chose.
  expect(posts.some((p) => p.rpc === 'tasks/result')).toBe(false);
  expect(posts.find((p) => p.rpc === 'tools/call')?.params.task).toBeUndefined();

  await page.locator('#tab-tasks').click();
  const row = page.locator(`#tasks .task[data-task-id="${taskId}"]`);
  await expect(row).toHaveAttribute('data-status', 'completed');
  await expect(row.locator('.task-shape')).toHaveText('tasks extension (SEP-2663)');
  await expect(row.locator('.content-text')).toHaveText(['Rendered 2 pages as pdf.']);
});

test('an extension task is cancelled with tasks/cancel, a failed one shows its error, a plain tool stays plain', async ({ page }) => {
  const posts = record(page);
  await openApp(page, await started());
  await connect(page);

  const long = await run(page, 'long_job');
  await expect(long).toHaveAttribute('data-status', 'working');
  await expect(long.locator('.task-message')).toHaveText(/^Step \d+ of 1000$/);
  await long.locator('.cancel-task').click();
  await expect(long).toHaveAttribute('data-status', 'cancelled');
  await expect(long.locator('.task-message')).toHaveText("Cancelled at the client's request.");
  await expect(long.locator('.cancel-task')).toHaveCount(0);
  const longId = await long.getAttribute('data-task-id');
  expect(posts.filter((p) => p.rpc === 'tasks/cancel').map((p) => p.params.taskId)).toEqual([longId]);

  const broken = await run(page, 'broken_job');
  await expect(broken).toHaveAttribute('data-status', 'failed', { timeout: 10_000 });
  await expect(broken.locator('.task-message')).toHaveText('The renderer crashed.');
  await expect(broken).toContainText('the renderer crashed');

  await selectTool(page, 'echo');
  await field(page.locator('#tool-panel'), 'message').fill('plain');
  await page.locator('#run-tool').click();
  await expect(page.locator('#tool-result .content-text').first()).toHaveText('Echo: plain');
  await expect(page.locator('#tool-result .task')).toHaveCount(0);

  await page.locator('#tab-tasks').click();
  await expect(page.locator('#tasks .task')).toHaveCount(2);
  await expect(page.locator(`#tasks .task[data-task-id="${longId}"]`)).toHaveAttribute('data-status', 'cancelled');
});

test("a list's lifetime is shown and honoured: listed again once stale, or when the person asks", async ({ page }) => {
  const posts = record(page);
  const lists = (rpc: string) => posts.filter((p) => p.rpc === rpc).length;
  await openApp(page, await started(4_000));
  await connect(page);
  const lifetime = page.locator('#tab-panel .list-lifetime, .list-lifetime').first();
  await expect(lifetime.locator('.lifetime-text')).toHaveText(/^fresh for [1-4] s, shared \(public\)$/);
  expect(lists('tools/list')).toBe(1);

  // Opening the tab again while the list is fresh asks nothing.
  await page.locator('#tab-prompts').click();
  await page.locator('#tab-tools').click();
  await expect(lifetime.locator('.lifetime-text')).toHaveText(/^fresh for/);
  expect(lists('tools/list')).toBe(1);

  // Stale after 4 s: said so; opening the tab then lists it again.
  await expect(lifetime.locator('.lifetime-text')).toHaveText('stale: listed again when needed, shared (public)', {
    timeout: 8_000,
  });
  await expect(lifetime).toHaveClass(/stale/);
  expect(lists('tools/list')).toBe(1);
  await page.locator('#tab-prompts').click();
  await page.locator('#tab-tools').click();
  await expect.poll(() => lists('tools/list')).toBe(2);
  await expect(lifetime.locator('.lifetime-text')).toHaveText(/^fresh for [1-4] s/);

  // Refresh lists again at once, fresh or not.
  await lifetime.locator('.refresh-list').click();
  await expect.poll(() => lists('tools/list')).toBe(3);
  await expect(page.locator('ul.items li.item')).toHaveCount(4);
});
