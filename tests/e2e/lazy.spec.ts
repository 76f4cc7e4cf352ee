// The split build (scripts/wasm-split.mjs, src/ui/lazy.rs): the first paint needs only the main
// module; the session chunk (the client and the connected panels) is fetched after it, and a
// chunk that cannot be fetched is an error the person can retry, never a dead page.

import type { Page } from '@playwright/test';
import { APP_URL, EVERYTHING_URL } from './env';
import { connect, expect, input, openApp, runTool, selectTool, test, toolItem } from './helpers';

const CHUNK = /\/pack-session\.wasm$/;

/** Waits until the page has been idle `rounds` times (the warm-ups run in its idle time). */
async function idleRounds(page: Page, rounds: number): Promise<void> {
  await page.evaluate(
    (wanted) =>
      new Promise<void>((resolve) => {
        let seen = 0;
        const round = () => requestIdleCallback(() => (++seen >= wanted ? resolve() : round()));
        round();
      }),
    rounds,
  );
}

test('the session chunk is fetched after the first paint, and Connect uses it', async ({ page }) => {
  const requested: string[] = [];
  const failed: string[] = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  page.on('response', (response) => {
    if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
  });
  await openApp(page, EVERYTHING_URL);
  await expect.poll(() => requested.some((p) => CHUNK.test(p))).toBe(true);
  // Its timing entry appears once it has arrived (the session's pack of modules; the modules
  // it shares with the first paint came with the first paint's packs).
  await expect
    .poll(() => page.evaluate(() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/pack-session.wasm'))))
    .toBe(true);
  // Fetched after the first paint, from the page's own timeline.
  const times = await page.evaluate(() => {
    const paint = performance.getEntriesByName('first-contentful-paint')[0];
    const chunk = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/pack-session.wasm'));
    const main = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/mcp-lens_bg.wasm'));
    return { paint: paint?.startTime, chunk: chunk?.startTime, main: main?.startTime };
  });
  expect(times.paint).toBeDefined();
  expect(times.main).toBeDefined();
  expect(times.chunk, JSON.stringify(times)).toBeGreaterThanOrEqual(times.paint!);
  await connect(page);
  await expect(toolItem(page, 'echo')).toBeVisible();
  expect(requested.filter((p) => CHUNK.test(p))).toHaveLength(1);
  // Every file the page names exists (the build removed Trunk's unsplit copy and its links).
  expect(failed.filter((f) => !f.includes('/mcp'))).toEqual([]);
});

// Wide: the sidebar beside the form; narrow (under 800 px): one column, the sidebar above it.
for (const [layout, viewport] of [['two columns', { width: 1280, height: 800 }], ['one column', { width: 780, height: 900 }]] as const) {
test(`the first screen comes in steps that move nothing (${layout}): the frame, then the sidebar's entries, then the form; the session chunk after the form`, async ({ page }) => {
  await page.setViewportSize(viewport);
  // What the page drew at each batch of changes, from before its scripts run.
  await page.addInitScript(() => {
    const seen: Record<string, unknown> = {};
    (window as unknown as { __steps: Record<string, unknown> }).__steps = seen;
    const box = (selector: string) => {
      const rect = document.querySelector(selector)?.getBoundingClientRect();
      return rect && [rect.x, rect.y, rect.width, rect.height];
    };
    // Where each part of the frame is; the top bar's height too (the columns grow with what
    // comes into them, which moves nothing). In one column the sidebar's entries move the empty
    // main place down: that moves nothing drawn, so main counts from the form on.
    const frame = () => ({ topbar: box('.topbar'), sidebar: box('#servers')?.slice(0, 3) });
    const drawn = () => ({ main: box('main')?.slice(0, 3), connect: box('#connect') });
    new MutationObserver(() => {
      if (!seen.frame && document.querySelector('.topbar')) {
        seen.frame = frame();
        seen.formWithFrame = !!document.querySelector('#connect');
      }
      if (!('formWithEntries' in seen) && document.querySelector('.server-entry')) {
        seen.formWithEntries = !!document.querySelector('#connect');
      }
      if (!seen.formAt && document.querySelector('#connect')) {
        seen.formAt = performance.now();
        seen.entriesWithForm = !!document.querySelector('.server-entry');
        seen.drawn = drawn();
      }
    }).observe(document, { subtree: true, childList: true });
    (window as unknown as { __now: () => unknown }).__now = () => ({ frame: frame(), drawn: drawn() });
  });
  await openApp(page, EVERYTHING_URL);
  await expect(page.locator('.server-entry')).toHaveCount(1);
  await expect
    .poll(() => page.evaluate(() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/pack-session.wasm'))))
    .toBe(true);
  const steps = await page.evaluate(() => {
    const w = window as unknown as { __steps: Record<string, unknown>; __now: () => { frame: unknown; drawn: unknown } };
    const chunk = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/pack-session.wasm'));
    return { ...w.__steps, now: w.__now(), chunkAt: chunk?.startTime };
  });
  // The top bar and the layout's empty places first; the sidebar's entries, then the connection
  // form, in later tasks (entries drawn after the form moved it in one column).
  expect(steps.frame, JSON.stringify(steps)).toBeDefined();
  expect(steps.formWithFrame, JSON.stringify(steps)).toBe(false);
  expect(steps.entriesWithForm, JSON.stringify(steps)).toBe(true);
  expect(steps.formWithEntries, JSON.stringify(steps)).toBe(false);
  // Nothing of the frame moved or changed size as the rest came, and Connect stayed where it was
  // first drawn (a person aims at it as soon as it shows).
  expect(steps.now.frame, JSON.stringify(steps)).toEqual(steps.frame);
  expect(steps.now.drawn, JSON.stringify(steps)).toEqual(steps.drawn);
  // The session chunk is fetched once Connect is drawn, not before (its bytes would count in the
  // first paint's).
  expect(steps.chunkAt as number, JSON.stringify(steps)).toBeGreaterThanOrEqual(steps.formAt as number);
});
}

test('a session chunk that cannot be fetched: Connect says so, the next Connect retries, and the settings are stored from then on', async ({ page }) => {
  let refuse = true;
  await page.route(CHUNK, (route) => (refuse ? route.abort('connectionrefused') : route.continue()));
  await openApp(page, EVERYTHING_URL);
  await page.locator('#connect').click();
  const error = page.locator('#connect-error');
  await expect(error).toContainText('could not be downloaded');
  await expect(page.locator('#status')).toContainText('Error');
  // The settings are stored from the session chunk's first use on; the preload after the
  // first paint failed, so nothing is stored yet.
  expect(await page.evaluate(() => localStorage.getItem('mcp-lens.servers'))).toBeNull();
  refuse = false;
  await connect(page);
  await expect(toolItem(page, 'echo')).toBeVisible();
  // The Connect that brought the chunk started the storing: the address is kept, and so is a
  // change made after it.
  await expect.poll(() => page.evaluate(() => localStorage.getItem('mcp-lens.servers') ?? '')).toContain(EVERYTHING_URL);
  await page.locator('#add-server').click();
  await expect
    .poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('mcp-lens.servers') ?? '[]').length ?? 0))
    .toBe(2);
});

test('once the session chunk is here, the warm-up connect sends nothing and shows nothing; the fields drawn a task later are there', async ({ page }) => {
  const server = new URL(EVERYTHING_URL).origin;
  const sent: string[] = [];
  // Every request the page makes: the warm-up's fetch (of a blob: URL it made, under the page's
  // CSP) must not leave the page.
  const elsewhere: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(server) || request.url().includes('warm-up')) sent.push(`${request.method()} ${request.url()}`);
    if (!request.url().startsWith(APP_URL) && !request.url().startsWith('blob:')) {
      elsewhere.push(request.url());
    }
  });
  await openApp(page, EVERYTHING_URL);
  await expect
    .poll(() => page.evaluate(() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/pack-session.wasm'))))
    .toBe(true);
  // The warm-up runs in the page's idle time: wait until the page has been idle many times over.
  await idleRounds(page, 30);
  expect(sent).toEqual([]);
  expect(elsewhere).toEqual([]);
  await expect(page.locator('#status')).toHaveText('Disconnected');
  await expect(page.locator('#wire-log > summary')).toHaveText('Wire log (0)');
  for (const absent of ['#server-info', 'li.tool-item', '#events', '#sign-in-bar', '#auth-view', '.tabs']) {
    await expect(page.locator(absent)).toHaveCount(0);
  }
  await expect(page.locator('.server-entry')).toHaveCount(1);
  // The settings fields and the wire log's controls, drawn a task after the chunk came.
  await page.locator('#settings > summary').click();
  await expect(page.locator('#server-name')).toBeVisible();
  await expect(page.locator('#protocol-version')).toBeVisible();
  await page.locator('#wire-log > summary').click();
  await expect(page.locator('#wire-method')).toBeVisible();
  // The real connect shows the real server.
  await connect(page);
  await expect(toolItem(page, 'echo')).toBeVisible();
  await expect(page.locator('#server-info .server-name')).not.toHaveText('warm-up');
  await expect(page.locator('#wire-log > summary')).not.toHaveText('Wire log (0)');
  expect(sent.some((s) => s.includes('warm-up'))).toBe(false);
});

