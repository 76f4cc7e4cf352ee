// The embed view (`?embed&url=...`, issue 12) against the real server-everything: narrowed to
// one tool with arguments from the address, problems with the address shown in the widget,
// its look from the address, and inside the example docs page kept in the repo
// (tests/e2e/docs-page/, served from another origin by a loopback server this spec starts,
// under a sub-path) with the host script (`embed.js`): readers run both widgets, the iframes
// follow their content, and the page hears only the documented messages.

import AxeBuilder from '@axe-core/playwright';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { APP_URL, EVERYTHING_URL, HOST, PYTHON_NO_CORS_URL } from './env';
import { confirmEmbedCall, expect, field, test, type Page } from './helpers';

function embedQuery(params: Record<string, string>, flags: string[] = []): string {
  return `?${['embed', ...flags].join('&')}&${new URLSearchParams(params)}`;
}

async function connectEmbed(page: Page): Promise<void> {
  await page.locator('#connect').click();
  await expect(page.locator('#status')).toContainText('Connected', { timeout: 20_000 });
}

test('narrowed to echo with arguments from the address: connect, run, the result; Open in mcp-lens', async ({ page, context }) => {
  await page.goto(`/${embedQuery({ url: EVERYTHING_URL, tool: 'echo', args: JSON.stringify({ message: 'from the docs' }) })}`);
  await expect(page.locator('#status')).toContainText('Disconnected');
  // One server, no sidebar, no list: connects on a click.
  await expect(page.locator('#servers')).toHaveCount(0);
  await expect(page.locator('#embed-problems')).toHaveCount(0);
  await connectEmbed(page);
  const panel = page.locator('#tool-panel');
  await expect(field(panel, 'message')).toHaveValue('from the docs');
  await expect(page.locator('li.tool-item')).toHaveCount(0);
  await expect(page.locator('#tab-tools')).toHaveCount(0);
  await page.locator('#run-tool').click();
  await confirmEmbedCall(page);
  await expect(page.locator('#tool-result')).toContainText('Echo: from the docs');
  expect((await new AxeBuilder({ page }).analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

  // The full app, in a new tab, on the same server and tool with the same arguments.
  const open = page.locator('#open-in-lens');
  await expect(open).toHaveAttribute('target', '_blank');
  const [full] = await Promise.all([context.waitForEvent('page'), open.click()]);
  await expect(full.locator('#server-url')).toHaveValue(EVERYTHING_URL);
  await expect(full.locator('#servers')).toBeVisible();
  await full.locator('#connect').click();
  await expect(full.locator('#status')).toContainText('Connected', { timeout: 20_000 });
  await expect(full.locator('li.tool-item[data-tool="echo"]')).toHaveClass(/selected/);
  await expect(field(full.locator('#tool-panel'), 'message')).toHaveValue('from the docs');
  await full.close();
});

test('arguments that are not JSON are reported in the widget; the form starts empty', async ({ page }) => {
  await page.goto(`/${embedQuery({ url: EVERYTHING_URL, tool: 'echo', args: '{"message": "unterminated' })}`);
  const problems = page.locator('#embed-problems');
  await expect(problems).toContainText('not valid JSON');
  await expect(problems).toContainText('line 1');
  await connectEmbed(page);
  await expect(field(page.locator('#tool-panel'), 'message')).toHaveValue('');
  // A tool the server does not list says so.
  await page.goto(`/${embedQuery({ url: EVERYTHING_URL, tool: 'no-such-tool' })}`);
  await connectEmbed(page);
  await expect(page.locator('#embed-missing')).toContainText('does not list the tool no-such-tool');
});

test('tokens and headers are never read from the address: the server gets none', async ({ page }) => {
  const sent: Record<string, string>[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(EVERYTHING_URL)) sent.push(request.headers());
  });
  await page.goto(`/${embedQuery({ url: EVERYTHING_URL, tool: 'echo', args: JSON.stringify({ message: 'no secrets' }), token: 'address-token-1', authorization: 'Bearer address-token-2', headers: 'X-Api-Key: address-key-3' }, ['connect'])}`);
  await expect(page.locator('#tool-panel')).toBeVisible({ timeout: 20_000 });
  await page.locator('#run-tool').click();
  await confirmEmbedCall(page);
  await expect(page.locator('#tool-result')).toContainText('Echo: no secrets');
  expect(sent.length).toBeGreaterThan(2);
  const all = JSON.stringify(sent);
  expect(sent.every((headers) => !('authorization' in headers) && !('x-api-key' in headers))).toBe(true);
  expect(all).not.toContain('address-token');
  expect(all).not.toContain('address-key');
  // Parameters it does not know are not problems of its own (nothing said about them either).
  await expect(page.locator('#embed-problems')).toHaveCount(0);
});

