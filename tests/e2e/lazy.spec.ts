// The split build (scripts/wasm-split.mjs, src/ui/lazy.rs): the first paint needs only the main
// module; the session chunk (the client and the connected panels) is fetched after it, and a
// chunk that cannot be fetched is an error the person can retry, never a dead page.

import type { Page } from '@playwright/test';
import { APP_URL, EVERYTHING_URL } from './env';
import { connect, expect, input, openApp, runTool, selectTool, test, toolItem } from './helpers';

const CHUNK = /\/split_session\.wasm$/;

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
  // Its timing entry appears once it has arrived (with the chunk it shares with the import
  // dialogs' chunk, `chunk_N.wasm`, fetched beside it).
  await expect
    .poll(() => page.evaluate(() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/split_session.wasm'))))
    .toBe(true);
  // Fetched after the first paint, from the page's own timeline.
  const times = await page.evaluate(() => {
    const paint = performance.getEntriesByName('first-contentful-paint')[0];
    const chunk = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/split_session.wasm'));
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
    .poll(() => page.evaluate(() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/split_session.wasm'))))
    .toBe(true);
  const steps = await page.evaluate(() => {
    const w = window as unknown as { __steps: Record<string, unknown>; __now: () => { frame: unknown; drawn: unknown } };
    const chunk = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/split_session.wasm'));
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
    .poll(() => page.evaluate(() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/split_session.wasm'))))
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
