#!/usr/bin/env node
// The client command that the MCP conformance suite (@modelcontextprotocol/conformance) runs:
//
//   conformance client --command "node tests/conformance/client.mjs" --scenario <name>
//
// The suite starts a scenario server and runs `<command> <server-url>` (the URL is the last
// argument) with MCP_CONFORMANCE_SCENARIO (and sometimes MCP_CONFORMANCE_CONTEXT) set. This
// script drives the REAL app in headless Chromium, through its UI, the way a person would:
//
//   1. serves a snapshot of the built app (dist/, or $MCP_LENS_DIST) from memory on 127.0.0.1;
//   2. starts a forward HTTP proxy on 127.0.0.1: the scenario servers send no CORS headers, so
//      the proxy answers preflights itself and adds Access-Control-Allow-Origin / -Expose-Headers
//      to every answer, keeping URLs unchanged and streaming bodies (SSE) as they arrive;
//   3. launches /usr/bin/chromium (flags from tests/chromium.json) with every request, loopback
//      included (`<-loopback>`), sent through that proxy; the app's own page loads through it too;
//   4. opens `/?url=<server url>`, connects, does what the scenario asks (call a tool, answer an
//      elicitation with the form's defaults, ...), disconnects, and exits 0; or exits 1 with a
//      message saying which state the UI never reached.
//
// Diagnostics go to stderr (the suite keeps it in stderr.txt with `-o`): the page's console
// errors and warnings, uncaught page errors, and one line per proxied request.
//
// Environment: MCP_LENS_DIST (default dist), MCP_LENS_CONFORMANCE_TIMEOUT_MS (default 25000,
// below the suite's own 30 s), MCP_LENS_CONFORMANCE_VERBOSE=1 (every console message).
// The proxy refuses any target that is not loopback (127.0.0.0/8, localhost, [::1]).

import { readFileSync, readdirSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { clientMetadata, withClientId } from '../../scripts/client-metadata.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const started = Date.now();
const VERBOSE = process.env.MCP_LENS_CONFORMANCE_VERBOSE === '1';
const DEADLINE_MS = Number(process.env.MCP_LENS_CONFORMANCE_TIMEOUT_MS || 25_000);
const EXPOSED = 'mcp-session-id, mcp-protocol-version, last-event-id, www-authenticate, dpop-nonce';
const CONFORMANCE_PUBLIC_URL = 'https://conformance-test.local/';

function log(message) {
  process.stderr.write(`[client.mjs +${String(Date.now() - started).padStart(5)} ms] ${message}\n`);
}

class Failure extends Error {}

/** Set once a signal (or the loss of our parent) started the cleanup; its handler exits. */
let signalled = false;

// ---------------------------------------------------------------------------------------------
// The app: a snapshot of dist/ in memory (a concurrent `trunk build` cannot break a run).

const CONTENT_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
};

function readTree(dir, prefix = '') {
  const files = new Map();
  for (const name of readdirSync(dir)) {
    if (name.startsWith('.')) continue; // trunk's staging folder (.stage) and the like
    const full = path.join(dir, name);
    const stat = statSync(full);
    if (stat.isDirectory()) for (const [k, v] of readTree(full, `${prefix}/${name}`)) files.set(k, v);
    else files.set(`${prefix}/${name}`, readFileSync(full));
  }
  return files;
}

