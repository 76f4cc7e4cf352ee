#!/usr/bin/env node
// Trunk's post_build hook (Trunk.toml): builds the app's wasm and splits it into a main module
// and lazily loaded chunks, then puts them and their bootstrap into the page.
//
// Trunk cannot split wasm by itself (its rust pipeline runs cargo, wasm-bindgen and wasm-opt
// with nothing in between), and with no `rel="rust"` link it builds the crate anyway. So
// Trunk's rust asset (index.html, with wasm-opt off) does the cargo build, linked with
// --emit-relocs (.cargo/config.toml; wasm-split reads the relocations to know which function
// references which), and this hook:
//   1. runs the same cargo build (a no-op after Trunk's; it makes the hook work alone too);
//   2. wasm-split-cli cuts every `#[wasm_split(name)]` function (src/ui/lazy.rs), with
//      everything only it reaches, into split_<name>.wasm, and writes __wasm_split.js, the
//      loader that fetches a chunk on first use and links it to the main module's memory and
//      function table;
//   3. wasm-bindgen --target web on the main module (keeping the exports the chunks import);
//   4. release: wasm-opt -Oz on every module; then the modules in packs by path (`pack`: a
//      few files a path, the loader rewritten to read each module from its pack); release:
//      terser on the JS (glue, loader, snippets), and the stylesheet and page without their
//      comments (they ship in the first paint);
//   5. removes Trunk's unsplit copy and its bootstrap, copies the lot into
//      <staging>/mcp-lens-<hash>/ (the hash of its contents: a new build is a new folder, so no
//      host cache ever mixes a main module with another build's chunk) and adds the bootstrap
//      and preload links to <staging>/index.html.
//
// Run by `trunk build` with TRUNK_STAGING_DIR and TRUNK_PROFILE set; by hand:
//   TRUNK_STAGING_DIR=dist TRUNK_PROFILE=release node scripts/wasm-split.mjs
import { execFileSync, spawnSync } from 'node:child_process';
import zlib from 'node:zlib';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { minify } from 'terser';
import { optimizeWasm } from './wasm-opt.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NAME = 'mcp-lens';
const TARGET = 'wasm32-unknown-unknown';
// MCP_LENS_KEEP_NAMES=1 keeps the function names (wasm-opt -g), so a profiler shows Rust
// names instead of wasm-function[N]; the modules grow by the name section, so never ship it.
const WASM_OPT_FLAGS = [
  '-Oz', '--enable-bulk-memory', '--enable-nontrapping-float-to-int',
  ...(process.env.MCP_LENS_KEEP_NAMES === '1' ? ['-g'] : []),
];

function fail(message) {
  console.error(`wasm-split.mjs: ${message}`);
  process.exit(1);
}

function run(command, args, env = {}) {
  try {
    execFileSync(command, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, ...env } });
  } catch (error) {
    fail(`${command} ${args.join(' ')} failed (${error.status ?? error.message})`);
  }
}

/** Every file under `dir`, relative to it, sorted (so the hash does not depend on readdir order). */
function filesUnder(dir) {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath ?? entry.path, entry.name)))
    .sort();
}

function contentHash(dir) {
  const hash = createHash('sha256');
  for (const file of filesUnder(dir)) hash.update(file).update('\0').update(fs.readFileSync(path.join(dir, file)));
  return hash.digest('hex').slice(0, 16);
}

function build(release) {
  // .cargo/config.toml links the wasm target with --emit-relocs, for wasm-split.
  run('cargo', ['build', '--target', TARGET, '--bin', NAME, ...(release ? ['--release'] : [])]);
  const targetDir = process.env.CARGO_TARGET_DIR ? path.resolve(ROOT, process.env.CARGO_TARGET_DIR) : path.join(ROOT, 'target');
  return path.join(targetDir, TARGET, release ? 'release' : 'debug', `${NAME}.wasm`);
}

