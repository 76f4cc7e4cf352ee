#!/usr/bin/env node
// A deterministic fake language model on 127.0.0.1, for the chat's end-to-end tests
// (tests/e2e/chat-fake.spec.ts, chat-keys.spec.ts). It speaks three providers' streamed wire
// formats, written from their published documentation (the same formats as the chat crate's
// fixtures, crates/chat/tests/fixtures):
//   OpenAI-compatible  POST /openai/v1/chat/completions            (data: chunks, data: [DONE])
//   Anthropic          POST /anthropic/v1/messages                  (event: message_start ... message_stop)
//   Gemini             POST /gemini/v1beta/models/M:streamGenerateContent?alt=sse
// CORS like the real providers that allow browsers: the preflight echoes the asked headers
// (a wildcard does not cover Authorization).
//
// What it answers is scripted by the person's last message:
//   "script: STEP | STEP | ..."  one step per model turn after that message:
//     call NAME {json} [& NAME {json} ...]   tool calls (several: parallel calls)
//     say TEXT                              text; {result} is the last tool results' text
//     slow N                                N words, one every 100 ms (to be stopped)
//     error STATUS MESSAGE                  an HTTP error in the dialect's error shape
//     nocors                                an answer without CORS headers (the browser refuses it)
//   when the steps run out: "Done. {result}"
//   any other message: "You said: TEXT"
// GET /requests lists what it received (method, path, headers, body); DELETE /requests forgets.
//   node tests/servers/fake_model.mjs --port P
import http from 'node:http';
import process from 'node:process';

const port = Number(process.argv[process.argv.indexOf('--port') + 1] || 0);
const received = [];

function cors(req, res) {
  res.setHeader('Access-Control-Allow-Origin', req.headers.origin || '*');
  res.setHeader('Vary', 'Origin');
  res.setHeader('Access-Control-Expose-Headers', 'retry-after, request-id');
}

/** The conversation in one shape: [{ role: 'user' | 'assistant' | 'tool', text }]. */
function normalize(dialect, body) {
  const out = [];
  const textOf = (content) => {
    if (typeof content === 'string') return content;
    if (!Array.isArray(content)) return '';
    return content.map((c) => (typeof c === 'string' ? c : c.text ?? '')).join('');
  };
  if (dialect === 'openai') {
    for (const m of body.messages ?? []) {
      if (m.role === 'tool') out.push({ role: 'tool', text: textOf(m.content) });
      else if (m.role === 'user') out.push({ role: 'user', text: textOf(m.content) });
      else if (m.role === 'assistant') out.push({ role: 'assistant', text: textOf(m.content) });
    }
  } else if (dialect === 'anthropic') {
    for (const m of body.messages ?? []) {
      const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content ?? [];
      if (m.role === 'assistant') { out.push({ role: 'assistant', text: textOf(blocks.filter((b) => b.type === 'text')) }); continue; }
      const results = blocks.filter((b) => b.type === 'tool_result');
      for (const r of results) out.push({ role: 'tool', text: textOf(r.content) });
      const text = textOf(blocks.filter((b) => b.type === 'text'));
      if (results.length === 0) out.push({ role: 'user', text });
    }
  } else {
    for (const c of body.contents ?? []) {
      const parts = c.parts ?? [];
      if (c.role === 'model') { out.push({ role: 'assistant', text: parts.map((p) => p.text ?? '').join('') }); continue; }
      const results = parts.filter((p) => p.functionResponse);
      for (const r of results) {
        const response = r.functionResponse.response ?? {};
        const value = response.output ?? response.error ?? response;
        out.push({ role: 'tool', text: typeof value === 'string' ? value : JSON.stringify(value) });
      }
      if (results.length === 0) out.push({ role: 'user', text: parts.map((p) => p.text ?? '').join('') });
    }
  }
  return out;
}

