// The chat in the built app against real MCP servers (server-everything, the Python SDK's test
// server) and a deterministic fake model (tests/servers/fake_model.mjs) that speaks the
// OpenAI-compatible, Anthropic and Gemini streamed formats and answers scripted tool calls:
// exact multi-step loops, approval, stop, errors, both other dialects, two models side by side,
// server requests during a chat, prompts, resources, export and import.

import fs from 'node:fs';
import { connect, expect, field, selectTool, test } from './helpers';
import { EVERYTHING_URL, PYTHON_URL } from './env';
import {
  connectNamed,
  fakeModel,
  fakeRequests,
  idle,
  lane,
  lastAnswer,
  modelWireLog,
  openChat,
  send,
  setProvider,
  toolCall,
} from './chat-helpers';
import { freePort, TestServer } from './spawn';

let fake: TestServer;
test.beforeAll(async () => {
  fake = await fakeModel();
});
test.afterAll(async () => {
  await fake.stop();
});

const openai = () => ({ baseUrl: `http://127.0.0.1:${fake.port}/openai/v1`, model: 'fake-gpt' });

/** Both servers connected (named "everything" and "python"), the chat open with the fake model. */
async function twoServers(page: import('@playwright/test').Page): Promise<void> {
  await page.goto('/');
  await connectNamed(page, EVERYTHING_URL, 'everything');
  await connectNamed(page, PYTHON_URL, 'python', true);
  await openChat(page);
  await setProvider(page, 0, openai());
}

test('a multi-step run calls tools of two servers, asking before the one not marked read-only, and answers from their results', async ({ page }) => {
  await twoServers(page);
  // Both servers have an echo tool: the model sees them with their server's prefix.
  await expect(page.locator('.chat-tool[data-tool="echo"] code')).toHaveText(['everything__echo', 'python__echo']);
  await send(page, 'script: call everything__echo {"message":"one"} | call python__echo {"message":"two"} | say Both said: {result}');
  const first = toolCall(page, 0);
  await expect(first.locator('.tool-call-target')).toHaveText('echo on everything');
  await expect(first.locator('.tool-arguments')).toContainText('"message": "one"');
  // server-everything marks its echo read-only: it runs without asking.
  await expect(first.locator('.call-status')).toHaveText(/Result: done/);
  await expect(first.locator('.approval')).toHaveCount(0);
  await expect(first.locator('.content-text')).toContainText('Echo: one');
  const second = toolCall(page, 1);
  await expect(second.locator('.tool-call-target')).toHaveText('echo on python');
  await second.locator('.approve').click();
  await expect(second.locator('.content-text')).toContainText('two');
  await idle(page);
  await expect(lastAnswer(page)).toHaveText('Both said: Echo: two');
  // Each turn says its model, time and tokens; the conversation its total.
  await expect(lane(page).locator('.turn-facts').first()).toContainText(/fake-gpt: [\d.]+ s, first token [\d.]+ s, \d+ tokens in, 10 out/);
  await expect(lane(page).locator('.lane-usage')).toContainText('tokens in');
  // The model's three requests are in the wire log beside the MCP traffic.
  const rows = await modelWireLog(page);
  await expect(rows.and(page.locator('[data-direction="sent"]'))).toHaveCount(3);
  await expect(rows.first()).toContainText('POST /openai/v1/chat/completions');
  await expect(rows.first()).toContainText('200');
});

test('always allow, never, a declined call with its reason, and parallel calls', async ({ page }) => {
  await twoServers(page);
  // get-sum is set to never from the tools table.
  await page.locator('.chat-tool[data-tool="get-sum"] .tool-policy').selectOption('never');
  // The Python server's tools have no annotations: each call asks, until "always allow".
  const echoes = page.locator('.chat-tool[data-tool="echo"] .tool-policy');
  await expect(echoes.nth(0)).toHaveValue('allow');
  await expect(echoes.nth(1)).toHaveValue('ask');
  await send(page, 'script: call python__echo {"message":"a"} & get-sum {"a":1,"b":2} | call python__echo {"message":"b"} | say {result}');
  await toolCall(page, 0).locator('.approve-always').click();
  await expect(toolCall(page, 0).locator('.content-text')).toContainText('Echo: a');
  await expect(toolCall(page, 1).locator('.call-status')).toHaveText('Result: not allowed');
  // The second echo runs without asking: "always allow" applies from the next call on.
  await expect(toolCall(page, 2).locator('.call-status')).toHaveText(/Result: done/);
  await expect(toolCall(page, 2).locator('.approval')).toHaveCount(0);
  await idle(page);
  await expect(lastAnswer(page)).toHaveText('Echo: b');
  await expect(echoes.nth(1)).toHaveValue('allow');

  await send(page, 'script: call fail {"reason":"no"}');
  const call = toolCall(page, 3);
  await call.locator('.decline-reason').fill('not today');
  await call.locator('.decline').click();
  await expect(call.locator('.call-status')).toHaveText('Result: declined');
  await idle(page);
  // The OpenAI-compatible dialect marks a result that is an error.
  await expect(lastAnswer(page)).toHaveText('Done. The tool reported an error:\nThe person declined this call: not today');
});