/** Reads dist/ until it is consistent: index.html exists and every file it names is there. */
async function snapshotDist(dir) {
  let problem = '';
  for (let attempt = 0; attempt < 16; attempt++) {
    try {
      const files = readTree(dir);
      const index = files.get('/index.html');
      if (!index) throw new Error(`${dir}/index.html is missing (build the app first: trunk build --release)`);
      // Trunk names its files relative ("./x.js") or absolute ("/x.js"), in href, src and imports.
      const named = [...index.toString('utf8').matchAll(/["'](?:\.?\/)?([\w.-]+\.(?:js|wasm|css))["']/g)]
        .map((m) => `/${m[1]}`);
      // The preload script names the split modules without their folder (mcp-lens-<hash>/).
      const missing = named.filter((name) => !files.has(name) && ![...files.keys()].some((k) => k.endsWith(name)));
      if (missing.length === 0) return files;
      problem = `index.html names files that are not in ${dir}: ${missing.join(', ')}`;
    } catch (error) {
      problem = error.message;
    }
    await new Promise((r) => setTimeout(r, 500)); // a rebuild may be moving files right now
  }
  throw new Failure(`no consistent app in ${dir}: ${problem}`);
}

function startAppServer(files) {
  const server = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url, 'http://app').pathname);
    const body = files.get(pathname === '/' ? '/index.html' : pathname);
    if (!body || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    const type = CONTENT_TYPES[path.extname(pathname === '/' ? '/index.html' : pathname)] ?? 'application/octet-stream';
    res.writeHead(200, { 'content-type': type, 'content-length': body.length, 'cache-control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  return listen(server);
}

// ---------------------------------------------------------------------------------------------
// The forward proxy with CORS.

const HOP_BY_HOP = new Set([
  'connection', 'proxy-connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization',
  'te', 'trailer', 'trailers', 'transfer-encoding', 'upgrade',
]);

function withoutHopByHop(headers) {
  const listed = String(headers.connection ?? '').toLowerCase().split(',').map((s) => s.trim()).filter(Boolean);
  const out = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!HOP_BY_HOP.has(name) && !listed.includes(name)) out[name] = value;
  }
  return out;
}

function isLoopback(hostname) {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** The proxy, plus what it saw of the scenario server's GET streams (for diagnostics). */
export function startProxy(watchedOrigin) {
  const seen = { getOpened: false, lastStreamEnd: null, lastEventIdGets: [] };
  // Every token the page sent or was given (Authorization: Bearer, token endpoint answers),
  // to look for afterwards where it must never be (checkNoTokenLeak).
  const tokens = new Set();
  let counter = 0;
  const server = http.createServer((req, res) => {
    const n = ++counter;
    const t0 = Date.now();
    let target;
    try {
      target = new URL(req.url);
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end('forward proxy: an absolute http:// URL is expected');
      return;
    }
    const origin = req.headers.origin;
    const cors = { 'access-control-allow-origin': origin || '*', vary: 'Origin' };
    if (target.protocol !== 'http:' || !isLoopback(target.hostname)) {
      // Never send traffic off this machine (Chromium's background requests end here too).
      log(`proxy #${n} refused ${req.method} ${req.url} (not a loopback http:// URL)`);
      res.writeHead(403, { ...cors, 'content-type': 'text/plain' });
      res.end('forward proxy: only loopback http:// targets are allowed');
      return;
    }
    const watched = target.origin === watchedOrigin;
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
      const preflight = {
        ...cors,
        'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
        'access-control-allow-headers': req.headers['access-control-request-headers'] || '',
        'access-control-max-age': '600',
        'content-length': '0',
      };
      if (req.headers['access-control-request-private-network']) {
        preflight['access-control-allow-private-network'] = 'true';
      }
      res.writeHead(204, preflight);
      res.end();
      if (VERBOSE) log(`proxy #${n} OPTIONS ${req.url} -> 204 (preflight answered by the proxy)`);
      return;
    }
    const bearer = /^Bearer\s+(\S+)/i.exec(String(req.headers.authorization ?? ''));
    if (bearer) tokens.add(bearer[1]);
    const lastEventId = req.headers['last-event-id'];
    if (watched && req.method === 'GET' && lastEventId !== undefined) {
      const after = seen.lastStreamEnd === null ? 'no event stream had ended' : `${t0 - seen.lastStreamEnd} ms after the last event stream ended`;
      seen.lastEventIdGets.push({ at: t0, lastEventId });
      log(`proxy #${n} GET with Last-Event-ID: ${lastEventId} (${after})`);
    }
    const host = target.hostname.replace(/^\[|\]$/g, '');
    const upstream = http.request({
      // "localhost" may resolve to ::1 first while a server listens on 127.0.0.1 only.
      host: host === 'localhost' ? '127.0.0.1' : host,
      port: target.port || 80,
      method: req.method,
      path: `${target.pathname}${target.search}`,
      headers: withoutHopByHop(req.headers),
      agent: false,
    });
    let serverAborted = false;
    const describe = () => `proxy #${n} ${req.method} ${req.url}${req.headers['mcp-session-id'] ? ' (session)' : ''}`;
    upstream.on('response', (answer) => {
      const headers = withoutHopByHop(answer.headers);
      headers['access-control-allow-origin'] = origin || '*';
      headers['access-control-expose-headers'] = EXPOSED;
      headers.vary = 'Origin';
      const type = String(answer.headers['content-type'] ?? '');
      const stream = type.includes('text/event-stream');
      if (watched || VERBOSE) log(`${describe()} -> ${answer.statusCode} ${type || '(no type)'} after ${Date.now() - t0} ms`);
      if (watched && req.method === 'GET' && stream && answer.statusCode === 200) seen.getOpened = true;
      res.writeHead(answer.statusCode, answer.statusMessage, headers);
      res.flushHeaders();
      // A JSON answer naming tokens (a token endpoint's): remember them.
      const json = !stream && type.includes('json') ? [] : null;
      answer.on('data', (chunk) => {
        if (json && json.length < 64) json.push(chunk);
        if (!res.write(chunk)) {
          answer.pause();
          res.once('drain', () => answer.resume());
        }
      });
      answer.on('end', () => {
        if (json) {
          try {
            const body = JSON.parse(Buffer.concat(json).toString('utf8'));
            for (const key of ['access_token', 'refresh_token', 'id_token']) {
              if (typeof body?.[key] === 'string' && body[key]) tokens.add(body[key]);
            }
          } catch {} // not JSON after all: nothing to remember
        }
        if (stream && watched) {
          seen.lastStreamEnd = Date.now();
          log(`${describe()}: the server ended its event stream after ${Date.now() - t0} ms`);
        }
        res.end();
      });
      const abort = () => {
        if (res.destroyed) return;
        if (watched || VERBOSE) log(`${describe()}: the server aborted its answer after ${Date.now() - t0} ms`);
        serverAborted = true;
        res.destroy(); // an abrupt close stays abrupt for the page
      };
      answer.on('error', abort);
      answer.on('close', () => {
        if (!answer.complete) abort();
      });
    });
    upstream.on('error', (error) => {
      log(`${describe()} failed: ${error.message}`);
      if (!res.headersSent) {
        res.writeHead(502, { ...cors, 'content-type': 'text/plain', 'x-forward-proxy-error': '1' });
        res.end(`forward proxy: ${error.message}`);
      } else {
        res.destroy();
      }
    });
    req.pipe(upstream);
    // The page aborted (AbortController, disconnect, closed page): close the upstream request too.
    res.on('close', () => {
      if (!res.writableFinished) {
        if ((watched || VERBOSE) && !serverAborted) log(`${describe()}: closed by the page after ${Date.now() - t0} ms`);
        upstream.destroy();
      }
    });
  });
  return listen(server).then((s) => Object.assign(s, { seen, tokens }));
}

/** Listens on 127.0.0.1, tracks sockets so that `stop()` ends long-lived streams too. */
function listen(server) {
  const sockets = new Set();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolve({
        server,
        port: server.address().port,
        stop: () =>
          new Promise((done) => {
            server.close(() => done());
            for (const socket of sockets) socket.destroy();
          }),
      });
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Driving the UI.

/** Waits until `predicate(arg)` (run in the page) is true; a Failure naming `what` otherwise. */
async function waitFor(page, what, predicate, arg, timeout = 15_000) {
  try {
    await page.waitForFunction(predicate, arg, { timeout, polling: 50 });
  } catch (error) {
    if (error instanceof Failure) throw error;
    throw new Failure(`${what}: not reached within ${timeout} ms (${firstLine(error.message)})\n${await uiState(page)}`);
  }
}

function firstLine(text) {
  return String(text).split('\n')[0];
}

/** What the UI shows now, for failure messages. */
async function uiState(page) {
  try {
    return await page.evaluate(() => {
      const text = (sel) => document.querySelector(sel)?.innerText?.trim();
      const parts = [
        `  #status: ${text('#status') ?? '(absent)'}`,
        `  #connect-error: ${text('#connect-error') ?? '(none)'}`,
        `  #sign-in-bar: ${text('#sign-in-bar') ?? '(none)'}`,
        `  #auth-view: ${text('#auth-view')?.slice(0, 3000) ?? '(none)'}`,
        `  #tool-result: ${text('#tool-result') ?? '(none)'}`,
        `  #server-requests: ${text('#server-requests') ?? '(none)'}`,
        `  #panic-banner: ${text('#panic-banner') ?? '(none)'}`,
      ];
      return `UI state:\n${parts.join('\n')}`;
    });
  } catch (error) {
    return `UI state unavailable: ${firstLine(error.message)}`;
  }
}

async function connect(page, serverUrl) {
  await waitFor(page, 'the app shows #server-url with the ?url= address',
    (url) => document.querySelector('#server-url')?.value === url, serverUrl);
  await page.locator('#connect').click();
  await waitFor(page, '#status "Connected"', () => {
    const status = document.querySelector('#status')?.textContent?.trim() ?? '';
    if (status === 'Error' || document.querySelector('#connect-error')) return true; // fail fast below
    return status === 'Connected';
  });
  const status = (await page.locator('#status').textContent())?.trim();
  if (status !== 'Connected') throw new Failure(`connect failed: #status is "${status}"\n${await uiState(page)}`);
  log('connected');
}

/** Gives the app the time a person would take: its standalone GET stream opens after connect. */
async function settle(proxy, ms = 3_000) {
  const until = Date.now() + ms;
  while (!proxy.seen.getOpened && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  log(proxy.seen.getOpened ? 'the standalone GET stream is open' : `no GET event stream opened within ${ms} ms; going on`);
}

async function selectTool(page, name) {
  await page.locator('#tab-tools').click().catch(() => {}); // absent in layouts without tabs
  const item = page.locator(`li.tool-item[data-tool="${name}"]`);
  await waitFor(page, `tool "${name}" listed`, (n) => !!document.querySelector(`li.tool-item[data-tool="${n}"]`), name);
  await item.click();
  await waitFor(page, `#tool-panel for "${name}"`, () => !!document.querySelector('#tool-panel'));
  return page.locator('#tool-panel');
}

/** Clicks Run and waits for `#tool-result .content-text` containing `expected`. */
async function runToolExpecting(page, expected, timeout = 15_000) {
  await page.locator('#run-tool').click();
  await waitFor(page, `#tool-result .content-text containing "${expected}"`, (text) =>
    [...document.querySelectorAll('#tool-result .content-text')].some((e) => e.textContent.includes(text)),
  expected, timeout);
  const shown = await page.locator('#tool-result .content-text').first().textContent();
  log(`tool result: ${shown}`);
}

async function disconnect(page) {
  await page.locator('#disconnect').click();
  await waitFor(page, '#status "Disconnected" after #disconnect',
    () => document.querySelector('#status')?.textContent?.trim() === 'Disconnected', undefined, 5_000);
  log('disconnected');
}

/** The scenario's context (MCP_CONFORMANCE_CONTEXT), or {}. */
function scenarioContext() {
  return JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || '{}');
}

/** Types `args` into the open tool panel as raw JSON (the form's "JSON" mode), as a person pasting them would. */
async function typeArguments(panel, args) {
  await panel.locator('input.raw-mode').check();
  await panel.locator('textarea.raw-json').fill(JSON.stringify(args, null, 2));
}

/** Runs a tool with the given arguments and waits for its result (any). */
async function callWith(page, name, args) {
  const panel = await selectTool(page, name);
  await typeArguments(panel, args);
  await page.locator('#run-tool').click();
  await waitFor(page, `#tool-result or the form's issues for ${name}`, () => !!document.querySelector('#tool-result')
    || !!document.querySelector('#tool-panel .form-issues'));
  if (!(await page.locator('#tool-result').count())) {
    // Arguments the schema does not allow (a null for a boolean, say): the form lists what is
    // wrong, and a person testing the server's handling ticks "Send anyway".
    log(`tool ${name}: the form says ${firstLine(await panel.locator('.form-issues').innerText())}; sending anyway`);
    await panel.locator('.send-anyway input').check();
    await page.locator('#run-tool').click();
    await waitFor(page, `#tool-result for ${name}`, () => !!document.querySelector('#tool-result'));
  }
  log(`tool ${name}: ${firstLine(await page.locator('#tool-result').innerText())}`);
}

const SCENARIOS = {
  // SEP-2640 skills: the Skills tab lists them and reads nothing until one is opened.
  async 'sep-2640-client-no-prefetch'({ page, serverUrl }) {
    await connect(page, serverUrl);
    await openSkills(page);
  },
  'sep-2640-client-verify-digest': openTamperedSkill,
  'sep-2640-client-verify-size': openTamperedSkill,
  'sep-2640-client-verify-frontmatter': openTamperedSkill,

  // SEP-2243: the context names the calls to make; each tool's x-mcp-header parameters
  // must go out as Mcp-Param-* headers (checked by the server, and seen in the wire log).
  async 'http-custom-headers'({ page, serverUrl }) {
    await connect(page, serverUrl);
    for (const call of scenarioContext().toolCalls ?? []) await callWith(page, call.name, call.arguments);
    await showMirroredHeaders(page);
  },

  // SEP-2243: tools with invalid x-mcp-header annotations are shown with the reason and no
  // Run button; the valid one is called.
  async 'http-invalid-tool-headers'({ page, serverUrl }) {
    await connect(page, serverUrl);
    const names = await page.locator('li.tool-item').evaluateAll((items) => items.map((i) => i.dataset.tool));
    for (const name of names.filter((n) => n !== 'valid_tool')) {
      await selectTool(page, name);
      await waitFor(page, `#tool-not-callable for ${name}`, () => !!document.querySelector('#tool-not-callable'));
      if (await page.locator('#run-tool').count()) throw new Failure(`${name} is invalid but offers Run`);
      log(`${name}: ${await page.locator('#tool-not-callable').innerText()}`);
    }
    await callWith(page, 'valid_tool', { region: 'us-west1' });
  },

  // SEP-2322 (multi round-trip requests): two tools answer input_required with an elicitation
  // (one with requestState, one without), which the person accepts; the retry must echo the
  // state exactly, under a new JSON-RPC id. Another tool called meanwhile carries none of it, and
  // a result with no resultType is complete.
  async 'sep-2322-client-request-state'({ page, serverUrl }) {
    await connect(page, serverUrl);
    const card = '#server-requests .server-request[data-method="elicitation/create"]';
    await selectTool(page, 'test_mrtr_echo_state');
    await page.locator('#run-tool').click();
    await waitFor(page, 'the input_required elicitation card', (c) => !!document.querySelector(c), card);
    // While that round waits for the person, an unrelated call.
    await selectTool(page, 'test_mrtr_unrelated');
    await runToolExpecting(page, 'unrelated-ok');
    await page.locator(`${card} select[data-path="/confirmed"]`).selectOption('true');
    await page.locator(`${card} .answer`).click();
    await selectTool(page, 'test_mrtr_echo_state');
    await waitFor(page, '#tool-result "echo-state-ok"', () =>
      [...document.querySelectorAll('#tool-result .content-text')].some((e) => e.textContent.includes('echo-state-ok')));
    log('test_mrtr_echo_state: echo-state-ok after the elicitation');
    await selectTool(page, 'test_mrtr_no_state');
    await page.locator('#run-tool').click();
    await waitFor(page, 'the second elicitation card', (c) => !!document.querySelector(c), card);
    await page.locator(`${card} select[data-path="/confirmed"]`).selectOption('true');
    await page.locator(`${card} .answer`).click();
    await waitFor(page, '#tool-result "no-state-ok"', () =>
      [...document.querySelectorAll('#tool-result .content-text')].some((e) => e.textContent.includes('no-state-ok')));
    log('test_mrtr_no_state: no-state-ok after the elicitation');
    await selectTool(page, 'test_mrtr_no_result_type');
    await runToolExpecting(page, 'no-result-type-test-ok');
  },

  // SEP-1613/SEP-2106: the focal tool's inputSchema, as the wire log shows the tools/list answer
  // (a person copies it from there), is passed back verbatim as json_schema_echo's `schema`.
  async 'json-schema-2020-12-preservation'({ page, serverUrl }) {
    await connect(page, serverUrl);
    const wireLog = page.locator('#wire-log');
    if (!(await wireLog.evaluate((e) => e.open))) await wireLog.locator('summary').click();
    const rows = wireLog.locator('tr.wire-entry[data-direction="received"]');
    await waitFor(page, 'the initialize and tools/list answers in the wire log', () =>
      document.querySelectorAll('#wire-log tr.wire-entry[data-direction="received"]').length >= 2);
    let schema;
    for (let i = 0; i < await rows.count() && !schema; i++) {
      await rows.nth(i).click();
      const text = await page.locator('#wire-detail .wire-body').first().innerText().catch(() => '');
      const json = text.trim().startsWith('{') ? text : text.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5)).join('\n');
      try {
        schema = JSON.parse(json).result?.tools?.find((t) => t.name === 'json_schema_2020_12_tool')?.inputSchema;
      } catch { /* not the tools/list answer */ }
    }
    if (!schema) throw new Failure(`no tools/list answer naming json_schema_2020_12_tool in the wire log\n${await uiState(page)}`);
    log(`copied the inputSchema from the wire log: ${Object.keys(schema).join(', ')}`);
    await callWith(page, 'json_schema_echo', { schema });
  },

  // The server checks the initialize request (protocol version, clientInfo name and version).
  async initialize({ page, serverUrl }) {
    await connect(page, serverUrl);
  },

  // The server checks that add_numbers is called (with numbers a and b).
  async tools_call({ page, serverUrl, proxy }) {
    await connect(page, serverUrl);
    await settle(proxy, 1_000);
    const panel = await selectTool(page, 'add_numbers');
    await panel.locator('input[data-path="/a"]').fill('5');
    await panel.locator('input[data-path="/b"]').fill('3');
    await runToolExpecting(page, 'The sum of 5 and 3 is 8');
  },

  // The tool sends elicitation/create (on the standalone GET stream) with a schema whose every
  // property has a default; the person accepts the form as pre-filled.
  async 'elicitation-sep1034-client-defaults'({ page, serverUrl, proxy }) {
    await connect(page, serverUrl);
    await settle(proxy);
    await selectTool(page, 'test_client_elicitation_defaults');
    await page.locator('#run-tool').click();
    const card = page.locator('#server-requests .server-request[data-method="elicitation/create"]');
    await waitFor(page, 'an elicitation/create card under #server-requests', () =>
      !!document.querySelector('#server-requests .server-request[data-method="elicitation/create"]'));
    const fields = await card.locator('input[data-path], select[data-path], textarea[data-path]').evaluateAll((inputs) =>
      inputs.map((input) => {
        const shown = input.tagName === 'SELECT' ? input.selectedOptions[0]?.textContent : input.type === 'checkbox' ? String(input.checked) : input.value;
        return `${input.dataset.path.slice(1)}=${JSON.stringify(shown)}`;
      }));
    log(`elicitation form as pre-filled: ${fields.join(', ')}`);
    await card.locator('.answer').click();
    await waitFor(page, 'the elicitation card gone after Submit', () =>
      !document.querySelector('#server-requests .server-request[data-method="elicitation/create"]'));
    await waitFor(page, '#tool-result .content-text "Elicitation completed"', () =>
      [...document.querySelectorAll('#tool-result .content-text')].some((e) => /Elicitation (completed|was not accepted|error)/.test(e.textContent)));
    const shown = await page.locator('#tool-result .content-text').first().textContent();
    log(`tool result: ${shown}`);
    if (!shown.includes('Elicitation completed')) throw new Failure(`the server did not get an accepted elicitation: ${shown}`);
  },

  // The tools/call answer is an event stream that sends only a priming event (id, retry: 500)
  // and is then closed by the server; the answer comes on the GET the client must make with
  // Last-Event-ID about 500 ms later.
  async 'sse-retry'({ page, serverUrl, proxy }) {
    await connect(page, serverUrl);
    await settle(proxy);
    await selectTool(page, 'test_reconnection');
    await runToolExpecting(page, 'Reconnection test completed successfully', 8_000);
  },
};

/** Opens the Skills tab and waits for the list; returns the names listed. */
async function openSkills(page) {
  await page.locator('#tab-skills').click();
  await waitFor(page, 'skills listed', () => !!document.querySelector('#skills-panel li.skill-item, #skills-error'));
  const names = await page.locator('#skills-panel li.skill-item').evaluateAll((items) => items.map((i) => i.dataset.skill));
  log(`skills listed: ${names.join(', ')}`);
  return names;
}

/**
 * The scenario's SKILL.md does not match its entry (digest, size or frontmatter): opening the
 * skill shows why it was refused, and offers none of its other files.
 */
async function openTamperedSkill({ page, serverUrl }) {
  await connect(page, serverUrl);
  await openSkills(page);
  await page.locator('#skills-panel .open-skill').first().click();
  await waitFor(page, 'SKILL.md read and checked', () => {
    const read = document.querySelector('#skill-md');
    return !!read && !/Reading/.test(read.textContent);
  });
  const refused = page.locator('#skill-md.skill-refused');
  if (!(await refused.count())) throw new Failure(`a tampered SKILL.md was shown as the skill's: ${await page.locator('#skill-md').innerText()}`);
  if (await page.locator('.open-skill-file').count()) throw new Failure('the refused skill still offers its other files');
  log(`refused: ${await refused.innerText()}`);
}

/** The wire log shows the last tools/call with its Mcp-Param-* headers, values in the clear. */
async function showMirroredHeaders(page) {
  const wireLog = page.locator('#wire-log');
  if (!(await wireLog.evaluate((e) => e.open))) await wireLog.locator('summary').click();
  const call = wireLog.locator('tr.wire-entry[data-direction="sent"]', { hasText: 'tools/call' }).last();
  await call.click();
  await waitFor(page, 'the wire log\'s detail of the call', () => !!document.querySelector('#wire-detail'));
  const detail = await page.locator('#wire-detail').innerText();
  const mirrored = detail.split('\n').filter((line) => /mcp-param-/i.test(line));
  if (mirrored.length === 0) throw new Failure(`the wire log shows no Mcp-Param-* header for the call:\n${detail.slice(0, 800)}`);
  if (mirrored.some((line) => line.includes('[redacted]'))) throw new Failure(`the wire log redacts mirrored parameters: ${mirrored.join(' | ')}`);
  log(`wire log: ${mirrored.length} mirrored header(s), e.g. ${mirrored[0].trim()}`);
}

/** The scenario's credentials (MCP_CONFORMANCE_CONTEXT), typed into the settings like a person. */
async function typeCredentials(page) {
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || '{}');
  if (!context.client_id) return;
  await page.locator('#settings > summary').click();
  await waitFor(page, '#oauth-client-id in the settings', () => !!document.querySelector('#oauth-client-id'));
  await page.locator('#oauth-client-id').fill(context.client_id);
  if (context.client_secret) await page.locator('#oauth-client-secret').fill(context.client_secret);
  // private_key_jwt: the scenario's PKCS #8 key, pasted.
  if (context.private_key_pem) await page.locator('#oauth-private-key').fill(context.private_key_pem);
  // Cross-app access: the identity provider's token endpoint, its client id, the ID token.
  if (context.idp_id_token) {
    await page.locator('#cross-app > summary').click();
    await page.locator('#xaa-token-endpoint').fill(context.idp_token_endpoint);
    await page.locator('#xaa-client-id').fill(context.idp_client_id);
    await page.locator('#xaa-id-token').fill(context.idp_id_token);
  }
  // Workload identity: the workload JWT the scenario's platform issued, pasted.
  if (context.valid_jwt) {
    await page.locator('#workload > summary').click();
    await page.locator('#wif-jwt').fill(context.valid_jwt);
  }
  // Machine-to-machine scenarios: a person would tick the client credentials option.
  if (/client-credentials/.test(process.env.MCP_CONFORMANCE_SCENARIO ?? '')) await page.locator('#oauth-client-credentials').check();
  await page.locator('#settings > summary').click();
  const typed = [context.client_secret && 'secret', context.private_key_pem && 'private key', context.idp_id_token && 'cross-app fields',
    context.valid_jwt && 'workload JWT'];
  log(`typed the client id${typed.filter(Boolean).map((t) => ` and ${t}`).join('')} from the context`);
}