/** What the model does this turn: { kind: 'say' | 'calls' | 'slow' | 'error' | 'nocors', ... }. */
function decide(messages) {
  let person = -1;
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i].role === 'user') { person = i; break; }
  const text = person >= 0 ? messages[person].text : '';
  const turn = messages.slice(person + 1).filter((m) => m.role === 'assistant').length;
  const results = [];
  for (let i = messages.length - 1; i > person && messages[i].role === 'tool'; i--) results.unshift(messages[i].text);
  const result = results.join(' / ');
  const match = /script:(.*)$/s.exec(text);
  if (!match) return { kind: 'say', text: `You said: ${text}` };
  const steps = match[1].split('|').map((s) => s.trim()).filter(Boolean);
  const step = steps[turn];
  if (step === undefined) return { kind: 'say', text: `Done. ${result}` };
  const [word, ...rest] = step.split(' ');
  const tail = rest.join(' ');
  switch (word) {
    case 'say': return { kind: 'say', text: tail.replaceAll('{result}', result) };
    case 'slow': return { kind: 'slow', words: Number(tail) || 100 };
    case 'nocors': return { kind: 'nocors' };
    case 'error': {
      const [status, ...message] = tail.split(' ');
      return { kind: 'error', status: Number(status), message: message.join(' ') };
    }
    case 'call': {
      const calls = tail.split(' & ').map((c) => {
        const space = c.indexOf(' ');
        const name = space < 0 ? c : c.slice(0, space);
        const args = space < 0 ? '{}' : c.slice(space + 1);
        return { name: name.trim(), args: args.trim() };
      });
      return { kind: 'calls', calls };
    }
    default: return { kind: 'say', text: `Unknown step: ${step}` };
  }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const words = (text) => text.match(/\S+\s*/g) ?? [''];

