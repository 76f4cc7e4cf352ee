// Shared fixture and UI steps for the mcp-lens end-to-end specs.
//
// The selectors below are the app's UI contract (see tests/README.md).

import { test as base, expect, type FrameLocator, type Locator, type Page } from '@playwright/test';

/**
 * `test` with a page that fails the test on an uncaught page error, a Rust panic
 * (console_error_panic_hook prints "panicked at" to console.error) or a Content-Security-Policy
 * violation.
 */
export const test = base.extend<{ page: Page }>({
  page: async ({ page }, use) => {
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' && /panicked at|RuntimeError: unreachable/.test(message.text())) {
        problems.push(`wasm panic: ${message.text()}`);
      }
      // The whole suite runs under the built app's Content-Security-Policy: anything it
      // blocks is a bug (or an attack that got through).
      if (/Content Security Policy/.test(message.text())) {
        problems.push(`CSP violation: ${message.text()}`);
      }
    });
    await use(page);
    expect(problems, 'uncaught errors or panics in the page').toEqual([]);
  },
});

export { expect };
export type { Page };

/** In the embed view, the first call asks: says yes to it (after checking it was asked). */
export async function confirmEmbedCall(scope: Page | FrameLocator): Promise<void> {
  await expect(scope.locator('#embed-ask')).toBeVisible();
  await scope.locator('#embed-ask-run').click();
}

/**
 * Opens the app with `?url=` pre-filling the server URL; `extra` adds deep-link parameters,
 * e.g. `{ version: '2025-11-25' }` to pin the handshake era.
 */
export async function openApp(page: Page, serverUrl: string, extra: Record<string, string> = {}): Promise<void> {
  const query = new URLSearchParams({ url: serverUrl, ...extra });
  await page.goto(`/?${query}`);
  await expect(page.locator('#server-url')).toHaveValue(serverUrl);
  await expect(page.locator('#status')).toContainText('Disconnected');
  await expect(page.locator('#connect-error')).toBeHidden();
}

/** Clicks Connect and waits for the Connected status. */
export async function connect(page: Page): Promise<void> {
  await page.locator('#connect').click();
  // Case-sensitive: "Disconnected" does not contain "Connected".
  await expect(page.locator('#status')).toContainText('Connected', { timeout: 20_000 });
  await expect(page.locator('#status')).not.toContainText('Error');
  await expect(page.locator('#connect-error')).toBeHidden();
}

/** Types a new server URL into the (already open) page and connects. */
export async function connectTo(page: Page, serverUrl: string): Promise<void> {
  await page.locator('#server-url').fill(serverUrl);
  await connect(page);
}

/** Clicks Connect and waits for the failure: status Error and a visible #connect-error. */
export async function connectExpectingError(page: Page): Promise<Locator> {
  await page.locator('#connect').click();
  const error = page.locator('#connect-error');
  await expect(error).toBeVisible({ timeout: 20_000 });
  await expect(page.locator('#status')).toContainText('Error');
  return error;
}

export async function disconnect(page: Page): Promise<void> {
  await page.locator('#disconnect').click();
  await expect(page.locator('#status')).toContainText('Disconnected');
}

export async function expectServerInfo(
  page: Page,
  info: { name: string; version: string; protocolVersion: string },
): Promise<void> {
  const panel = page.locator('#server-info');
  await expect(panel.locator('.server-name')).toHaveText(info.name);
  await expect(panel.locator('.server-version')).toContainText(info.version);
  await expect(panel.locator('.protocol-version')).toContainText(info.protocolVersion);
}

export function toolItem(page: Page, name: string): Locator {
  return page.locator(`li.tool-item[data-tool="${name}"]`);
}

/** The `data-tool` names of the listed tools, in order. */
export async function toolNames(page: Page): Promise<string[]> {
  return page.locator('li.tool-item').evaluateAll((items) => items.map((item) => item.getAttribute('data-tool') ?? ''));
}

/** Selects a tool in the Tools tab and returns its panel. */
export async function selectTool(page: Page, name: string): Promise<Locator> {
  await page.locator('#tab-tools').click();
  await toolItem(page, name).click();
  const panel = page.locator('#tool-panel');
  await expect(panel).toBeVisible();
  return panel;
}

/** A top-level form field by property name (inputs carry `data-path`, the JSON pointer they edit). */
export function field(panel: Locator, name: string): Locator {
  return input(panel, `/${name}`);
}

/** The input editing the value at a JSON pointer, e.g. `/user/address/zip` or `/items/0/sku`. */
export function input(panel: Locator, pointer: string): Locator {
  return panel.locator(`input[data-path="${pointer}"], select[data-path="${pointer}"], textarea[data-path="${pointer}"]`);
}