/**
 * Waits until `done` ('connected' or 'result', checked in the page) or the sign-in bar offers "Sign in"; signs in through the
 * popup (the scenario's authorization endpoint redirects straight back to callback.html, which
 * hands the code to the app and closes) as often as the app asks, at most `rounds` times.
 */
async function untilDone(page, what, done, rounds = 4) {
  for (let round = 0; ; round++) {
    await waitFor(page, `${what} or "Sign in"`, (doneText) => {
      const signIn = document.querySelector('#sign-in');
      if (signIn && signIn.textContent.trim() === 'Sign in') return true;
      if (document.querySelector('#confirm-issuer')) return true;
      if (document.querySelector('#connect-error') && !document.querySelector('#sign-in-bar')) return true;
      const status = document.querySelector('#status')?.textContent?.trim();
      if (doneText === 'connected') return status === 'Connected' && !!document.querySelector('#sign-out');
      return !!document.querySelector('#tool-result'); // 'result'
    }, done);
    // A secret or key the app has not been told where to send: it names the authorization server
    // the scenario's metadata chose, and a person who typed the scenario's secret confirms it.
    const confirm = await page.evaluate(() => !!document.querySelector('#confirm-issuer'));
    const offered = confirm || await page.evaluate(() => document.querySelector('#sign-in')?.textContent.trim() === 'Sign in');
    if (!offered) {
      // The sign-in bar comes in a chunk of its own: on a busy machine a connect error shows
      // before it has arrived. Give it time before taking the error as the outcome.
      const failed = await page.evaluate(() => !!document.querySelector('#connect-error'));
      const comes = failed && await page.waitForFunction(() => document.querySelector('#sign-in')?.textContent.trim() === 'Sign in'
        || !!document.querySelector('#confirm-issuer'), undefined, { timeout: 10_000 }).then(() => true, () => false);
      if (comes) continue;
      return;
    }
    const button = confirm ? '#confirm-issuer' : '#sign-in';
    if (round >= rounds + (confirm ? 1 : 0)) throw new Failure(`the app still asks to sign in after ${rounds} sign-ins\n${await uiState(page)}`);
    const reason = await page.locator('#sign-in-reason').textContent();
    log(`sign-in offered: ${reason}`);
    if (/stopped rather than loop/.test(reason)) return 'stopped'; // the app's retry limit
    const windowless = await page.evaluate(() => !!document.querySelector('#oauth-client-credentials')?.checked
      || !!document.querySelector('#xaa-id-token')?.value || !!document.querySelector('#wif-jwt')?.value);
    if (windowless) {
      await page.locator(button).click(); // no window: client credentials, or cross-app access
      continue;
    }
    const popup = page.waitForEvent('popup', { timeout: 10_000 }).catch((error) => error);
    await page.locator(button).click();
    const window = await popup;
    if (window instanceof Error) throw new Failure(`no sign-in window opened: ${firstLine(window.message)}\n${await uiState(page)}`);
    await waitFor(page, 'the sign-in to finish', () => document.querySelector('#sign-in')?.textContent.trim() !== 'Start again'
      || document.querySelector('#connect-error') !== null, undefined, 15_000).catch(async (error) => {
      log(`sign-in window at ${window.isClosed() ? '(closed)' : window.url()}`);
      throw error;
    });
    log('signed in');
    if (done === 'result') return 'signed-in'; // the call is to be made again
  }
}

