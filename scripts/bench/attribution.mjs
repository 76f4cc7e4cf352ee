// Where the wasm's bytes go (issue 10's "report the attribution"), without twiggy: the cargo
// artifact still has its function names, so this splits it again the way scripts/wasm-split.mjs
// does (wasm-split-cli into a temporary folder, wasm-bindgen on the main module), reads the code section and the name section of
// each module, and sums each function body's size by what it belongs to (a crate, or a group of
// crates: Leptos, serde, ...). Sizes are the code before wasm-opt; wasm-opt -Oz shrinks them
// all by roughly the same factor, so the shares hold. "Estimated gzip" applies each group's
// share of a module's code to that module's shipped gzip -9 size. A function counts where its
// name says: with fat LTO, a component's closures are often inlined into Leptos's generic
// functions (`untrack_with_diagnostics`, `<T as IntoAny>::build`), and a closure's body into
// `core::ops::function` or its `drop_in_place`, so "Leptos" and "Rust core" hold some of the
// UI's own code; the split between modules is exact.
//
//   node scripts/bench/attribution.mjs [--top N] [--wasm path/to/mcp-lens.wasm]
//
// scripts/bench.mjs prints the same tables in its sizes section when the artifact is there.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TARGET_DIR = process.env.CARGO_TARGET_DIR ? path.resolve(ROOT, process.env.CARGO_TARGET_DIR) : path.join(ROOT, 'target');
export const ARTIFACT = path.join(TARGET_DIR, 'wasm32-unknown-unknown/release/mcp-lens.wasm');

// Each crate's group; a crate not listed is its own group.
const GROUPS = [
  ['Leptos (reactive_graph, tachys, leptos, leptos_dom, ...)', /^(reactive_graph|tachys|leptos|leptos_dom|leptos_macro|any_spawner|throw_error|or_poisoned|either_of|next_tuple|oco_ref|slotmap|guardian|send_wrapper|async_once_cell|futures_util|futures_core|futures_channel|futures_executor|pin_project_lite)$/],
  ['mcp-lens UI (src/)', /^mcp_lens$/],
  ['mcp-lens-client', /^mcp_lens_client$/],
  ['mcp-lens-protocol', /^mcp_lens_protocol$/],
  ['mcp-lens-schema', /^mcp_lens_schema$/],
  ['serde, serde_json, rmcp (decoding and encoding)', /^(serde|serde_core|serde_json|rmcp|indexmap|zmij|itoa|ryu|memchr|serde_wasm_bindgen|base64)$/],
  ['Rust core, alloc, std (generics, fmt, allocator)', /^(core|alloc|std|hashbrown|dlmalloc|compiler_builtins|__rustc|rustc_demangle)$/],
  ['wasm-bindgen, js-sys, web-sys', /^(wasm_bindgen|js_sys|web_sys|wasm_bindgen_futures|wasm_split_helpers)$/],
  ['regex-lite (schema `pattern`)', /^regex_lite$/],
];

// ------------------------------------------------------------------ reading wasm

function leb(bytes, at) {
  let value = 0;
  let shift = 0;
  for (;;) {
    const b = bytes[at++];
    value += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (b < 0x80) return [value, at];
  }
}

/** Each defined function's body size with its name from the name section (or `?index`). */
export function functionSizes(bytes) {
  let at = 8;
  let imported = 0;
  const bodies = [];
  const names = new Map();
  let data = 0;
  while (at < bytes.length) {
    const id = bytes[at++];
    let size;
    [size, at] = leb(bytes, at);
    const end = at + size;
    if (id === 2) imported = countImportedFunctions(bytes, at);
    else if (id === 10) {
      let [count, i] = leb(bytes, at);
      for (; count > 0; count--) {
        const [length, body] = leb(bytes, i);
        bodies.push(length + (body - i));
        i = body + length;
      }
    } else if (id === 11) data = size;
    else if (id === 0) readNames(bytes, at, end, names);
    at = end;
  }
  return { data, functions: bodies.map((size, k) => ({ size, name: names.get(imported + k) ?? `?${imported + k}` })) };
}

