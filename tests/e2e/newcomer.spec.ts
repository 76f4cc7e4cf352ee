// A person's first ten minutes (issue 29): each test does what a new user did, against real
// servers (server-everything, server-threejs, fastmcp 4.2, the Python SDKs, the forms server, the
// scale and paging servers, and the server made to break inspectors), and checks what they met.

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { APP_URL, EVERYTHING_URL, FORMS_URL, HOST, PY1_FASTMCP2_PORT, py1Url } from './env';
import { connect, disconnect, expect, field, input, openApp, type Page, selectTool, test, toolItem } from './helpers';
import {
  fastmcp4Server,
  hostileServer,
  pagingServer,
  scaleServer,
  threejsServer,
  type TestServer,
} from './spawn';

let servers: TestServer[] = [];
test.afterEach(async () => {
  for (const server of servers) await server.stop();
  servers = [];
});

async function started(make: () => Promise<TestServer>): Promise<string> {
  const server = await make();
  servers.push(server);
  await server.start();
  return `http://127.0.0.1:${server.port}/mcp`;
}

/** The arguments of the next `tools/call` the page sends. */
function nextCallArguments(page: Page): Promise<Record<string, unknown>> {
  return page
    .waitForRequest((request) => request.method() === 'POST' && request.postDataJSON()?.method === 'tools/call')
    .then((request) => request.postDataJSON().params.arguments);
}

test.describe('forms', () => {
  test('a multi-line default (server-threejs) keeps its line breaks when one character is changed', async ({ page }) => {
    const url = await started(threejsServer);
    await openApp(page, url);
    await connect(page);
    const panel = await selectTool(page, 'show_threejs_scene');
    const code = input(panel, '/code');
    const original = await page.evaluate(async (url) => {
      // The default as the server lists it (fetched here, not copied into the test).
      const post = (body: object) =>
        fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
          body: JSON.stringify(body),
        }).then((r) => r.text());
      await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
      const listed = await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      const json = JSON.parse(listed.split('\n').find((line) => line.startsWith('data: {'))!.slice(6));
      return json.result.tools.find((t: { name: string }) => t.name === 'show_threejs_scene').inputSchema.properties.code.default as string;
    }, url);
    expect(original).toContain('\n');
    expect(original).toContain('// Transparent background');
    // Shown whole, line breaks and all, in a multi-line editor.
    await expect(code).toHaveJSProperty('tagName', 'TEXTAREA');
    await expect(code).toHaveValue(original);
    // One character changed: the last one removed.
    await code.focus();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Backspace');
    const sent = nextCallArguments(page);
    await page.locator('#run-tool').click();
    expect((await sent).code).toBe(original.slice(0, -1));
  });

  test('removing from a tuple keeps each value in its own slot', async ({ page }) => {
    await openApp(page, FORMS_URL);
    await connect(page);
    const panel = await selectTool(page, 'tuple_and_const');
    const add = panel.locator('.array[data-path="/pair"] > .add-item');
    await add.click();
    await add.click();
    await input(panel, '/pair/0').fill('alpha');
    await input(panel, '/pair/1').fill('7');
    const slot = (n: number) => panel.locator(`.array[data-path="/pair"] > .array-item[data-item="${n}"]`);
    // A tuple's first slot cannot be taken out from under the second (which would move the 7 into
    // the string slot): only the last slot can go.
    await expect(slot(0).locator('> .item-actions .remove-item')).toHaveCount(0);
    await slot(1).locator('> .item-actions .remove-item').click();
    await expect(slot(1)).toHaveCount(0);
    await expect(input(panel, '/pair/0')).toHaveValue('alpha');
    await add.click();
    await input(panel, '/pair/1').fill('7');
    await expect(slot(1).locator('.type-hint')).toHaveText('integer');
    const sent = nextCallArguments(page);
    await page.locator('#run-tool').click();
    expect((await sent).pair).toEqual(['alpha', 7]);
  });

  test('what was typed survives Disconnect and Connect, and a reload when the tab remembers', async ({ page }) => {
    await openApp(page, EVERYTHING_URL);
    await connect(page);
    let panel = await selectTool(page, 'echo');
    await field(panel, 'message').fill('typed before the disconnect');
    panel = await selectTool(page, 'get-sum');
    await field(panel, 'a').fill('3');
    await disconnect(page);
    await connect(page);
    // The tool in view is still open, with what was typed.
    await expect(field(page.locator('#tool-panel'), 'a')).toHaveValue('3');
    panel = await selectTool(page, 'echo');
    await expect(field(panel, 'message')).toHaveValue('typed before the disconnect');

    // Not remembered: a reload starts afresh.
    await page.reload();
    await connect(page);
    panel = await selectTool(page, 'echo');
    await expect(field(panel, 'message')).toHaveValue('');
    await expect(panel.locator('#restore-draft')).toHaveCount(0);

    // Remembered in this tab: after a reload the draft is offered back.
    await page.locator('#settings > summary').click();
    await page.locator('#remember-secrets').check();
    await field(panel, 'message').fill('typed before the reload');
    await page.waitForTimeout(600); // drafts are stored a moment after typing stops
    await page.reload();
    await connect(page);
    panel = await selectTool(page, 'echo');
    await expect(field(panel, 'message')).toHaveValue('');
    await panel.locator('#restore-draft').click();
    await expect(field(panel, 'message')).toHaveValue('typed before the reload');
    await expect(panel.locator('#restore-draft')).toHaveCount(0);
  });

  test("a field's accessible name is its title; its type and \"required\" describe it", async ({ page }) => {
    await openApp(page, FORMS_URL);
    await connect(page);
    let panel = await selectTool(page, 'formats_defaults');
    const email = panel.getByRole('textbox', { name: 'email', exact: true });
    await expect(email).toHaveAttribute('data-path', '/email');
    await expect(email).toHaveAccessibleDescription(/email/);
    panel = await selectTool(page, 'nested_object');
    const name = panel.getByRole('textbox', { name: 'name', exact: true });
    await expect(name).toHaveAttribute('data-path', '/user/name');
    await expect(name).toHaveAccessibleDescription(/string.*required/);
  });
});