test("once a server's tools are listed, the tool call's warm-up sends nothing and shows nothing; the first Run is the person's", async ({ page }) => {
  const server = new URL(EVERYTHING_URL).origin;
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(server) || request.url().includes('warm-up')) sent.push(`${request.method()} ${request.postData() ?? ''}`);
  });
  await openApp(page, EVERYTHING_URL);
  await connect(page);
  await expect(toolItem(page, 'echo')).toBeVisible();
  // The warm-up runs in the page's idle time: wait until the page has been idle many times over.
  await idleRounds(page, 30);
  expect(sent.some((s) => s.includes('warm-up') || s.includes('tools/call'))).toBe(false);
  await expect(page.locator('#tool-panel')).toHaveCount(0);
  await expect(page.locator('body')).not.toContainText('Echo: warm');
  await expect(page.locator('#server-info .server-name')).not.toHaveText('warm-up');
  // The person's first call goes to the real server and shows its answer.
  const panel = await selectTool(page, 'echo');
  await input(panel, '/message').fill('first');
  const result = await runTool(page);
  await expect(result.locator('.content-text')).toHaveText('Echo: first');
  expect(sent.filter((s) => s.includes('tools/call'))).toHaveLength(1);
});

/** Every resource the page fetched, with when it started, and the first paint's time. */
async function timeline(page: Page): Promise<{ paint?: number; files: Record<string, number> }> {
  return page.evaluate(() => ({
    paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
    files: Object.fromEntries(performance.getEntriesByType('resource').map((e) => [new URL(e.name).pathname.split('/').pop(), e.startTime])),
  }));
}

