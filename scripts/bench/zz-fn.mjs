import { attribute, demangle } from './attribution.mjs';
const modules = attribute();
const byFile = new Map(modules.map((m) => [m.module, m]));
const [pattern, ...files] = process.argv.slice(2);
const re = new RegExp(pattern);
for (const file of files) {
  const m = byFile.get(file);
  if (!m) continue;
  for (const f of m.functions) { const n = demangle(f.name); if (re.test(n)) console.log(f.size, file, n.slice(0, 160)); }
}