test.describe('where things appear', () => {
  test('on a phone, tapping a tool brings its panel into view with the focus on its heading', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openApp(page, EVERYTHING_URL);
    await connect(page);
    await toolItem(page, 'echo').click();
    const heading = page.locator('#tool-panel h2');
    await expect(heading).toContainText('echo');
    await expect(heading).toBeInViewport();
    await expect(heading).toBeFocused();
  });

  test("a server's request is brought into view and announced, without taking the focus from a field", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await openApp(page, EVERYTHING_URL);
    await connect(page);
    await selectTool(page, 'trigger-elicitation-request');
    await page.locator('#run-tool').click();
    const card = page.locator('#server-requests .server-request[data-method="elicitation/create"]');
    await expect(card).toBeVisible();
    await expect(card).toBeInViewport();
    await expect(card.locator('h3')).toBeFocused();
    await expect(page.locator('#server-request-news')).toHaveText(/The server asks you: elicitation\/create/);
    await card.locator('.decline').click();
    await expect(card).toHaveCount(0);

    // While the person types elsewhere, a request is announced and the focus stays.
    const sampler = await selectTool(page, 'trigger-sampling-request');
    await field(sampler, 'prompt').fill('Say hello');
    const filter = page.locator('#tool-filter');
    await filter.focus();
    await page.evaluate(() => (document.getElementById('run-tool') as HTMLButtonElement).click());
    const sampling = page.locator('#server-requests .server-request[data-method="sampling/createMessage"]');
    await expect(sampling).toBeVisible();
    await expect(page.locator('#server-request-news')).toHaveText(/The server asks you: sampling\/createMessage/);
    await expect(filter).toBeFocused();
  });

  test('the focus stays on the control after Run, and after moving or removing an array item', async ({ page }) => {
    await openApp(page, EVERYTHING_URL);
    await connect(page);
    const panel = await selectTool(page, 'echo');
    await field(panel, 'message').fill('kept in focus');
    await page.locator('#run-tool').focus();
    await page.keyboard.press('Enter');
    await expect(page.locator('#tool-result')).toContainText('Echo: kept in focus');
    await expect(page.locator('#run-tool')).toBeFocused();

    await page.goto(`/?url=${encodeURIComponent(FORMS_URL)}`);
    await connect(page);
    const form = await selectTool(page, 'array_of_objects');
    const items = form.locator('.array[data-path="/items"] > .array-item');
    const add = form.locator('.array[data-path="/items"] > .add-item');
    await add.click();
    await add.click();
    await add.click();
    await input(form, '/items/0/sku').fill('first');
    await input(form, '/items/1/sku').fill('second');
    await items.nth(0).locator('> .item-actions .move-down').focus();
    await page.keyboard.press('Enter');
    await expect(input(form, '/items/1/sku')).toHaveValue('first');
    // The button that moved the item keeps the focus (on the item, now second).
    await expect(items.nth(1).locator('> .item-actions .move-down')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(input(form, '/items/2/sku')).toHaveValue('first');
    await expect(items.nth(2).locator('> .item-actions .move-up')).toBeFocused();
    // Removing one puts the focus on the item that took its place (or the one before).
    await items.nth(2).locator('> .item-actions .remove-item').focus();
    await page.keyboard.press('Enter');
    await expect(items).toHaveCount(2);
    await expect(items.nth(1).locator('> .item-actions .remove-item')).toBeFocused();
    await items.nth(0).locator('> .item-actions .remove-item').focus();
    await page.keyboard.press('Enter');
    await expect(items).toHaveCount(1);
    await expect(items.nth(0).locator('> .item-actions .remove-item')).toBeFocused();
  });

  test('the custom headers placeholder is read whole at every width', async ({ page }) => {
    for (const width of [390, 800, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await openApp(page, EVERYTHING_URL);
      const headers = page.locator('#custom-headers');
      await expect(headers).toBeVisible();
      const fits = await headers.evaluate((area: HTMLTextAreaElement) => {
        // The placeholder laid out as the field lays out its text: same font, box and wrapping.
        const style = getComputedStyle(area);
        const probe = document.createElement('div');
        for (const name of ['font', 'letter-spacing', 'word-spacing', 'line-height', 'overflow-wrap', 'word-break', 'tab-size'])
          probe.style.setProperty(name, style.getPropertyValue(name));
        const padding = (side: string) => parseFloat(style.getPropertyValue(`padding-${side}`));
        const width = area.clientWidth - padding('left') - padding('right');
        Object.assign(probe.style, { whiteSpace: 'pre-wrap', width: `${width}px`, position: 'absolute', visibility: 'hidden', padding: '0' });
        probe.textContent = area.placeholder;
        document.body.append(probe);
        const result = { needed: probe.scrollHeight, wide: probe.scrollWidth <= width + 1, has: area.clientHeight - padding('top') - padding('bottom') };
        probe.remove();
        return result;
      });
      expect(fits.wide, `${width} px: the placeholder is not cut at the side`).toBe(true);
      expect(fits.needed, `${width} px: the placeholder's lines fit in the field`).toBeLessThanOrEqual(fits.has + 1);
    }
  });
});