test('without a theme in the address it follows the reader\'s system', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(`/${embedQuery({ url: EVERYTHING_URL, tool: 'echo' })}`);
  await expect(page.locator('#connect')).toBeVisible();
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(22, 24, 27)');
  await page.emulateMedia({ colorScheme: 'light' });
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(250, 250, 250)');
});

test('connects at once when the link says so, with its theme, accent and font size; bad values are refused', async ({ page }) => {
  await page.goto(`/${embedQuery({ url: EVERYTHING_URL, tool: 'echo', theme: 'dark', accent: '#ff6600', 'font-size': '18' }, ['connect'])}`);
  await expect(page.locator('#status')).toContainText('Connected', { timeout: 20_000 });
  await expect(page.locator('#tool-panel')).toBeVisible();
  const look = await page.evaluate(() => {
    const root = getComputedStyle(document.documentElement);
    return {
      theme: document.documentElement.getAttribute('data-theme'),
      accent: root.getPropertyValue('--accent').trim(),
      accentFg: root.getPropertyValue('--accent-fg').trim(),
      font: getComputedStyle(document.body).fontSize,
      background: getComputedStyle(document.body).backgroundColor,
      button: getComputedStyle(document.querySelector('#run-tool')!).backgroundColor,
    };
  });
  expect(look).toEqual({
    theme: 'dark',
    accent: '#ff6600',
    accentFg: '#000000',
    font: '18px',
    background: 'rgb(22, 24, 27)',
    button: 'rgb(255, 102, 0)',
  });

  // Address text never reaches CSS: an accent that is not a hex colour is refused and said.
  await page.goto(`/${embedQuery({ url: EVERYTHING_URL, accent: 'red;}body{display:none', 'font-size': '99', theme: 'pink' })}`);
  const problems = page.locator('#embed-problems li');
  await expect(problems).toHaveCount(3);
  const accent = await page.evaluate(() => document.documentElement.style.getPropertyValue('--accent'));
  expect(accent).toBe('');
  await expect(page.locator('#connect')).toBeVisible();
  // Not narrowed: the tabs, as in the full app.
  await connectEmbed(page);
  await expect(page.locator('li.tool-item[data-tool="echo"]')).toBeVisible();
});

test('errors and server requests work as in the full app: the CORS explanation, an elicitation', async ({ page }) => {
  await page.goto(`/${embedQuery({ url: PYTHON_NO_CORS_URL })}`);
  await page.locator('#connect').click();
  const error = page.locator('#connect-error');
  await expect(error).toContainText('Access-Control-Allow-Origin', { timeout: 20_000 });
  await expect(page.locator('#status')).toContainText('Error');

  await page.goto(`/${embedQuery({ url: EVERYTHING_URL, tool: 'trigger-elicitation-request' })}`);
  await connectEmbed(page);
  await page.locator('#run-tool').click();
  await confirmEmbedCall(page);
  const card = page.locator('#server-requests .server-request[data-method="elicitation/create"]');
  await expect(card.locator('.elicitation-message')).toHaveText('Please provide inputs for the following fields:');
  await card.locator('.decline').click();
  await expect(card).toHaveCount(0);
  await expect(page.locator('#tool-result')).toContainText('User declined to provide the requested information.');
});