function countImportedFunctions(bytes, at) {
  let [count, i] = leb(bytes, at);
  let functions = 0;
  for (; count > 0; count--) {
    for (let s = 0; s < 2; s++) {
      const [length, next] = leb(bytes, i);
      i = next + length;
    }
    const kind = bytes[i++];
    if (kind === 0) {
      [, i] = leb(bytes, i);
      functions++;
    } else if (kind === 1) {
      i++;
      const [flags, next] = leb(bytes, i);
      [, i] = leb(bytes, next);
      if (flags & 1) [, i] = leb(bytes, i);
    } else if (kind === 2) {
      const [flags, next] = leb(bytes, i);
      [, i] = leb(bytes, next);
      if (flags & 1) [, i] = leb(bytes, i);
    } else if (kind === 3) i += 2;
    else if (kind === 4) i += 2;
  }
  return functions;
}

function readNames(bytes, at, end, names) {
  const [length, next] = leb(bytes, at);
  if (Buffer.from(bytes.subarray(next, next + length)).toString() !== 'name') return;
  let i = next + length;
  while (i < end) {
    const sub = bytes[i++];
    let size;
    [size, i] = leb(bytes, i);
    if (sub === 1) {
      let [count, j] = leb(bytes, i);
      for (; count > 0; count--) {
        let index;
        let n;
        [index, j] = leb(bytes, j);
        [n, j] = leb(bytes, j);
        names.set(index, Buffer.from(bytes.subarray(j, j + n)).toString());
        j += n;
      }
    }
    i += size;
  }
}

// ------------------------------------------------------------------ names

const UNESCAPE = [['$LT$', '<'], ['$GT$', '>'], ['$u20$', ' '], ['$RF$', '&'], ['$u7b$', '{'], ['$u7d$', '}'], ['$C$', ','], ['$BP$', '*'], ['$u27$', "'"], ['$u5b$', '['], ['$u5d$', ']'], ['$LP$', '('], ['$RP$', ')'], ['..', '::']];

/** A legacy-mangled Rust name's path (`_ZN3foo3bar17h…E` -> foo::bar); other names as they are. */
export function demangle(name) {
  if (!name.startsWith('_ZN')) return name;
  const parts = [];
  let i = 3;
  while (i < name.length && name[i] !== 'E') {
    const digits = /^\d+/.exec(name.slice(i));
    if (!digits) break;
    i += digits[0].length;
    let part = name.slice(i, i + Number(digits[0]));
    i += Number(digits[0]);
    for (const [from, to] of UNESCAPE) part = part.split(from).join(to);
    parts.push(part.startsWith('_<') ? part.slice(1) : part);
  }
  if (/^h[0-9a-f]{16}$/.test(parts.at(-1) ?? '')) parts.pop();
  return parts.join('::');
}

/** The crate a function belongs to: its path's first crate; for `<T as Trait>` impls, T's crate. */
export function crateOf(name) {
  if (name.startsWith('__wasm_split')) return 'wasm_split_helpers';
  if (name.startsWith('_R')) {
    // v0 mangling: the first crate root, C[s<disambiguator>_]<length><name>
    const root = /C(?:s[0-9A-Za-z]*_)?(\d+)/.exec(name);
    return root ? name.slice(root.index + root[0].length, root.index + root[0].length + Number(root[1])) : 'other';
  }
  const path = demangle(name);
  if (path.startsWith('<')) {
    const implFor = / for &?(?:mut )?([A-Za-z_][A-Za-z0-9_]*)::/.exec(path);
    const inherent = /^<&?(?:mut )?([A-Za-z_][A-Za-z0-9_]*)::/.exec(path);
    // A blanket impl (`<T as tachys::view::Render>`, `<() as ...>`): the trait's crate.
    const blanket = /^<[^:]*? as &?(?:mut )?([A-Za-z_][A-Za-z0-9_]*)::/.exec(path);
    return (implFor ?? inherent ?? blanket)?.[1] ?? 'other';
  }
  const first = /^([A-Za-z_][A-Za-z0-9_]*)::/.exec(path);
  return first ? first[1] : /^(memcpy|memset|memmove|memcmp|__)/.test(path) ? 'compiler_builtins' : 'other';
}