/** The dialect's events for one answer. Each writer returns the SSE text of one event. */
const writers = {
  openai: {
    start: (model) => [{ id: 'chatcmpl-fake', object: 'chat.completion.chunk', model, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] }],
    text: (model, piece) => [{ id: 'chatcmpl-fake', object: 'chat.completion.chunk', model, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] }],
    calls: (model, calls) => calls.flatMap((call, index) => {
      const id = `call_${index}_${Math.random().toString(36).slice(2, 8)}`;
      const half = Math.floor(call.args.length / 2);
      return [
        { id: 'chatcmpl-fake', model, choices: [{ index: 0, delta: { tool_calls: [{ index, id, type: 'function', function: { name: call.name, arguments: '' } }] }, finish_reason: null }] },
        { id: 'chatcmpl-fake', model, choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: call.args.slice(0, half) } }] }, finish_reason: null }] },
        { id: 'chatcmpl-fake', model, choices: [{ index: 0, delta: { tool_calls: [{ index, function: { arguments: call.args.slice(half) } }] }, finish_reason: null }] },
      ];
    }),
    end: (model, stop, usage) => [
      { id: 'chatcmpl-fake', model, choices: [{ index: 0, delta: {}, finish_reason: stop === 'tool' ? 'tool_calls' : 'stop' }] },
      { id: 'chatcmpl-fake', model, choices: [], usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output } },
      '[DONE]',
    ],
    sse: (event) => `data: ${typeof event === 'string' ? event : JSON.stringify(event)}\n\n`,
    error: (status, message) => ({ error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'invalid_request_error', code: null } }),
  },
  anthropic: {
    block: 0,
    start: (model, usage) => { writers.anthropic.block = 0; return [{ type: 'message_start', message: { id: 'msg_fake', type: 'message', role: 'assistant', model, content: [], stop_reason: null, usage: { input_tokens: usage.input, output_tokens: 1 } } }]; },
    textStart: () => [{ type: 'content_block_start', index: writers.anthropic.block, content_block: { type: 'text', text: '' } }],
    text: (_model, piece) => [{ type: 'content_block_delta', index: writers.anthropic.block, delta: { type: 'text_delta', text: piece } }],
    textEnd: () => [{ type: 'content_block_stop', index: writers.anthropic.block++ }],
    calls: (_model, calls) => calls.flatMap((call) => {
      const index = writers.anthropic.block++;
      const half = Math.floor(call.args.length / 2);
      return [
        { type: 'content_block_start', index, content_block: { type: 'tool_use', id: `toolu_${index}_${Math.random().toString(36).slice(2, 8)}`, name: call.name, input: {} } },
        { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: call.args.slice(0, half) } },
        { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: call.args.slice(half) } },
        { type: 'content_block_stop', index },
      ];
    }),
    end: (_model, stop, usage) => [
      { type: 'message_delta', delta: { stop_reason: stop === 'tool' ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: usage.output } },
      { type: 'message_stop' },
    ],
    sse: (event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`,
    error: (status, message) => ({ type: 'error', error: { type: status === 429 ? 'rate_limit_error' : status === 401 ? 'authentication_error' : 'invalid_request_error', message } }),
  },
  gemini: {
    start: () => [],
    text: (model, piece) => [{ candidates: [{ content: { parts: [{ text: piece }], role: 'model' }, index: 0 }], modelVersion: model }],
    calls: (model, calls) => [{ candidates: [{ content: { parts: calls.map((c) => ({ functionCall: { name: c.name, args: JSON.parse(c.args || '{}') } })), role: 'model' }, index: 0 }], modelVersion: model }],
    end: (model, _stop, usage) => [{ candidates: [{ content: { parts: [{ text: '' }], role: 'model' }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: usage.input, candidatesTokenCount: usage.output, totalTokenCount: usage.input + usage.output }, modelVersion: model }],
    sse: (event) => `data: ${JSON.stringify(event)}\n\n`,
    error: (status, message) => ({ error: { code: status, message, status: status === 429 ? 'RESOURCE_EXHAUSTED' : status === 401 || status === 403 ? 'PERMISSION_DENIED' : 'INVALID_ARGUMENT' } }),
  },
};

async function answer(dialect, model, body, req, res) {
  const messages = normalize(dialect, body);
  const plan = decide(messages);
  const w = writers[dialect];
  const usage = { input: JSON.stringify(body).length >> 2, output: 0 };
  if (plan.kind === 'error') {
    res.writeHead(plan.status, { 'content-type': 'application/json', ...(plan.status === 429 ? { 'retry-after': '7' } : {}) });
    res.end(JSON.stringify(w.error(plan.status, plan.message)));
    return;
  }
  if (plan.kind === 'nocors') {
    // No Access-Control-Allow-Origin: the browser refuses the answer (as a provider that does
    // not allow web pages, or a local server not told this page's origin).
    res.removeHeader('Access-Control-Allow-Origin');
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end();
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  let closed = false;
  res.on('close', () => { closed = true; });
  const send = (events) => { for (const e of events) if (!closed) res.write(w.sse(e)); };
  send(w.start(model, usage));
  if (plan.kind === 'calls') {
    send(w.calls(model, plan.calls));
    usage.output = plan.calls.length * 10;
    send(w.end(model, 'tool', usage));
  } else {
    const text = plan.kind === 'slow' ? Array.from({ length: plan.words }, (_, i) => `word${i + 1} `).join('') : plan.text;
    if (w.textStart) send(w.textStart());
    for (const piece of words(text)) {
      if (closed) return;
      send(w.text(model, piece));
      usage.output += 1;
      await sleep(plan.kind === 'slow' ? 100 : 15);
    }
    if (w.textEnd) send(w.textEnd());
    send(w.end(model, 'stop', usage));
  }
  res.end();
}

const server = http.createServer((req, res) => {
  cors(req, res);
  const url = new URL(req.url, 'http://fake');
  if (req.method === 'OPTIONS') {
    res.writeHead(204, {
      'Access-Control-Allow-Methods': 'POST, GET, OPTIONS',
      'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] || '',
      'Access-Control-Max-Age': '600',
    });
    res.end();
    return;
  }
  if (url.pathname === '/requests') {
    if (req.method === 'DELETE') received.length = 0;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(req.method === 'DELETE' ? [] : received));
    return;
  }
  let raw = '';
  req.on('data', (chunk) => { raw += chunk; });
  req.on('end', () => {
    received.push({ method: req.method, path: req.url, headers: req.headers, body: raw });
    let body;
    try { body = JSON.parse(raw || '{}'); } catch { body = {}; }
    if (url.pathname.startsWith('/redirect/')) {
      // To another origin (localhost, the same server): a client that follows it would send
      // the key there.
      res.writeHead(307, { location: `http://localhost:${server.address().port}${url.pathname.slice('/redirect'.length)}` });
      res.end();
      return;
    }
    let dialect;
    let model = body.model || 'fake-model';
    if (/^\/openai(\/v1)?\/chat\/completions$/.test(url.pathname)) dialect = 'openai';
    else if (url.pathname === '/anthropic/v1/messages') dialect = 'anthropic';
    else {
      const gemini = /^\/gemini\/v1beta\/models\/([^/:]+):(stream)?[gG]enerateContent$/.exec(url.pathname);
      if (gemini) { dialect = 'gemini'; model = decodeURIComponent(gemini[1]); }
    }
    if (!dialect) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `No such endpoint: ${url.pathname}` } }));
      return;
    }
    answer(dialect, model, body, req, res).catch((error) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    });
  });
});
server.listen(port, '127.0.0.1', () => {
  console.error(`fake model on http://127.0.0.1:${server.address().port}`);
});
