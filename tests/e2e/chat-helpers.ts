// Steps shared by the chat's end-to-end specs (chat-fake, chat-keys, chat-model).

import { expect, type Locator, type Page } from '@playwright/test';
import { connect } from './helpers';
import { freePort, TestServer } from './spawn';

/** The deterministic fake model (tests/servers/fake_model.mjs) on a free port. */
export async function fakeModel(): Promise<TestServer> {
  const port = await freePort();
  const server = new TestServer('node', ['tests/servers/fake_model.mjs', '--port', String(port)], port);
  await server.start();
  return server;
}

/** What the fake model received (method, path, headers, body). */
export async function fakeRequests(fake: TestServer): Promise<{ method: string; path: string; headers: Record<string, string>; body: string }[]> {
  const response = await fetch(`http://127.0.0.1:${fake.port}/requests`);
  return response.json();
}

/** Opens the connection settings (a no-op when they are open already). */
async function openSettings(page: Page): Promise<void> {
  if ((await page.locator('#settings').getAttribute('open')) === null) {
    await page.locator('#settings > summary').click();
  }
}

/** Connects the selected server entry to `url` under the name `name`. */
export async function connectNamed(page: Page, url: string, name: string, add = false): Promise<void> {
  if (add) await page.locator('#add-server').click();
  await page.locator('#server-url').fill(url);
  await openSettings(page);
  await page.locator('#server-name').fill(name);
  await connect(page);
}

/** Opens the Chat tab and waits for its chunk. */
export async function openChat(page: Page): Promise<void> {
  await page.locator('#tab-chat').click();
  await expect(page.locator('#chat-view')).toBeVisible({ timeout: 20_000 });
}

export function lane(page: Page, index = 0): Locator {
  return page.locator(`.chat-lane[data-lane="${index}"]`);
}

export interface Provider {
  dialect?: 'openai' | 'anthropic' | 'gemini';
  baseUrl: string;
  model: string;
  key?: string;
}

/** Fills a lane's provider form (opening it first). */
export async function setProvider(page: Page, index: number, provider: Provider): Promise<void> {
  const form = page.locator(`.provider-form[data-lane="${index}"]`).first();
  if (!(await form.isVisible())) await lane(page, index).locator('.lane-summary').click();
  await form.locator('.provider-dialect').selectOption(provider.dialect ?? 'openai');
  await form.locator('.provider-base-url').fill(provider.baseUrl);
  await form.locator('.provider-model').fill(provider.model);
  await form.locator('.provider-key').fill(provider.key ?? '');
}

/** Types `text` into the composer and sends it to every lane. */
export async function send(page: Page, text: string): Promise<void> {
  await page.locator('#chat-input').fill(text);
  await page.locator('#chat-send').click();
}

/** Waits until no lane runs. */
export async function idle(page: Page, timeout = 30_000): Promise<void> {
  await expect(page.locator('#chat-stop')).toBeHidden({ timeout });
}

/** The `n`th (from 0) tool call of a lane. */
export function toolCall(page: Page, n: number, laneIndex = 0): Locator {
  return lane(page, laneIndex).locator('.tool-call').nth(n);
}

/** The text of the lane's last model message. */
export function lastAnswer(page: Page, laneIndex = 0): Locator {
  return lane(page, laneIndex).locator('.chat-message.from-model').last().locator('.model-text').last();
}

/** Opens the wire log showing only the chat's model requests. */
export async function modelWireLog(page: Page): Promise<Locator> {
  const log = page.locator('#wire-log');
  if (!(await log.evaluate((d) => (d as HTMLDetailsElement).open))) await log.locator('summary').click();
  await page.locator('#wire-traffic').selectOption('model');
  return log.locator('tr.wire-entry');
}