const groupOf = (crate) => GROUPS.find(([, re]) => re.test(crate))?.[0] ?? crate;

// ------------------------------------------------------------------ by feature (v0 names)

/** Our crates, and how many path segments name a feature in each (mcp_lens::ui::apps: 2). */
const OWN_CRATES = new Map([['mcp_lens', 2], ['mcp_lens_client', 1], ['mcp_lens_protocol', 1], ['mcp_lens_schema', 0]]);

/**
 * The first of our modules a v0-mangled name mentions (`mcp_lens::ui::apps`), or null. With
 * v0 mangling (-Csymbol-mangling-version=v0) a generic function's name carries its type
 * arguments, so Leptos's `<F as Render>::build` instantiated for a closure of `ui::apps` names
 * `ui::apps`, and the bytes fatten that feature's share instead of "Leptos". A name's own path
 * comes before its arguments, so the first mention is the item itself when it is ours, else the
 * type it was instantiated for. Backreferences (`B<n>_`) to a path already written are not
 * followed: the first mention is always spelled out.
 */
export function ownModuleOf(name) {
  if (!name.startsWith('_R')) {
    const path = demangle(name);
    // A module's segments are lower case; `__component_x` (a component's function) is not one.
    const first = /^<?&?(mcp_lens(?:_client|_protocol|_schema)?)((?:::[a-z][a-z0-9_]*)*)/.exec(path);
    if (!first) return null;
    const depth = OWN_CRATES.get(first[1]);
    return [first[1], ...first[2].split('::').filter(Boolean).slice(0, depth)].join('::');
  }
  // A crate root: C, an optional disambiguator s<base62>_, then <length><ident>.
  const root = /C(?:s[0-9A-Za-z]*_)?(\d+)/g;
  for (let found; (found = root.exec(name)); ) {
    let at = found.index + found[0].length;
    const crate = name.slice(at, at + Number(found[1]));
    at += crate.length;
    // The crate that instantiated a generic closes its name; it is not what the code is.
    if (!OWN_CRATES.has(crate) || at === name.length) continue;
    const segments = [crate];
    // The path's idents follow the root, each <length>[_]<ident> (a `_` separates a length from
    // an ident that starts with a digit or `_`).
    while (segments.length <= OWN_CRATES.get(crate)) {
      const ident = /^(\d+)_?/.exec(name.slice(at));
      if (!ident) break;
      const text = name.slice(at + ident[0].length, at + ident[0].length + Number(ident[1]));
      if (!/^[a-z][a-z0-9_]*$/.test(text)) break;
      segments.push(text);
      at += ident[0].length + text.length;
    }
    return segments.join('::');
  }
  return null;
}

/** A shared function's group, and which of our crates instantiated it (v0 names say). */
function sharedKey(name) {
  const group = groupOf(crateOf(name)).replace(/ \(.*\)$/, '');
  const by = /C(?:s[0-9A-Za-z]*_)?\d+(mcp_lens(?:_client|_protocol|_schema)?)$/.exec(name);
  return by ? `(shared) ${group}, for ${by[1]}` : `(shared) ${group}`;
}

/**
 * Code per module of ours across all modules (and its estimated gzip share when shipped sizes
 * are given), for an artifact built with v0 names: what each feature costs, with the Leptos,
 * serde and core code instantiated for it. What names none of ours is the shared runtime.
 */