function split(input, work) {
  const cut = path.join(work, 'cut');
  const pkg = path.join(work, 'pkg');
  fs.mkdirSync(cut, { recursive: true });
  // A `#[wasm_split]` function that nothing calls any more leaves its export without an import:
  // wasm-split-cli only warns, and then keeps that chunk's code in the main module (seen: the first
  // paint grew from 180 to 376 KB gzip). Refused here with the reason, rather than shipped.
  const result = spawnSync('wasm-split-cli', ['--target', 'web', '--out-name', NAME, input, cut], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  process.stdout.write(result.stdout ?? '');
  process.stderr.write(result.stderr ?? '');
  if (result.status !== 0) fail(`wasm-split-cli failed (${result.status ?? result.error?.message})`);
  if (/No corresponding imports for split export/.test(`${result.stdout}${result.stderr}`)) {
    fail('a #[wasm_split] function is no longer called (its chunk would stay in the main module): remove it or call it (src/ui/lazy.rs)');
  }
  run('wasm-bindgen', [
    '--target', 'web', '--keep-lld-exports', '--no-demangle', '--no-typescript',
    '--out-name', NAME, '--out-dir', pkg, path.join(cut, `${NAME}.wasm`),
  ]);
  for (const file of fs.readdirSync(cut)) {
    if (file !== `${NAME}.wasm`) fs.copyFileSync(path.join(cut, file), path.join(pkg, file));
  }
  if (!fs.existsSync(path.join(pkg, '__wasm_split.js'))) fail('wasm-split-cli wrote no __wasm_split.js');
  return pkg;
}

/**
 * The split modules in packs: one file per group of modules that are always needed together,
 * so a path fetches a few files instead of the dozens of small shared chunks wasm-split-cli
 * writes (each its own request: on HTTP/1.1, six at a time, a round trip per wave; the full
 * app's first paint was 36 files), and gzip sees each pack whole (the first paint's chunks:
 * 140.4 KB gzip one by one, 123.8 KB packed).
 *
 * Modules are grouped by when the two paths through the first seconds need them: the full
 * app's (`app`, then `session`) and the embed view's (`embed`, then `session`, then `panel`).
 * A module's place on each is the first of that path's steps that needs it or, when none does,
 * the set of later parts that do (sign-in, import, the chat, and the full app's panels, which
 * come in any order). Modules with the same two places are always fetched together on either
 * path, in whatever order the later parts are opened, so a pack never brings a byte its path
 * does not use. Named by the two places (`pack-app-embed.wasm`: the full app's first paint needs
 * it, and so does the embed view's; `pack-session.wasm`: the connect path of both); each split
 * module `split_x.wasm`, needed by x alone, is in `pack-x.wasm`.
 *
 * The loader (`__wasm_split.js`) is rewritten to read a module from its pack: the pack is
 * fetched once (a failed fetch is tried again by the next use, as before), sliced, and each
 * module instantiated from its own bytes as before; the pack's bytes are let go once every
 * module in it was taken. Packs keep the `.wasm` suffix so that static hosts compress them and
 * serve them with a wasm type, as they do the modules.
 *
 * Returns `{ files: {module: pack}, needs: {split: [pack, ...]} }`.
 */
function pack(pkg, needs) {
  const paths = [['app', 'session'], ['embed', 'session', 'panel']];
  const views = ['app', 'embed'];
  const place = (users, steps) =>
    steps.find((step) => users.includes(step)) ??
    users.filter((name) => !steps.includes(name) && !views.includes(name)).join('_');
  const modules = filesUnder(pkg).filter((f) => f.endsWith('.wasm') && f !== `${NAME}_bg.wasm`);
  const groups = new Map();
  const keys = new Map();
  for (const module of modules) {
    const users = Object.keys(needs).filter((name) => needs[name].includes(module)).sort();
    if (users.length === 0) fail(`${module} is needed by no split module`);
    const places = paths.map((steps) => place(users, steps));
    // What the embed view's first paint needs and the full app only in its later parts (the
    // chat reaches all of them) is one pack, not one per set of later parts: the embed's first
    // paint fetches one file for them (about 0.4 KB gzip less than four), and the full app's
    // first later part fetches at most a few KB it does not use yet.
    if (places[1] === 'embed' && places[0] !== '' && !paths[0].includes(places[0])) places[0] = 'later';
    const name = `pack-${[...new Set(places)].filter(Boolean).join('-')}.wasm`;
    const key = places.join('|');
    if ((keys.get(name) ?? key) !== key) fail(`two groups of modules would both be ${name}`);
    keys.set(name, key);
    if (!groups.has(name)) groups.set(name, []);
    groups.get(name).push(module);
  }
  const index = {};
  const files = {};
  for (const [name, members] of groups) {
    let offset = 0;
    const parts = members.map((module) => {
      const bytes = fs.readFileSync(path.join(pkg, module));
      index[module] = [name, offset, bytes.length];
      files[module] = name;
      offset += bytes.length;
      return bytes;
    });
    fs.writeFileSync(path.join(pkg, name), Buffer.concat(parts));
    for (const module of members) fs.rmSync(path.join(pkg, module));
  }
  const where = path.join(pkg, '__wasm_split.js');
  let loader = fs.readFileSync(where, 'utf8');
  const packNames = [...groups.keys()];
  let rewritten = 0;
  loader = loader.replace(/fetch\(new URL\("\.\/([\w.-]+\.wasm)", import\.meta\.url\)\)/g, (_, module) => {
    if (!index[module]) fail(`__wasm_split.js fetches ${module}, which is in no pack`);
    rewritten += 1;
    const [name, offset, length] = index[module];
    return `__packed(${packNames.indexOf(name)}, ${offset}, ${length})`;
  });
  if (rewritten !== modules.length) {
    fail(`__wasm_split.js: rewrote ${rewritten} fetches for ${modules.length} modules (its template changed?)`);
  }
  // Each module's pack (by its number), offset and length are written into its fetch above.
  const reader = `
// Written by scripts/wasm-split.mjs (\`pack\`): the packs, and how many modules each holds.
const __packNames = ${JSON.stringify(packNames)};
const __packLeft = ${JSON.stringify(packNames.map((name) => groups.get(name).length))};
const __packBytes = [];
function __packed(pack, offset, length) {
  const name = __packNames[pack];
  let bytes = __packBytes[pack];
  if (bytes === undefined) {
    bytes = fetch(new URL("./" + name, import.meta.url)).then((response) => {
      if (!response.ok) throw new Error(\`\${name}: HTTP \${response.status}\`);
      return response.arrayBuffer();
    });
    bytes.catch(() => { if (__packBytes[pack] === bytes) __packBytes[pack] = undefined; });
    __packBytes[pack] = bytes;
  }
  return bytes.then((buffer) => {
    if (--__packLeft[pack] <= 0 && __packBytes[pack] === bytes) __packBytes[pack] = undefined;
    return new Response(new Uint8Array(buffer, offset, length), { headers: { "Content-Type": "application/wasm" } });
  });
}
`;
  fs.writeFileSync(where, `${loader}\n${reader}`);
  const packed = Object.fromEntries(
    Object.entries(needs).map(([split, members]) => [split, [...new Set(members.map((m) => files[m]))].sort()]),
  );
  return { files, needs: packed };
}

function optimize(pkg) {
  for (const file of filesUnder(pkg).filter((f) => f.endsWith('.wasm'))) {
    const where = path.join(pkg, file);
    const failed = optimizeWasm(where, WASM_OPT_FLAGS, ROOT);
    if (failed) fail(`wasm-opt on ${file} failed (${failed})`);
  }
}

/**
 * Release: the JS minified. Comments, whitespace and local names go; exported names and
 * property names stay (the chunks and wasm-bindgen's imports find functions by them).
 * About 3 KB gzip of the first paint.
 */
async function minifyScripts(pkg) {
  for (const file of filesUnder(pkg).filter((f) => f.endsWith('.js'))) {
    const where = path.join(pkg, file);
    let minified;
    try {
      minified = await minify(fs.readFileSync(where, 'utf8'), { module: true, format: { comments: false } });
    } catch (error) {
      fail(`terser could not minify ${file}: ${error.message}`);
    }
    fs.writeFileSync(where, minified.code);
  }
}

/**
 * A stylesheet without its comments, indentation and blank lines. Strings are copied as they
 * are; a comment between two tokens with no space around it (`a/* x *\/b`, where removing it
 * would join them) fails the build rather than guessing.
 */
function stripCss(css) {
  let out = '';
  for (let i = 0; i < css.length; ) {
    const c = css[i];
    if (c === '"' || c === "'") {
      let end = i + 1;
      while (end < css.length && css[end] !== c) end += css[end] === '\\' ? 2 : 1;
      out += css.slice(i, end + 1);
      i = end + 1;
    } else if (c === '/' && css[i + 1] === '*') {
      const close = css.indexOf('*/', i + 2);
      const after = close < 0 ? css.length : close + 2;
      if (/\S$/.test(out.slice(-1)) && /^\S/.test(css.slice(after, after + 1))) {
        fail(`a comment joins two tokens in the stylesheet: ${css.slice(Math.max(0, i - 20), after + 20)}`);
      }
      i = after;
    } else {
      out += c;
      i += 1;
    }
  }
  // A string cannot hold a raw line break, so each line's ends are outside strings.
  return `${out.split('\n').map((line) => line.trim()).filter(Boolean).join('\n')}\n`;
}

/**
 * Release: the staged stylesheets stripped (`stripCss`), with the page's integrity hashes of them
 * made to match. A stylesheet the page does not link (the chat's, fetched by its chunk) has no
 * hash to update.
 */
function stripStyles(staging, html) {
  const integrity = (bytes) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
  for (const file of fs.readdirSync(staging).filter((f) => f.endsWith('.css'))) {
    const where = path.join(staging, file);
    const before = fs.readFileSync(where);
    const after = stripCss(before.toString('utf8'));
    const linked = html.includes(`href="${file}"`) || html.includes(`href="./${file}"`);
    if (linked && !html.includes(integrity(before))) fail(`index.html has no integrity hash of ${file} to update`);
    html = html.replace(integrity(before), integrity(after));
    fs.writeFileSync(where, after);
  }
  // The page's own comments (notes for whoever reads index.html, and what Trunk's links left).
  return html.replace(/<!--[\s\S]*?-->/g, '').replace(/\n\s*\n+/g, '\n');
}

/** Takes Trunk's unsplit wasm, its JS and bootstrap out of the staged page. */
function removeTrunkCopy(staging, html) {
  const trunkFile = new RegExp(`^${NAME}-[0-9a-f]+(_bg\\.wasm|\\.js)$`);
  for (const file of fs.readdirSync(staging)) {
    if (trunkFile.test(file)) fs.rmSync(path.join(staging, file));
  }
  fs.rmSync(path.join(staging, 'snippets'), { recursive: true, force: true });
  const before = html;
  html = html.replace(/<script type="module">\s*import init, \* as bindings from[\s\S]*?<\/script>/, '');
  html = html.replace(new RegExp(`<link rel="(?:modulepreload|preload)" href="[^"]*(?:${NAME}-[0-9a-f]+(?:_bg\\.wasm|\\.js)|/snippets/[^"]*)"[^>]*>`, 'g'), '');
  if (html === before) fail("found no bootstrap of Trunk's to replace in index.html");
  const left = html.match(new RegExp(`${NAME}-[0-9a-f]+(?:_bg\\.wasm|\\.js)|/snippets/`));
  if (left) fail(`index.html still names Trunk's ${left[0]} after removing its bootstrap`);
  return html;
}

/** Every split module's name, from the loader: `app`, `embed`, `session`, ... */
function splitNames(pkg) {
  const loader = fs.readFileSync(path.join(pkg, '__wasm_split.js'), 'utf8');
  return [...new Set([...loader.matchAll(/__wasm_split_load_(\w+) = /g)].map((m) => m[1]))].sort();
}

/** The files the split module `name` needs (itself and the shared chunks it depends on). */
function splitFiles(pkg, name) {
  const loader = fs.readFileSync(path.join(pkg, '__wasm_split.js'), 'utf8');
  const files = (name) => {
    const found = loader.match(
      new RegExp(`__wasm_split_load_${name} = [\\s\\S]*?"\\./(split_${name}\\.wasm)"[\\s\\S]*?, \\[([^\\]]*)\\]\\)\\)`),
    );
    if (!found) fail(`__wasm_split.js has no loader for the ${name} chunk`);
    const deps = found[2].split(',').map((d) => d.trim()).filter(Boolean).map((dep) => {
      const chunk = dep.match(/^__chunk_(\d+)$/);
      if (!chunk) fail(`__wasm_split.js: unexpected dependency ${dep} of the ${name} chunk`);
      return `chunk_${chunk[1]}.wasm`;
    });
    for (const file of [found[1], ...deps]) {
      if (!fs.existsSync(path.join(pkg, file))) fail(`the ${name} chunk depends on ${file}, which is missing`);
    }
    return [found[1], ...deps];
  };
  return files(name);
}

/**
 * What each path downloads (gzip -9 of the shipped files, so after wasm-opt and terser): the
 * first paint of each view (the main module, its glue, and the view's shell with its chunks),
 * and, for every other split module, what it adds when first used after the full app's first
 * paint. Printed by every build, so a change that moves code between paths shows at once.
 */
function pathSizes(pkg, needs) {
  const gz = (file) => zlib.gzipSync(fs.readFileSync(path.join(pkg, file)), { level: 9 }).length;
  const base = [`${NAME}_bg.wasm`, `${NAME}.js`, '__wasm_split.js'];
  const kb = (files) => `${(files.reduce((sum, f) => sum + gz(f), 0) / 1024).toFixed(1)} KB`;
  const lines = [];
  const app = new Set([...base, ...needs.app]);
  lines.push(`first paint, full app: ${kb([...app])}`);
  lines.push(`first paint, embed view: ${kb([...new Set([...base, ...needs.embed])])}`);
  const connected = new Set([...app, ...(needs.session ?? [])]);
  for (const [name, files] of Object.entries(needs)) {
    if (name === 'app' || name === 'embed') continue;
    const added = files.filter((f) => !app.has(f));
    const later = name === 'session' ? '' : `; +${kb(files.filter((f) => !connected.has(f)))} once connected`;
    lines.push(`${name}: +${kb(added)} after the full app's first paint${later} (${added.join(' ')})`);
  }
  return lines;
}

/**
 * The chat's in-page model (npm @wllama/wllama, llama.cpp in wasm): its script (already
 * minified by its authors, so copied after terser), its wasm and the small-model tool template,
 * in `wllama/` beside the host script that imports them. Returns the files, host included.
 */
function copyWllama(pkg) {
  const from = path.join(ROOT, 'node_modules/@wllama/wllama/esm');
  if (!fs.existsSync(path.join(from, 'index.min.js'))) fail('node_modules/@wllama/wllama is missing: run scripts/setup.sh');
  fs.mkdirSync(path.join(pkg, 'wllama'), { recursive: true });
  fs.copyFileSync(path.join(from, 'index.min.js'), path.join(pkg, 'wllama/wllama.js'));
  fs.copyFileSync(path.join(from, 'wasm/wllama.wasm'), path.join(pkg, 'wllama/wllama.wasm'));
  fs.copyFileSync(path.join(ROOT, 'src/ui/chat/tools.jinja'), path.join(pkg, 'wllama/tools.jinja'));
  return ['wllama_host.js', 'wllama/wllama.js', 'wllama/wllama.wasm', 'wllama/tools.jinja'];
}

/** What picking "In this page" downloads (gzip -9): the scripts at once, the wasm at load. */
function inPageSizes(pkg, files) {
  const gz = (file) => zlib.gzipSync(fs.readFileSync(path.join(pkg, file)), { level: 9 }).length;
  const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
  const scripts = files.filter((f) => f.endsWith('.js')).reduce((sum, f) => sum + gz(f), 0);
  const rest = files.filter((f) => !f.endsWith('.js')).reduce((sum, f) => sum + gz(f), 0);
  return `in-page model: +${kb(scripts)} scripts when picked, +${kb(rest)} wasm and template when a model loads (${files.join(' ')})`;
}

function install(pkg, staging, shells, release) {
  const folder = `${NAME}-${contentHash(pkg)}`;
  fs.cpSync(pkg, path.join(staging, folder), { recursive: true });
  const page = path.join(staging, 'index.html');
  let html = removeTrunkCopy(staging, fs.readFileSync(page, 'utf8'));
  if (release) html = stripStyles(staging, html);
  if (html.includes(`/${NAME}.js`)) fail(`${page} already has a bootstrap`);
  const base = `./${folder}`;
  // Fetched at once, in parallel with the page's own parse: the main module and its glue.
  // The chunks are fetched after the first paint (src/ui/lazy.rs).
  const snippets = filesUnder(pkg).filter((f) => f.startsWith('snippets/') && f.endsWith('.js'));
  // The full app's shell or the embed view's (src/ui/lazy.rs, `Shell`) is fetched as soon as
  // the main module runs; preloading the one the address asks for (the same test as
  // `address::is_embed`) fetches it beside the main module instead of after it.
  // A link that connects at once (`&connect`) needs the connect path's chunk right after the
  // shell: its files are preloaded with the first paint's, not after it.
  const connectPath = shells.session;
  const preloadShell = `(function () {
    var query = new URLSearchParams(location.search);
    var flag = function (name) {
      return query.getAll(name).some(function (v) {
        return ['0', 'false', 'no', 'off'].indexOf(v.trim().toLowerCase()) < 0;
      });
    };
    var embed = flag('embed');
    var files = embed ? ${JSON.stringify(shells.embed)} : ${JSON.stringify(shells.app)};
    if (flag('connect')) {
      ${JSON.stringify(connectPath)}.forEach(function (file) {
        if (files.indexOf(file) < 0) files = files.concat([file]);
      });
    }
    files.forEach(function (file) {
      var link = document.createElement('link');
      link.rel = 'preload'; link.as = 'fetch'; link.type = 'application/wasm'; link.crossOrigin = 'anonymous';
      link.href = '${base}/' + file;
      document.head.appendChild(link);
    });
  })();`;
  // The main module and its glue first: on HTTP/1.1 (six connections a host) the requests
  // start in this order, and the main module is compiled while the shell's packs arrive.
  const head = [
    `<link rel="modulepreload" href="${base}/${NAME}.js">`,
    `<link rel="preload" href="${base}/${NAME}_bg.wasm" as="fetch" type="application/wasm" crossorigin="anonymous">`,
    `<link rel="modulepreload" href="${base}/__wasm_split.js">`,
    ...snippets.map((f) => `<link rel="modulepreload" href="${base}/${f}">`),
    `<script>${preloadShell}</script>`,
    `<script type="module">import init from '${base}/${NAME}.js'; await init({ module_or_path: '${base}/${NAME}_bg.wasm' });</script>`,
  ].join('\n  ');
  // Right after `<meta charset>` (scripts/csp.mjs puts the page's policy between the two), so
  // before the stylesheet: a classic script after a stylesheet waits for it to load, and the
  // parser waits for the script, so every request below it started one round trip late.
  const charset = '<meta charset="utf-8">';
  if (!html.includes(charset)) fail(`${page} has no ${charset}`);
  html = html.replace(charset, `${charset}\n  ${head}`);
  fs.writeFileSync(page, html);
  return folder;
}

async function main() {
  const staging = process.env.TRUNK_STAGING_DIR;
  if (!staging) fail('TRUNK_STAGING_DIR is not set (run by trunk, or set it to the dist folder)');
  const release = process.env.TRUNK_PROFILE === 'release';
  const work = fs.mkdtempSync(path.join(process.env.TMPDIR || '/tmp', 'mcp-lens-split-'));
  try {
    const pkg = split(build(release), work);
    // Read from the loader before terser rewrites it.
    const modules = Object.fromEntries(splitNames(pkg).map((name) => [name, splitFiles(pkg, name)]));
    if (release) optimize(pkg);
    const { needs } = pack(pkg, modules);
    // The MCP Apps host's JavaScript, imported by its stub (src/ui/apps.rs) when the first app
    // is drawn: beside the loader, in the build's folder, so no host cache mixes builds.
    fs.copyFileSync(path.join(ROOT, 'src/ui/apps_host.js'), path.join(pkg, 'apps_host.js'));
    // The chat's in-page model host, imported by its stub (src/ui/chat/in_page.rs) only when
    // the person picks "In this page" as a provider.
    fs.copyFileSync(path.join(ROOT, 'src/ui/wllama_host.js'), path.join(pkg, 'wllama_host.js'));
    const shells = { app: needs.app, embed: needs.embed, session: needs.session };
    // A profile shows the glue's own names too (MCP_LENS_KEEP_NAMES).
    if (release && process.env.MCP_LENS_KEEP_NAMES !== '1') await minifyScripts(pkg);
    const inPage = copyWllama(pkg);
    const folder = install(pkg, staging, shells, release);
    const sizes = filesUnder(pkg)
      .filter((f) => /\.(wasm|js)$/.test(f))
      .map((f) => `${f} ${fs.statSync(path.join(pkg, f)).size} B`);
    console.log(`wasm-split.mjs: ${folder}/ ${sizes.join(', ')}`);
    if (release) for (const line of pathSizes(pkg, needs)) console.log(`wasm-split.mjs: ${line}`);
    if (release) console.log(`wasm-split.mjs: ${inPageSizes(pkg, inPage)}`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
