// Dark mode (src/ui/theme.rs, style/main.css): the system's choice by default, a button cycling
// system/light/dark remembered across reloads, and every view readable in dark.

import { CLOSED_URL, EVERYTHING_URL } from './env';
import { connect, connectExpectingError, expect, openApp, runTool, selectTool, field, test, type Page } from './helpers';

const DARK_BG = 'rgb(22, 24, 27)';
const LIGHT_BG = 'rgb(250, 250, 250)';
/** Clicks the theme button (system -> light -> dark -> system) until it shows `label`. */
async function chooseTheme(page: Page, label: 'System' | 'Light' | 'Dark'): Promise<void> {
  for (let i = 0; i < 3 && (await page.locator('#theme').innerText()) !== `Theme: ${label}`; i++) {
    await page.locator('#theme').click();
  }
  await expect(page.locator('#theme')).toHaveText(`Theme: ${label}`);
}

const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

/** The WCAG contrast ratio of an element's text against the first opaque background behind it. */
async function contrast(page: Page, selector: string): Promise<number> {
  return page.locator(selector).first().evaluate((element) => {
    const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = ([r, g, b]: number[]) => {
      const f = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    let back: number[] | undefined;
    for (let node: Element | null = element; node && !back; node = node.parentElement) {
      const c = rgb(getComputedStyle(node).backgroundColor);
      if (c.length === 3 || (c.length === 4 && c[3] > 0.9)) back = c.slice(0, 3);
    }
    const fore = luminance(rgb(getComputedStyle(element).color));
    const bg = luminance(back ?? [255, 255, 255]);
    return (Math.max(fore, bg) + 0.05) / (Math.min(fore, bg) + 0.05);
  });
}

test('follows the system colour scheme', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/');
  await expect(page.locator('#theme')).toHaveText('Theme: System');
  expect(await background(page)).toBe(DARK_BG);
  await page.emulateMedia({ colorScheme: 'light' });
  expect(await background(page)).toBe(LIGHT_BG);
});

test('the theme button overrides the system and is remembered across reloads', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/');
  await chooseTheme(page, 'Dark');
  expect(await background(page)).toBe(DARK_BG);
  await page.reload();
  await expect(page.locator('#theme')).toHaveText('Theme: Dark');
  expect(await background(page)).toBe(DARK_BG);
  expect(await page.evaluate(() => localStorage.getItem('mcp-lens.theme'))).toBe('dark');

  await page.emulateMedia({ colorScheme: 'dark' });
  await chooseTheme(page, 'Light');
  expect(await background(page)).toBe(LIGHT_BG);
  await page.reload();
  await expect(page.locator('#theme')).toHaveText('Theme: Light');
  expect(await background(page)).toBe(LIGHT_BG);

  await chooseTheme(page, 'System');
  expect(await background(page)).toBe(DARK_BG);
  await page.reload();
  await expect(page.locator('#theme')).toHaveText('Theme: System');
  expect(await page.evaluate(() => localStorage.getItem('mcp-lens.theme'))).toBeNull();
});

test('in dark, forms, results, the wire log, errors and dialogs are readable', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await openApp(page, EVERYTHING_URL);
  await connect(page);
  const panel = await selectTool(page, 'echo');
  await field(panel, 'message').fill('dark');
  await runTool(page);
  await page.locator('#wire-log summary').click();
  await expect(page.locator('#wire-log tr.wire-entry').first()).toBeVisible();
  await page.locator('#import-servers').click();
  await page.locator('#import-text').fill('{');
  await page.locator('#import-run').click();
  await expect(page.locator('#import-error')).toBeVisible();
  const selectors = [
    'body', '#connect', '#server-url', '.server-entry-name', '.item-name', '.item-description',
    '.field-label', '.content-text', '#wire-log tr.wire-entry td', '#import-error', '#import-text', '#theme',
  ];
  for (const selector of selectors) {
    expect(await contrast(page, selector), selector).toBeGreaterThanOrEqual(4.5);
  }
  await page.locator('#server-url').fill(CLOSED_URL);
  await connectExpectingError(page);
  expect(await contrast(page, '#connect-error'), '#connect-error').toBeGreaterThanOrEqual(4.5);
});