test.describe('keyboard', () => {
  test('a long list is one Tab stop: the arrows, Home, End and the page keys move inside it', async ({ page }) => {
    const url = await started(() => scaleServer(600));
    await openApp(page, url);
    await connect(page);
    const rows = page.locator('ul.items li.item');
    await expect(rows.first()).toBeVisible();
    const focused = page.locator('ul.items li.item:focus');
    // ArrowDown from the filter goes into the list.
    await page.locator('#tool-filter').focus();
    await page.keyboard.press('ArrowDown');
    await expect(focused).toHaveAttribute('data-index', '0');
    await page.keyboard.press('End');
    await expect(focused).toHaveAttribute('data-index', '499'); // the first page of 500
    await page.keyboard.press('Home');
    await expect(focused).toHaveAttribute('data-index', '0');
    await page.keyboard.press('PageDown');
    const paged = Number(await focused.getAttribute('data-index'));
    expect(paged).toBeGreaterThan(3);
    await page.keyboard.press('PageUp');
    await expect(focused).toHaveAttribute('data-index', '0');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    // One Tab leaves the list, one Shift+Tab comes back to the row it left.
    await page.keyboard.press('Tab');
    await expect(focused).toHaveCount(0);
    await page.keyboard.press('Shift+Tab');
    await expect(focused).toHaveAttribute('data-index', '2');
    // Enter opens it; its form is a few Tabs away.
    await page.keyboard.press('Enter');
    await expect(page.locator('#tool-panel h2')).toContainText('many_blocks');
    const target = page.locator('#tool-panel [data-path="/count"]');
    let tabs = 0;
    while (tabs < 10 && !(await target.evaluate((e) => e === document.activeElement))) {
      await page.keyboard.press('Tab');
      tabs++;
    }
    await expect(target).toBeFocused();
    expect(tabs).toBeLessThanOrEqual(8);
  });

  test('the sidebar is one Tab stop; the arrows, Home and End move between servers', async ({ page }) => {
    await openApp(page, EVERYTHING_URL);
    const entries = page.locator('#servers .server-entry');
    await page.locator('#add-server').click();
    await page.locator('#add-server').click();
    await expect(entries).toHaveCount(3);
    await entries.nth(2).focus();
    await page.keyboard.press('Home');
    await expect(entries.nth(0)).toBeFocused();
    await page.keyboard.press('End');
    await expect(entries.nth(2)).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await expect(entries.nth(1)).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.locator('#add-server')).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(entries.nth(1)).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(entries.nth(1)).toHaveAttribute('aria-current', 'true');
  });
});

