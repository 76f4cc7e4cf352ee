// MCP Apps (SEP-1865): a tool's `ui://` app framed beside its result, the page as its host.
//
// - the official example `@modelcontextprotocol/server-basic-vanillajs` (npm, written with the
//   ext-apps SDK): the app renders, receives its input and result, calls its tool back through
//   the host, sends a message and a log, asks for a link, resizes, and is torn down; all of it
//   in the wire log beside the MCP traffic.
// - tests/servers/apps_server.py: a hostile app (parent DOM, storage, cookies, top navigation,
//   popups, a javascript: link, network outside its CSP, an app-invisible tool, messages posted
//   around its proxy, a flood), and one that navigates its own frame away.
//
// The apps' frames may log CSP violations (that is the attacks failing): unlike the other specs,
// only the page's own errors count here.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test as base, expect, type Page, type FrameLocator } from '@playwright/test';
import { heapAfterCollection, sampleMemory, trackWasmMemory, wasmMemoryBytes } from './helpers';
import { freePort, TestServer } from './spawn';

/** Policy violations a test expects (its app's attacks being refused), as patterns. */
let expectedViolations: RegExp[] = [];
/** Uncaught errors an app's own frame is expected to throw (Playwright reports every frame's). */
let expectedAppErrors: RegExp[] = [];

const test = base.extend<{ page: Page }>({
  page: async ({ page }, use) => {
    expectedViolations = [];
    expectedAppErrors = [];
    const problems: string[] = [];
    page.on('pageerror', (error) => {
      if (!expectedAppErrors.some((pattern) => pattern.test(error.message))) problems.push(`page error: ${error.message}`);
    });
    page.on('console', (message) => {
      const url = message.location().url ?? '';
      const inApp = url.startsWith('about:srcdoc') || url.includes('sandbox');
      if (message.type() === 'error' && /panicked at|RuntimeError: unreachable/.test(message.text())) {
        problems.push(`wasm panic: ${message.text()}`);
      }
      const expected = expectedViolations.some((pattern) => pattern.test(message.text()));
      if (!inApp && !expected && /Content Security Policy/.test(message.text())) {
        problems.push(`CSP violation in the page: ${message.text()}`);
      }
    });
    await use(page);
    expect(problems, 'uncaught errors or panics in the page').toEqual([]);
  },
});

const ROOT = path.resolve(__dirname, '../..');
const VANILLA = 'node_modules/@modelcontextprotocol/server-basic-vanillajs/dist/index.js';

let servers: TestServer[] = [];
test.afterEach(async () => {
  for (const server of servers) await server.stop();
  servers = [];
});

async function started(server: TestServer): Promise<TestServer> {
  servers.push(server);
  await server.start();
  return server;
}

/** One of the official `@modelcontextprotocol/server-basic-*` example servers (npm). */
async function exampleServer(flavour: string): Promise<TestServer> {
  const port = await freePort();
  const main = `node_modules/@modelcontextprotocol/server-basic-${flavour}/dist/index.js`;
  return started(new TestServer('node', ['-r', './tests/servers/loopback.cjs', main], port, { PORT: String(port) }));
}

async function vanillaServer(): Promise<TestServer> {
  return exampleServer('vanillajs');
}

async function appsServer(): Promise<TestServer> {
  const port = await freePort();
  return started(new TestServer('.venv/bin/python', ['tests/servers/apps_server.py', '--port', String(port)], port));
}

async function openAndConnect(page: Page, url: string, extra: Record<string, string> = {}): Promise<void> {
  await page.goto(`/?${new URLSearchParams({ url, ...extra })}`);
  await page.locator('#connect').click();
  await expect(page.locator('#status')).toContainText('Connected', { timeout: 20_000 });
}

async function runToolWithApp(page: Page, name: string): Promise<void> {
  await page.locator('#tab-tools').click();
  await page.locator(`li.tool-item[data-tool="${name}"]`).click();
  await page.locator('#run-tool').click();
  await expect(page.locator('#tool-result .content-text').first()).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('.mcp-app iframe.app-frame')).toBeVisible({ timeout: 20_000 });
}

/** The app's own document: the proxy frame's inner frame. */
function appFrame(page: Page): FrameLocator {
  return page.frameLocator('.mcp-app iframe.app-frame').frameLocator('iframe');
}