test('stop ends a streamed answer and a running tool (cancelled on the server); retry and edit-and-resend', async ({ page }) => {
  await twoServers(page);
  await send(page, 'script: slow 400');
  await expect(lane(page).locator('.live-text')).toContainText('word5');
  await page.locator('#chat-stop').click();
  await idle(page);
  await expect(lane(page).locator('.turn-facts').last()).toContainText('interrupted');
  const text = await lastAnswer(page).textContent();
  expect(text).toContain('word5');
  expect(text).not.toContain('word400');
  // The model request's row says its answer was not read to its end.
  const rows = await modelWireLog(page);
  await rows.and(page.locator('[data-direction="received"]')).last().click();
  await expect(page.locator('#wire-detail .wire-failure')).toContainText('not read to its end');

  // A tool that runs for 30 s (marked read-only: no approval): its progress shows, and Stop
  // cancels it on the server.
  await send(page, 'script: call trigger-long-running-operation {"duration":30,"steps":30}');
  const call = toolCall(page, 0);
  await expect(call.locator('.call-progress')).toContainText('Progress:', { timeout: 15_000 });
  await page.locator('#chat-stop').click();
  await idle(page);
  await expect(call.locator('.call-status')).toHaveText(/Result: not run/);
  await page.locator('#wire-traffic').selectOption('mcp');
  await page.locator('#wire-method').fill('notifications/cancelled');
  await expect(page.locator('#wire-log tr.wire-entry')).toHaveCount(1);

  // Retry answers the person's last message again; edit-and-resend changes it first.
  await lane(page).locator('.retry').click();
  await expect(toolCall(page, 0).locator('.call-running')).toBeVisible();
  await page.locator('#chat-stop').click();
  await idle(page);
  const person = lane(page).locator('.chat-message.from-person').last();
  await person.locator('.edit-message').click();
  await person.locator('.edit-text').fill('hello there');
  await person.locator('.resend').click();
  await idle(page);
  await expect(lastAnswer(page)).toHaveText('You said: hello there');
  await expect(lane(page).locator('.tool-call')).toHaveCount(0);
});

test('provider errors say what happened and what to do', async ({ page }) => {
  await twoServers(page);
  await send(page, 'script: error 429 Too many requests for this minute');
  await idle(page);
  const error = lane(page).locator('.chat-error');
  await expect(error).toHaveAttribute('data-kind', 'rate-limited');
  await expect(error).toContainText('Too many requests for this minute');
  await expect(error).toContainText('Try again in 7 s');
  await send(page, 'script: error 401 Invalid API key');
  await idle(page);
  await expect(error).toHaveAttribute('data-kind', 'unauthorized');
  await expect(error).toContainText('Check the key');
  // A provider that refuses this page's origin (no CORS headers): what to do about it.
  await send(page, 'script: nocors');
  await idle(page);
  await expect(error).toHaveAttribute('data-kind', 'unreachable');
  await expect(error.locator('.cors-advice')).toContainText("must allow this page's origin (http://127.0.0.1:");
  // Nothing listens there at all.
  await setProvider(page, 0, { baseUrl: 'http://127.0.0.1:1/v1', model: 'm' });
  await send(page, 'hi');
  await idle(page);
  await expect(error).toHaveAttribute('data-kind', 'unreachable');
  // An address that is not one is refused before any request.
  await setProvider(page, 0, { baseUrl: 'http://user:pw@127.0.0.1:1/v1', model: 'm' });
  await send(page, 'hi');
  await idle(page);
  await expect(error).toContainText('user name or password');
});