test('a full-app link with &connect to an address on this machine asks first; the session chunk was fetched with the first paint', async ({ page }) => {
  const server = new URL(EVERYTHING_URL).origin;
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(server)) sent.push(`${request.method()} ${request.url()}`);
  });
  await page.goto(`/?${new URLSearchParams({ url: EVERYTHING_URL, connect: '' })}`);
  const ask = page.locator('#connect-ask');
  await expect(ask).toContainText(server);
  await expect(ask).toContainText('on your own machine or network');
  // Nothing went to the server while the page asks.
  await idleRounds(page, 10);
  expect(sent).toEqual([]);
  await expect(page.locator('#status')).toHaveText('Disconnected');
  // The connect path's chunk was asked for by the page's head, before its first paint.
  expect(await page.locator('link[rel="preload"][href$="/pack-session.wasm"]').count()).toBe(1);
  const seen = await timeline(page);
  expect(seen.files['pack-session.wasm'], JSON.stringify(seen)).toBeLessThan(seen.paint!);
  await page.locator('#connect-ask-yes').click();
  await expect(ask).toHaveCount(0);
  await expect(page.locator('#status')).toContainText('Connected', { timeout: 20_000 });
  await expect(toolItem(page, 'echo')).toBeVisible();
});

test('a full-app link with &connect: "Not now" leaves it disconnected; without the flag (or with connect=0) nothing is asked and the session chunk waits for the first paint', async ({ page }) => {
  await page.goto(`/?${new URLSearchParams({ url: EVERYTHING_URL, connect: '1' })}`);
  const server = new URL(EVERYTHING_URL).origin;
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.url().startsWith(server)) sent.push(`${request.method()} ${request.url()}`);
  });
  await page.locator('#connect-ask-no').click();
  await expect(page.locator('#connect-ask')).toHaveCount(0);
  // (Chromium runs no idle callback after a click that removed the focused button until the
  // next input: a plain wait for what must not happen.)
  await page.waitForTimeout(1000);
  await expect(page.locator('#status')).toHaveText('Disconnected');
  expect(sent).toEqual([]);
  for (const query of [{ url: EVERYTHING_URL }, { url: EVERYTHING_URL, connect: '0' }]) {
    await page.goto(`/?${new URLSearchParams(query)}`);
    await expect
      .poll(() => page.evaluate(() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/pack-session.wasm'))))
      .toBe(true);
    await idleRounds(page, 10);
    await expect(page.locator('#connect-ask')).toHaveCount(0);
    await expect(page.locator('#status')).toHaveText('Disconnected');
    expect(await page.locator('link[rel="preload"][href$="/pack-session.wasm"]').count()).toBe(0);
    const seen = await timeline(page);
    expect(seen.files['pack-session.wasm'], JSON.stringify(seen)).toBeGreaterThanOrEqual(seen.paint!);
  }
});

test('a full-app link with &connect to a public address connects by itself', async ({ page }) => {
  // A public name, answered by the real server on loopback: the page's requests to it are
  // carried there by the browser's own routing (nothing leaves this machine).
  const PUBLIC = 'https://mcp.example.com/mcp';
  const origins = new Set<string>();
  await page.route('https://mcp.example.com/**', async (route) => {
    origins.add(new URL(route.request().url()).origin);
    const answer = await route.fetch({ url: EVERYTHING_URL });
    await route.fulfill({ response: answer });
  });
  await page.goto(`/?${new URLSearchParams({ url: PUBLIC, connect: '' })}`);
  await expect(page.locator('#status')).toContainText('Connected', { timeout: 20_000 });
  await expect(toolItem(page, 'echo')).toBeVisible();
  await expect(page.locator('#connect-ask')).toHaveCount(0);
  expect([...origins]).toEqual(['https://mcp.example.com']);
  // The server's event stream (a GET that never ends) is still being carried.
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});
