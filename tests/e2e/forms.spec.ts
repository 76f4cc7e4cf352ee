// Schema-driven forms against tests/servers/forms_server.py: the official Python SDK's
// low-level Server (mcp 2.3.0) publishing hand-written inputSchemas and echoing EXACTLY the
// arguments it received (json.dumps, sorted keys, compact). Each test fills a form through the
// UI and asserts the server's echo, so what is checked is what went over the wire.

import { FORMS_URL } from './env';
import {
  connect,
  expect,
  field,
  getPrompt,
  input,
  openApp,
  selectPrompt,
  selectTool,
  test,
  type Page,
} from './helpers';
import type { Locator } from '@playwright/test';

/**
 * JSON text without the whitespace between tokens (the app pretty-prints JSON text content);
 * unlike JSON.parse + stringify this keeps numbers as written, so `1` and `1.0` stay apart.
 */
function compact(json: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (inString) {
      out += c;
      if (c === '\\') out += json[++i];
      else if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
      out += c;
    } else if (!/\s/.test(c)) {
      out += c;
    }
  }
  return out;
}

/** Runs the selected tool and returns the server's echo (the first text block), compacted. */
async function runAndEcho(page: Page): Promise<string> {
  const panel = page.locator('#tool-panel');
  // Each finished call bumps the panel's data-runs, so a previous result is never read.
  const before = Number((await panel.getAttribute('data-runs')) ?? '0');
  await page.locator('#run-tool').click();
  try {
    await expect(panel).toHaveAttribute('data-runs', String(before + 1), { timeout: 20_000 });
  } catch (error) {
    // The run never finished: say what the page showed, so a failure on CI explains itself.
    throw new Error(`${(error as Error).message}\n\nThe page at the timeout: ${await panelState(page)}`);
  }
  const text = page.locator('#tool-result .content-text').first();
  await expect(text).toBeVisible();
  // An echo longer than a text's first part (8 KB) is shown whole on request.
  const showAll = page.locator('#tool-result .show-all');
  if (await showAll.count()) {
    await showAll.click();
    await expect(page.locator('#tool-result .text-shown')).toHaveText(/^All .* shown\.$/);
  }
  return compact((await text.textContent()) ?? '');
}

/** What a stuck run left on the page: the button, the form's problems, the result, the status, the last fetches. */
function panelState(page: Page): Promise<string> {
  return page.evaluate(() => {
    const text = (selector: string) => (document.querySelector(selector)?.textContent ?? '(none)').trim().slice(0, 400);
    const run = document.querySelector<HTMLButtonElement>('#run-tool');
    return JSON.stringify({
      run: run ? `${run.textContent}${run.disabled ? ' (disabled)' : ''}` : '(none)',
      issues: text('#tool-panel .form-issues'),
      incomplete: text('#tool-panel .check-incomplete'),
      result: text('#tool-panel .outcome-live'),
      status: text('#status'),
      focused: document.activeElement ? `${document.activeElement.tagName} #${document.activeElement.id}` : '(none)',
      // Fetches whose response ended, the last few with how long ago (did the request leave, did its answer come?).
      fetches: performance
        .getEntriesByType('resource')
        .filter((entry) => (entry as PerformanceResourceTiming).initiatorType === 'fetch')
        .slice(-4)
        .map((entry) => `${entry.name} ended ${Math.round(performance.now() - entry.startTime - entry.duration)} ms ago`),
    });
  });
}

function addItem(panel: Locator, pointer: string): Promise<void> {
  return panel.locator(`.array[data-path="${pointer}"] > .add-item`).click();
}

function arrayItem(panel: Locator, pointer: string, index: number): Locator {
  return panel.locator(`.array[data-path="${pointer}"] > .array-item`).nth(index);
}

/** The form's problem list entries at a pointer. */
function issueAt(panel: Locator, pointer: string): Locator {
  return panel.locator(`.form-issues li[data-issue-path="${pointer}"]`);
}

test.beforeEach(async ({ page }) => {
  await openApp(page, FORMS_URL, { version: '2025-11-25' });
  await connect(page);
});