export function printByModule(modules, { shippedGzip = null } = {}) {
  const code = new Map();
  const gzip = new Map();
  let total = 0;
  for (const m of modules) {
    const moduleCode = m.functions.reduce((a, f) => a + f.size, 0);
    total += moduleCode;
    const gz = shippedGzip?.[m.module];
    for (const f of m.functions) {
      const key = ownModuleOf(f.name) ?? sharedKey(f.name);
      code.set(key, (code.get(key) ?? 0) + f.size);
      if (gz != null && moduleCode) gzip.set(key, (gzip.get(key) ?? 0) + (gz * f.size) / moduleCode);
    }
  }
  const rows = [...code].sort((a, b) => b[1] - a[1]);
  const width = Math.max(...rows.map(([k]) => k.length), 6);
  const gz = shippedGzip != null;
  console.log(`${'module'.padEnd(width)} | code KB (before wasm-opt) | share${gz ? ' | estimated gzip KB' : ''}`);
  for (const [key, size] of rows.filter(([, s]) => s / total >= 0.002)) {
    const share = `${((100 * size) / total).toFixed(1)}%`;
    console.log(`${key.padEnd(width)} | ${KB(size).padStart(25)} | ${share.padStart(5)}${gz ? ` | ${KB(gzip.get(key) ?? 0).padStart(17)}` : ''}`);
  }
  const rest = rows.filter(([, s]) => s / total < 0.002);
  console.log(`${`${rest.length} more under 0.2% each`.padEnd(width)} | ${KB(rest.reduce((a, [, s]) => a + s, 0)).padStart(25)} |`);
  console.log(`${'total code'.padEnd(width)} | ${KB(total).padStart(25)} |  100%`);
}

// ------------------------------------------------------------------ the report

/**
 * Splits `artifact` as the build does and attributes each module's code. With `optimize`, each
 * module is also put through the build's wasm-opt and gzip -9, and its shipped size is returned
 * as `gzip` (about 30 s more for the session chunk).
 */
export function attribute(artifact = ARTIFACT, { optimize = false } = {}) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-lens-attribution-'));
  try {
    execFileSync('wasm-split-cli', ['--target', 'web', '--out-name', 'mcp-lens', artifact, work], { stdio: 'ignore' });
    // wasm-bindgen takes its describe functions out of the main module, as the build does
    // (they are most of that module's code before it); --keep-debug keeps the names.
    const pkg = path.join(work, 'pkg');
    execFileSync('wasm-bindgen', [
      '--target', 'web', '--keep-lld-exports', '--no-demangle', '--no-typescript', '--keep-debug',
      '--out-name', 'mcp-lens', '--out-dir', pkg, path.join(work, 'mcp-lens.wasm'),
    ], { stdio: 'ignore' });
    fs.renameSync(path.join(pkg, 'mcp-lens_bg.wasm'), path.join(work, 'mcp-lens_bg.wasm'));
    fs.rmSync(path.join(work, 'mcp-lens.wasm'));
    const modules = fs.readdirSync(work).filter((f) => f.endsWith('.wasm')).sort();
    return modules.map((file) => {
      const { functions, data } = functionSizes(fs.readFileSync(path.join(work, file)));
      let gzip = null;
      if (optimize) {
        const out = path.join(work, `${file}.opt`);
        execFileSync('wasm-opt', ['-Oz', '--enable-bulk-memory', '--enable-nontrapping-float-to-int', path.join(work, file), '-o', out], { stdio: 'ignore' });
        gzip = zlib.gzipSync(fs.readFileSync(out), { level: 9 }).length;
      }
      const groups = new Map();
      for (const f of functions) {
        const group = groupOf(crateOf(f.name));
        groups.set(group, (groups.get(group) ?? 0) + f.size);
      }
      return { module: file, functions, data, groups, gzip };
    });
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

const KB = (n) => (n / 1024).toFixed(1);

/**
 * Prints the code per group over all modules (and its estimated gzip share, when the shipped
 * gzip sizes per module are given: `{ 'split_session.wasm': bytes, ... }`), then the largest
 * functions.
 */
export function printAttribution(modules, { shippedGzip = null, top = 15 } = {}) {
  const all = new Map();
  const gzipShare = new Map();
  let code = 0;
  for (const m of modules) {
    const moduleCode = [...m.groups.values()].reduce((a, b) => a + b, 0);
    code += moduleCode;
    for (const [group, size] of m.groups) {
      all.set(group, (all.get(group) ?? 0) + size);
      const gz = shippedGzip?.[m.module];
      if (gz != null && moduleCode) gzipShare.set(group, (gzipShare.get(group) ?? 0) + (gz * size) / moduleCode);
    }
  }
  const rows = [...all].sort((a, b) => b[1] - a[1]);
  const width = Math.max(...rows.map(([g]) => g.length), 5);
  const gz = shippedGzip != null;
  console.log(`${'group'.padEnd(width)} | code KB (before wasm-opt) | share${gz ? ' | estimated gzip KB shipped' : ''}`);
  const shown = rows.filter(([, s]) => s / code >= 0.005);
  for (const [group, size] of shown) {
    const share = `${((100 * size) / code).toFixed(1)}%`;
    console.log(`${group.padEnd(width)} | ${KB(size).padStart(25)} | ${share.padStart(5)}${gz ? ` | ${KB(gzipShare.get(group) ?? 0).padStart(26)}` : ''}`);
  }
  const rest = rows.filter(([, s]) => s / code < 0.005).reduce((a, [, s]) => a + s, 0);
  console.log(`${`${rows.length - shown.length} more under 0.5% each`.padEnd(width)} | ${KB(rest).padStart(25)} | ${`${((100 * rest) / code).toFixed(1)}%`.padStart(5)}`);
  console.log(`${'total code'.padEnd(width)} | ${KB(code).padStart(25)} |  100%`);
  console.log('');
  console.log('code KB per module and group (before wasm-opt):');
  for (const m of modules) {
    const parts = [...m.groups].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([g, s]) => `${g.replace(/ \(.*\)$/, '')} ${KB(s)}`);
    console.log(`  ${m.module}: ${KB([...m.groups.values()].reduce((a, b) => a + b, 0))} (${parts.join(', ')})`);
  }
  console.log('');
  console.log(`the ${top} largest functions (bytes before wasm-opt, module):`);
  const functions = modules.flatMap((m) => m.functions.map((f) => ({ ...f, module: m.module })));
  for (const f of functions.sort((a, b) => b.size - a.size).slice(0, top)) {
    console.log(`  ${String(f.size).padStart(6)}  ${demangle(f.name).slice(0, 140)}  (${f.module})`);
  }
}