const CONNECTED = 'connected'; // a done() for untilDone, run in the page (the CSP allows no eval)

/**
 * The tokens the proxy saw (sent as Bearer, or in a token endpoint's answer), and the client
 * secret the context gave, appear nowhere they must not: the page's markup, its address, the
 * console, localStorage, sessionStorage ("remember in this tab" is not ticked here), the wire
 * log's JSON export, and a request copied as curl.
 */
async function checkNoTokenLeak(page, proxy, consoleLines) {
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || '{}');
  // A pasted PEM key is looked for by its longest base64 line.
  const keyLine = (context.private_key_pem ?? '').split('\n').reduce((a, b) => (b.length > a.length ? b : a), '');
  const secrets = [...proxy.tokens, context.client_secret, keyLine, context.idp_id_token, context.valid_jwt]
    .filter((s) => typeof s === 'string' && s.length >= 6);
  if (secrets.length === 0) {
    log('leak check: no token crossed the wire in this scenario; nothing to look for');
    return;
  }
  const places = {
    'the page markup': await page.content(),
    'the address': page.url(),
    'the console': consoleLines.join('\n'),
    localStorage: await page.evaluate(() => JSON.stringify(Object.entries(localStorage))),
    sessionStorage: await page.evaluate(() => JSON.stringify(Object.entries(sessionStorage))),
  };
  const wireLog = page.locator('#wire-log');
  if (!(await wireLog.evaluate((e) => e.open))) await wireLog.locator('summary').click();
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 5_000 }), page.locator('#wire-export').click()]);
  places['the wire log export'] = readFileSync(await download.path(), 'utf8');
  // Every authorization request is in the wire log too (redacted, with no curl copy).
  const authRows = await wireLog.locator('tr.wire-entry[data-via="oauth"]').count();
  if (authRows === 0) throw new Failure('no authorization request (data-via="oauth") in the wire log');
  log(`wire log: ${authRows} authorization request(s) beside the MCP traffic`);
  const sent = wireLog.locator('tr.wire-entry[data-direction="sent"]:not([data-via="oauth"])').last();
  await sent.click();
  await page.locator('#wire-curl').click();
  places['the curl copy'] = await page.locator('#wire-detail pre.curl').innerText();
  if (!/authorization: Bearer /.test(places['the curl copy'])) {
    log(`leak check: the copied request has no authorization header: ${places['the curl copy'].slice(0, 200)}`);
  }
  for (const [where, text] of Object.entries(places)) {
    for (const secret of secrets) {
      if (text.includes(secret)) throw new Failure(`a secret (${secret.slice(0, 4)}…, ${secret.length} characters) is in ${where}`);
    }
  }
  log(`leak check: none of ${secrets.length} secret(s) in ${Object.keys(places).join(', ')}`);
}