test('the Anthropic and Gemini dialects through the page, side by side with an OpenAI-compatible model', async ({ page }) => {
  await twoServers(page);
  await page.locator('#chat-add-model').click();
  await setProvider(page, 1, { dialect: 'anthropic', baseUrl: `http://127.0.0.1:${fake.port}/anthropic`, model: 'claude-fake', key: 'sk-ant-fake' });
  await page.locator('#chat-add-model').click();
  await setProvider(page, 2, { dialect: 'gemini', baseUrl: `http://127.0.0.1:${fake.port}/gemini/v1beta`, model: 'gemini-fake', key: 'AIza-fake' });
  await page.locator('.chat-tool[data-tool="echo"] .tool-policy').first().selectOption('allow');
  await send(page, 'script: call everything__echo {"message":"same prompt"} | say The tool said {result}');
  for (const index of [0, 1, 2]) {
    await expect(toolCall(page, 0, index).locator('.content-text')).toContainText('Echo: same prompt');
    await expect(lastAnswer(page, index)).toHaveText('The tool said Echo: same prompt', { timeout: 20_000 });
  }
  await expect(lane(page, 1).locator('.turn-facts').first()).toContainText('claude-fake');
  await expect(lane(page, 2).locator('.turn-facts').first()).toContainText('gemini-fake');
  const requests = await fakeRequests(fake);
  const anthropic = requests.filter((r) => r.path === '/anthropic/v1/messages');
  expect(anthropic.length).toBe(2);
  expect(anthropic[0].headers['x-api-key']).toBe('sk-ant-fake');
  expect(anthropic[0].headers['anthropic-dangerous-direct-browser-access']).toBe('true');
  expect(anthropic[0].headers['anthropic-version']).toBe('2023-06-01');
  const gemini = requests.filter((r) => r.path.startsWith('/gemini/'));
  expect(gemini.length).toBe(2);
  expect(gemini[0].path).toBe('/gemini/v1beta/models/gemini-fake:streamGenerateContent?alt=sse');
  expect(gemini[0].headers['x-goog-api-key']).toBe('AIza-fake');
  // The tool results went back in each dialect's own shape.
  expect(JSON.parse(anthropic[1].body).messages[2].content[0].type).toBe('tool_result');
  expect(JSON.parse(gemini[1].body).contents[2].parts[0].functionResponse.name).toBe('everything__echo');
});

test('a server asks during a chat: elicitation inline, and sampling answered by the model after the person edits it', async ({ page }) => {
  await twoServers(page);
  await send(page, 'script: call favourite_colour {}');
  await toolCall(page, 0).locator('.approve').click();
  const card = page.locator('#chat-view .chat-asks .server-request[data-method="elicitation/create"]');
  await expect(card).toContainText('What is your favourite colour?');
  await card.locator('input[data-path="/colour"]').fill('teal');
  await card.locator('.answer').click();
  await expect(toolCall(page, 0).locator('.content-text')).toContainText('Your favourite colour is teal.');
  await idle(page);

  // server-everything's sampling tool, run from the tool panel: its card offers the chat's model.
  await page.locator('#tab-server').click();
  await page.locator('#servers li.server-entry').first().click();
  const panel = await selectTool(page, 'trigger-sampling-request');
  await field(panel, 'prompt').fill('Say hi');
  await page.locator('#run-tool').click();
  const sampling = page.locator('#server-requests .server-request[data-method="sampling/createMessage"]');
  await sampling.locator('.let-model-answer').click();
  await sampling.locator('.sampling-ask').click();
  const answer = sampling.locator('.sampling-model-text');
  await expect(answer).toHaveValue(/^You said: Resource trigger-sampling-request context: Say hi/);
  await answer.fill('An answer the person changed');
  await sampling.locator('.sampling-send').click();
  await expect(page.locator('#tool-result .content-text')).toContainText('"text": "An answer the person changed"');
  await expect(page.locator('#tool-result .content-text')).toContainText('"model": "fake-gpt"');
});

