// What an app ships: the sizes of its built files (raw and gzip -9), and what one page load
// actually fetched from the app's origin, per resource type, from CDP Network events.

import path from 'node:path';
import { snapshotPath } from './lib.mjs';

export const CATEGORIES = ['wasm', 'js', 'css', 'html', 'other'];
const BY_EXTENSION = { '.wasm': 'wasm', '.js': 'js', '.mjs': 'js', '.css': 'css', '.html': 'html' };
const BY_CDP_TYPE = { Document: 'html', Script: 'js', Stylesheet: 'css' };

/** wasm, js, css, html or other: by the file's extension, else by CDP's resource type. */
export function categoryOf(name, cdpType) {
  return BY_EXTENSION[path.extname(name).toLowerCase()] ?? BY_CDP_TYPE[cdpType] ?? 'other';
}

const emptyByCategory = () => Object.fromEntries([...CATEGORIES, 'total'].map((c) => [c, 0]));

/** The files of a snapshot with raw and gzip -9 sizes, and the totals per category. */
export function measureFiles(snapshot, gzip) {
  const files = [...snapshot.keys()]
    .map((name) => ({ name, category: categoryOf(name), raw: snapshot.get(name).length, gzip: gzip.get(name) }))
    .sort((a, b) => CATEGORIES.indexOf(a.category) - CATEGORIES.indexOf(b.category) || a.name.localeCompare(b.name));
  const raw = emptyByCategory();
  const gz = emptyByCategory();
  for (const f of files) {
    for (const key of [f.category, 'total']) {
      raw[key] += f.raw;
      gz[key] += f.gzip;
    }
  }
  return { files, raw, gzip: gz };
}

export function printFiles(title, measured) {
  const width = Math.max(5, ...measured.files.map((f) => f.name.length));
  const row = (name, raw, gzip) => `${name.padEnd(width)}  ${String(raw).padStart(9)}  ${String(gzip).padStart(9)}`;
  console.log(`== ${title} ==`);
  console.log(row('file', 'raw', 'gzip -9'));
  for (const f of measured.files) console.log(row(f.name, f.raw, f.gzip));
  const parts = CATEGORIES.filter((c) => measured.raw[c]).map((c) => `${c} ${measured.gzip[c]}`);
  console.log(row('total', measured.raw.total, measured.gzip.total));
  console.log(`gzip -9 by type: ${parts.join(', ')}`);
}

/**
 * Records every request of the page to `appOrigin`: its start (epoch ms), its bytes on the wire
 * (CDP's encodedDataLength at loadingFinished: body as transferred plus headers) and its type.
 */
export function attachPageBytes(cdp, appOrigin) {
  const byId = new Map();
  const list = [];
  cdp.on('Network.requestWillBeSent', (e) => {
    let url;
    try {
      url = new URL(e.request.url);
    } catch {
      return;
    }
    if (url.origin !== appOrigin) return;
    const record = { name: snapshotPath(url.pathname), type: e.type, wallStart: e.wallTime * 1000, encoded: 0, status: null };
    byId.set(e.requestId, record);
    list.push(record);
  });
  cdp.on('Network.responseReceived', (e) => {
    const r = byId.get(e.requestId);
    if (r) r.status = e.response.status;
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = byId.get(e.requestId);
    if (r) r.encoded = e.encodedDataLength;
  });
  return list;
}

/**
 * Sums the fetched bytes per category, for the requests that started before `untilWallMs`
 * (all if null): as transferred, and as the gzip -9 size of the same file in the build (the
 * size a compressing server would send; a response that is no file of the build, such as a 404,
 * counts as transferred).
 */
export function sumFetched(records, gzip, untilWallMs = null) {
  const transferred = emptyByCategory();
  const gzip9 = emptyByCategory();
  for (const r of records) {
    if (untilWallMs !== null && r.wallStart > untilWallMs) continue;
    const category = categoryOf(r.name, r.type);
    const packed = r.status === 200 && gzip.has(r.name) ? gzip.get(r.name) : r.encoded;
    for (const key of [category, 'total']) {
      transferred[key] += r.encoded;
      gzip9[key] += packed;
    }
  }
  return { transferred, gzip: gzip9, files: records.filter((r) => untilWallMs === null || r.wallStart <= untilWallMs).map((r) => r.name) };
}