// The auth/* scenarios: the server refuses until the app signs in; then list and call a tool;
// then no token may be anywhere it must not.
async function authScenario({ page, serverUrl, proxy, consoleLines }) {
  await authSteps({ page, serverUrl });
  await checkNoTokenLeak(page, proxy, consoleLines);
  if (process.env.MCP_CONFORMANCE_SCENARIO === 'auth/metadata-default') await rememberAcrossReload(page, proxy);
}

/**
 * "Remember ... sign-in tokens in this tab": ticked after signing in and connecting again, the
 * tokens go to sessionStorage (bound to the origin); a reload then connects with them, with no
 * sign-in; unticked, they are gone from the tab again.
 */
async function rememberAcrossReload(page, proxy) {
  await page.locator('#settings > summary').click();
  await page.locator('#remember-secrets').check();
  await page.locator('#connect').click();
  await waitFor(page, 'connected again', () => document.querySelector('#status')?.textContent?.trim() === 'Connected');
  const kept = await page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('mcp-lens.tokens.')).length);
  if (kept !== 1) throw new Failure(`"Remember" kept ${kept} token entries in sessionStorage, not 1`);
  const tokensBefore = proxy.tokens.size ?? proxy.tokens.length;
  await page.reload();
  await page.locator('#connect').click();
  await waitFor(page, 'connected after the reload with the remembered token', () => {
    if (document.querySelector('#sign-in')) return true; // fails below
    return document.querySelector('#status')?.textContent?.trim() === 'Connected';
  });
  if (await page.locator('#sign-in').count()) throw new Failure(`after a reload the app asks to sign in again\n${await uiState(page)}`);
  if ((proxy.tokens.size ?? proxy.tokens.length) !== tokensBefore) throw new Failure('the reload got a new token instead of using the remembered one');
  await page.locator('#settings > summary').click();
  await page.locator('#remember-secrets').uncheck();
  await waitFor(page, 'the tokens forgotten by the tab', () => !Object.keys(sessionStorage).some((k) => k.startsWith('mcp-lens.tokens.')));
  log('remember: the tokens survived a reload in sessionStorage only, and went when unticked');
}

