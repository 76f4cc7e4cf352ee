// A real, independently written OAuth 2.1 authorization server for the sign-in end-to-end tests:
// `oidc-provider` (npm, by panva; OpenID Certified) as its own configuration allows, with its
// built-in development login and consent pages. Nothing of the OAuth logic is ours.
//
//   node tests/servers/oauth_as.mjs --port 4000 [--access-token-ttl 10] [--token-log FILE]
//                                   [--no-cors metadata|registration|token] [--no-expires-in]
//
// Bound to 127.0.0.1; the issuer is http://127.0.0.1:<port> (discovery at
// /.well-known/openid-configuration and /.well-known/oauth-authorization-server, JWKS at /jwks,
// authorization /auth, token /token, registration /reg, login and consent pages /interaction/*:
// any login and password are accepted).
//
// What it does, all of it oidc-provider's own features:
// - Dynamic Client Registration (RFC 7591), open (no initial access token);
// - PKCE (required for public clients, its default);
// - resource indicators (RFC 8707): any http(s) `resource` is a resource server whose access
//   tokens are JWTs (RFC 9068, RS256, signed with a key made at start) with `aud` = that
//   resource, scope `mcp`, living `--access-token-ttl` seconds (short, so the page's refresh is
//   exercised);
// - refresh tokens when the grant has `offline_access` (listed in scopes_supported), rotated on
//   each use for public clients (its default);
// - `iss` in the authorization response (RFC 9207).
//
// CORS, as a browser client needs it (README, "What an authorization server must allow"):
// oidc-provider answers CORS on discovery, JWKS and, per client (`clientBasedCORS`), the token
// endpoint; it sends none on the registration endpoint. The few lines below marked "CORS for
// the registration endpoint" are what an operator adds for browser clients that register
// themselves; `--no-cors registration` leaves oidc-provider as it ships, `--no-cors token`
// makes `clientBasedCORS` refuse every origin (the token endpoint's answers then carry no
// Access-Control-Allow-Origin), and `--no-cors metadata` takes the CORS headers off its discovery
// documents (as a proxy in front of it might): the cases in which the page must say what is
// missing.
//
// `--no-expires-in`: token responses without `expires_in` (RFC 6749 only recommends it, and some
// servers leave it out): the client cannot know when the token expires and learns it from the
// MCP server's 401.
//
// `--token-log FILE`: every token response's access and refresh token, one JSON line each
// ({"grant": ..., "access_token": ..., "refresh_token": ...}), so the test can look for them
// where they must never appear. A test-only aid: a real server keeps no such file.

import { generateKeyPairSync } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import Provider from 'oidc-provider';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    'access-token-ttl': { type: 'string', default: '10' },
    'token-log': { type: 'string' },
    'no-cors': { type: 'string' },
    'no-expires-in': { type: 'boolean', default: false },
  },
});
const HOST = '127.0.0.1';
const port = Number(values.port);
if (!Number.isInteger(port) || port <= 0) throw new Error('--port <number> is required');
const accessTokenTTL = Number(values['access-token-ttl']);
const noCors = values['no-cors'];
if (noCors !== undefined && !['metadata', 'registration', 'token'].includes(noCors)) {
  throw new Error('--no-cors takes metadata, registration or token');
}
const issuer = `http://${HOST}:${port}`;

// A signing key for this run only (tokens from a previous run are not accepted).
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: `run-${Date.now()}`, use: 'sig', alg: 'RS256' };

const provider = new Provider(issuer, {
  jwks: { keys: [signingKey] },
  scopes: ['openid', 'offline_access', 'mcp'],
  features: {
    devInteractions: { enabled: true },
    registration: { enabled: true },
    resourceIndicators: {
      enabled: true,
      // The resource asked for at the authorization is the one its tokens are for.
      defaultResource: (_ctx, _client, oneOf) => oneOf,
      useGrantedResource: () => true,
      getResourceServerInfo: (_ctx, resourceIndicator) => ({
        scope: 'mcp',
        audience: resourceIndicator,
        accessTokenTTL,
        accessTokenFormat: 'jwt',
        jwt: { sign: { alg: 'RS256' } },
      }),
    },
  },
  // oidc-provider's default rule, written out: a public client may call the token endpoint from
  // the origins of its redirect URIs.
  clientBasedCORS: (_ctx, origin, client) =>
    noCors !== 'token' && client.redirectUris.some((uri) => URL.parse(uri)?.origin === origin),
  // Lifetimes (seconds); resource servers' access tokens take theirs from getResourceServerInfo.
  ttl: { AccessToken: accessTokenTTL, Grant: 3600, Interaction: 600, RefreshToken: 3600, Session: 3600 },
  // Development accounts: whatever login was typed is the subject.
  findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
});

// CORS for the registration endpoint (oidc-provider sends none there).
if (noCors !== 'registration') {
  provider.use(async (ctx, next) => {
    if (ctx.path !== '/reg') return next();
    ctx.set('Access-Control-Allow-Origin', ctx.get('Origin') || '*');
    ctx.vary('Origin');
    if (ctx.method === 'OPTIONS') {
      ctx.set('Access-Control-Allow-Methods', 'POST');
      ctx.set('Access-Control-Allow-Headers', 'content-type, authorization');
      ctx.status = 204;
      return undefined;
    }
    return next();
  });
}

if (noCors === 'metadata') {
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.path.startsWith('/.well-known/')) {
      for (const name of Object.keys(ctx.response.headers)) {
        if (name.startsWith('access-control-')) ctx.remove(name);
      }
    }
  });
}

if (values['no-expires-in']) {
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.path === '/token' && ctx.body && typeof ctx.body === 'object') delete ctx.body.expires_in;
  });
}

if (values['token-log']) {
  const file = values['token-log'];
  provider.on('grant.success', (ctx) => {
    const { access_token, refresh_token } = ctx.body ?? {};
    appendFileSync(file, `${JSON.stringify({ grant: ctx.oidc.params.grant_type, access_token, refresh_token })}\n`);
  });
}

provider.listen(port, HOST, () => {
  process.stderr.write(`oauth_as: ${issuer} (access tokens ${accessTokenTTL} s${noCors ? `, no CORS on ${noCors}` : ''})\n`);
});