test('a prompt starts the conversation, a resource is attached, and the chat is exported and imported', async ({ page }) => {
  await twoServers(page);
  await page.locator('.chat-setup').nth(1).locator('summary').click();
  await page.locator('#chat-prompt').selectOption({ label: 'python: greet' });
  await page.locator('.chat-prompt-argument[data-argument="name"]').fill('Ada');
  await page.locator('#chat-prompt-insert').click();
  await expect(lane(page).locator('.from-person .message-text')).toHaveText(['Please greet Ada warmly.']);
  // Sending nothing answers the prompt.
  await page.locator('#chat-send').click();
  await idle(page);
  await expect(lastAnswer(page)).toHaveText('You said: Please greet Ada warmly.');

  await page.locator('#chat-resource').selectOption({ label: 'python: info (test://info)' });
  await page.locator('#chat-resource-attach').click();
  await expect(page.locator('.chat-attachment')).toContainText('python: test://info');
  await send(page, 'With this:');
  await idle(page);
  await expect(lastAnswer(page)).toHaveText('You said: With this:\nResource test://info (text/plain):\nmcp-lens python test resource');

  const json = page.waitForEvent('download');
  await page.locator('#chat-export-json').click();
  const file = await (await json).path();
  const exported = fs.readFileSync(file, 'utf8');
  expect(JSON.parse(exported).format).toBe('mcp-lens-chat');
  const markdown = page.waitForEvent('download');
  await page.locator('#chat-export-markdown').click();
  expect(fs.readFileSync(await (await markdown).path(), 'utf8')).toContain('## Model: fake-gpt');

  await page.locator('#chat-clear').click();
  await expect(lane(page).locator('.chat-message')).toHaveCount(0);
  await page.locator('#chat-import').setInputFiles(file);
  await expect(page.locator('.chat-transcript-note')).toHaveText('Imported 4 message(s).');
  await expect(lastAnswer(page)).toContainText('mcp-lens python test resource');
  await page.locator('#chat-import').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"format":"other"}') });
  await expect(page.locator('.chat-transcript-note')).toContainText('Importing the conversation failed');
});

test("a tool with an MCP App: the call's result opens its app in the chat", async ({ page }) => {
  test.setTimeout(90_000);
  const port = await freePort();
  const apps = new TestServer('node', ['-r', './tests/servers/loopback.cjs', 'node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js'], port, { PORT: String(port) });
  await apps.start();
  try {
    await page.goto('/');
    await connectNamed(page, `http://127.0.0.1:${port}/mcp`, 'apps');
    await openChat(page);
    await setProvider(page, 0, openai());
    await page.locator('.chat-tool[data-tool="get-time"] .tool-policy').selectOption('allow');
    await send(page, 'script: call get-time {} | say It is {result}');
    const call = toolCall(page, 0);
    await expect(call.locator('.call-status')).toHaveText(/Result: done/);
    const time = (await call.locator('.content-text').first().innerText()).trim();
    await call.locator('.show-app').click();
    const app = page.frameLocator('#chat-view .mcp-app iframe.app-frame').frameLocator('iframe');
    await expect(app.locator('#server-time')).toHaveText(time, { timeout: 20_000 });
    await idle(page);
    await expect(lastAnswer(page)).toContainText(`It is ${time}`);
  } finally {
    await apps.stop();
  }
});

test("the sampling card's Let the model answer works before the chat was ever opened (the model chosen in the card), and a declined answer is the server's error", async ({ page }) => {
  await page.goto('/');
  await connectNamed(page, EVERYTHING_URL, 'everything');
  const panel = await selectTool(page, 'trigger-sampling-request');
  await field(panel, 'prompt').fill('Say hi');
  await page.locator('#run-tool').click();
  const sampling = page.locator('#server-requests .server-request[data-method="sampling/createMessage"]');
  await sampling.locator('.let-model-answer').click();
  // The chat's code arrives with its chunk; the card asks for the model to use.
  await expect(sampling.locator('.sampling-ask')).toBeDisabled();
  await sampling.locator('.provider-base-url').fill(openai().baseUrl);
  await sampling.locator('.provider-model').fill('fake-gpt');
  await expect(sampling.locator('.sampling-ask')).toHaveText('Ask fake-gpt');
  await sampling.locator('.sampling-ask').click();
  await expect(sampling.locator('.sampling-model-text')).toHaveValue(/^You said: /);
  await sampling.locator('.sampling-decline').click();
  await expect(sampling).toHaveCount(0);
  await expect(page.locator('#tool-result')).toContainText('declined');
  // The model request is in the wire log, under the model's name.
  const rows = await modelWireLog(page);
  await expect(rows.first()).toContainText('POST /openai/v1/chat/completions');
});