async function openWireLog(page: Page) {
  const log = page.locator('#wire-log');
  await expect(async () => {
    if (!(await page.locator('#wire-traffic').isVisible())) await log.locator('summary').click();
    await expect(page.locator('#wire-traffic')).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  return log;
}

/** The methods of the wire log's app rows (host <-> app), in order, both directions. */
async function appMethods(page: Page): Promise<string[]> {
  const log = await openWireLog(page);
  await page.locator('#wire-traffic').selectOption('app');
  return log.locator('tr.wire-entry').evaluateAll((rows) =>
    rows.map((row) => `${row.getAttribute('data-direction')} ${row.querySelector('.wire-method')?.textContent ?? ''}`),
  );
}

test('server-basic-vanillajs: the app renders, gets its input and result, calls back, resizes and is torn down', async ({ page }) => {
  test.setTimeout(90_000);
  expect(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).toContain('@modelcontextprotocol/server-basic-vanillajs');
  const server = await vanillaServer();
  await openAndConnect(page, `http://127.0.0.1:${server.port}/mcp`);

  // The tool is marked in the list.
  await expect(page.locator('li.tool-item[data-tool="get-time"] .item-badge')).toHaveText('app');
  // The page declared the extension to the server.
  const log = await openWireLog(page);
  await log.locator('tr.wire-entry[data-direction="sent"]').first().click();
  await expect(page.locator('#wire-detail')).toContainText('io.modelcontextprotocol/ui');
  await expect(page.locator('#wire-detail')).toContainText('text/html;profile=mcp-app');

  await runToolWithApp(page, 'get-time');
  const resultTime = (await page.locator('#tool-result .content-text').first().innerText()).trim();
  const app = appFrame(page);
  // Held until initialized, then the input and the result: the app shows the result's time.
  await expect(app.locator('#server-time')).toHaveText(resultTime, { timeout: 20_000 });
  await expect(page.locator('.mcp-app .app-stage')).toHaveText('Running');
  await expect(page.locator('.mcp-app .app-reach')).toContainText('No network access');

  // The order on the wire: initialize answered, then initialized, then input and result.
  await expect
    .poll(() => appMethods(page), { timeout: 10_000 })
    .toEqual(
      expect.arrayContaining([
        'received ui/initialize',
        'sent (result)',
        'received ui/notifications/initialized',
        'sent ui/notifications/tool-input',
        'sent ui/notifications/tool-result',
      ]),
    );
  const methods = await appMethods(page);
  expect(methods.indexOf('received ui/notifications/initialized')).toBeLessThan(methods.indexOf('sent ui/notifications/tool-input'));
  expect(methods.indexOf('sent ui/notifications/tool-input')).toBeLessThan(methods.indexOf('sent ui/notifications/tool-result'));

  // It sized itself: the frame follows ui/notifications/size-changed. (Chromium runs no
  // animation frames in a cross-origin frame out of view, and the SDK measures in one.)
  await page.locator('.mcp-app iframe.app-frame').scrollIntoViewIfNeeded();
  await expect.poll(() => appMethods(page)).toContain('received ui/notifications/size-changed');
  await expect
    .poll(() => page.locator('.mcp-app iframe.app-frame').evaluate((f) => (f as HTMLIFrameElement).style.height))
    .not.toBe('320px');

  // The app calls its tool through the host: proxied to the server, the answer back to the app.
  await page.locator('#wire-traffic').selectOption('');
  await app.locator('#get-time-btn').click();
  await expect(app.locator('#server-time')).not.toHaveText(resultTime, { timeout: 20_000 });
  await page.locator('#wire-traffic').selectOption('app');
  const callRow = log.locator('tr.wire-entry[data-direction="received"]', { hasText: 'tools/call' });
  await expect(callRow).toHaveCount(1);
  // Its answer is timed against it.
  await expect(log.locator('tr.wire-entry[data-direction="sent"]', { hasText: '(result)' }).last().locator('.wire-duration')).toHaveText(/^\d+ ms$/);
  await page.locator('#wire-traffic').selectOption('mcp');
  await expect(log.locator('tr.wire-entry[data-direction="sent"]', { hasText: 'tools/call' })).toHaveCount(2);

  // ui/message and notifications/message: shown as a chat host would receive them. (The frame
  // in view: Chromium pauses rendering of a cross-origin frame out of view, and the app
  // measures itself in an animation frame.)
  await page.locator('.mcp-app iframe.app-frame').scrollIntoViewIfNeeded();
  await app.locator('#message-text').fill('hello from the app');
  await app.locator('#send-message-btn').click();
  await expect(page.locator('.app-note[data-kind="message"]')).toContainText('hello from the app');
  await page.locator('.mcp-app iframe.app-frame').scrollIntoViewIfNeeded();
  await app.locator('#log-text').fill('a log line');
  await app.locator('#send-log-btn').click();
  await expect(page.locator('.app-note[data-kind="log"]')).toContainText('a log line');

  // ui/open-link waits for the person; declined, the app is told so and nothing opens. (The
  // example does not catch the refusal: its frame reports it as uncaught.)
  expectedAppErrors.push(/^Link opening denied by user$/);
  await page.locator('.mcp-app iframe.app-frame').scrollIntoViewIfNeeded();
  await app.locator('#link-url').fill('https://example.com/docs');
  await app.locator('#open-link-btn').click();
  await expect(page.locator('.app-link .app-link-url')).toHaveText('https://example.com/docs');
  await expect(async () => {
    await page.locator('.app-link-decline').click({ timeout: 2_000 });
    await expect(page.locator('.app-link')).toHaveCount(0, { timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
  await page.locator('#wire-traffic').selectOption('app');
  await expect(log.locator('tr.wire-entry[data-direction="received"]', { hasText: 'ui/open-link' })).toHaveCount(1);
  expect(page.context().pages()).toHaveLength(1);

  // Teardown: ui/resource-teardown, the app's answer, then the frame goes.
  await page.locator('.mcp-app .app-close').click();
  await expect(page.locator('.mcp-app iframe.app-frame')).toHaveCount(0, { timeout: 10_000 });
  await expect(page.locator('.mcp-app .app-stage')).toHaveText('Closed');
  const end = await appMethods(page);
  expect(end).toContain('sent ui/resource-teardown');
  expect(end.slice(end.indexOf('sent ui/resource-teardown'))).toContain('received (result)');
});

// The same app written with React, Preact and Solid (its markup differs: found by its text).
for (const flavour of ['react', 'preact', 'solid']) {
  test(`server-basic-${flavour}: the app renders its result, calls its tool through the host, resizes, is torn down`, async ({ page }) => {
    test.setTimeout(60_000);
    expect(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).toContain(`@modelcontextprotocol/server-basic-${flavour}`);
    const server = await exampleServer(flavour);
    await openAndConnect(page, `http://127.0.0.1:${server.port}/mcp`);
    await expect(page.locator('li.tool-item[data-tool="get-time"] .item-badge')).toHaveText('app');
    await runToolWithApp(page, 'get-time');
    const resultTime = (await page.locator('#tool-result .content-text').first().innerText()).trim();
    const app = appFrame(page);
    await expect(app.getByText(resultTime)).toBeVisible({ timeout: 20_000 });
    await expect
      .poll(
        async () => {
          await page.locator('.mcp-app iframe.app-frame').scrollIntoViewIfNeeded();
          return appMethods(page);
        },
        { timeout: 20_000 },
      )
      .toContain('received ui/notifications/size-changed');
    await app.getByRole('button', { name: 'Get Server Time' }).click();
    await expect(app.getByText(resultTime)).toHaveCount(0, { timeout: 20_000 });
    await expect.poll(() => appMethods(page)).toContain('received tools/call');
    await page.locator('.mcp-app .app-close').click();
    await expect(page.locator('.mcp-app iframe.app-frame')).toHaveCount(0, { timeout: 10_000 });
    // Answered (these examples register no teardown handler, so their SDK answers with an
    // error; the frame goes either way).
    const end = await appMethods(page);
    const after = end.slice(end.indexOf('sent ui/resource-teardown'));
    expect(after.some((row) => row === 'received (result)' || row === 'received (error)')).toBe(true);
  });
}

test('a hostile app reaches nothing of the page, and every attempt is logged', async ({ page }) => {
  test.setTimeout(90_000);
  const server = await appsServer();
  const base = `http://127.0.0.1:${server.port}`;
  // The app's fetch of its server (not declared in its CSP) refused: expected in the console.
  expectedViolations.push(new RegExp(`${base}/escaped.*connect-src 'none'`, 's'));
  await openAndConnect(page, `${base}/mcp`);
  await page.evaluate(() => {
    localStorage.setItem('mcp-lens-canary', 'page secret');
    document.cookie = 'canary=page-secret';
  });
  const pageUrl = page.url();

  // The app-only tool is listed apart (last) and marked; the model-only one is plain.
  const names = await page.locator('li.tool-item').evaluateAll((items) => items.map((i) => i.getAttribute('data-tool')));
  expect(names[names.length - 1]).toBe('app_only');
  await expect(page.locator('li.tool-item[data-tool="app_only"] .item-badge')).toHaveText('app only');
  await expect(page.locator('li.tool-item[data-tool="model_only"] .item-badge')).toHaveCount(0);

  await runToolWithApp(page, 'hostile');
  const report = page.locator('.app-note[data-kind="log"]', { hasText: 'hostile' });
  await expect(report).toBeVisible({ timeout: 30_000 });
  const results = JSON.parse(await report.locator('.app-note-text').innerText()).hostile as Record<string, string>;
  for (const attempt of ['parent_dom', 'top_dom', 'local_storage', 'session_storage', 'cookie', 'popup', 'network', 'javascript_link', 'invisible_tool']) {
    expect(results[attempt], attempt).toMatch(/^blocked: /);
  }
  expect(results.invisible_tool).toContain('not callable by the app');
  // Calls that are allowed do go through (so the refusals above are the host's rules).
  expect(results.app_only_tool).toBe('called: app only');

  // The page is where it was, its storage and cookie untouched, no window opened, and
  // nothing got to the server's /escaped page (top navigation, popup, fetch).
  expect(page.url()).toBe(pageUrl);
  expect(await page.evaluate(() => localStorage.getItem('mcp-lens-canary'))).toBe('page secret');
  expect(page.context().pages()).toHaveLength(1);
  const visits = await (await fetch(`${base}/visits`)).json();
  expect(visits.escaped).toBe(0);

  // The messages posted around the proxy were ignored and logged; the flood was cut down.
  const log = await openWireLog(page);
  await page.locator('#wire-traffic').selectOption('app');
  await page.locator('#wire-method').fill('ignored');
  await expect(log.locator('tr.wire-entry').first()).toBeVisible();
  await log.locator('tr.wire-entry').first().click();
  await expect(page.locator('#wire-detail .wire-failure')).toContainText('another window');
  await page.locator('#wire-method').fill('');
  // At most 200 of the 3,000 reached the page (the table draws 200 rows and says how many
  // older ones it did not draw: it says nothing here).
  await page.locator('#wire-method').fill('x/flood');
  const flood = await log.locator('tr.wire-entry').count();
  expect(flood).toBeGreaterThan(0);
  expect(flood).toBeLessThanOrEqual(200);
  await expect(log.getByText(/older entries are not drawn/)).toHaveCount(0);
  // The refused request is in the log, then the host's error answer to it.
  await page.locator('#wire-method').fill('ui/open-link');
  await expect(log.locator('tr.wire-entry[data-direction="received"]')).toHaveCount(1);

  // The page stays responsive: a filter edit is drawn at once.
  const started = Date.now();
  await page.locator('#wire-method').fill('tools/call');
  await expect(log.locator('tr.wire-entry').first()).toContainText('tools/call');
  expect(Date.now() - started).toBeLessThan(2_000);
});

test('an app that navigates its own frame away is closed and nothing loads', async ({ page }) => {
  test.setTimeout(60_000);
  const server = await appsServer();
  const base = `http://127.0.0.1:${server.port}`;
  // The refusal of the navigation is the point: expected in the console.
  expectedViolations.push(new RegExp(`Framing '${base}/.*frame-src 'none'`, 's'));
  await openAndConnect(page, `${base}/mcp`);
  await page.locator('#tab-tools').click();
  await page.locator('li.tool-item[data-tool="navigator"]').click();
  await page.locator('#run-tool').click();
  // Its frame-src (nothing declared: 'none') refuses the navigation, and Chromium puts an
  // error page in the frame instead: a second load, so the page closes the app.
  await expect(page.locator('.mcp-app .app-error')).toContainText('navigated or reloaded its frame', { timeout: 20_000 });
  await expect(page.locator('.mcp-app iframe.app-frame')).toHaveCount(0);
  const visits = await (await fetch(`${base}/visits`)).json();
  expect(visits.escaped).toBe(0);
  expect(page.url()).toContain('/?url=');
  // The initialize exchange happened first (the app was running when it navigated).
  expect(await appMethods(page)).toEqual(expect.arrayContaining(['received ui/initialize', 'received ui/notifications/initialized']));
});

/** The app rows of the wire log with `method`, in order: their detail text (each opened). */
async function appBodies(page: Page, method: string): Promise<string[]> {
  const log = await openWireLog(page);
  await page.locator('#wire-traffic').selectOption('app');
  await page.locator('#wire-method').fill(method);
  const rows = log.locator('tr.wire-entry');
  const bodies: string[] = [];
  for (let i = 0; i < (await rows.count()); i++) {
    // Dispatched, not clicked: a full-screen app covers the page.
    await rows.nth(i).dispatchEvent('click');
    bodies.push(await page.locator('#wire-detail').innerText());
  }
  await page.locator('#wire-method').fill('');
  return bodies;
}

/** The probe app's `#received` lines (tests/servers/apps_server.py). */
async function received(page: Page): Promise<string[]> {
  await page.locator('.mcp-app iframe.app-frame').scrollIntoViewIfNeeded();
  const text = await appFrame(page).locator('#received').innerText();
  return text.split('\n').filter((l) => l.length > 0);
}

async function probeContext(page: Page): Promise<Record<string, unknown>> {
  return JSON.parse(await appFrame(page).locator('#context').innerText());
}

test('server-basic-vanillajs: a theme switch and the display mode the person picks reach the running app', async ({ page }) => {
  test.setTimeout(90_000);
  await page.emulateMedia({ colorScheme: 'light' });
  const server = await vanillaServer();
  await openAndConnect(page, `http://127.0.0.1:${server.port}/mcp`);
  await runToolWithApp(page, 'get-time');
  const app = appFrame(page);
  await expect(page.locator('.mcp-app .app-stage')).toHaveText('Running', { timeout: 20_000 });
  // The example applies the host's theme to its document (data-theme on its root).
  await expect(app.locator('html')).toHaveAttribute('data-theme', 'light');
  // Theme: System -> Light (no change for the app: nothing sent) -> Dark.
  await page.locator('#theme').click();
  await expect(page.locator('#theme')).toHaveText('Theme: Light');
  await page.locator('#theme').click();
  await expect(page.locator('#theme')).toHaveText('Theme: Dark');
  await expect(app.locator('html')).toHaveAttribute('data-theme', 'dark', { timeout: 10_000 });
  let changes = await appBodies(page, 'host-context-changed');
  expect(changes.filter((body) => body.includes('"theme"'))).toHaveLength(1);
  expect(changes.some((body) => /"theme":\s*"dark"/.test(body))).toBe(true);
  // Back to the system's (light): the app follows.
  await page.locator('#theme').click();
  await expect(app.locator('html')).toHaveAttribute('data-theme', 'light', { timeout: 10_000 });

  // Full screen, picked by the person: the frame fills the viewport below the bar, and the app
  // is told the mode and the container it now has.
  const viewport = page.viewportSize()!;
  await page.locator('.mcp-app .app-mode[data-mode="fullscreen"]').click();
  await expect(page.locator('.app-frame-box')).toHaveAttribute('data-mode', 'fullscreen');
  const box = await page.locator('.mcp-app iframe.app-frame').boundingBox();
  expect(box!.width).toBe(viewport.width);
  expect(box!.height).toBe(viewport.height - 40);
  await expect.poll(async () => (await appBodies(page, 'host-context-changed')).join('\n')).toContain('"displayMode": "fullscreen"');
  changes = await appBodies(page, 'host-context-changed');
  const full = changes.find((body) => body.includes('"displayMode": "fullscreen"'))!;
  expect(full).toContain(`"height": ${viewport.height - 40}`);
  expect(full).toContain(`"width": ${viewport.width}`);
  // The window is resized while full screen: the new container follows.
  await page.setViewportSize({ width: viewport.width - 100, height: viewport.height - 50 });
  await expect
    .poll(async () => (await appBodies(page, 'host-context-changed')).join('\n'))
    .toContain(`"width": ${viewport.width - 100}`);
  await page.setViewportSize(viewport);
  await page.locator('.app-exit-mode').click();
  await expect(page.locator('.app-frame-box')).toHaveAttribute('data-mode', 'inline');
  await expect.poll(async () => (await appBodies(page, 'host-context-changed')).join('\n')).toContain('"displayMode": "inline"');
  // Inline, the container is the panel's width (the frame's), its height up to 6000.
  const inline = (await appBodies(page, 'host-context-changed')).filter((body) => body.includes('"displayMode": "inline"')).pop()!;
  expect(inline).toContain('"maxHeight": 6000');
  const frameWidth = await page.locator('.mcp-app iframe.app-frame').evaluate((f) => f.clientWidth);
  const lastMaxWidth = async () => {
    const bodies = (await appBodies(page, 'host-context-changed')).filter((body) => body.includes('"maxWidth"'));
    return Number(/"maxWidth": (\d+)/.exec(bodies[bodies.length - 1] ?? '')?.[1]);
  };
  await expect.poll(lastMaxWidth).toBe(frameWidth);
  // A narrower panel (a narrower window): the app is told its new width.
  await page.setViewportSize({ width: viewport.width - 200, height: viewport.height });
  await expect.poll(lastMaxWidth).toBeLessThan(frameWidth);
  const narrower = await page.locator('.mcp-app iframe.app-frame').evaluate((f) => f.clientWidth);
  await expect.poll(lastMaxWidth).toBe(narrower);
});

test('display modes an app asks for: pip and full screen granted with their container, then inline again', async ({ page }) => {
  test.setTimeout(90_000);
  const server = await appsServer();
  await openAndConnect(page, `http://127.0.0.1:${server.port}/mcp`);
  await runToolWithApp(page, 'probe');
  const app = appFrame(page);
  await expect(page.locator('.mcp-app .app-stage')).toHaveText('Running', { timeout: 20_000 });
  const initial = await probeContext(page);
  expect(initial.displayMode).toBe('inline');
  expect(initial.availableDisplayModes).toEqual(['inline', 'fullscreen', 'pip']);
  const viewport = page.viewportSize()!;

  await page.locator('.mcp-app iframe.app-frame').scrollIntoViewIfNeeded();
  await app.locator('#ask-pip').click();
  await expect(page.locator('.app-frame-box')).toHaveAttribute('data-mode', 'pip');
  await expect.poll(() => received(page)).toContain('answer ui/request-display-mode {"mode":"pip"}');
  let lines = await received(page);
  // The new context (mode and container) comes before the answer.
  const changed = lines.findIndex((l) => l.startsWith('ui/notifications/host-context-changed') && l.includes('"displayMode":"pip"'));
  expect(changed).toBeGreaterThanOrEqual(0);
  expect(changed).toBeLessThan(lines.indexOf('answer ui/request-display-mode {"mode":"pip"}'));
  let context = await probeContext(page);
  expect(context.containerDimensions).toEqual({ maxHeight: Math.min(400, Math.floor(viewport.height / 2)), width: 400 });
  const pip = await page.locator('.mcp-app iframe.app-frame').boundingBox();
  expect(pip!.width).toBe(400);
  // In a corner of the viewport, above the page.
  expect(pip!.x + pip!.width).toBeGreaterThan(viewport.width - 40);

  await app.locator('#ask-fullscreen').click();
  await expect(page.locator('.app-frame-box')).toHaveAttribute('data-mode', 'fullscreen');
  await expect.poll(() => received(page)).toContain('answer ui/request-display-mode {"mode":"fullscreen"}');
  context = await probeContext(page);
  expect(context.displayMode).toBe('fullscreen');
  expect(context.containerDimensions).toEqual({ height: viewport.height - 40, width: viewport.width });

  await app.locator('#ask-inline').click();
  await expect(page.locator('.app-frame-box')).toHaveAttribute('data-mode', 'inline');
  await expect.poll(() => received(page)).toContain('answer ui/request-display-mode {"mode":"inline"}');
  context = await probeContext(page);
  expect(context.displayMode).toBe('inline');
  expect((context.containerDimensions as Record<string, number>).maxHeight).toBe(6000);
  // Asked again for the mode it is in: answered with it, nothing announced.
  const before = (await received(page)).filter((l) => l.startsWith('ui/notifications/host-context-changed')).length;
  await app.locator('#ask-inline').click();
  await expect.poll(async () => (await received(page)).filter((l) => l === 'answer ui/request-display-mode {"mode":"inline"}').length).toBe(2);
  lines = await received(page);
  expect(lines.filter((l) => l.startsWith('ui/notifications/host-context-changed')).length).toBe(before);
});

test('"View app" opens a tool\'s app without calling the tool: no input, no result', async ({ page }) => {
  test.setTimeout(60_000);
  const server = await appsServer();
  await openAndConnect(page, `http://127.0.0.1:${server.port}/mcp`);
  await page.locator('#tab-tools').click();
  // Only tools with an app have the button.
  await page.locator('li.tool-item[data-tool="record"]').click();
  await expect(page.locator('#view-app')).toHaveCount(0);
  await page.locator('li.tool-item[data-tool="probe"]').click();
  await page.locator('#view-app').click();
  await expect(page.locator('.mcp-app iframe.app-frame')).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('.mcp-app .app-preview')).toBeVisible();
  await expect(page.locator('.mcp-app .app-stage')).toHaveText('Running', { timeout: 20_000 });
  const context = await probeContext(page);
  // It knows its tool, but there is no call (no id).
  expect((context.toolInfo as { tool: { name: string }; id?: unknown }).tool.name).toBe('probe');
  expect((context.toolInfo as { id?: unknown }).id).toBeUndefined();
  await page.waitForTimeout(500);
  const lines = await received(page);
  expect(lines.some((l) => l.startsWith('ui/notifications/tool-'))).toBe(false);
  expect(await page.locator('#tool-result').count()).toBe(0);
  const methods = await appMethods(page);
  expect(methods).not.toContain('sent ui/notifications/tool-input');
  expect(methods).not.toContain('sent ui/notifications/tool-result');
  // The tool was never called: no tools/call on the wire at all.
  await page.locator('#wire-traffic').selectOption('mcp');
  await expect(page.locator('#wire-log tr.wire-entry', { hasText: 'tools/call' })).toHaveCount(0);
});

test('teardown is sent and its answer awaited before the frame goes: re-run, another tool, disconnect', async ({ page }) => {
  test.setTimeout(90_000);
  const server = await appsServer();
  const base = `http://127.0.0.1:${server.port}`;
  const events = async () => (await (await fetch(`${base}/events`)).json()) as string[];
  await openAndConnect(page, `${base}/mcp`);
  const running = async () => {
    await expect(page.locator('.mcp-app .app-stage')).toHaveText('Running', { timeout: 20_000 });
  };

  // Re-run: the app, asked to tear down, still calls the server (it saves its state), and
  // only then the tool runs again.
  await runToolWithApp(page, 'probe');
  await running();
  await page.locator('#run-tool').click();
  await expect.poll(events, { timeout: 10_000 }).toEqual(['teardown 1']);
  await running();
  const log = await openWireLog(page);
  await page.locator('#wire-traffic').selectOption('');
  const rows = await log.locator('tr.wire-entry').evaluateAll((rs) =>
    rs.map((r) => `${r.getAttribute('data-direction')} ${r.querySelector('.wire-method')?.textContent ?? ''}`),
  );
  const teardown = rows.indexOf('sent ui/resource-teardown');
  expect(teardown).toBeGreaterThanOrEqual(0);
  const after = rows.slice(teardown);
  // The app's answer comes before the page's second tools/call of probe (the app's own
  // record call, proxied, comes between).
  const answered = after.indexOf('received (result)');
  const calls = after.map((row, i) => [row, i] as const).filter(([row]) => row === 'sent tools/call').map(([, i]) => i);
  expect(answered).toBeGreaterThan(0);
  expect(calls.length).toBeGreaterThanOrEqual(2);
  expect(answered).toBeLessThan(calls[calls.length - 1]);

  // Another tool: torn down before the panel changes.
  await page.locator('li.tool-item[data-tool="record"]').click();
  await expect.poll(events, { timeout: 10_000 }).toEqual(['teardown 1', 'teardown 1']);
  await expect(page.locator('.mcp-app')).toHaveCount(0);

  // Disconnect: torn down while the server is still there.
  await runToolWithApp(page, 'probe');
  await running();
  await page.locator('#disconnect').click();
  await expect(page.locator('#status')).toContainText('Disconnected', { timeout: 10_000 });
  expect(await events()).toEqual(['teardown 1', 'teardown 1', 'teardown 1']);
  expect(await appMethods(page)).toEqual(expect.arrayContaining(['sent ui/resource-teardown', 'received tools/call']));
});

test("the app's resource is read once, and again after resources/updated or list_changed", async ({ page }) => {
  test.setTimeout(90_000);
  const server = await appsServer();
  // The handshake era: the server's notifications come on the session's GET stream (at
  // 2026-07-28 a resource update reaches only a subscriptions/listen stream that names it).
  await openAndConnect(page, `http://127.0.0.1:${server.port}/mcp`, { version: '2025-11-25' });
  const reads = async () => {
    const log = await openWireLog(page);
    await page.locator('#wire-traffic').selectOption('mcp');
    await page.locator('#wire-method').fill('resources/read');
    const n = await log.locator('tr.wire-entry[data-direction="sent"]').count();
    await page.locator('#wire-method').fill('');
    return n;
  };
  const version = async () => {
    await page.locator('.mcp-app iframe.app-frame').scrollIntoViewIfNeeded();
    return appFrame(page).locator('#version').innerText();
  };
  await runToolWithApp(page, 'probe');
  await expect.poll(version, { timeout: 20_000 }).toBe('1');
  expect(await reads()).toBe(1);
  // Run again: from the cache.
  await page.locator('#run-tool').click();
  await expect(page.locator('.mcp-app .app-stage')).toHaveText('Running', { timeout: 20_000 });
  expect(await version()).toBe('1');
  expect(await reads()).toBe(1);

  const bump = async (tool: string, notification: string) => {
    await page.locator(`li.tool-item[data-tool="${tool}"]`).click();
    await page.locator('#run-tool').click();
    await expect(page.locator('#tool-result .content-text').first()).toContainText('version', { timeout: 20_000 });
    // The server's notification has arrived (on whichever stream it came).
    const log = await openWireLog(page);
    await page.locator('#wire-traffic').selectOption('mcp');
    await page.locator('#wire-method').fill(notification);
    await expect(log.locator('tr.wire-entry[data-direction="received"]')).toHaveCount(1, { timeout: 10_000 });
    await page.locator('#wire-method').fill('');
    await page.locator('li.tool-item[data-tool="probe"]').click();
  };
  await bump('bump_updated', 'notifications/resources/updated');
  await page.locator('#run-tool').click();
  await expect.poll(version, { timeout: 20_000 }).toBe('2');
  expect(await reads()).toBe(2);
  await bump('bump_list', 'notifications/resources/list_changed');
  await page.locator('#run-tool').click();
  await expect.poll(version, { timeout: 20_000 }).toBe('3');
  expect(await reads()).toBe(3);
});

test('permissions: none by default, only what the person ticks, and the frame is made with exactly those', async ({ page }) => {
  test.setTimeout(90_000);
  const server = await appsServer();
  await openAndConnect(page, `http://127.0.0.1:${server.port}/mcp`);
  await page.locator('#tab-tools').click();
  await page.locator('li.tool-item[data-tool="permissions_probe"]').click();
  await page.locator('#run-tool').click();
  // Asked first: no frame until the person decides; nothing ticked.
  const choice = page.locator('.mcp-app .app-permissions');
  await expect(choice).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('.mcp-app iframe.app-frame')).toHaveCount(0);
  await expect(choice.locator('input.app-permission')).toHaveCount(2);
  expect(await choice.locator('input.app-permission').evaluateAll((boxes) => boxes.map((b) => b.getAttribute('data-permission')))).toEqual([
    'camera',
    'clipboard-write',
  ]);
  await expect(choice.locator('input.app-permission:checked')).toHaveCount(0);

  // Started without ticking anything: no permission at all.
  await choice.locator('.app-start').click();
  await expect(page.locator('.mcp-app .app-stage')).toHaveText('Running', { timeout: 20_000 });
  expect(await page.locator('.mcp-app iframe.app-frame').getAttribute('allow')).toBeNull();
  let app = appFrame(page);
  expect(JSON.parse(await app.locator('#features').innerText())).toEqual({
    camera: false,
    microphone: false,
    geolocation: false,
    'clipboard-write': false,
  });
  expect(JSON.parse(await app.locator('#sandbox').innerText()).permissions).toEqual({});
  await expect(page.locator('.mcp-app .app-granted')).toHaveText('Permissions asked for: camera, clipboard-write; none granted.');

  // Again, the camera ticked: the frame gets the camera and nothing else.
  await page.locator('#run-tool').click();
  await expect(choice).toBeVisible({ timeout: 20_000 });
  await choice.locator('input.app-permission[data-permission="camera"]').check();
  await choice.locator('.app-start').click();
  await expect(page.locator('.mcp-app .app-stage')).toHaveText('Running', { timeout: 20_000 });
  expect(await page.locator('.mcp-app iframe.app-frame').getAttribute('allow')).toBe('camera');
  app = appFrame(page);
  expect(JSON.parse(await app.locator('#features').innerText())).toEqual({
    camera: true,
    microphone: false,
    geolocation: false,
    'clipboard-write': false,
  });
  expect(JSON.parse(await app.locator('#sandbox').innerText()).permissions).toEqual({ camera: {} });
  await expect(page.locator('.mcp-app .app-granted')).toHaveText('Permissions asked for: camera, clipboard-write; granted: camera.');
});

/**
 * Clicks a control of the page near an app's frame. Scrolled into view first, and clicked a
 * frame later: Chromium routes a click made right after a scroll by the frames' old places,
 * so it would land in the app's (cross-origin) frame instead.
 */
async function clickBesideFrame(page: Page, control: import('@playwright/test').Locator): Promise<void> {
  await control.scrollIntoViewIfNeeded();
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await control.click();
}

test('an app asking for full screen by itself waits for the person; loopback and private addresses in its CSP are warned of', async ({ page }) => {
  test.setTimeout(60_000);
  const server = await appsServer();
  await openAndConnect(page, `http://127.0.0.1:${server.port}/mcp`);
  await runToolWithApp(page, 'pushy');
  // Its declared domains on this computer or the local network, each a warning; the public
  // one is not.
  const warnings = page.locator('.mcp-app .app-local li');
  await expect(warnings).toHaveText([
    'Warning: connectDomains names http://127.0.0.1:9, a loopback address: this computer: the app may reach what runs there.',
    'Warning: connectDomains names http://192.168.1.1, a private network address: your local network: the app may reach what runs there.',
    'Warning: resourceDomains names http://localhost:5173, a loopback address: this computer: the app may reach what runs there.',
  ]);
  // Asked at load, with no click of the person in it: the page asks; the app stays inline.
  const ask = page.locator('.mcp-app .app-display-ask');
  await expect(ask).toContainText('full screen, covering this page', { timeout: 20_000 });
  await expect(page.locator('.app-frame-box')).toHaveAttribute('data-mode', 'inline');
  await clickBesideFrame(page, ask.locator('.app-display-decline'));
  const answers = appFrame(page).locator('#answers');
  await expect(answers).toHaveText('inline');
  await expect(page.locator('.app-frame-box')).toHaveAttribute('data-mode', 'inline');
  // It asks again by itself: allowed this time, it goes full screen.
  await expect(ask).toBeVisible();
  await clickBesideFrame(page, ask.locator('.app-display-allow'));
  await expect(page.locator('.app-frame-box')).toHaveAttribute('data-mode', 'fullscreen');
  await expect(answers).toHaveText('inline\nfullscreen');
  await page.locator('.app-exit-mode').click();
  await expect(page.locator('.app-frame-box')).toHaveAttribute('data-mode', 'inline');
  // Asked from the person's own click in the app: granted at once, no question.
  await page.locator('.mcp-app iframe.app-frame').scrollIntoViewIfNeeded();
  await appFrame(page).locator('#ask').click();
  await expect(page.locator('.app-frame-box')).toHaveAttribute('data-mode', 'fullscreen');
  await expect(ask).toHaveCount(0);
  await expect(answers).toHaveText('inline\nfullscreen\nfullscreen');
});

test('an app flooding its host with messages of 50 MB: the proxy drops them, the page lives and its memory stays bounded', async ({ page }) => {
  test.setTimeout(120_000);
  const server = await appsServer();
  await trackWasmMemory(page);
  await openAndConnect(page, `http://127.0.0.1:${server.port}/mcp`);
  const sampler = sampleMemory(page);
  let most = { wasm: 0, heap: 0 };
  let kept = 0;
  try {
    await runToolWithApp(page, 'flood_app');
    const report = page.locator('.app-note[data-kind="log"]', { hasText: '"flood"' });
    await expect(report).toBeVisible({ timeout: 60_000 });
    const flood = JSON.parse(await report.locator('.app-note-text').innerText()).flood as { sent: number; big_request: string };
    expect(flood.sent).toBeGreaterThan(0);
    // The app's request of 50 MB is answered (refused) by the proxy: the app is not left waiting.
    expect(flood.big_request).toContain('Message too large');
  } finally {
    most = await sampler.stop();
    kept = await heapAfterCollection(page).catch(() => 0);
    test.info().annotations.push({
      type: 'memory',
      description: `most wasm memory ${Math.round(most.wasm / 2 ** 20)} MB, most JS heap ${Math.round(most.heap / 2 ** 20)} MB, JS heap kept ${Math.round(kept / 2 ** 20)} MB`,
    });
  }
  expect(most.wasm).toBeGreaterThan(0);
  expect(most.wasm).toBeLessThan(512 * 2 ** 20);
  expect(kept).toBeGreaterThan(0);
  expect(kept).toBeLessThan(256 * 2 ** 20);
  // The drops are in the wire log, said by the proxy.
  const ignored = (await appBodies(page, '(ignored)')).join('\n');
  expect(ignored).toMatch(/ignored by the sandbox proxy: \d+ messages from the app dropped \(each larger than 8 MB, the most one message may be\)/);
  // Still usable at once: another tool opens.
  const started = Date.now();
  await page.locator('li.tool-item[data-tool="probe"]').click();
  await expect(page.locator('#tool-panel h2')).toContainText('probe');
  expect(Date.now() - started).toBeLessThan(5_000);
});

test('the page\'s own bound: a proxy that relayed messages of 50 MB would get none of them read, only their start logged', async ({ page }) => {
  test.setTimeout(90_000);
  const server = await appsServer();
  // The proxy with its limits taken out, as if it were broken: the page must not rely on it.
  await page.route('**/sandbox.js', async (route) => {
    const original = await (await route.fetch()).text();
    const patched = original.replace(/const MAX_MESSAGE_CHARS = [^;]+;/, 'const MAX_MESSAGE_CHARS = Infinity;').replace(/const MAX_CHARS_PER_SECOND = [^;]+;/, 'const MAX_CHARS_PER_SECOND = Infinity;');
    expect(patched).not.toBe(original);
    await route.fulfill({ body: patched, contentType: 'text/javascript' });
  });
  await trackWasmMemory(page);
  await openAndConnect(page, `http://127.0.0.1:${server.port}/mcp`);
  await runToolWithApp(page, 'flood_app');
  // Read as nothing (not even its method): logged with why, its start only.
  const refused = /refused: the app sent 500000\d\d characters in one message, more than the 8388608 an app message may have; only its first 65536 are logged/;
  await expect.poll(async () => (await appBodies(page, '(ignored)')).join('\n'), { timeout: 30_000 }).toMatch(refused);
  const log = await openWireLog(page);
  await page.locator('#wire-traffic').selectOption('app');
  await page.locator('#wire-method').fill('(ignored)');
  const rows = log.locator('tr.wire-entry[data-direction="received"]');
  for (let i = 0; i < (await rows.count()); i++) {
    await rows.nth(i).dispatchEvent('click');
    if (refused.test(await page.locator('#wire-detail .wire-failure').innerText())) break;
  }
  await expect(page.locator('#wire-detail .wire-failure')).toHaveText(refused);
  // Its start is there, and no more: the whole body can be downloaded, 64 KB.
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#wire-detail .download-text').first().click()]);
  const size = (await import('node:fs')).statSync(await download.path()).size;
  expect(size).toBeLessThanOrEqual(65_536);
  expect(size).toBeGreaterThan(60_000);
  // Nothing of it reached the app's notes.
  await expect(page.locator('.app-note[data-kind="log"]')).toHaveCount(0);
  expect(await wasmMemoryBytes(page)).toBeLessThan(256 * 2 ** 20);
});