async function authSteps({ page, serverUrl }) {
  await waitFor(page, 'the app shows #server-url with the ?url= address',
    (url) => document.querySelector('#server-url')?.value === url, serverUrl);
  await typeCredentials(page);
  await page.locator('#connect').click();
  if (await untilDone(page, '#status "Connected" and signed in', CONNECTED) === 'stopped') return;
  const status = (await page.locator('#status').textContent())?.trim();
  if (status !== 'Connected') throw new Failure(`connect failed: #status is "${status}"\n${await uiState(page)}`);
  log('connected and signed in');
  const tool = await page.evaluate(() => document.querySelector('li.tool-item')?.dataset.tool);
  if (!tool) return;
  await selectTool(page, tool);
  await page.locator('#run-tool').click();
  const outcome = await untilDone(page, '#tool-result', 'result');
  if (outcome === 'stopped') return;
  if (outcome === 'signed-in') {
    // A step-up sign-in reconnects: call again.
    if (await untilDone(page, '#status "Connected"', CONNECTED) === 'stopped') return;
    await selectTool(page, tool);
    await page.locator('#run-tool').click();
    await waitFor(page, '#tool-result', () => !!document.querySelector('#tool-result'));
  }
  log(`tool ${tool}: ${await page.locator('#tool-result').innerText()}`);
}