/**
 * The example docs page kept in the repo (tests/e2e/docs-page/: guide/index.html and its
 * stylesheet), served from a loopback origin of its own under a sub-path (/docs/guide/). The
 * page is written for scripts/serve.sh's addresses (the app on :8080, server-everything on
 * :3001); those two are replaced by this run's.
 */
const DOCS_DIR = path.join(__dirname, 'docs-page');
const EXAMPLE_APP = 'http://127.0.0.1:8080/';
const EXAMPLE_SERVER = 'http://127.0.0.1:3001/mcp';

async function docsServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://localhost').pathname;
    const rel = pathname.startsWith('/docs/') ? pathname.slice('/docs/'.length).replace(/(^|\/)$/, '$1index.html') : '';
    const file = path.join(DOCS_DIR, rel);
    if (!rel || rel.split('/').includes('..') || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    let body = fs.readFileSync(file, 'utf8');
    if (file.endsWith('.html')) {
      body = body.replaceAll(EXAMPLE_APP, APP_URL).replaceAll(encodeURIComponent(EXAMPLE_SERVER), encodeURIComponent(EVERYTHING_URL));
    }
    response.writeHead(200, { 'content-type': file.endsWith('.css') ? 'text/css; charset=utf-8' : 'text/html; charset=utf-8' });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${HOST}:${port}/docs/guide/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// Every message the docs page's window receives, recorded before its own scripts run.
const RECORD_MESSAGES = `
  if (window.top === window) {
    window.received = [];
    addEventListener('message', (e) => {
      const which = ['echo-widget', 'sum-widget'].find((id) => document.getElementById(id)?.contentWindow === e.source);
      window.received.push({ origin: e.origin, data: e.data, frame: which ?? 'other' });
    });
  }
`;

test('the example docs page on another origin: readers run two widgets, the iframes follow their content, the page hears only documented messages', async ({ page }) => {
  const docs = await docsServer();
  try {
    await page.addInitScript(RECORD_MESSAGES);
    await page.goto(docs.url);
    expect(new URL(docs.url).origin).not.toBe(new URL(APP_URL).origin);
    // The page's own stylesheet, by a relative path from the sub-path.
    await expect(page.locator('h1')).toHaveCSS('color', 'rgb(11, 114, 133)');
    const appOrigin = new URL(APP_URL).origin;
    const frameHeight = (id: string) => page.locator(`#${id}`).evaluate((f) => f.getBoundingClientRect().height);
    const lastHeight = (frame: string) =>
      page.evaluate((frame) => {
        const heights = (window as any).received.filter((m: any) => m.frame === frame && m.data.type === 'height');
        return heights.length ? heights[heights.length - 1].data.height : null;
      }, frame);
    // The host script sets each iframe to its content's reported height (not the 420 px of the
    // page's stylesheet, the height it has without the script).
    await expect.poll(async () => (await frameHeight('echo-widget')) === (await lastHeight('echo-widget'))).toBe(true);
    const before = await frameHeight('echo-widget');
    expect(before).not.toBe(420);

    // The reader connects, types their own message and runs the tool.
    const echo = page.frameLocator('#echo-widget');
    await expect(echo.locator('#embed-problems')).toHaveCount(0);
    await echo.locator('#connect').click();
    await expect(echo.locator('#status')).toContainText('Connected', { timeout: 20_000 });
    const message = field(echo.locator('#tool-panel'), 'message');
    await expect(message).toHaveValue('Hello from the docs');
    await message.fill('resize me');
    await echo.locator('#run-tool').click();
    await confirmEmbedCall(echo);
    await expect(echo.locator('#tool-result')).toContainText('Echo: resize me');
    // The look the page asked for: its accent and font size.
    expect(await echo.locator('#run-tool').evaluate((b) => getComputedStyle(b).backgroundColor)).toBe('rgb(11, 114, 133)');
    expect(await echo.locator('body').evaluate((b) => getComputedStyle(b).fontSize)).toBe('16px');
    // Grown with the form and the result, and the frame followed.
    await expect.poll(() => frameHeight('echo-widget')).toBeGreaterThan(before + 50);
    await expect.poll(async () => (await frameHeight('echo-widget')) === (await lastHeight('echo-widget'))).toBe(true);
    await expect
      .poll(async () => (await echo.locator('#embed').evaluate((e) => Math.ceil(e.getBoundingClientRect().height))) === (await frameHeight('echo-widget')))
      .toBe(true);
    // The page's own listener of the documented DOM events (embed.js) heard the result.
    await expect(page.locator('#echo-last')).toHaveText('Last call: echo, succeeded.');

    // The second widget works on its own: light whatever the system says, its arguments prefilled.
    const sum = page.frameLocator('#sum-widget');
    await page.locator('#sum-widget').scrollIntoViewIfNeeded();
    await expect(sum.locator('html')).toHaveAttribute('data-theme', 'light');
    await sum.locator('#connect').click();
    await expect(sum.locator('#status')).toContainText('Connected', { timeout: 20_000 });
    await sum.locator('#run-tool').click();
    await confirmEmbedCall(sum);
    await expect(sum.locator('#tool-result')).toContainText('The sum of 2 and 3 is 5.');
    await expect(page.locator('#sum-last')).toHaveText('Last call: get-sum, succeeded.');
    await expect.poll(async () => (await frameHeight('sum-widget')) === (await lastHeight('sum-widget'))).toBe(true);
    expect(await page.locator('#echo-last').textContent()).toBe('Last call: echo, succeeded.');

    const received: { origin: string; data: any; frame: string }[] = await page.evaluate(() => (window as any).received);
    for (const message of received) {
      expect(message.origin).toBe(appOrigin);
      expect(message.frame).not.toBe('other');
      expect(message.data.source).toBe('mcp-lens');
      expect(['height', 'connected', 'result', 'error']).toContain(message.data.type);
      const keys = Object.keys(message.data).sort();
      const expected = { height: ['height'], connected: [], result: ['isError', 'kind', 'name'], error: [] }[message.data.type as 'height'];
      expect(keys).toEqual(['source', 'type', ...expected].sort());
    }
    const events = (frame: string) => received.filter((m) => m.frame === frame && m.data.type !== 'height').map((m) => m.data);
    expect(events('echo-widget')).toEqual([
      { source: 'mcp-lens', type: 'connected' },
      { source: 'mcp-lens', type: 'result', kind: 'tool', name: 'echo', isError: false },
    ]);
    expect(events('sum-widget')).toEqual([
      { source: 'mcp-lens', type: 'connected' },
      { source: 'mcp-lens', type: 'result', kind: 'tool', name: 'get-sum', isError: false },
    ]);
    // No result content, and nothing of what the reader typed, reaches the host page.
    expect(JSON.stringify(received)).not.toContain('Echo:');
    expect(JSON.stringify(received)).not.toContain('resize me');
  } finally {
    await docs.close();
  }
});

test('another frame of the widgets\' origin can neither resize a widget nor speak as one; frames still loading are not posted to', async ({ page }) => {
  const docs = await docsServer();
  const postErrors: string[] = [];
  page.on('console', (message) => {
    if (/Failed to execute 'postMessage'/.test(message.text())) postErrors.push(message.text());
  });
  // A page of the app's own origin that is no widget (on a real site: a video, comments, any
  // other page of that origin), posting what widgets post, a hundred times.
  const comments = `${APP_URL}comments.html`;
  await page.route(comments, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><p>comments</p><script>
        for (let i = 0; i < 100; i++) {
          parent.postMessage({ source: 'mcp-lens', type: 'height', height: 3 }, '*');
          parent.postMessage({ source: 'mcp-lens', type: 'result', kind: 'tool', name: 'forged', isError: false }, '*');
          parent.postMessage({ source: 'mcp-lens', type: 'connected', server: 'forged' }, '*');
        }
        document.title = 'posted';
      </script>`,
    }),
  );
  try {
    await page.goto(docs.url);
    // Every mcp-lens:* event on any iframe, from the start.
    await page.evaluate((src) => {
      (window as any).heard = [];
      const frame = document.createElement('iframe');
      frame.id = 'comments';
      frame.title = 'comments';
      frame.style.height = '150px';
      for (const f of [...document.querySelectorAll('iframe'), frame]) {
        for (const type of ['height', 'result', 'connected', 'error']) {
          f.addEventListener(`mcp-lens:${type}`, (e) => (window as any).heard.push({ frame: f.id, detail: (e as CustomEvent).detail }));
        }
      }
      frame.src = src;
      document.body.append(frame);
    }, comments);
    await expect(page.frameLocator('#comments').locator('p')).toHaveText('comments');
    await expect.poll(() => page.frame({ url: comments })?.title()).toBe('posted');
    // The widgets are sized by their own messages, as without the intruder.
    const echo = page.frameLocator('#echo-widget');
    await expect(echo.locator('#connect')).toBeVisible();
    await expect
      .poll(() => page.locator('#echo-widget').evaluate((f) => f.getBoundingClientRect().height))
      .not.toBe(420);
    await echo.locator('#connect').click();
    await expect(echo.locator('#status')).toContainText('Connected', { timeout: 20_000 });
    // A last round of forgeries after the widget's own messages.
    await page.frameLocator('#comments').locator('p').evaluate(() => {
      parent.postMessage({ source: 'mcp-lens', type: 'height', height: 3 }, '*');
      parent.postMessage({ source: 'mcp-lens', type: 'result', kind: 'tool', name: 'forged', isError: false }, '*');
    });
    await page.waitForTimeout(300);
    const heard: { frame: string; detail: any }[] = await page.evaluate(() => (window as any).heard);
    expect(heard.filter((e) => e.frame === 'comments')).toEqual([]);
    expect(JSON.stringify(heard)).not.toContain('forged');
    expect(heard.some((e) => e.frame === 'echo-widget' && e.detail.type === 'connected')).toBe(true);
    expect(await page.locator('#comments').evaluate((f) => (f as HTMLIFrameElement).style.height)).toBe('150px');
    expect(await page.locator('#echo-widget').evaluate((f) => f.getBoundingClientRect().height)).toBeGreaterThan(100);
    // The host script asked only frames that had loaded: no "target origin does not match".
    expect(postErrors).toEqual([]);
  } finally {
    await docs.close();
  }
});

test('the host script asks a widget for its height only once it has loaded: no "target origin does not match" errors', async ({ page }) => {
  const postErrors: string[] = [];
  page.on('console', (message) => {
    if (/Failed to execute 'postMessage'/.test(message.text())) postErrors.push(message.text());
  });
  // The widget's page comes late: when the script starts, the frame still shows its first,
  // empty document (of this page's origin, not the widget's).
  await page.route(
    (url) => url.origin === new URL(APP_URL).origin && url.searchParams.has('embed'),
    async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue();
    },
  );
  const query = embedQuery({ url: EVERYTHING_URL, tool: 'echo' });
  await page.setContent(
    `<iframe id="w" title="w" src="${APP_URL}${query.replace(/&/g, '&amp;')}" style="width: 500px; height: 90px; border: 0"></iframe>` +
      `<script src="${APP_URL}embed.js"></script>`,
  );
  const widget = page.frameLocator('#w');
  await expect(widget.locator('#connect')).toBeVisible();
  const content = await widget.locator('#embed').evaluate((e) => Math.ceil(e.getBoundingClientRect().height));
  await expect.poll(() => page.locator('#w').evaluate((f) => f.getBoundingClientRect().height)).toBe(content);
  expect(postErrors).toEqual([]);
});

test('the host script loaded after the widget still sizes it (it asks for the height)', async ({ page }) => {
  const query = embedQuery({ url: EVERYTHING_URL, tool: 'echo' });
  await page.setContent(`<iframe id="w" title="w" src="${APP_URL}${query.replace(/&/g, '&amp;')}" style="width: 500px; height: 90px; border: 0"></iframe>`);
  const widget = page.frameLocator('#w');
  await expect(widget.locator('#connect')).toBeVisible();
  // Its first height went to no one: the frame keeps its own.
  expect(await page.locator('#w').evaluate((f) => f.getBoundingClientRect().height)).toBe(90);
  await page.addScriptTag({ url: `${APP_URL}embed.js` });
  const content = await widget.locator('#embed').evaluate((e) => Math.ceil(e.getBoundingClientRect().height));
  expect(content).not.toBe(90);
  await expect.poll(() => page.locator('#w').evaluate((f) => f.getBoundingClientRect().height)).toBe(content);
});

test('without the host script the widget keeps its fixed height and scrolls', async ({ page }) => {
  const query = embedQuery({ url: EVERYTHING_URL, tool: 'echo', args: JSON.stringify({ message: 'scroll' }) }, ['connect']);
  await page.setContent(`<iframe id="w" title="w" src="${APP_URL}${query.replace(/&/g, '&amp;')}" style="width: 500px; height: 120px"></iframe>`);
  const widget = page.frameLocator('#w');
  await expect(widget.locator('#tool-panel')).toBeVisible({ timeout: 20_000 });
  expect(await page.locator('#w').evaluate((f) => f.clientHeight)).toBe(120);
  expect(await widget.locator('html').evaluate((html) => html.scrollHeight)).toBeGreaterThan(120);
  // Taller than the frame: the frame's document scrolls to reach the Run button.
  await widget.locator('#run-tool').click();
  await confirmEmbedCall(widget);
  await expect(widget.locator('#tool-result')).toContainText('Echo: scroll');
});

test('each view downloads only its own shell, once: the embed never the full app, the full app never the embed', async ({ page }) => {
  const requested: string[] = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname.split('/').pop()!));
  await page.goto(`/${embedQuery({ url: EVERYTHING_URL, tool: 'echo' })}`);
  await connectEmbed(page);
  await expect(page.locator('#tool-panel')).toBeVisible();
  // Preloaded by the page and then used by the loader: one request, not two (each pack of
  // modules, scripts/wasm-split.mjs `pack`, is fetched once however many modules it holds).
  const wasm = (names: string[]) => names.filter((name) => name.endsWith('.wasm'));
  expect(requested.filter((name) => name === 'pack-embed.wasm')).toHaveLength(1);
  expect(wasm(requested)).toEqual([...new Set(wasm(requested))]);
  expect(requested).not.toContain('pack-app.wasm');
  expect(requested).not.toContain('pack-import.wasm');

  requested.length = 0;
  await page.goto(`/?url=${encodeURIComponent(EVERYTHING_URL)}`);
  await expect(page.locator('#servers')).toBeVisible();
  await expect.poll(() => requested.includes('pack-session.wasm')).toBe(true);
  expect(requested.filter((name) => name === 'pack-app.wasm')).toHaveLength(1);
  expect(wasm(requested)).toEqual([...new Set(wasm(requested))]);
  expect(requested).not.toContain('pack-embed.wasm');
});

test('narrowed to a prompt, and to a resource template, with their arguments from the address', async ({ page }) => {
  await page.goto(`/${embedQuery({ url: EVERYTHING_URL, prompt: 'args-prompt', args: JSON.stringify({ city: 'Paris' }) })}`);
  await connectEmbed(page);
  await expect(field(page.locator('#prompt-panel'), 'city')).toHaveValue('Paris');
  await page.locator('#get-prompt').click();
  await confirmEmbedCall(page);
  await expect(page.locator('#prompt-result .prompt-message .content-text')).toHaveText(["What's weather in Paris?"]);

  const template = 'demo://resource/dynamic/text/{resourceId}';
  await page.goto(`/${embedQuery({ url: EVERYTHING_URL, resource: template, args: JSON.stringify({ resourceId: '7' }) })}`);
  await connectEmbed(page);
  // Templates are listed after connect: the panel appears when they are.
  await expect(field(page.locator('#resource-panel'), 'resourceId')).toHaveValue('7', { timeout: 20_000 });
  await page.locator('#read-resource').click();
  await confirmEmbedCall(page);
  await expect(page.locator('#resource-result')).toContainText('Resource 7: This is a plaintext resource');
});