test('nested objects: optional parts left empty are omitted; a bad pattern is caught before sending', async ({ page }) => {
  const panel = await selectTool(page, 'nested_object');
  await input(panel, '/user/name').fill('Ada');
  expect(await runAndEcho(page)).toBe('{"user":{"name":"Ada"}}');

  await input(panel, '/user/address/zip').fill('12a45');
  await page.locator('#run-tool').click();
  // Checked in the page: street is required once address is sent, zip breaks its pattern.
  await expect(issueAt(panel, '/user/address/street')).toContainText('Required.');
  await expect(issueAt(panel, '/user/address/zip')).toContainText('Must match the pattern ^[0-9]{5}$');
  await expect(panel.locator('.field-error')).toHaveCount(2);

  // Problems update as the person types, and go away when fixed.
  await input(panel, '/user/address/street').fill('1 Main St');
  await input(panel, '/user/address/zip').fill('12345');
  await expect(panel.locator('.form-issues')).toBeHidden();
  // Sections collapse and open again with their values intact.
  const address = panel.locator('details.group > summary', { has: page.locator('.field-name', { hasText: /^address$/ }) });
  await address.click();
  await expect(input(panel, '/user/address/zip')).toHaveCount(0);
  await address.click();
  await expect(input(panel, '/user/address/zip')).toHaveValue('12345');
  expect(await runAndEcho(page)).toBe('{"user":{"address":{"street":"1 Main St","zip":"12345"},"name":"Ada"}}');
});

test('arrays of objects: add, fill, reorder, remove; integers stay integers', async ({ page }) => {
  const panel = await selectTool(page, 'array_of_objects');
  await addItem(panel, '/items');
  await addItem(panel, '/items');
  await addItem(panel, '/items');
  await input(panel, '/items/0/sku').fill('A');
  await input(panel, '/items/0/qty').fill('2');
  await input(panel, '/items/1/sku').fill('B');
  await input(panel, '/items/1/qty').fill('1');
  await input(panel, '/items/2/sku').fill('C');
  await input(panel, '/items/2/qty').fill('5.0');
  // Items are keyed by identity: moving one moves its element, nothing is rebuilt.
  await arrayItem(panel, '/items', 0).evaluate((el) => ((el as HTMLElement).dataset.mark = 'A'));
  await arrayItem(panel, '/items', 1).evaluate((el) => ((el as HTMLElement).dataset.mark = 'B'));
  await arrayItem(panel, '/items', 1).locator('> .item-actions .move-up').click();
  await expect(arrayItem(panel, '/items', 0)).toHaveAttribute('data-mark', 'B');
  await expect(arrayItem(panel, '/items', 1)).toHaveAttribute('data-mark', 'A');
  await expect(arrayItem(panel, '/items', 0).locator('.field-name').first()).toHaveText('#1');
  await expect(arrayItem(panel, '/items', 1).locator('.field-name').first()).toHaveText('#2');
  await arrayItem(panel, '/items', 2).locator('> .item-actions .remove-item').click();
  // Inputs travel with their item: B is first now, with its own quantity.
  await expect(input(panel, '/items/0/sku')).toHaveValue('B');
  await expect(input(panel, '/items/0/qty')).toHaveValue('1');
  await addItem(panel, '/tags');
  await input(panel, '/tags/0').fill('red');
  await addItem(panel, '/tags');
  await input(panel, '/tags/1').fill('red');
  await page.locator('#run-tool').click();
  await expect(issueAt(panel, '/tags')).toContainText('Items 1 and 2 are the same');
  await input(panel, '/tags/1').fill('blue');
  expect(await runAndEcho(page)).toBe('{"items":[{"qty":1,"sku":"B"},{"qty":2,"sku":"A"}],"tags":["red","blue"]}');

  // maxItems 5: the add button stops at five.
  for (let i = 0; i < 3; i++) await addItem(panel, '/items');
  await expect(panel.locator('.array[data-path="/items"] > .add-item')).toBeDisabled();
});

test('nullable enums: a null default starts empty; null is sent only when chosen', async ({ page }) => {
  const panel = await selectTool(page, 'nullable_enum');
  const sizeNull = panel.locator('.field', { has: page.locator('.field-name', { hasText: /^size$/ }) }).locator('.null-toggle');
  await expect(panel.locator('.null-toggle')).toHaveCount(2);
  await expect(panel.locator('.null-toggle').first()).not.toBeChecked();
  await field(panel, 'level').selectOption({ label: '2' });
  expect(await runAndEcho(page)).toBe('{"level":2}');

  await sizeNull.check();
  expect(await runAndEcho(page)).toBe('{"level":2,"size":null}');
  await sizeNull.uncheck();
  await field(panel, 'size').selectOption({ label: 'M' });
  await field(panel, 'colour').selectOption({ label: 'green' });
  expect(await runAndEcho(page)).toBe('{"colour":"green","level":2,"size":"M"}');
});

