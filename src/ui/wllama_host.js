// The chat's model "in this page": llama.cpp compiled to WebAssembly (npm @wllama/wllama),
// answering the chat's OpenAI-compatible requests as if it were a provider's server.
//
// src/ui/chat/in_page.rs imports this file (scripts/wasm-split.mjs ships it beside the loader,
// with wllama's script, its wasm and the small-model tool template in `wllama/`) only when the
// person picks "In this page" as a lane's provider: never on first paint, the connect path or
// a chat with another provider. Every call goes through `wllama_host(op, arg, extra, text)`:
//
// - "load" (arg: a File or null, extra: a progress callback (loaded, total), text: JSON options
//   {url, maxBytes, threads, contextTokens, template}): downloads the GGUF (when a URL; counting
//   its bytes and refusing more than maxBytes, by Content-Length at once or while it arrives),
//   starts llama.cpp in its worker and loads the model. Resolves with JSON {bytes} or {tooBig}.
// - "chat" (arg: an AbortSignal, text: the request body the OpenAI dialect built): a Response,
//   as fetch would give, with the model's chunks as a server-sent event stream (`data: {...}`,
//   then `data: [DONE]`) or, for a request without `stream`, one JSON answer. A failure is an
//   answer too, in the OpenAI error shape ({"error": {"message"}}), read by the dialect as
//   any provider's error.
// - "stats": JSON of the numbers of the answers made since the last "stats" (time to first
//   token, prompt tokens and ms, tokens and generation ms), oldest first, at most 20.
// - "unload": the worker stopped and its memory freed.
import { Wllama } from './wllama/wllama.js';

let model = null;
let answers = [];

const quiet = { debug() {}, log() {}, warn: console.warn, error: console.error };

export function wllama_host(op, arg, extra, text) {
  switch (op) {
    case 'load': return load(arg, extra, JSON.parse(text));
    case 'chat': return chat(arg, text);
    case 'stats': return Promise.resolve(JSON.stringify(answers.splice(0)));
    case 'unload': return unload().then(() => '');
    default: return Promise.reject(new Error(`unknown operation ${op}`));
  }
}

async function unload() {
  const old = model;
  model = null;
  answers = [];
  if (old) await old.exit().catch(() => {});
}

async function load(file, progress, options) {
  await unload();
  let blob = file;
  if (!blob) {
    blob = await download(options.url, options.maxBytes, progress);
    if (typeof blob === 'number') return JSON.stringify({ tooBig: blob });
  } else if (blob.size > options.maxBytes) {
    return JSON.stringify({ tooBig: blob.size });
  } else {
    progress(blob.size, blob.size);
  }
  const here = (file) => new URL(`./wllama/${file}`, import.meta.url).href;
  let template;
  if (options.template) {
    const answer = await fetch(here('tools.jinja'));
    if (!answer.ok) throw new Error(`the tool template could not be fetched (HTTP ${answer.status})`);
    template = await answer.text();
  }
  // The worker is made from a blob, so the wasm's address must be absolute.
  const fresh = new Wllama({ default: here('wllama.wasm') }, { suppressNativeLog: true, logger: quiet });
  try {
    await fresh.loadModel([blob], {
      n_threads: options.threads,
      n_ctx: options.contextTokens,
      // One request at a time has the whole context (a lane's turns come one after another).
      n_parallel: 1,
      chat_template: template,
      jinja: true,
    });
  } catch (error) {
    await fresh.exit().catch(() => {});
    throw error;
  }
  model = fresh;
  return JSON.stringify({ bytes: blob.size });
}

// The GGUF at `url` as a Blob, its bytes counted as they arrive; the number of bytes instead
// when there are more than `maxBytes` (the download stopped there).
async function download(url, maxBytes, progress) {
  const answer = await fetch(url, { credentials: 'omit' });
  if (!answer.ok) throw new Error(`the model's address answered HTTP ${answer.status}`);
  const declared = Number(answer.headers.get('content-length')) || 0;
  if (declared > maxBytes) {
    await answer.body?.cancel().catch(() => {});
    return declared;
  }
  const reader = answer.body.getReader();
  const parts = [];
  let loaded = 0;
  progress(0, declared);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    loaded += value.length;
    if (loaded > maxBytes) {
      await reader.cancel().catch(() => {});
      return loaded;
    }
    parts.push(value);
    progress(loaded, declared);
  }
  return new Blob(parts);
}

function failure(status, message) {
  return new Response(JSON.stringify({ error: { message, type: 'in_page_model' } }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

function describe(error) {
  return error && error.message ? error.message : String(error);
}

async function chat(signal, text) {
  if (!model) return failure(409, 'No model is loaded in this page: load a GGUF file in the provider settings.');
  let params;
  try {
    params = JSON.parse(text);
  } catch {
    return failure(400, 'The request is not JSON.');
  }
  const stop = new AbortController();
  signal?.addEventListener('abort', () => stop.abort(), { once: true });
  const started = performance.now();
  const numbers = { firstTokenMs: null, tokens: 0, generationMs: 0, promptTokens: 0, promptMs: 0 };
  const timed = (timings) => {
    if (!timings) return;
    numbers.tokens = timings.predicted_n;
    numbers.generationMs = timings.predicted_ms;
    numbers.promptTokens = timings.prompt_n;
    numbers.promptMs = timings.prompt_ms;
    answers.push({ ...numbers });
    if (answers.length > 20) answers.shift();
  };
  if (!params.stream) {
    try {
      const answer = await model.createChatCompletion({ ...params, stream: false, abortSignal: stop.signal });
      numbers.firstTokenMs = performance.now() - started;
      timed(answer.timings);
      if (!answer.model) answer.model = params.model;
      return new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } });
    } catch (error) {
      return failure(500, describe(error));
    }
  }
  let chunks;
  try {
    chunks = (await model.createChatCompletion({ ...params, stream: true, abortSignal: stop.signal }))[Symbol.asyncIterator]();
  } catch (error) {
    return failure(500, describe(error));
  }
  const encoder = new TextEncoder();
  const event = (data) => encoder.encode(`data: ${data}\n\n`);
  const body = new ReadableStream({
    async pull(controller) {
      try {
        const { done, value } = await chunks.next();
        if (done) {
          controller.enqueue(event('[DONE]'));
          controller.close();
          return;
        }
        if (numbers.firstTokenMs === null) numbers.firstTokenMs = performance.now() - started;
        timed(value.timings);
        // llama.cpp names no model: the one the chat asked for (the file's name) is shown.
        if (!value.model) value.model = params.model;
        // llama.cpp's last chunk has its timings but no usage: the usage the chat's turn shows
        // (tokens in and out) is made from them, as llama-server would send it.
        if (value.timings && !value.usage) {
          const { prompt_n: prompt, cache_n: cached, predicted_n: made } = value.timings;
          value.usage = { prompt_tokens: prompt + (cached || 0), completion_tokens: made, total_tokens: prompt + (cached || 0) + made };
        }
        controller.enqueue(event(JSON.stringify(value)));
      } catch (error) {
        if (stop.signal.aborted) {
          controller.error(new DOMException('The answer was stopped.', 'AbortError'));
          return;
        }
        // An error in the middle of an answer, as llama.cpp's server sends one.
        controller.enqueue(event(JSON.stringify({ error: { message: describe(error), type: 'in_page_model' } })));
        controller.close();
      }
    },
    cancel() {
      stop.abort();
      chunks.return?.();
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
}