/** Runs the selected tool and returns `#tool-result` once it shows text content. */
export async function runTool(page: Page): Promise<Locator> {
  await page.locator('#run-tool').click();
  const result = page.locator('#tool-result');
  await expect(result.locator('.content-text').first()).toBeVisible({ timeout: 20_000 });
  return result;
}

export async function selectPrompt(page: Page, name: string): Promise<Locator> {
  await page.locator('#tab-prompts').click();
  await page.locator(`li.prompt-item[data-prompt="${name}"]`).click();
  const panel = page.locator('#prompt-panel');
  await expect(panel).toBeVisible();
  return panel;
}

export async function getPrompt(page: Page): Promise<Locator> {
  await page.locator('#get-prompt').click();
  const result = page.locator('#prompt-result');
  await expect(result.locator('.prompt-message').first()).toBeVisible({ timeout: 20_000 });
  return result;
}

export async function readResource(page: Page, uri: string): Promise<Locator> {
  await page.locator('#tab-resources').click();
  await page.locator(`li.resource-item[data-uri="${uri}"]`).click();
  const panel = page.locator('#resource-panel');
  await expect(panel).toBeVisible();
  await panel.locator('#read-resource').click();
  const result = page.locator('#resource-result');
  await expect(result.locator('.content-text').first()).toBeVisible({ timeout: 20_000 });
  return result;
}

/** The text of the events panel ("Server messages"), opened if it is closed. */
export async function events(page: Page): Promise<string> {
  const panel = page.locator('#events');
  if ((await panel.getAttribute('open')) === null) await panel.locator('summary').click();
  // Rows are drawn by the panel's `toggle` event, a task after the click; the panel exists only
  // when it has messages, so at least one row comes.
  await expect(panel.locator('ol li').first()).toBeVisible();
  return (await panel.locator('ol').innerText()) ?? '';
}

/**
 * From the next page load on, keeps every `WebAssembly.Memory` the page instantiates (the
 * app's, exported or imported), so {@link wasmMemoryBytes} can read its size. Wasm memory only
 * grows: its size is the most the page ever held. Call before `page.goto`.
 */
export async function trackWasmMemory(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const memories = new Set<WebAssembly.Memory>();
    const keep = (values: unknown) => {
      if (values && typeof values === 'object') {
        for (const value of Object.values(values)) {
          if (value instanceof WebAssembly.Memory) memories.add(value);
          else if (value && typeof value === 'object' && !(value instanceof WebAssembly.Module)) {
            for (const inner of Object.values(value)) if (inner instanceof WebAssembly.Memory) memories.add(inner);
          }
        }
      }
    };
    for (const name of ['instantiate', 'instantiateStreaming'] as const) {
      const original = WebAssembly[name] as (...args: unknown[]) => Promise<unknown>;
      (WebAssembly as unknown as Record<string, unknown>)[name] = function (this: unknown, ...args: unknown[]) {
        keep(args[1]);
        return original.apply(this, args).then((result) => {
          const instance = (result as { instance?: WebAssembly.Instance }).instance ?? result;
          keep((instance as WebAssembly.Instance).exports);
          return result;
        });
      };
    }
    (window as unknown as { __wasmMemoryBytes: () => number }).__wasmMemoryBytes = () =>
      Math.max(0, ...[...memories].map((memory) => memory.buffer.byteLength));
  });
}

/** The size of the page's wasm memory in bytes (see {@link trackWasmMemory}); 0 before it runs. */
export async function wasmMemoryBytes(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __wasmMemoryBytes?: () => number }).__wasmMemoryBytes?.() ?? 0);
}

/** The page's JavaScript heap in use (Chromium's `performance.memory`), in bytes. */
export async function jsHeapBytes(page: Page): Promise<number> {
  return page.evaluate(() => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0);
}

/** Samples the page's memory every 250 ms until `stop` is called; the most seen of each. */
export function sampleMemory(page: Page): { stop: () => Promise<{ wasm: number; heap: number }> } {
  const most = { wasm: 0, heap: 0 };
  let running = true;
  const loop = (async () => {
    while (running) {
      try {
        most.wasm = Math.max(most.wasm, await wasmMemoryBytes(page));
        most.heap = Math.max(most.heap, await jsHeapBytes(page));
      } catch {
        // The page is busy navigating or gone: the test's own checks say which.
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return most;
    },
  };
}

/** The JavaScript heap in use once the engine has collected its garbage. */
export async function heapAfterCollection(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('HeapProfiler.collectGarbage');
  } finally {
    await cdp.detach();
  }
  return jsHeapBytes(page);
}