test.describe('what the page says', () => {
  test('a cancel the person asked for says "Cancelled", quietly', async ({ page }) => {
    await openApp(page, EVERYTHING_URL);
    await connect(page);
    const panel = await selectTool(page, 'trigger-long-running-operation');
    await field(panel, 'duration').fill('30');
    await page.locator('#run-tool').click();
    await page.locator('#cancel-request').click();
    const result = page.locator('#tool-result');
    await expect(result).toHaveText(/^\s*Cancelled\.?\s*$/);
    await expect(result.locator('.error')).toHaveCount(0);
    await expect(result).not.toHaveClass(/result-error/);
  });

  test('resource templates answered "Method not found" with HTTP 404 mean none', async ({ page }) => {
    const url = await started(pagingServer);
    await openApp(page, url);
    await connect(page);
    await page.locator('#tab-resources').click();
    await expect(page.locator('li.resource-item').first()).toBeVisible();
    await expect(page.locator('.list-pane .error')).toHaveCount(0);
  });

  test('fastmcp 4.2 on 2026-07-28: its own elicitation error offers to reconnect on 2025-11-25, where it works', async ({ page }) => {
    const url = await started(fastmcp4Server);
    await openApp(page, url);
    await connect(page);
    await expect(page.locator('#server-info .protocol-version')).toContainText('2026-07-28');
    // No subscriptions/listen (HTTP 404, Method not found): said quietly with the capabilities.
    await expect(page.locator('#server-info .capabilities .no-stream')).toHaveText('no subscription stream');
    await selectTool(page, 'ask_name');
    await page.locator('#run-tool').click();
    const result = page.locator('#tool-result');
    await expect(result).toContainText('unavailable on 2026-07-28 connections');
    const offer = page.locator('#reconnect-earlier-era');
    await expect(offer).toHaveText('Reconnect with 2025-11-25');
    await offer.click();
    await expect(page.locator('#status')).toContainText('Connected', { timeout: 20_000 });
    await expect(page.locator('#server-info .protocol-version')).toContainText('2025-11-25');
    await expect(page.locator('#tool-panel h2')).toContainText('ask_name');
    await page.locator('#run-tool').click();
    const card = page.locator('#server-requests .server-request[data-method="elicitation/create"]');
    await field(card, 'name').fill('Ada');
    await card.locator('.answer').click();
    await expect(result).toContainText('accept: Ada');
  });

  // The browser itself prints every HTTP error answer in the console ("Failed to load
  // resource"), whatever the page does: a pre-2026 server's refused server/discover (400 or
  // 404), a method a server lacks answered 404. The page cannot silence those lines; it says
  // what they are in the era line. Nothing else may reach the console.
  test("connecting to servers of either era: the console holds only the browser's own lines for refused probes, which the page explains", async ({ page }) => {
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`${message.type()}: ${message.text()}`);
    });
    const fastmcp4 = await started(fastmcp4Server);
    const paging = await started(pagingServer);
    let explained = 0;
    for (const url of [py1Url(PY1_FASTMCP2_PORT, 'stateful'), py1Url(PY1_FASTMCP2_PORT, 'stateless'), EVERYTHING_URL, fastmcp4, paging]) {
      const before = problems.length;
      await openApp(page, url);
      await connect(page);
      const refusedProbe = problems.slice(before).some((line) => /status of 40[04]/.test(line));
      const era = page.locator('#server-info .era-reason');
      if (refusedProbe && (await era.textContent())?.includes('server/discover was answered')) {
        await expect(era).toContainText("the browser's console shows as a failed load: expected");
        explained++;
      }
      await page.locator('#tab-resources').click();
      await page.waitForTimeout(500);
      await disconnect(page);
    }
    const browsers = /^error: Failed to load resource: the server responded with a status of 40[04] \((Bad Request|Not Found)\)$/;
    expect(problems.filter((line) => !browsers.test(line))).toEqual([]);
    expect(explained, 'a refused server/discover explained in the era line').toBeGreaterThan(0);
  });

  test('bidi and invisible controls are shown in titles, descriptions and field titles; a page link shows its port', async ({ page }) => {
    const url = await started(hostileServer);
    await openApp(page, url);
    await connect(page);
    const row = toolItem(page, 'tidy');
    await expect(row.locator('.item-description')).toHaveText('safe⟦U+202E⟧eteled');
    await row.click();
    const panel = page.locator('#tool-panel');
    await expect(panel.locator('h2')).toContainText('safe⟦U+202E⟧eteled');
    await expect(panel.locator('.description').first()).toHaveText('Removes nothing: ⟦U+202E⟧selif lla seteled');
    await expect(panel.locator('.field-name')).toHaveText('tar⟦U+202E⟧tegt');
    await expect(panel.locator('.field .description')).toHaveText('Which ⟦U+2067⟧folder⟦U+2069⟧');

    await page.goto(`/?url=${encodeURIComponent(EVERYTHING_URL)}`);
    await connect(page);
    const tool = await selectTool(page, 'trigger-url-elicitation');
    await field(tool, 'url').fill('https://login.example.com:8443/device');
    await page.locator('#run-tool').click();
    const card = page.locator('#server-requests .server-request[data-method="elicitation/create"]');
    await expect(card.locator('.host')).toHaveText('login.example.com:8443');
  });

  test('"Show all" on a 10 MB result draws it progressively, with no long task', async ({ page }) => {
    test.setTimeout(120_000);
    const url = await started(() => scaleServer(10));
    await page.addInitScript(() => {
      const tasks: number[] = [];
      (window as unknown as { longTasks: number[] }).longTasks = tasks;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) tasks.push(entry.duration);
      }).observe({ type: 'longtask', buffered: true });
    });
    await openApp(page, url);
    await connect(page);
    await selectTool(page, 'big_text');
    await page.locator('#run-tool').click();
    const shown = page.locator('#tool-result .text-shown');
    await expect(shown).toHaveText('Showing 8.0 KB of 10.0 MB.', { timeout: 30_000 });
    await page.waitForTimeout(500);
    await page.evaluate(() => ((window as unknown as { longTasks: number[] }).longTasks.length = 0));
    await page.locator('#tool-result .show-all').click();
    await expect(shown).toHaveText('All 10.0 MB shown.', { timeout: 90_000 });
    // A frame after the last part, the page answers at once.
    await page.waitForTimeout(300);
    const tasks = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
    const longest = Math.max(0, ...tasks);
    // 50 ms is the aim; the bound allows for a busy 2-core machine (before: up to 270 ms).
    expect(longest, `long tasks while showing all: ${tasks.map((t) => Math.round(t)).join(', ')}`).toBeLessThan(120);
    const text = page.locator('#tool-result .content-text');
    expect(await text.evaluate((pre) => pre.textContent?.length ?? 0)).toBe(10 * 1024 * 1024);
  });

  test("embed.js names each widget's iframe after its tool", async ({ page }) => {
    const widget = (tool: string) =>
      `${APP_URL}?embed&url=${encodeURIComponent(EVERYTHING_URL)}&tool=${encodeURIComponent(tool)}`.replaceAll('&', '&amp;');
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Guide</title></head><body>
      <h1>Guide</h1>
      <iframe id="one" src="${widget('echo')}" style="width: 100%; height: 300px; border: 0"></iframe>
      <iframe id="two" src="${widget('get-sum')}" style="width: 100%; height: 300px; border: 0"></iframe>
      <iframe id="three" title="Our own title" src="${widget('echo')}" style="width: 100%; height: 300px; border: 0"></iframe>
      <script src="${APP_URL}embed.js" async></script></body></html>`;
    const server = http.createServer((_, response) => response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html));
    await new Promise<void>((resolve) => server.listen(0, HOST, resolve));
    try {
      await page.goto(`http://${HOST}:${(server.address() as AddressInfo).port}/`);
      await expect(page.locator('#one')).toHaveAttribute('title', 'echo (mcp-lens)');
      await expect(page.locator('#two')).toHaveAttribute('title', 'get-sum (mcp-lens)');
      await expect(page.locator('#three')).toHaveAttribute('title', 'Our own title');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

test.describe('the build', () => {
  /** A wasm module with a name section holding subsection 3 (label names, as rustc writes). */
  function moduleWithLabelNames(): Buffer {
    const leb = (n: number) => {
      const out: number[] = [];
      do {
        let byte = n & 0x7f;
        n >>>= 7;
        if (n) byte |= 0x80;
        out.push(byte);
      } while (n);
      return out;
    };
    const section = (id: number, body: number[]) => [id, ...leb(body.length), ...body];
    const name = [...Buffer.from('name')];
    const subsection = (id: number, body: number[]) => [id, ...leb(body.length), ...body];
    const functionNames = subsection(1, [1, 0, 1, ...Buffer.from('f')]);
    const labelNames = subsection(3, [1, 0, 1, 0, 1, ...Buffer.from('l')]);
    return Buffer.from([
      0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
      ...section(1, [1, 0x60, 0, 0]), // type: () -> ()
      ...section(3, [1, 0]), // one function of type 0
      ...section(7, [1, 1, ...Buffer.from('f'), 0, 0]), // export "f"
      ...section(10, [1, 3, 0, 0x01, 0x0b]), // body: no locals, nop, end
      ...section(0, [...leb(name.length), ...name, ...functionNames, ...labelNames]),
    ]);
  }

  test("the release build's optimizer prints no 'unknown name subsection' warnings", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-lens-wasm-opt-'));
    const file = path.join(dir, 'chunk.wasm');
    fs.writeFileSync(file, moduleWithLabelNames());
    const env = { ...process.env, PATH: `${path.resolve('node_modules/.bin')}:${process.env.PATH}` };
    try {
      // wasm-opt alone warns about such a module: what scripts/serve.sh printed 14 times.
      const bare = spawnSync('wasm-opt', ['-Oz', file, '-o', path.join(dir, 'bare.wasm')], { env, encoding: 'utf8' });
      expect(bare.status).toBe(0);
      expect(`${bare.stdout}${bare.stderr}`).toContain('unknown name subsection');
      // The build's own step optimizes it and says nothing about it.
      const output = execFileSync('node', ['scripts/wasm-opt.mjs', file], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
      expect(output).toBe('');
      const quiet = spawnSync('node', ['scripts/wasm-opt.mjs', file], { env, encoding: 'utf8' });
      expect(quiet.status).toBe(0);
      expect(`${quiet.stdout}${quiet.stderr}`).toBe('');
      expect(fs.readFileSync(file).subarray(0, 4)).toEqual(Buffer.from([0, 0x61, 0x73, 0x6d]));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
