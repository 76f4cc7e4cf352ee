// wasm-opt -Oz on a wasm file, in place, without binaryen's "warning: unknown name subsection
// with id 3" lines: rustc writes label names (name subsection 3), which binaryen 132 does not
// read and drops; nothing is wrong, but a new user reading the build's output takes the ~14
// lines for errors. Every other line wasm-opt prints is passed on, and a failure fails.
//
//   node scripts/wasm-opt.mjs <file.wasm> [more wasm-opt flags]
//
// scripts/wasm-split.mjs optimizes every module through `optimizeWasm`.

import { spawnSync } from 'node:child_process';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const HARMLESS = /^warning: unknown name subsection with id \d+ at \d+$/;

/** Optimizes `file` in place; returns null, or why it failed. */
export function optimizeWasm(file, flags = ['-Oz'], cwd = process.cwd()) {
  const run = spawnSync('wasm-opt', [...flags, file, '-o', file], { cwd, encoding: 'utf8' });
  const said = `${run.stdout ?? ''}${run.stderr ?? ''}`
    .split('\n')
    .filter((line) => line.trim() !== '' && !HARMLESS.test(line.trim()));
  if (said.length) process.stderr.write(`${said.join('\n')}\n`);
  if (run.error) return run.error.message;
  return run.status === 0 ? null : `exit status ${run.status}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [file, ...flags] = process.argv.slice(2);
  if (!file) {
    console.error('usage: node scripts/wasm-opt.mjs <file.wasm> [wasm-opt flags]');
    process.exit(2);
  }
  const failed = optimizeWasm(file, flags.length ? flags : ['-Oz']);
  if (failed) {
    console.error(`wasm-opt.mjs: wasm-opt on ${file} failed (${failed})`);
    process.exit(1);
  }
}
