// Connection failures the page can meet, each followed by a good connection in the same page.
//
// - a real MCP server without CORS (mcp 2.3.0 defaults: the preflight gets 405 and no
//   Access-Control-Allow-Origin), which the browser reports only as "Failed to fetch";
// - nothing listening at all, which the browser reports the same way;
// - a server that answers 200 text/html (with permissive CORS), which is neither JSON nor SSE.

import { CLOSED_URL, EVERYTHING_URL, HTML_URL, PYTHON_NO_CORS_URL } from './env';
import { connectExpectingError, connectTo, disconnect, expect, openApp, test, toolItem, type Page } from './helpers';

async function recoverWithEverything(page: Page): Promise<void> {
  await connectTo(page, EVERYTHING_URL);
  await expect(page.locator('#server-info .server-name')).toHaveText('mcp-servers/everything');
  await page.locator('#tab-tools').click();
  await expect(toolItem(page, 'echo')).toBeVisible();
  await expect(toolItem(page, 'get-sum')).toBeVisible();
  await disconnect(page);
}

test('server without CORS: the error explains cross-origin access', async ({ page }) => {
  await openApp(page, PYTHON_NO_CORS_URL);
  const error = await connectExpectingError(page);
  // The sentence names the step that failed.
  await expect(error).toContainText(/^Initialize failed:/);
  await expect(error).toContainText('Access-Control-Allow-Origin');
  await expect(error).toContainText(/cross-origin/i);

  await recoverWithEverything(page);
});

test('nothing listening: the error says the server could not be reached', async ({ page }) => {
  await openApp(page, CLOSED_URL);
  const error = await connectExpectingError(page);
  // The browser cannot tell "down" from "CORS refused", so the sentence covers both.
  await expect(error).toContainText(/could not be reached|unreachable|not reachable/i);
  await expect(error).toContainText(/cross-origin/i);
  await expect(error).toContainText('Access-Control-Allow-Origin');

  await recoverWithEverything(page);
});

test('server answering text/html: the error says it is neither JSON nor an event stream', async ({ page }) => {
  await openApp(page, HTML_URL);
  const error = await connectExpectingError(page);
  await expect(error).toContainText('text/html');
  await expect(error).toContainText(/neither JSON nor/i);
  await expect(error).toContainText(/event stream|event-stream|SSE/i);
  // Not the network/CORS explanation: the page did get an answer.
  await expect(error).not.toContainText(/could not be reached/i);

  await recoverWithEverything(page);
});

test('a failure after a good connection leaves the page usable', async ({ page }) => {
  await openApp(page, EVERYTHING_URL);
  await connectTo(page, EVERYTHING_URL);
  await disconnect(page);

  await page.locator('#server-url').fill(HTML_URL);
  const error = await connectExpectingError(page);
  await expect(error).toContainText('text/html');

  await recoverWithEverything(page);
  await expect(page.locator('#connect-error')).toBeHidden();
});

test('an address that is not an absolute http(s) URL is refused before anything is sent', async ({ page }) => {
  await openApp(page, '127.0.0.1:3001/mcp');
  let requests = 0;
  page.on('request', (request) => {
    if (request.method() !== 'GET') requests += 1;
  });
  await page.locator('#connect').click();
  await expect(page.locator('#connect-error')).toContainText('is not an http:// or https:// URL');
  await expect(page.locator('#status')).toHaveText('Disconnected');
  expect(requests).toBe(0);

  await recoverWithEverything(page);
});