test('oneOf variants: a picker, a sub-form per variant, values kept when switching back', async ({ page }) => {
  const panel = await selectTool(page, 'variants');
  const shape = panel.locator('select.variant-picker[data-path="/shape"]');
  await expect(shape.locator('option')).toHaveText(['Circle', 'Rectangle']);
  await input(panel, '/shape/radius').fill('2.5');
  expect(await runAndEcho(page)).toBe('{"shape":{"kind":"circle","radius":2.5}}');

  await shape.selectOption({ label: 'Rectangle' });
  await input(panel, '/shape/width').fill('3');
  await input(panel, '/shape/height').fill('4');
  const idPicker = panel.locator('select.variant-picker[data-path="/id"]');
  await idPicker.selectOption({ label: 'string' });
  await panel.locator('input[data-path="/id"]').fill('abc');
  expect(await runAndEcho(page)).toBe('{"id":"abc","shape":{"height":4,"kind":"rect","width":3}}');

  await shape.selectOption({ label: 'Circle' });
  await expect(input(panel, '/shape/radius')).toHaveValue('2.5');
  await input(panel, '/shape/radius').fill('0');
  await page.locator('#run-tool').click();
  await expect(issueAt(panel, '/shape/radius')).toContainText('Must be greater than 0');
});

test('$ref and $defs, including a recursive tree: an added child opens ready to fill', async ({ page }) => {
  const panel = await selectTool(page, 'refs');
  await input(panel, '/origin/x').fill('1');
  await input(panel, '/origin/y').fill('-2.5');
  await addItem(panel, '/path');
  await input(panel, '/path/0/x').fill('3');
  await input(panel, '/path/0/y').fill('4');
  await input(panel, '/tree/label').fill('root');
  await addItem(panel, '/tree/children');
  // The new child is built one level: its fields show without an "Open" click.
  await expect(panel.locator('.open-lazy[data-path="/tree/children/0"]')).toHaveCount(0);
  await input(panel, '/tree/children/0/label').fill('leaf');
  expect(await runAndEcho(page)).toBe(
    '{"origin":{"x":1,"y":-2.5},"path":[{"x":3,"y":4}],"tree":{"children":[{"label":"leaf"}],"label":"root"}}',
  );
});

