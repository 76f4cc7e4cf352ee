// Writes a strict Content-Security-Policy into the built dist/index.html, and a stricter one
// into dist/callback.html (the sign-in redirect target); run by scripts/build.sh after trunk.
// Trunk's bootstrap is an inline module script, so its exact text is hashed here and allowed
// by hash; nothing else inline may run.
//
// The policy: scripts only from the app's own origin (plus that one hash), WebAssembly
// compilation allowed ('wasm-unsafe-eval'), requests to any MCP server (connect-src *; and blob:, the warm-up's answer made in the page),
// images and media only from data: URLs (how results are shown), no plugins, no <base>, no
// form submissions. frame-ancestors cannot be set from a <meta> tag: hosts add it as a
// header (see README, "Deploying").
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename } from 'node:path';

const file = process.argv[2] ?? 'dist/index.html';
let html = readFileSync(file, 'utf8');
if (html.includes('http-equiv="Content-Security-Policy"')) {
  console.log(`${file}: already has a Content-Security-Policy`);
  process.exit(0);
}
const hashes = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
  ([, body]) => `'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`,
);
// The OAuth callback page only runs its own callback.js (it posts the redirect URL to the
// page that opened it): nothing else at all, no requests, no wasm.
const callback = basename(file) === 'callback.html';
const policy = (callback
  ? [
      "default-src 'none'",
      `script-src 'self' ${hashes.join(' ')}`.trim(),
      "base-uri 'none'",
      "form-action 'none'",
    ]
  : [
      "default-src 'self'",
      `script-src 'self' 'wasm-unsafe-eval' ${hashes.join(' ')}`.trim(),
      // blob: only for the warm-up's fetch of an answer made in the page (client::warm_up::browser_fetch).
      'connect-src * blob:',
      // The chat's in-page model (npm @wllama/wllama) runs llama.cpp in a worker it makes from a
      // blob of its own script (and, cross-origin isolated, its threads the same way): the page's
      // scripts are still only its own, and a worker can run only what they put in the blob.
      "worker-src 'self' blob:",
      'img-src data:',
      'media-src data:',
      "object-src 'none'",
      "base-uri 'none'",
      "form-action 'none'",
    ]
).join('; ');
const meta = `<meta http-equiv="Content-Security-Policy" content="${policy}">`;
if (!/<meta charset="utf-8">/.test(html)) throw new Error(`${file}: no <meta charset> to put the policy after`);
html = html.replace('<meta charset="utf-8">', `<meta charset="utf-8">\n  ${meta}`);
writeFileSync(file, html);
console.log(`${file}: Content-Security-Policy with ${hashes.length} inline script hash(es)`);
