import { attribute, demangle } from './attribution.mjs';
import fs from 'node:fs';
const dir = fs.readdirSync('dist').find((d) => d.startsWith('mcp-lens-'));
const loader = fs.readFileSync(`dist/${dir}/__wasm_split.js`, 'utf8');
const modules = attribute();
// Which chunk files each split needs: read from the attribution's own split via wasm names is
// not possible; use sizes from dist by file name (same input, same numbering).
const deps = (name) => {
  // minified loader: find "split_<name>.wasm" then the dependency list follows as variables; fall back to all chunks
  return null;
};
const byFile = new Map(modules.map((m) => [m.module, m]));
const target = process.argv[2] ?? 'split_session.wasm';
const files = process.argv.slice(3);
const sums = new Map();
for (const file of [target, ...files]) {
  const m = byFile.get(file);
  if (!m) continue;
  for (const f of m.functions) {
    const name = demangle(f.name);
    const mm = name.match(/^<?(mcp_lens(?:_client|_protocol|_schema|_chat)?::(?:ui::)?[a-z_]+)/);
    const key = mm ? mm[1] : (name.match(/^<?([a-z_0-9]+)::/)?.[1] ?? 'other');
    sums.set(key, (sums.get(key) ?? 0) + f.size);
  }
}
let total = 0;
for (const [, v] of sums) total += v;
console.log('total code KB', (total / 1024).toFixed(1));
for (const [k, v] of [...sums].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log((v / 1024).toFixed(1).padStart(8), k);
