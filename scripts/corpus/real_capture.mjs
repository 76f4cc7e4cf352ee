#!/usr/bin/env node
// Capture raw schemas from real MCP servers for tests/schemas/real (real.sh drives this).
// Plain JSON-RPC on purpose: an SDK client would re-parse the messages with zod and could reorder or drop
// schema keywords; the corpus wants the bytes the servers sent, parsed with JSON.parse only.
//
//   node scripts/corpus/real_capture.mjs elicitation <everything-url> <out.json>
//     Calls server-everything's `trigger-elicitation-request` tool over Streamable HTTP, records the
//     elicitation/create request the server sends on the response stream (its requestedSchema) and
//     answers it with a decline.
//   node scripts/corpus/real_capture.mjs stdio <servers-dir> <out-dir>
//     Starts each stdio server installed under <servers-dir>/node_modules (see SERVERS) and writes its
//     raw tools/list result to <out-dir>/<id>-tools.json. Each child is stopped before the next starts.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const [mode, where, out] = process.argv.slice(2);
const dump = (v) => JSON.stringify(v, null, 2) + '\n';
const CLIENT_INFO = { name: 'mcp-lens-corpus', version: '0.0.0' };
const PROTOCOL = '2025-11-25';

// ------------------------------------------------------------------------------ Streamable HTTP

/** POST one JSON-RPC message; yield every JSON-RPC message of the reply (plain JSON or an SSE stream). */
async function* post(url, message, headers) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(message),
  });
  if (!res.ok) throw new Error(`${message.method}: HTTP ${res.status} ${await res.text()}`);
  post.last = res;
  const type = res.headers.get('content-type') ?? '';
  if (res.status === 202 || !res.body) return;
  if (type.includes('application/json')) {
    yield await res.json();
    return;
  }
  const decoder = new TextDecoder();
  let buf = '';
  for await (const chunk of res.body) {
    buf += decoder.decode(chunk, { stream: true });
    let cut;
    while ((cut = buf.indexOf('\n\n')) >= 0) {
      const event = buf.slice(0, cut);
      buf = buf.slice(cut + 2);
      const data = event.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trimStart()).join('\n');
      if (data) yield JSON.parse(data);
    }
  }
}

async function captureElicitation(url, outFile) {
  let headers = {};
  for await (const msg of post(url, {
    jsonrpc: '2.0', id: 1, method: 'initialize',
    params: { protocolVersion: PROTOCOL, capabilities: { elicitation: { form: {} } }, clientInfo: CLIENT_INFO },
  }, headers)) {
    headers = {
      'mcp-session-id': post.last.headers.get('mcp-session-id'),
      'mcp-protocol-version': msg.result.protocolVersion,
    };
  }
  for await (const _ of post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers));
  let captured;
  let result;
  for await (const msg of post(url, {
    jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'trigger-elicitation-request', arguments: {} },
  }, headers)) {
    if (msg.method === 'elicitation/create') {
      captured = msg.params;
      for await (const _ of post(url, { jsonrpc: '2.0', id: msg.id, result: { action: 'decline' } }, headers));
    } else if (msg.id === 2) {
      result = msg;
      break;
    }
  }
  await fetch(url, { method: 'DELETE', headers }).catch(() => {});
  if (!captured) throw new Error(`server sent no elicitation/create (tools/call answered ${JSON.stringify(result)})`);
  const pkg = JSON.parse(readFileSync('node_modules/@modelcontextprotocol/server-everything/package.json', 'utf8'));
  writeFileSync(outFile, dump({ server: `${pkg.name} ${pkg.version}`, tool: 'trigger-elicitation-request', params: captured }));
  console.log(`elicitation: captured requestedSchema -> ${outFile}`);
}

// -------------------------------------------------------------------------------------- stdio

const SERVERS = [
  { id: 'filesystem', pkg: '@modelcontextprotocol/server-filesystem', entry: 'dist/index.js', args: (dir) => [dir] },
  { id: 'memory', pkg: '@modelcontextprotocol/server-memory', entry: 'dist/index.js', args: () => [],
    env: (dir) => ({ MEMORY_FILE_PATH: join(dir, 'memory.jsonl') }) },
  { id: 'sequential-thinking', pkg: '@modelcontextprotocol/server-sequential-thinking', entry: 'dist/index.js', args: () => [] },
  { id: 'playwright', pkg: '@playwright/mcp', entry: 'cli.js', args: () => ['--headless', '--isolated'] },
];

async function listToolsOverStdio(command, args, env) {
  const child = spawn(command, args, { env, stdio: ['pipe', 'pipe', 'ignore'] });
  const pending = new Map();
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (!line.trim()) return;
    const msg = JSON.parse(line);
    if (msg.id !== undefined && pending.has(msg.id) && !msg.method) {
      pending.get(msg.id)(msg);
      pending.delete(msg.id);
    }
  });
  const send = (msg) => child.stdin.write(JSON.stringify(msg) + '\n');
  const request = (id, method, params) => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${method}: no answer in 30s`)), 30000);
    pending.set(id, (msg) => { clearTimeout(timer); msg.error ? reject(new Error(JSON.stringify(msg.error))) : resolve(msg.result); });
    send({ jsonrpc: '2.0', id, method, params });
  });
  try {
    await request(1, 'initialize', { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: CLIENT_INFO });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const tools = [];
    let cursor;
    let id = 2;
    do {
      const page = await request(id++, 'tools/list', cursor ? { cursor } : {});
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    return tools;
  } finally {
    child.stdin.end();
    const exited = new Promise((r) => child.once('exit', r));
    const timer = setTimeout(() => child.kill('SIGTERM'), 2000);
    await exited;
    clearTimeout(timer);
  }
}

async function captureStdio(serversDir, outDir) {
  mkdirSync(outDir, { recursive: true });
  const scratch = mkdtempSync(join(tmpdir(), 'mcp-corpus-'));
  try {
    for (const s of SERVERS) {
      const root = join(serversDir, 'node_modules', s.pkg);
      const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
      const env = { PATH: process.env.PATH, HOME: scratch, ...(s.env ? s.env(scratch) : {}) };
      const tools = await listToolsOverStdio(process.execPath, [join(root, s.entry), ...s.args(scratch)], env);
      const file = join(outDir, `${s.id}-tools.json`);
      writeFileSync(file, dump({ server: `${pkg.name} ${pkg.version}`, transport: 'stdio', tools }));
      console.log(`${s.id}: ${tools.length} tools -> ${file}`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (mode === 'elicitation') await captureElicitation(where, out);
else if (mode === 'stdio') await captureStdio(where, out);
else {
  console.error('usage: real_capture.mjs elicitation <url> <out.json> | stdio <servers-dir> <out-dir>');
  process.exit(2);
}
