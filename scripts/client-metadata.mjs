// The app's Client ID Metadata Document (OAuth client metadata served at an https URL that is
// itself the client_id). A static build does not know where it will be served, so it is
// written only when the build is told: `MCP_LENS_PUBLIC_URL=https://example.com/mcp-lens/
// bash scripts/build.sh` runs
//
//   node scripts/client-metadata.mjs <public url> [dist]
//
// which writes dist/client-metadata.json (client_id: <public url>client-metadata.json,
// redirect_uris: [<public url>callback.html]) and names its URL in dist/index.html
// (<meta name="mcp-lens-client-id">). The page uses that URL as its client id with an
// authorization server that says client_id_metadata_document_supported; without it, the page
// registers itself (Dynamic Client Registration) instead.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The document for an app served at `publicUrl`, and its URL (the client id). */
export function clientMetadata(publicUrl) {
  let base;
  try {
    base = new URL(publicUrl);
  } catch {
    throw new Error(`MCP_LENS_PUBLIC_URL is not a URL: "${publicUrl}"`);
  }
  if (base.protocol !== 'https:') throw new Error(`MCP_LENS_PUBLIC_URL must be an https URL (got "${publicUrl}")`);
  base.search = '';
  base.hash = '';
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  const clientId = new URL('client-metadata.json', base).href;
  const document = {
    client_id: clientId,
    client_name: 'mcp-lens',
    client_uri: base.href,
    redirect_uris: [new URL('callback.html', base).href],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
  return { clientId, document: `${JSON.stringify(document, null, 2)}\n` };
}

/** index.html naming `clientId` for the page (a <meta>, no script: the CSP is unchanged). */
export function withClientId(html, clientId) {
  if (html.includes('name="mcp-lens-client-id"')) throw new Error('index.html already names a client id');
  if (!html.includes('<meta charset="utf-8">')) throw new Error('index.html has no <meta charset> to put the client id after');
  const escaped = clientId.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return html.replace('<meta charset="utf-8">', `<meta charset="utf-8">\n  <meta name="mcp-lens-client-id" content="${escaped}">`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [publicUrl, dist = 'dist'] = process.argv.slice(2);
  const { clientId, document } = clientMetadata(publicUrl ?? '');
  writeFileSync(path.join(dist, 'client-metadata.json'), document);
  const index = path.join(dist, 'index.html');
  writeFileSync(index, withClientId(readFileSync(index, 'utf8'), clientId));
  console.log(`${dist}/client-metadata.json: client id ${clientId}`);
}