function main() {
  const args = process.argv.slice(2);
  let top = 15;
  let artifact = ARTIFACT;
  let byModule = false;
  let only = null;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--top') top = Number(args[++i]);
    else if (args[i] === '--wasm') artifact = path.resolve(args[++i]);
    else if (args[i] === '--by-module') byModule = true;
    // One path's modules (the list scripts/wasm-split.mjs prints for it), e.g. the session's.
    else if (args[i] === '--only') only = new Set(args[++i].split(/[,\s]+/).filter(Boolean));
    else {
      console.error('usage: node scripts/bench/attribution.mjs [--top N] [--wasm path/to/mcp-lens.wasm] [--by-module] [--only a.wasm,b.wasm]');
      process.exit(2);
    }
  }
  if (!fs.existsSync(artifact)) {
    console.error(`${artifact} is missing: build the app first (bash scripts/build.sh)`);
    process.exit(1);
  }
  console.log(`== where the wasm's code goes (${path.relative(ROOT, artifact)}, ${new Date(fs.statSync(artifact).mtimeMs).toISOString()}) ==`);
  // Shipped sizes: this artifact's modules put through wasm-opt and gzip -9 here, so the
  // estimate holds for any artifact (dist/ may be another build's).
  const modules = attribute(artifact, { optimize: true }).filter((m) => !only || only.has(m.module));
  const shippedGzip = Object.fromEntries(modules.map((m) => [m.module, m.gzip]));
  const wasm = modules.reduce((a, m) => a + m.gzip, 0);
  console.log(`the modules shipped: ${KB(wasm)} KB gzip -9 of wasm after wasm-opt -Oz`);
  if (byModule) printByModule(modules, { shippedGzip });
  else printAttribution(modules, { top, shippedGzip });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
