// What a page fetched and when, from CDP Network events, for the slow-network section: every
// request (the app's files, the MCP server's requests and their CORS preflights) with its start,
// first response byte and end on the epoch clock (so it compares with the page's own clock,
// performance.timeOrigin + performance.now(), to well under a millisecond), and its bytes as
// transferred (encodedDataLength: the body as sent, gzip here, plus the headers). The readers:
// bytes by type before a moment, each file's arrival relative to navigation, the JS and wasm
// requests that started only after the stylesheet had arrived, the preflights.

import { CATEGORIES, categoryOf } from './bytes.mjs';
import { snapshotPath } from './lib.mjs';

/** Starts recording the page's requests on `cdp` (its Network domain already on); the live list. */
export function attachTimeline(cdp) {
  const byId = new Map();
  const list = [];
  // epoch ms minus CDP's monotonic ms, from the first event that carries both.
  let offset = null;
  const at = (timestamp) => timestamp * 1000 + offset;
  cdp.on('Network.requestWillBeSent', (e) => {
    offset ??= e.wallTime * 1000 - e.timestamp * 1000;
    if (byId.has(e.requestId)) return; // a redirect keeps its first start
    let url;
    try {
      url = new URL(e.request.url);
    } catch {
      return;
    }
    const record = {
      origin: url.origin,
      name: snapshotPath(url.pathname),
      method: e.request.method,
      type: e.type,
      preflight: e.initiator?.type === 'preflight' || e.type === 'Preflight',
      start: at(e.timestamp),
      response: null,
      end: null,
      encoded: 0,
      received: [], // [epoch ms, bytes] per chunk of the body
      status: null,
      failed: null,
    };
    byId.set(e.requestId, record);
    list.push(record);
  });
  cdp.on('Network.responseReceived', (e) => {
    const r = byId.get(e.requestId);
    if (!r) return;
    r.response = at(e.timestamp);
    r.status = e.response.status;
  });
  cdp.on('Network.dataReceived', (e) => {
    const r = byId.get(e.requestId);
    if (r) r.received.push([at(e.timestamp), e.encodedDataLength || e.dataLength]);
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = byId.get(e.requestId);
    if (!r) return;
    r.end = at(e.timestamp);
    r.encoded = e.encodedDataLength;
  });
  cdp.on('Network.loadingFailed', (e) => {
    const r = byId.get(e.requestId);
    if (!r) return;
    r.end = at(e.timestamp);
    r.failed = e.canceled ? 'canceled' : e.errorText;
  });
  return list;
}

/** A request's bytes by `untilEpoch`: all of it once it finished, else what had arrived by then. */
function bytesBy(r, untilEpoch) {
  if (r.end !== null && !r.failed) return r.encoded;
  return r.received.filter(([t]) => t <= untilEpoch).reduce((sum, [, n]) => sum + n, 0);
}

const emptyByCategory = () => Object.fromEntries([...CATEGORIES, 'total'].map((c) => [c, 0]));

/**
 * What the page fetched from the app's origin by type (wasm, JS, CSS, HTML, other, total), for
 * the requests that started by `untilEpoch` (each counted whole: it was on its way): `body`, the
 * bodies (for a file of the build answered 200, its gzip -9 size from `gzip`, which is what a
 * gzip -9 server sends; else as transferred) and `transferred`, with the headers; and
 * the bytes the MCP server (`serverOrigin`) had sent by then; the app's files by name.
 */
export function fetchedBefore(list, { appOrigin, serverOrigin, gzip }, untilEpoch) {
  const transferred = emptyByCategory();
  const body = emptyByCategory();
  const files = [];
  let server = 0;
  for (const r of list) {
    if (r.start > untilEpoch) continue;
    if (r.origin === appOrigin) {
      const bytes = r.end !== null && !r.failed ? r.encoded : r.received.reduce((sum, [, n]) => sum + n, 0);
      const packed = r.status === 200 && gzip.has(r.name) ? gzip.get(r.name) : bytes;
      for (const key of [categoryOf(r.name, r.type), 'total']) {
        transferred[key] += bytes;
        body[key] += packed;
      }
      files.push(r.name);
    } else if (r.origin === serverOrigin) server += bytesBy(r, untilEpoch);
  }
  return { transferred, body, server, files };
}

/**
 * Each request to the app's origin: its name, type, bytes, and when it was requested, answered
 * (first byte) and done (last byte), in ms from `timeOrigin` (the page's navigation start).
 */
export function arrivals(list, appOrigin, timeOrigin) {
  const rel = (t) => (t === null ? null : t - timeOrigin);
  return list
    .filter((r) => r.origin === appOrigin)
    .map((r) => ({
      name: r.name,
      category: categoryOf(r.name, r.type),
      bytes: r.encoded,
      requested: rel(r.start),
      answered: rel(r.response),
      arrived: r.failed ? null : rel(r.end),
    }));
}

/**
 * The JS and wasm requests to the app's origin, started by `untilEpoch` (the first paint's),
 * that started only after the stylesheet's last byte (the last stylesheet to end, of those
 * started by then): [{ name, after }] with `after` the ms between the two; [] when none waited.
 */
export function afterStylesheet(list, appOrigin, untilEpoch) {
  const mine = list.filter((r) => r.origin === appOrigin && r.start <= untilEpoch);
  const css = mine.filter((r) => categoryOf(r.name, r.type) === 'css' && r.end !== null);
  if (!css.length) return [];
  const cssEnd = Math.max(...css.map((r) => r.end));
  return mine
    .filter((r) => ['js', 'wasm'].includes(categoryOf(r.name, r.type)) && r.start >= cssEnd)
    .map((r) => ({ name: r.name, after: r.start - cssEnd }));
}

/** The CORS preflights to the server started by `untilEpoch`: how long each took (start -> answer). */
export function preflights(list, serverOrigin, untilEpoch) {
  return list
    .filter((r) => r.preflight && r.origin === serverOrigin && r.start <= untilEpoch)
    .map((r) => ((r.response ?? r.end ?? r.start) - r.start));
}

/** The app's files requested between two moments (epoch ms), by name. */
export function requestedBetween(list, appOrigin, fromEpoch, toEpoch) {
  return [...new Set(list.filter((r) => r.origin === appOrigin && r.start >= fromEpoch && r.start <= toEpoch).map((r) => r.name))];
}
