// Both protocol eras against the Python SDK (mcp 2.3.0), which speaks both. A server's need
// for input is answered through the same handlers either way: a server-sent request in the
// handshake era, an `input_required` round (the request sent again with `inputResponses`)
// in the stateless 2026-07-28 era.

import { PYTHON_URL } from './env';
import { connect, disconnect, events, expect, field, runTool, selectTool, test, type Page } from './helpers';

async function open(page: Page, version: string, roots = ''): Promise<void> {
  const query = new URLSearchParams({ url: PYTHON_URL, version });
  await page.goto(`/?${query}`);
  await page.locator('#settings > summary').click();
  await page.locator('#roots').fill(roots);
  await connect(page);
}

for (const [version, protocol] of [
  ['auto', '2026-07-28'],
  ['2025-11-25', '2025-11-25'],
] as const) {
  test(`elicitation and roots the tool needs, ${protocol}`, async ({ page }) => {
    const posts: { rpc: string; hasResponses: boolean; method?: string; name?: string }[] = [];
    page.on('request', (request) => {
      const body = request.postData();
      if (request.method() !== 'POST' || !body) return;
      const message = JSON.parse(body);
      posts.push({
        rpc: message.method,
        hasResponses: Boolean(message.params?.inputResponses),
        method: request.headers()['mcp-method'],
        name: request.headers()['mcp-name'],
      });
    });
    await open(page, version, 'file:///a\nfile:///b Bee');
    await expect(page.locator('#server-info .protocol-version')).toContainText(protocol);

    await selectTool(page, 'favourite_colour');
    await page.locator('#run-tool').click();
    const card = page.locator('#server-requests .server-request[data-method="elicitation/create"]');
    await expect(card.locator('.elicitation-message')).toHaveText('What is your favourite colour?');
    await field(card, 'colour').fill('blue');
    await card.locator('.answer').click();
    await expect(page.locator('#tool-result .content-text')).toHaveText(['Your favourite colour is blue.']);

    await selectTool(page, 'count_roots');
    const result = await runTool(page);
    await expect(result.locator('.content-text')).toHaveText(['2 roots: file:///a, file:///b']);

    const calls = posts.filter((p) => p.rpc === 'tools/call');
    if (protocol === '2026-07-28') {
      // Each call went out twice: the second time with the answers to its input requests.
      expect(calls.map((c) => c.hasResponses)).toEqual([false, true, false, true]);
      expect(calls.every((c) => c.method === 'tools/call')).toBe(true);
      expect(calls.map((c) => c.name)).toEqual(['favourite_colour', 'favourite_colour', 'count_roots', 'count_roots']);
      expect(posts.some((p) => p.rpc === 'initialize')).toBe(false);
      // subscriptions/listen replaces the GET stream; the server acknowledges what it honours.
      expect(posts.some((p) => p.rpc === 'subscriptions/listen' && p.method === 'subscriptions/listen')).toBe(true);
      await expect.poll(() => events(page)).toContain('notifications/subscriptions/acknowledged');
    } else {
      expect(calls.map((c) => c.hasResponses)).toEqual([false, false]);
      expect(posts[0].rpc).toBe('initialize');
    }
    await disconnect(page);
  });
}

test('declining an input request fails the call with a clear message (2026-07-28)', async ({ page }) => {
  await open(page, 'auto');
  await selectTool(page, 'favourite_colour');
  await page.locator('#run-tool').click();
  const card = page.locator('#server-requests .server-request[data-method="elicitation/create"]');
  await card.locator('.decline').click();
  // The round is answered with {"action": "decline"}; the tool then reports it got no value.
  const result = page.locator('#tool-result');
  await expect(result).toHaveClass(/result-error/);
  await expect(result).toContainText('elicitation was decline');
  await expect(card).toHaveCount(0);
  await disconnect(page);
});
