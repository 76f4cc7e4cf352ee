// mcp-lens against tests/servers/python_server.py: the official Python SDK (mcp 2.3.0, MCPServer)
// over streamable HTTP, with Starlette's CORSMiddleware. Expected texts were taken from the real server.

import { PYTHON_URL } from './env';
import {
  connect,
  disconnect,
  expect,
  expectServerInfo,
  field,
  getPrompt,
  openApp,
  readResource,
  runTool,
  selectPrompt,
  selectTool,
  test,
  toolItem,
  toolNames,
} from './helpers';

// mcp 2.3.0 speaks both eras: Auto negotiates the stateless 2026-07-28 era (server/discover,
// no session); pinning 2025-11-25 uses initialize and a session. The same flow in each.
for (const era of [
  { name: 'stateless 2026-07-28 (Auto)', extra: {} as Record<string, string>, protocolVersion: '2026-07-28' },
  { name: 'handshake 2025-11-25 (pinned)', extra: { version: '2025-11-25' }, protocolVersion: '2025-11-25' },
]) {
test(`python server, ${era.name}: connect, tools of every field type, prompt, resource, disconnect`, async ({ page }) => {
  await openApp(page, PYTHON_URL, era.extra);
  await connect(page);

  await expectServerInfo(page, { name: 'mcp-lens-python-test', version: '0.1.0', protocolVersion: era.protocolVersion });

  await page.locator('#tab-tools').click();
  await expect(toolItem(page, 'echo')).toBeVisible();
  expect(await toolNames(page)).toEqual([
    'echo', 'calculate', 'fail', 'request_info', 'interrupted_echo', 'favourite_colour', 'count_roots', 'add_tool',
  ]);

  // echo(message: str)
  let panel = await selectTool(page, 'echo');
  await field(panel, 'message').fill('hello from mcp-lens');
  let result = await runTool(page);
  await expect(result.locator('.content-text')).toHaveText(['Echo: hello from mcp-lens']);
  await expect(result).not.toHaveClass(/result-error/);

  // calculate(a: number, b: integer, operation: enum ["add","multiply"], negate: optional boolean)
  panel = await selectTool(page, 'calculate');
  const operation = field(panel, 'operation');
  await expect(operation).toHaveJSProperty('tagName', 'SELECT');
  await expect(operation.locator('option', { hasText: 'add' })).toHaveAttribute('value', '0');
  await expect(operation.locator('option', { hasText: 'multiply' })).toHaveAttribute('value', '1');
  const negate = field(panel, 'negate');
  await expect(negate).toHaveJSProperty('tagName', 'SELECT');
  // An optional boolean offers "not set" (value ""), true and false; the schema's default
  // (false) is pre-filled.
  expect(await negate.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))).toEqual(['', 'true', 'false']);
  await expect(negate).toHaveValue('false');

  await field(panel, 'a').fill('2.5');
  await field(panel, 'b').fill('4');
  await operation.selectOption({ label: 'multiply' });
  await negate.selectOption('true');
  result = await runTool(page);
  await expect(result.locator('.content-text')).toHaveText(['Result: -10.0']);
  await expect(result).not.toHaveClass(/result-error/);

  // Same tool, optional boolean left unset (server default negate=False), other enum value.
  await field(panel, 'a').fill('1.5');
  await field(panel, 'b').fill('2');
  await operation.selectOption({ label: 'add' });
  await negate.selectOption('');
  await page.locator('#run-tool').click();
  await expect(result.locator('.content-text')).toHaveText(['Result: 3.5']);

  // A tool error is a result with isError: true.
  panel = await selectTool(page, 'fail');
  await field(panel, 'reason').fill('boom');
  result = await runTool(page);
  await expect(result).toHaveClass(/result-error/);
  await expect(result.locator('.content-text')).toHaveText(['Error executing tool fail: boom']);

  // Without a token or custom headers, the server sees neither.
  await selectTool(page, 'request_info');
  result = await runTool(page);
  await expect(result.locator('.content-text')).toHaveText(['authorization=(none); x-mcp-lens-test=(none)']);

  // Prompt greet(name)
  const promptPanel = await selectPrompt(page, 'greet');
  await field(promptPanel, 'name').fill('Ada');
  const prompt = await getPrompt(page);
  await expect(prompt.locator('.prompt-message')).toHaveCount(1);
  await expect(prompt.locator('.prompt-message .role')).toHaveText(['user']);
  await expect(prompt.locator('.prompt-message .content-text')).toHaveText(['Please greet Ada warmly.']);

  // Resource test://info
  const resource = await readResource(page, 'test://info');
  await expect(resource.locator('.content-text')).toHaveText(['mcp-lens python test resource']);

  await disconnect(page);
});
}

test('python server: bearer token and custom headers reach the server', async ({ page }) => {
  await openApp(page, PYTHON_URL);
  await page.locator('#bearer-token').fill('secret-token-123');
  await page.locator('#custom-headers').fill('X-Mcp-Lens-Test: custom-value');
  await connect(page);

  await selectTool(page, 'request_info');
  const result = await runTool(page);
  await expect(result.locator('.content-text')).toHaveText([
    'authorization=Bearer secret-token-123; x-mcp-lens-test=custom-value',
  ]);

  await disconnect(page);
});
