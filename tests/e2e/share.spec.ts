// The share and embed dialog (issue 12) against the real server-everything: the link it builds
// opens the same server, tool and arguments in a fresh browser profile; the snippet's iframe
// shows the embed view with the chosen options; no secret is in either; the dialog comes with
// the session chunk (no download of its own).

import { EVERYTHING_URL } from './env';
import { connect, expect, field, openApp, selectPrompt, selectTool, test, toolItem } from './helpers';

const TOKEN = 'secret-token-4711';
const HEADER_VALUE = 'header-secret-0815';

test('the link opens the same server, tool and arguments; no token in the link or the snippet', async ({ page, browser, baseURL }) => {
  const requested: string[] = [];
  // The page's own requests (the dialog's preview iframe loads the embed view).
  page.on('request', (request) => {
    if (request.frame() === page.mainFrame()) requested.push(new URL(request.url()).pathname);
  });
  await openApp(page, EVERYTHING_URL);
  await connect(page);
  const panel = await selectTool(page, 'echo');
  await field(panel, 'message').fill('shared words & more');
  // A token typed for this server (the session is already open): never in what is shared.
  await page.locator('#bearer-token').fill(TOKEN);
  await page.locator('#custom-headers').fill(`X-Api-Key: ${HEADER_VALUE}`);
  const wasmBefore = requested.filter((p) => p.endsWith('.wasm')).length;
  await page.locator('#share').click();
  const dialog = page.locator('#share-dialog');
  await expect(dialog).toBeVisible();
  expect(requested.filter((p) => p.endsWith('.wasm')).length).toBe(wasmBefore);
  await expect(dialog.locator('#share-secrets')).toContainText('a bearer token and custom headers');
  await expect(dialog.locator('#share-secrets')).toContainText('never put into a link or snippet');
  const link = await dialog.locator('#share-link').inputValue();
  const snippet = await dialog.locator('#share-snippet').inputValue();
  for (const secret of [TOKEN, HEADER_VALUE, 'X-Api-Key']) {
    expect(link).not.toContain(secret);
    expect(snippet).not.toContain(secret);
  }
  expect(link.startsWith(baseURL!)).toBe(true);
  const params = new URL(link).searchParams;
  expect(params.get('url')).toBe(EVERYTHING_URL);
  expect(params.get('tool')).toBe('echo');
  expect(JSON.parse(params.get('args')!)).toEqual({ message: 'shared words & more' });
  expect(params.has('embed')).toBe(false);

  // Copy with one click.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await dialog.locator('#copy-link').click();
  await expect(dialog).toContainText('Copied.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

  // Opened in a fresh profile: the same server, tool and arguments, and no token.
  const fresh = await browser.newContext();
  try {
    const other = await fresh.newPage();
    await other.goto(link);
    await expect(other.locator('#server-url')).toHaveValue(EVERYTHING_URL);
    await expect(other.locator('#bearer-token')).toHaveValue('');
    await expect(other.locator('#custom-headers')).toHaveValue('');
    await connect(other);
    await expect(other.locator('li.tool-item[data-tool="echo"]')).toHaveClass(/selected/);
    const otherPanel = other.locator('#tool-panel');
    await expect(field(otherPanel, 'message')).toHaveValue('shared words & more');
    await other.locator('#run-tool').click();
    await expect(other.locator('#tool-result')).toContainText('Echo: shared words & more');
  } finally {
    await fresh.close();
  }
});

test('the snippet and the live preview follow the options', async ({ page }) => {
  await openApp(page, EVERYTHING_URL);
  await connect(page);
  const panel = await selectTool(page, 'echo');
  await field(panel, 'message').fill('previewed');
  await page.locator('#share').click();
  const dialog = page.locator('#share-dialog');
  // The focus moves into the dialog.
  await expect(dialog).toBeFocused();
  await dialog.locator('#share-theme').selectOption('dark');
  await dialog.locator('#share-accent').fill('#0b7285');
  await dialog.locator('#share-connect').check();
  await dialog.locator('#share-height').fill('500');
  const snippet = await dialog.locator('#share-snippet').inputValue();
  expect(snippet).toContain('height: 500px');
  expect(snippet).toMatch(/<script src="[^"]*\/embed\.js" async><\/script>/);
  const src = snippet.match(/<iframe src="([^"]*)"/)![1].replace(/&amp;/g, '&');
  const params = new URL(src).searchParams;
  expect(params.has('embed')).toBe(true);
  expect(params.has('connect')).toBe(true);
  expect(params.get('theme')).toBe('dark');
  expect(params.get('accent')).toBe('#0b7285');
  expect(params.get('tool')).toBe('echo');
  expect(JSON.parse(params.get('args')!)).toEqual({ message: 'previewed' });
  // The preview is that address, live: connected at once, the tool with its arguments.
  await expect(dialog.locator('#share-preview')).toHaveAttribute('src', src);
  const preview = page.frameLocator('#share-preview');
  await expect(preview.locator('#status')).toContainText('Connected', { timeout: 20_000 });
  await expect(field(preview.locator('#tool-panel'), 'message')).toHaveValue('previewed');
  // A bad accent is said, and left out of the snippet.
  await dialog.locator('#share-accent').fill('red;}');
  await expect(dialog.locator('#share-problems')).toContainText('hex colour');
  expect(await dialog.locator('#share-snippet').inputValue()).not.toContain('accent');
  // Without the arguments.
  await dialog.locator('#share-args').uncheck();
  expect(new URL(await dialog.locator('#share-link').inputValue()).searchParams.has('args')).toBe(false);
  // Escape closes it and gives the focus back to the Share button; Close closes it too.
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(page.locator('#share')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await dialog.locator('#share-close').click();
  await expect(dialog).toHaveCount(0);
});

test('a prompt with its arguments: the link opens the same prompt, filled', async ({ page, browser }) => {
  await openApp(page, EVERYTHING_URL);
  await connect(page);
  const panel = await selectPrompt(page, 'args-prompt');
  await field(panel, 'city').fill('Lyon');
  await page.locator('#share').click();
  const link = await page.locator('#share-link').inputValue();
  const params = new URL(link).searchParams;
  expect(params.get('prompt')).toBe('args-prompt');
  expect(JSON.parse(params.get('args')!)).toEqual({ city: 'Lyon' });
  const fresh = await browser.newContext();
  try {
    const other = await fresh.newPage();
    await other.goto(link);
    await connect(other);
    await expect(other.locator('li.prompt-item[data-prompt="args-prompt"]')).toHaveClass(/selected/);
    await expect(field(other.locator('#prompt-panel'), 'city')).toHaveValue('Lyon');
    await expect(other.locator('#link-problems')).toHaveCount(0);
  } finally {
    await fresh.close();
  }
});

test('a deep link whose arguments are not JSON says so in the full app, never silently', async ({ page }) => {
  await openApp(page, EVERYTHING_URL, { tool: 'echo', args: '{"message": "unterminated', version: '2024-01-01', theme: 'pink' });
  const problems = page.locator('#link-problems');
  // Said before any connect, with the JSON error's place; the embed-only theme is not the full app's business.
  await expect(problems).toContainText('not valid JSON');
  await expect(problems).toContainText('line 1');
  await expect(problems).toContainText('"2024-01-01"');
  await expect(problems).not.toContainText('pink');
  await expect(problems).toHaveAttribute('role', 'alert');
  await connect(page);
  // The tool still opens, its form empty; the problems stay until dismissed.
  await expect(toolItem(page, 'echo')).toHaveClass(/selected/);
  await expect(field(page.locator('#tool-panel'), 'message')).toHaveValue('');
  await expect(problems).toBeVisible();
  await page.locator('#dismiss-link-problems').focus();
  await page.keyboard.press('Enter');
  await expect(problems).toHaveCount(0);
  // The focus is not lost with the button: it moves to the connection's own.
  await expect(page.locator('#disconnect')).toBeFocused();

  // A link to a tool the server does not list says that too, once the tools are listed.
  await openApp(page, EVERYTHING_URL, { tool: 'no-such-tool' });
  await connect(page);
  await expect(page.locator('#link-problems')).toContainText('does not list the tool no-such-tool');
});