async function genericScenario({ page, serverUrl }) {
  log(`no UI steps known for scenario "${process.env.MCP_CONFORMANCE_SCENARIO ?? ''}": connecting only`);
  await connect(page, serverUrl);
}

// ---------------------------------------------------------------------------------------------

async function main() {
  const serverUrl = process.argv.at(-1);
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  if (!serverUrl || !/^https?:\/\//.test(serverUrl)) throw new Failure(`usage: client.mjs <server-url> (got "${serverUrl ?? ''}")`);
  log(`scenario "${scenario}", server ${serverUrl}`);
  if (process.env.MCP_CONFORMANCE_CONTEXT) log(`context: ${process.env.MCP_CONFORMANCE_CONTEXT}`);

  const cleanups = [];
  const cleanup = async () => {
    while (cleanups.length) {
      const step = cleanups.pop();
      await Promise.race([step().catch(() => {}), new Promise((r) => setTimeout(r, 5_000))]);
    }
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      if (signalled) return;
      signalled = true;
      log(`${signal}: cleaning up`);
      cleanup().finally(() => process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1)));
    });
  }
  // The suite runs us through `sh -c`, and dash does not exec: on the suite's timeout only the
  // shell gets SIGTERM. An orphaned client notices its parent is gone and cleans up at once.
  const parent = process.ppid;
  const orphanWatch = setInterval(() => {
    if (process.ppid !== parent && !signalled) {
      signalled = true;
      log('the parent process is gone: cleaning up');
      cleanup().finally(() => process.exit(1));
    }
  }, 500);
  orphanWatch.unref();
  const deadline = setTimeout(() => {
    if (signalled) return;
    signalled = true;
    log(`gave up after ${DEADLINE_MS} ms (MCP_LENS_CONFORMANCE_TIMEOUT_MS)`);
    cleanup().finally(() => process.exit(1));
  }, DEADLINE_MS);

  try {
    const distDir = path.resolve(ROOT, process.env.MCP_LENS_DIST || 'dist');
    const files = await snapshotDist(distDir);
    // Deployed as if built with MCP_LENS_PUBLIC_URL=https://conformance-test.local/ (what the
    // suite's auth/basic-cimd expects as the client's metadata document URL): the same step
    // scripts/build.sh runs, applied to the snapshot. The page is still served from 127.0.0.1,
    // so its redirect URI is not the document's; the scenario's server does not check that.
    if (!files.get('/index.html').toString('utf8').includes('name="mcp-lens-client-id"')) {
      const { clientId, document } = clientMetadata(CONFORMANCE_PUBLIC_URL);
      files.set('/index.html', Buffer.from(withClientId(files.get('/index.html').toString('utf8'), clientId)));
      files.set('/client-metadata.json', Buffer.from(document));
    }
    const app = await startAppServer(files);
    cleanups.push(app.stop);
    const proxy = await startProxy(new URL(serverUrl).origin);
    cleanups.push(proxy.stop);
    log(`app (${files.size} files from ${distDir}) on 127.0.0.1:${app.port}, proxy on 127.0.0.1:${proxy.port}`);

    const chromiumConfig = JSON.parse(readFileSync(path.join(ROOT, 'tests/chromium.json'), 'utf8'));
    const browser = await chromium.launch({
      executablePath: chromiumConfig.executablePath,
      headless: true,
      args: [...chromiumConfig.args, `--proxy-server=http://127.0.0.1:${proxy.port}`, '--proxy-bypass-list=<-loopback>'],
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      timeout: 20_000,
    });
    cleanups.push(() => browser.close());
    const page = await browser.newPage({ acceptDownloads: true });
    const consoleLines = [];
    page.on('console', (message) => {
      const type = message.type();
      consoleLines.push(message.text());
      if (VERBOSE || type === 'error' || type === 'warning') log(`page console.${type}: ${message.text()}`);
    });
    page.on('pageerror', (error) => log(`page error: ${error.message}`));

    // The app's own origin goes through the proxy as well (it forwards to the app server).
    await page.goto(`http://127.0.0.1:${app.port}/?url=${encodeURIComponent(serverUrl)}`, { timeout: 15_000 });
    const run = SCENARIOS[scenario] ?? (scenario.startsWith('auth/') ? authScenario : genericScenario);
    await run({ page, serverUrl, proxy, consoleLines });
    await disconnect(page);
    log('done');
  } finally {
    clearTimeout(deadline);
    await cleanup();
  }
}

// Run as the suite's client command; importing the file (to reuse the proxy) runs nothing.
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().then(
    () => process.exit(0),
    (error) => {
      if (signalled) return; // the browser was closed under the scenario: the signal handler exits
      log(`FAILED: ${error instanceof Failure ? error.message : error.stack || error}`);
      process.exit(1);
    },
  );
}