test('formats get fitting inputs, defaults prefill, big integers are exact, "send anyway" sends what was typed', async ({ page }) => {
  const panel = await selectTool(page, 'formats_defaults');
  await expect(field(panel, 'email')).toHaveAttribute('type', 'email');
  await expect(field(panel, 'homepage')).toHaveAttribute('type', 'url');
  await expect(field(panel, 'birthday')).toHaveAttribute('type', 'date');
  await expect(field(panel, 'retries')).toHaveValue('3');
  await expect(field(panel, 'ratio')).toHaveValue('0.5');
  await expect(field(panel, 'note')).toHaveAttribute('placeholder', 'hello');
  const fieldNamed = (name: string) => panel.locator('.field', { has: page.locator(`[data-path="/${name}"]`) });
  await expect(fieldNamed('legacy_flag').locator('.badge.deprecated')).toHaveText('deprecated');
  await expect(fieldNamed('legacy_flag').locator('.description')).toHaveText('Use mode instead.');
  await expect(fieldNamed('server_id').locator('.badge')).toHaveText('read-only');
  await field(panel, 'email').fill('ada@example.com');
  await field(panel, 'birthday').fill('2026-11-30');
  await field(panel, 'meeting').fill('2026-11-30T09:30:00Z');
  await field(panel, 'big').fill('9007199254740993');
  expect(await runAndEcho(page)).toBe(
    '{"big":9007199254740993,"birthday":"2026-11-30","email":"ada@example.com","meeting":"2026-11-30T09:30:00Z","mode":"safe","ratio":0.5,"retries":3,"verbose":false}',
  );

  await field(panel, 'email').fill('not-an-email');
  await field(panel, 'ratio').fill('0.3');
  await field(panel, 'retries').fill('three');
  await page.locator('#run-tool').click();
  await expect(issueAt(panel, '/email')).toContainText('Not an email address.');
  await expect(issueAt(panel, '/ratio')).toContainText('Must be a multiple of 0.25');
  await expect(issueAt(panel, '/retries')).toContainText('Enter a whole number.');
  // What was typed is still there, untouched.
  await expect(field(panel, 'retries')).toHaveValue('three');
  // The rules are said under the inputs; date-time offers the current moment.
  await expect(panel.locator('.field', { has: page.locator('input[data-path="/retries"]') }).locator('.rules')).toHaveText('at least 0; at most 10');
  await panel.locator('.field', { has: page.locator('input[data-path="/meeting"]') }).locator('.fill-now').click();
  await expect(field(panel, 'meeting')).toHaveValue(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  await expect(issueAt(panel, '/meeting')).toHaveCount(0);
  await field(panel, 'meeting').fill('2026-11-30T09:30:00Z');
  await panel.locator('.send-anyway input').check();
  expect(await runAndEcho(page)).toBe(
    '{"big":9007199254740993,"birthday":"2026-11-30","email":"not-an-email","meeting":"2026-11-30T09:30:00Z","mode":"safe","ratio":0.3,"retries":"three","verbose":false}',
  );
});

test('raw JSON mode syncs both ways and loses nothing, not even unparsable input', async ({ page }) => {
  const panel = await selectTool(page, 'formats_defaults');
  await field(panel, 'retries').fill('12x');
  await field(panel, 'email').fill('ada@example.com');
  await panel.locator('.raw-mode').check();
  const raw = panel.locator('textarea.raw-json');
  const shown = JSON.parse(await raw.inputValue());
  expect(shown).toEqual({ email: 'ada@example.com', mode: 'safe', ratio: 0.5, retries: '12x', verbose: false });

  // Broken JSON cannot go back to the form, and stays as typed.
  await raw.fill('{"email": ');
  await panel.locator('.raw-mode').click();
  await expect(panel.locator('.raw-error')).toContainText('not valid JSON');
  await expect(raw).toHaveValue('{"email": ');
  await expect(panel.locator('.raw-mode')).toBeChecked();

  await raw.fill('{"email": "grace@example.com", "retries": "12x", "mode": "fast", "unknown": [1, 2]}');
  await panel.locator('.raw-mode').uncheck();
  await expect(field(panel, 'email')).toHaveValue('grace@example.com');
  await expect(field(panel, 'retries')).toHaveValue('12x');
  await expect(field(panel, 'mode').locator('option:checked')).toHaveText('fast');
  // A key the schema does not name is kept (shown as an extra key) and sent.
  await expect(panel.locator('.entry-key')).toHaveValue('unknown');
  await field(panel, 'retries').fill('4');
  expect(await runAndEcho(page)).toBe('{"email":"grace@example.com","mode":"fast","retries":4,"unknown":[1,2]}');
});

test('key-value editors for additionalProperties and patternProperties; tuples; const; multi-select', async ({ page }) => {
  let panel = await selectTool(page, 'key_values');
  await panel.locator('.object-fields[data-path="/env"] .add-entry').click();
  await panel.locator('.object-fields[data-path="/env"] .entry-key').fill('HOME');
  await input(panel, '/env/HOME').fill('/root');
  await panel.locator('.object-fields[data-path="/limits"] .add-entry').click();
  await panel.locator('.object-fields[data-path="/limits"] .entry-key').fill('max_items');
  await input(panel, '/limits/max_items').fill('5');
  expect(await runAndEcho(page)).toBe('{"env":{"HOME":"/root"},"limits":{"max_items":5}}');

  panel = await selectTool(page, 'tuple_and_const');
  await addItem(panel, '/pair');
  await addItem(panel, '/pair');
  await expect(panel.locator('.array[data-path="/pair"] > .add-item')).toBeDisabled();
  await input(panel, '/pair/0').fill('a');
  await input(panel, '/pair/1').fill('7');
  await panel.locator('input.const[data-path="/version"]').check();
  const choices = panel.locator('.multi-select[data-path="/choices"]');
  await choices.locator('input[value="c"]').check();
  await choices.locator('input[value="a"]').check();
  expect(await runAndEcho(page)).toBe('{"choices":["a","c"],"pair":["a",7],"version":2}');
});

test('a required tuple starts with one input per slot; a wrong slot gets one message', async ({ page }) => {
  const panel = await selectTool(page, 'nested_lists');
  await expect(panel.locator('.array[data-path="/pair"] > .array-item')).toHaveCount(2);
  await input(panel, '/pair/0').fill('a');
  await input(panel, '/pair/1').fill('x');
  await page.locator('#run-tool').click();
  // Its own problem only, not also "This item has no value".
  await expect(issueAt(panel, '/pair/1')).toHaveText(['/pair/1 Enter a whole number.']);
  await expect(panel.locator('.form-issues li')).toHaveCount(1);
  await expect(panel.locator('.field-error')).toHaveText(['Enter a whole number.']);
  await input(panel, '/pair/1').fill('7');
  await expect(panel.locator('.form-issues')).toBeHidden();
  expect(await runAndEcho(page)).toBe('{"pair":["a",7]}');
});

test('a new list item shows its required list and tuple at once, three levels deep', async ({ page }) => {
  const panel = await selectTool(page, 'nested_lists');
  await addItem(panel, '/rows');
  // No extra click: the required list's add button and the required tuple's slots are there.
  await expect(panel.locator('.array[data-path="/rows/0/cells"] > .add-item')).toBeVisible();
  await expect(panel.locator('.array[data-path="/rows/0/span"] > .array-item')).toHaveCount(2);
  await addItem(panel, '/rows/0/cells');
  await input(panel, '/rows/0/cells/0').fill('1');
  await input(panel, '/rows/0/span/0').fill('2');
  await input(panel, '/rows/0/span/1').fill('3');
  await input(panel, '/pair/0').fill('a');
  await input(panel, '/pair/1').fill('7');
  expect(await runAndEcho(page)).toBe('{"pair":["a",7],"rows":[{"cells":[1],"span":[2,3]}]}');
});

test('an item added to a list three objects deep opens ready to fill', async ({ page }) => {
  const panel = await selectTool(page, 'nested_lists');
  // The deep list starts closed (sections below depth 3 do); opened, a new item needs no click.
  const list = panel.locator('details.group > summary', { has: page.locator('.field-name', { hasText: /^list$/ }) });
  await list.click();
  await addItem(panel, '/deep/inner/list');
  await expect(input(panel, '/deep/inner/list/0/note')).toBeVisible();
  await input(panel, '/deep/inner/list/0/note').fill('n');
  await input(panel, '/pair/0').fill('a');
  await input(panel, '/pair/1').fill('7');
  expect(await runAndEcho(page)).toBe('{"deep":{"inner":{"list":[{"note":"n"}]}},"pair":["a",7]}');
});

test('elicitation requestedSchema: defaults, titled enums, enumNames, multi-selects', async ({ page }) => {
  await selectTool(page, 'ask_preferences');
  await page.locator('#run-tool').click();
  const card = page.locator('#server-requests .server-request[data-method="elicitation/create"]');
  await expect(card).toBeVisible({ timeout: 20_000 });
  await expect(field(card, 'name')).toHaveValue('Ada');
  await expect(field(card, 'plan').locator('option:checked')).toHaveText('Pro');
  await expect(field(card, 'legacy').locator('option')).toHaveText(['(choose)', 'Option A', 'Option B']);
  const toppings = card.locator('.multi-select[data-path="/toppings"]');
  await expect(toppings.locator('input[value="cheese"]')).toBeChecked();
  await toppings.locator('input[value="olives"]').check();
  await card.locator('.multi-select[data-path="/sizes"] input[value="Large"]').check();
  await field(card, 'legacy').selectOption({ label: 'Option B' });
  await field(card, 'age').fill('36');
  await field(card, 'email').fill('ada@example.com');
  await card.locator('.answer').click();
  await expect(card).toBeHidden();
  const text = page.locator('#tool-result .content-text').first();
  await expect(text).toBeVisible({ timeout: 20_000 });
  expect(compact((await text.textContent()) ?? '')).toBe(
    '{"action":"accept","content":{"age":36,"email":"ada@example.com","legacy":"b","name":"Ada","plan":"pro","sizes":["l"],"subscribe":true,"toppings":["cheese","olives"]}}',
  );
});

test('structuredContent is checked against the outputSchema, per path; errors are not checked', async ({ page }) => {
  const panel = await selectTool(page, 'typed_output');
  await field(panel, 'count').fill('3');
  await runAndEcho(page);
  const check = page.locator('#tool-result .output-check');
  await expect(check).toHaveClass(/output-invalid/);
  await expect(check.locator('li[data-issue-path="/total"]')).toContainText('Expected integer, got a string.');
  await expect(check.locator('li[data-issue-path="/items/0"]')).toContainText('Expected string, got an integer.');
  await field(panel, 'count').fill('0');
  await runAndEcho(page);
  await expect(check).toHaveClass(/output-valid/);

  await selectTool(page, 'typed_error');
  await runAndEcho(page);
  await expect(page.locator('#tool-result')).toHaveClass(/result-error/);
  await expect(page.locator('#tool-result .output-check')).toHaveCount(0);
});

test('prompt arguments and resource-template variables use the same forms', async ({ page }) => {
  const promptPanel = await selectPrompt(page, 'trip');
  await page.locator('#get-prompt').click();
  await expect(issueAt(promptPanel, '/destination')).toContainText('Required.');
  await field(promptPanel, 'destination').fill('Lisbon');
  const rendered = await getPrompt(page);
  await expect(rendered.locator('.content-text')).toHaveText(['Plan some nights in Lisbon.']);

  await page.locator('#tab-resources').click();
  await page.locator('li.resource-item[data-uri="weather://{city}/current{?units}"]').click();
  const panel = page.locator('#resource-panel');
  await field(panel, 'city').fill('São Paulo');
  await field(panel, 'units').fill('metric');
  await panel.locator('#read-resource').click();
  await expect(panel.locator('.expanded-uri code')).toHaveText('weather://S%C3%A3o%20Paulo/current?units=metric');
  await expect(page.locator('#resource-result .content-text')).toHaveText('read weather://S%C3%A3o%20Paulo/current?units=metric');
});

test('an enum of 5,000 values is searched by typing', async ({ page }) => {
  const panel = await selectTool(page, 'big_enum');
  const pick = field(panel, 'pick');
  await expect(pick).toHaveAttribute('placeholder', 'type to search 5000 values');
  await pick.fill('v9999');
  await page.locator('#run-tool').click();
  await expect(issueAt(panel, '/pick')).toContainText('Choose one of the listed values.');
  await pick.fill('v4321');
  expect(await runAndEcho(page)).toBe('{"pick":"v4321"}');
});

test('a megabyte schema: the first 250 fields at once, the rest on request; long lists likewise', async ({ page }) => {
  const panel = await selectTool(page, 'huge');
  await expect(panel.locator('input[data-path^="/p"]')).toHaveCount(250);
  const more = panel.locator('.object-fields[data-path=""] > .show-more');
  await expect(more).toHaveText('Show 2750 more fields');
  await field(panel, 'p0000').fill('first');
  expect(await runAndEcho(page)).toBe('{"p0000":"first"}');
  await more.click();
  await expect(panel.locator('input[data-path^="/p"]')).toHaveCount(3000);
  await field(panel, 'p2999').fill('last');
  expect(await runAndEcho(page)).toBe('{"p0000":"first","p2999":"last"}');

  // A list of 1,000 items from raw JSON: 250 shown, all sent.
  const list = await selectTool(page, 'array_of_objects');
  await list.locator('.raw-mode').check();
  const items = Array.from({ length: 1000 }, (_, i) => ({ sku: `s${i}`, qty: 1 }));
  await list.locator('textarea.raw-json').fill(JSON.stringify({ items: items.slice(0, 5), tags: Array.from({ length: 1000 }, (_, i) => `t${i}`) }));
  await list.locator('.raw-mode').uncheck();
  await expect(list.locator('.array[data-path="/tags"] > .array-item')).toHaveCount(250);
  await expect(list.locator('.array[data-path="/tags"] > .show-more')).toHaveText('Show 750 more items');
  const echoed = JSON.parse(await runAndEcho(page));
  expect(echoed.tags).toHaveLength(1000);
  expect(echoed.tags[999]).toBe('t999');
});

test('a 200-field form renders every field', async ({ page }) => {
  const panel = await selectTool(page, 'wide');
  await expect(panel.locator('[data-path^="/f"]')).toHaveCount(200);
  await field(panel, 'f199').selectOption({ label: 'y' });
  await field(panel, 'f000').fill('x');
  await field(panel, 'f001').fill('41');
  expect(await runAndEcho(page)).toBe('{"f000":"x","f001":41,"f199":"y"}');
});
