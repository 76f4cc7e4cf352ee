// Writes what a deployment lets its embedded widgets do into the built page:
//   node scripts/embed-allow.mjs dist/index.html "private-network sign-in"
// as <meta name="mcp-lens-embed-allow" content="...">, read by the embed view (src/ui/address.rs,
// EmbedAllow). By default (no meta) a widget, which any page may frame, reaches no address on the
// reader's own machine or network and offers no sign-in. Unknown words are refused here, so a
// typo does not silently leave a deployment stricter or looser than meant.
import { readFileSync, writeFileSync } from 'node:fs';

const [file, words] = process.argv.slice(2);
const KNOWN = ['private-network', 'sign-in'];
const allowed = (words ?? '').split(/[\s,]+/).filter(Boolean);
const unknown = allowed.filter((word) => !KNOWN.includes(word));
if (!file || unknown.length) {
  console.error(`usage: node scripts/embed-allow.mjs <index.html> "${KNOWN.join(' ')}"${unknown.length ? ` (unknown: ${unknown.join(', ')})` : ''}`);
  process.exit(2);
}
const page = readFileSync(file, 'utf8').replace(/<meta name="mcp-lens-embed-allow"[^>]*>/, '');
writeFileSync(file, page.replace('<head>', `<head><meta name="mcp-lens-embed-allow" content="${allowed.join(' ')}">`));
console.log(`embedded widgets may: ${allowed.join(', ') || 'nothing beyond the default'}`);
