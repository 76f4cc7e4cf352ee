// Signing in to a protected MCP server whose authorization server is real and not ours:
// oidc-provider (npm, tests/servers/oauth_as.mjs: Dynamic Client Registration, PKCE, resource
// indicators, JWT access tokens living ACCESS_TOKEN_TTL seconds, rotating refresh tokens, its own
// login and consent pages) in front of a fastmcp 2.x server that checks every token against the
// issuer's keys, audience, expiry and scope (tests/servers/oauth_server.py).
//
// Through the UI, as a person would: connect -> 401 -> Sign in -> the sign-in window, where a
// login and a consent are typed and clicked -> back, connected -> a tool call; the token expires
// and the next call goes out with a refreshed one; the tokens are nowhere they must not be; Sign
// out -> the server wants a sign-in again. And the two ways oidc-provider can leave a browser
// client without CORS: the page says which endpoint and which header. And step by step: each
// request waits for Next step, the window opens with the authorization redirect.

import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connect, expect, openApp, runTool, selectTool, test, type Page } from './helpers';
import { freePort, TestServer } from './spawn';

/** The access tokens' lifetime (s): short, so the test waits one out. */
const ACCESS_TOKEN_TTL = 10;

let servers: TestServer[] = [];
test.afterEach(async () => {
  for (const server of servers) await server.stop();
  servers = [];
});

interface Pair {
  issuer: string;
  mcpUrl: string;
  /** Every token the authorization server handed out (its --token-log). */
  issued: () => { grant: string; access_token: string; refresh_token?: string }[];
}

/** The authorization server (with `asArgs`) and the MCP server that trusts it. */
async function startPair(asArgs: string[] = []): Promise<Pair> {
  const asPort = await freePort();
  const issuer = `http://127.0.0.1:${asPort}`;
  const tokenLog = path.join(mkdtempSync(path.join(os.tmpdir(), 'mcp-lens-oauth-')), 'tokens.jsonl');
  const as = new TestServer(
    'node',
    ['tests/servers/oauth_as.mjs', '--port', String(asPort), '--access-token-ttl', String(ACCESS_TOKEN_TTL), '--token-log', tokenLog, ...asArgs],
    asPort,
  );
  servers.push(as);
  await as.start();
  const mcpPort = await freePort();
  const mcp = new TestServer('.venv-py1/bin/python', ['tests/servers/oauth_server.py', '--port', String(mcpPort), '--issuer', issuer], mcpPort);
  servers.push(mcp);
  await mcp.start();
  const issued = () => {
    let text = '';
    try {
      text = readFileSync(tokenLog, 'utf8');
    } catch {
      return [];
    }
    return text.split('\n').filter(Boolean).map((line) => JSON.parse(line));
  };
  return { issuer, mcpUrl: `http://127.0.0.1:${mcpPort}/mcp`, issued };
}

/** The `jti` of a JWT access token (its payload is not secret to the test). */
function jti(token: string): string {
  return JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString('utf8')).jti;
}

/** Connect, see the 401 offer a sign-in; returns the bar. */
async function connectUntilRefused(page: Page) {
  await page.locator('#connect').click();
  const bar = page.locator('#sign-in-bar');
  await expect(bar).toContainText('The server answered 401: it wants you to sign in', { timeout: 20_000 });
  await expect(page.locator('#sign-in')).toHaveText('Sign in');
  return bar;
}

/** Clicks Sign in and returns the sign-in window once the authorization server's login page is in it. */
async function openSignInWindow(page: Page, issuer: string): Promise<Page> {
  const [popup] = await Promise.all([page.waitForEvent('popup'), page.locator('#sign-in').click()]);
  await popup.waitForURL((url) => url.href.startsWith(`${issuer}/interaction/`), { timeout: 20_000 });
  return popup;
}

/**
 * oidc-provider's development pages: any login and password, then "Continue" on the consent
 * page; the authorization server sends the window to callback.html, which hands the answer to the
 * page, and the page closes the window.
 */
async function logInAndConsent(popup: Page, login: string): Promise<void> {
  const closed = popup.waitForEvent('close', { timeout: 20_000 });
  await typeLoginAndConsent(popup, login);
  await closed;
}

/** oidc-provider's login and consent pages, in whatever window they are. */
async function typeLoginAndConsent(popup: Page, login: string): Promise<void> {
  await popup.locator('input[name="login"]').fill(login);
  await popup.locator('input[name="password"]').fill('any password');
  await popup.locator('button[type="submit"]', { hasText: 'Sign-in' }).click();
  // The consent page lists what the page asks for: the MCP server's scope, and offline access
  // (a refresh token: oidc-provider grants it only with prompt=consent, which the page sends).
  await expect(popup.locator('body')).toContainText('mcp');
  await expect(popup.locator('body')).toContainText('offline access');
  await popup.locator('button[type="submit"]', { hasText: 'Continue' }).click();
}

/** From the 401 to "Signed in.": the sign-in window, a login, the consent, back and connected. */
async function signIn(page: Page, pair: Pair, login: string): Promise<void> {
  await connectUntilRefused(page);
  await expect(page.locator('#status')).toContainText('Error');
  const popup = await openSignInWindow(page, pair.issuer);
  await logInAndConsent(popup, login);
  await expect(page.locator('#status')).toContainText('Connected', { timeout: 20_000 });
  await expect(page.locator('#sign-in-bar')).toContainText('Signed in.');
  await expect(page.locator('#connect-error')).toBeHidden();
}

/** Runs `whoami` and returns its answer (this call's: the panel's data-runs counts finished calls). */
async function whoami(page: Page): Promise<string> {
  const panel = await selectTool(page, 'whoami');
  const before = Number((await panel.getAttribute('data-runs')) ?? '0');
  const result = await runTool(page);
  await expect(panel).toHaveAttribute('data-runs', String(before + 1), { timeout: 20_000 });
  return result.locator('.content-text').first().innerText();
}

function tokenIn(answer: string): string {
  const match = /token (\S+) issued/.exec(answer);
  expect(match, `no token id in "${answer}"`).not.toBeNull();
  return match![1];
}

test('sign in through the real authorization server, call a tool, refresh after expiry, no token leaks, sign out', async ({ page }) => {
  test.setTimeout(120_000);
  const consoleLines: string[] = [];
  page.on('console', (message) => consoleLines.push(message.text()));
  const pair = await startPair();
  // What reached the MCP server: method, whether it carried a token, the status.
  const toServer: { method: string; authorized: boolean; status: number }[] = [];
  page.on('response', (response) => {
    const request = response.request();
    if (request.url() !== pair.mcpUrl || request.method() === 'OPTIONS') return;
    toServer.push({ method: request.method(), authorized: 'authorization' in request.headers(), status: response.status() });
  });
  await openApp(page, pair.mcpUrl);
  await signIn(page, pair, 'alice');

  // What the steps view says happened, in order: the 401, the metadata of both servers, the
  // registration, the authorization, the code exchange (with a refresh token).
  const steps = page.locator('#auth-view li.auth-step');
  const stepNames = () => steps.evaluateAll((items) => items.map((item) => item.getAttribute('data-step')));
  await expect.poll(stepNames).toEqual(
    expect.arrayContaining(['Challenge', 'ResourceMetadata', 'AuthServerMetadata', 'ClientRegistration', 'Authorization', 'TokenExchange']),
  );
  await expect(page.locator('#auth-view li.auth-step[data-step="TokenExchange"] .auth-note')).toHaveText(
    `got a Bearer token for ${ACCESS_TOKEN_TTL} s and a refresh token`,
  );
  await expect(page.locator('#auth-view li.auth-step.failed')).toHaveCount(0);

  const first = await whoami(page);
  expect(first).toContain('subject alice;');
  expect(first).toContain('scope mcp;');
  const firstToken = tokenIn(first);
  // A fresh token is not refreshed: nothing yet.
  await expect(page.locator('#auth-view li.auth-step[data-step="Refresh"]')).toHaveCount(0);

  // Let the access token expire (the MCP server refuses it from then on), then call again.
  await page.waitForTimeout((ACCESS_TOKEN_TTL + 1) * 1000);
  const second = await whoami(page);
  expect(second).toContain('subject alice;');
  const secondToken = tokenIn(second);
  expect(secondToken).not.toBe(firstToken);
  const refresh = page.locator('#auth-view li.auth-step[data-step="Refresh"]').last();
  await expect(refresh.locator('.auth-request')).toHaveText(`POST ${pair.issuer}/token`);
  await expect(refresh.locator('.auth-status')).toHaveText('HTTP 200');
  await expect(refresh.locator('.auth-note')).toHaveText(`got a Bearer token for ${ACCESS_TOKEN_TTL} s and a refresh token`);
  // The server saw a token from the refresh_token grant (oidc-provider's record of what it issued).
  const issued = pair.issued();
  const byJti = new Map(issued.map((entry) => [jti(entry.access_token), entry.grant]));
  expect(byJti.get(firstToken)).toBe('authorization_code');
  expect(byJti.get(secondToken)).toBe('refresh_token');
  // Refreshed before it expired: the server never refused a token the page sent.
  expect(toServer.filter((r) => r.authorized && r.status === 401)).toEqual([]);

  // No access or refresh token anywhere it must not be.
  const secrets = issued.flatMap((entry) => [entry.access_token, entry.refresh_token]).filter((s): s is string => !!s);
  expect(secrets.length).toBeGreaterThanOrEqual(3);
  const places: Record<string, string> = {
    'the page markup': await page.content(),
    'the address': page.url(),
    'the console': consoleLines.join('\n'),
    localStorage: await page.evaluate(() => JSON.stringify(Object.entries(localStorage))),
    sessionStorage: await page.evaluate(() => JSON.stringify(Object.entries(sessionStorage))),
  };
  const wireLog = page.locator('#wire-log');
  await wireLog.locator('summary').click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#wire-export').click()]);
  places['the wire log export'] = readFileSync((await download.path()) as string, 'utf8');
  expect(places['the wire log export']).toContain('"tools/call"');
  await wireLog.locator('tr.wire-entry[data-direction="sent"]', { hasText: 'tools/call' }).last().click();
  await page.locator('#wire-curl').click();
  places['the curl copy'] = await page.locator('#wire-detail pre.curl').innerText();
  expect(places['the curl copy']).toContain(`-H 'authorization: Bearer '"$MCP_TOKEN"`);
  places['the steps view'] = await page.locator('#auth-view').innerText();
  for (const [where, text] of Object.entries(places)) {
    for (const secret of secrets) {
      expect(text.includes(secret), `a token (${secret.slice(0, 6)}…) is in ${where}`).toBe(false);
    }
  }
  await wireLog.locator('summary').click();

  // Sign out: the session ends (its DELETE still carries the token, so the server accepts it),
  // then the tokens are forgotten; the server wants a sign-in again.
  toServer.length = 0;
  await page.locator('#sign-out').click();
  await expect(page.locator('#status')).toContainText('Disconnected');
  await expect(page.locator('#sign-in-bar')).toBeHidden();
  expect(toServer).toEqual([{ method: 'DELETE', authorized: true, status: 200 }]);
  await expect(page.locator('#auth-view li.auth-step').last().locator('.auth-note')).toHaveText('signed out: the tokens were forgotten');
  await connectUntilRefused(page);
  await expect(page.locator('#status')).toContainText('Error');
});

test('a token whose lifetime is not said: the server\'s 401 is answered by one refresh and the call is sent again', async ({ page }) => {
  test.setTimeout(90_000);
  const pair = await startPair(['--no-expires-in']);
  await openApp(page, pair.mcpUrl);
  await signIn(page, pair, 'carol');
  await expect(page.locator('#auth-view li.auth-step[data-step="TokenExchange"] .auth-note')).toHaveText(
    'got a Bearer token and a refresh token',
  );
  const firstToken = tokenIn(await whoami(page));

  // The page cannot know the token expired; the MCP server refuses it.
  await page.waitForTimeout((ACCESS_TOKEN_TTL + 1) * 1000);
  const second = await whoami(page);
  expect(second).toContain('subject carol;');
  const secondToken = tokenIn(second);
  expect(secondToken).not.toBe(firstToken);
  const byJti = new Map(pair.issued().map((entry) => [jti(entry.access_token), entry.grant]));
  expect(byJti.get(secondToken)).toBe('refresh_token');

  // The steps: the 401 (invalid_token), then one refresh; no sign-in offered meanwhile.
  const stepNames = await page.locator('#auth-view li.auth-step').evaluateAll((items) => items.map((item) => item.getAttribute('data-step')));
  expect(stepNames.slice(-2)).toEqual(['Challenge', 'Refresh']);
  await expect(page.locator('#auth-view li.auth-step[data-step="Challenge"]').last().locator('.auth-note')).toContainText(
    'the server answered 401, error invalid_token',
  );
  await expect(page.locator('#auth-view li.auth-step[data-step="Refresh"] .auth-status')).toHaveText(['HTTP 200']);
  await expect(page.locator('#sign-in-bar')).toContainText('Signed in.');
  // On the wire: the call refused once, then sent again once and answered.
  const wireLog = page.locator('#wire-log');
  await wireLog.locator('summary').click();
  await page.locator('#wire-direction').selectOption('sent');
  await page.locator('#wire-method').fill('tools/call');
  await expect(wireLog.locator('tr.wire-entry .wire-status')).toHaveText(['200', '401', '200']);
});

test('pop-ups blocked: sign in within the tab, come back to that server connected, nothing of the sign-in left behind', async ({ page }) => {
  test.setTimeout(90_000);
  // What a browser that blocks the pop-up answers: window.open gives null (in every page of
  // this tab; the servers stay real).
  await page.addInitScript(() => {
    window.open = () => null;
  });
  const consoleLines: string[] = [];
  page.on('console', (message) => consoleLines.push(message.text()));
  const pair = await startPair();
  // Every address this tab went to and every request it made, the code exchange's verifier.
  const addresses: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) addresses.push(frame.url());
  });
  let verifier = '';
  page.on('request', (request) => {
    addresses.push(request.url());
    if (request.url() === `${pair.issuer}/token` && request.method() === 'POST') {
      const body = new URLSearchParams(request.postData() ?? '');
      if (body.get('grant_type') === 'authorization_code') verifier = body.get('code_verifier') ?? '';
    }
  });
  // Two servers, the protected one second: coming back must select it again (a fresh load
  // selects the first).
  await page.goto('/');
  await expect(page.locator('#status')).toContainText('Disconnected');
  // The first server (the empty one a fresh page starts with) is stored once the session chunk
  // is here, after the first paint: leaving sooner would remember nothing.
  await expect.poll(() => page.evaluate(() => localStorage.getItem('mcp-lens.servers'))).not.toBeNull();
  await openApp(page, pair.mcpUrl);
  await expect(page.locator('.server-entry')).toHaveCount(2);

  await connectUntilRefused(page);
  await page.locator('#sign-in').click();
  await expect(page.locator('#sign-in-reason')).toContainText('The browser blocked the sign-in window.');
  await page.locator('#sign-in-here').click();
  await page.waitForURL((url) => url.href.startsWith(`${pair.issuer}/interaction/`), { timeout: 20_000 });
  await typeLoginAndConsent(page, 'erin');
  // The authorization server sends the tab to callback.html, which goes on to the app.
  await page.waitForURL((url) => url.pathname.endsWith('/index.html'), { timeout: 20_000 });
  await expect(page.locator('#status')).toContainText('Connected', { timeout: 20_000 });
  await expect(page.locator('#server-url')).toHaveValue(pair.mcpUrl);
  await expect(page.locator('.server-entry.selected')).toHaveCount(1);
  await expect(page.locator('.server-entry').nth(1)).toHaveClass(/selected/);
  await expect(page.locator('#sign-in-bar')).toContainText('Signed in.');
  await expect(page.locator('#auth-view li.auth-step[data-step="Callback"] .auth-note').first()).toContainText(
    'back in this tab from the authorization server',
  );
  await expect(page.locator('#auth-view li.auth-step[data-step="TokenExchange"] .auth-note')).toHaveText(
    `got a Bearer token for ${ACCESS_TOKEN_TTL} s and a refresh token`,
  );
  await expect(page.locator('#auth-view li.auth-step.failed')).toHaveCount(0);
  const answer = await whoami(page);
  expect(answer).toContain('subject erin;');
  expect(new Map(pair.issued().map((entry) => [jti(entry.access_token), entry.grant])).get(tokenIn(answer))).toBe('authorization_code');

  // The code came back in callback.html's address only; the verifier went in the token
  // request's body only. Neither is left in the tab.
  const callback = addresses.find((url) => url.includes('/callback.html?'));
  expect(callback, 'the tab went through callback.html').toBeDefined();
  const code = new URL(callback!).searchParams.get('code') ?? '';
  expect(code.length).toBeGreaterThan(10);
  expect(verifier.length).toBeGreaterThanOrEqual(43);
  expect(page.url()).not.toContain('code=');
  expect(page.url()).not.toContain('state=');
  expect(addresses.filter((url) => url.includes(verifier))).toEqual([]);
  expect(await page.evaluate(() => sessionStorage.getItem('mcp-lens.sign-in'))).toBeNull();
  const places: Record<string, string> = {
    'the address': page.url(),
    'the page markup': await page.content(),
    'the console': consoleLines.join('\n'),
    localStorage: await page.evaluate(() => JSON.stringify(Object.entries(localStorage))),
    sessionStorage: await page.evaluate(() => JSON.stringify(Object.entries(sessionStorage))),
  };
  const wireLog = page.locator('#wire-log');
  await wireLog.locator('summary').click();
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#wire-export').click()]);
  places['the wire log export'] = readFileSync((await download.path()) as string, 'utf8');
  expect(places['the wire log export']).toContain('authorization_code'); // the exchange is there, redacted
  for (const [where, text] of Object.entries(places)) {
    expect(text.includes(code), `the code is in ${where}`).toBe(false);
    expect(text.includes(verifier), `the verifier is in ${where}`).toBe(false);
  }
});

test('remembered in the tab: after a reload the kept token is refreshed with the kept discovery and client, no sign-in', async ({ page }) => {
  test.setTimeout(90_000);
  const pair = await startPair();
  await openApp(page, pair.mcpUrl);
  await page.locator('#settings > summary').click();
  await page.locator('#remember-secrets').check();
  await signIn(page, pair, 'frank');
  const firstToken = tokenIn(await whoami(page));

  await page.reload();
  await expect(page.locator('#server-url')).toHaveValue(pair.mcpUrl);
  await connect(page); // with the kept token
  await expect(page.locator('#sign-in-bar')).toContainText('Signed in.');
  await expect(page.locator('#auth-view li.auth-step[data-step="Refresh"] .auth-note').first()).toContainText(
    'kept from before the page was reloaded: the authorization server',
  );
  // The kept token expires; the server refuses it; the page refreshes it (as the client it
  // registered before the reload, at the token endpoint it discovered then) and calls again.
  await page.waitForTimeout((ACCESS_TOKEN_TTL + 1) * 1000);
  const second = await whoami(page);
  expect(second).toContain('subject frank;');
  const secondToken = tokenIn(second);
  expect(secondToken).not.toBe(firstToken);
  const byJti = new Map(pair.issued().map((entry) => [jti(entry.access_token), entry.grant]));
  expect(byJti.get(secondToken)).toBe('refresh_token');
  const refresh = page.locator('#auth-view li.auth-step[data-step="Refresh"]').last();
  await expect(refresh.locator('.auth-request')).toHaveText(`POST ${pair.issuer}/token`);
  await expect(refresh.locator('.auth-status')).toHaveText('HTTP 200');
  await expect(page.locator('#auth-view li.auth-step.failed')).toHaveCount(0);
  await expect(page.locator('#sign-in-bar')).toContainText('Signed in.');
  await expect(page.locator('#sign-in')).toHaveCount(0);
  // No discovery after the reload: the steps since it are the kept flow, the 401 and the refresh.
  const stepNames = await page.locator('#auth-view li.auth-step').evaluateAll((items) => items.map((item) => item.getAttribute('data-step')));
  expect(stepNames).not.toContain('ResourceMetadata');
  expect(stepNames).not.toContain('ClientRegistration');
});

for (const [endpoint, step, urls] of [
  [
    'metadata',
    'Reading the authorization server metadata failed',
    ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'],
  ],
  ['registration', 'Registering the client failed', ['/reg']],
  ['token', 'Exchanging the authorization code for a token failed', ['/token']],
] as const) {
  test(`an authorization server without CORS on its ${endpoint} endpoint: the page names the endpoint and the header`, async ({ page }) => {
    const pair = await startPair(['--no-cors', endpoint]);
    await openApp(page, pair.mcpUrl);
    await connectUntilRefused(page);
    if (endpoint === 'token') {
      const popup = await openSignInWindow(page, pair.issuer);
      await logInAndConsent(popup, 'bob');
    } else {
      // Discovery or registration fails before the window is sent anywhere: the page closes it.
      const [popup] = await Promise.all([page.waitForEvent('popup'), page.locator('#sign-in').click()]);
      if (!popup.isClosed()) await popup.waitForEvent('close', { timeout: 20_000 });
    }
    const named = urls.map((url) => `${pair.issuer}${url}`).join(' and ');
    const reason = page.locator('#sign-in-reason');
    await expect(reason).toContainText(`${step}: ${named} could not be reached`, { timeout: 20_000 });
    await expect(reason).toContainText('Access-Control-Allow-Origin');
    // The steps view marks each URL that could not be read.
    for (const url of urls) {
      const step_ = page.locator('#auth-view li.auth-step.failed', { has: page.locator('.auth-request', { hasText: `${pair.issuer}${url}` }) });
      await expect(step_.locator('.auth-note')).toContainText('Access-Control-Allow-Origin');
    }
    await expect(page.locator('#status')).not.toContainText('Connected');
  });
}

test('step by step: each request of the sign-in waits for Next step and says what it will send, then signed in and a tool call', async ({ page }) => {
  test.setTimeout(90_000);
  const pair = await startPair();
  const origin = new URL(pair.mcpUrl).origin;
  // Every authorization request the page sends (not the preflights), and the windows it opens.
  const sent: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (request.method() !== 'OPTIONS' && (url.startsWith(pair.issuer) || url.includes('/.well-known/'))) sent.push(`${request.method()} ${url}`);
  });
  let windows = 0;
  page.on('popup', () => windows++);
  await openApp(page, pair.mcpUrl);
  await connectUntilRefused(page);
  await page.locator('#sign-in-step-by-step').check();

  const waiting = page.locator('#auth-waiting');
  const next = page.locator('#auth-next');
  /** The step waiting: its name, the request it will send (`request`, or its start) and why. */
  async function waitingAt(step: string, request: string | RegExp, why: string) {
    await expect(waiting).toHaveAttribute('data-step', step);
    await expect(waiting.locator('.auth-request')).toHaveText(request);
    await expect(waiting.locator('.auth-note')).toContainText(why);
  }
  const prm = `GET ${origin}/.well-known/oauth-protected-resource/mcp`;

  // Stop at the first step: nothing is sent, and the bar says the person stopped it (not a failure).
  await page.locator('#sign-in').click();
  await waitingAt('ResourceMetadata', prm, "the server's 401 names it");
  await expect(page.locator('#sign-in-reason')).toContainText('Signing in step by step');
  await page.locator('#auth-stop').click();
  await expect(page.locator('#sign-in-reason')).toHaveText(
    'Stopped by you at "Reading the protected resource metadata": its request was not sent, and nothing after it.',
  );
  await expect(waiting).toHaveCount(0);
  await expect(page.locator('#auth-view li.auth-step.failed')).toHaveCount(0);
  expect(sent).toEqual([]);

  // Again, one step at a time: each request goes out only after its Next step.
  await page.locator('#sign-in').click();
  await waitingAt('ResourceMetadata', prm, "the server's 401 names it");
  await expect(next).toBeFocused(); // the keyboard goes on from Sign in to Next step
  expect(sent).toEqual([]);
  // (The issuer as the resource metadata names it: fastmcp adds a slash.)
  const order: [string, string | RegExp, string][] = [
    [
      'AuthServerMetadata',
      `GET ${pair.issuer}/.well-known/oauth-authorization-server`,
      `the authorization server is ${pair.issuer}/, named by the resource metadata; its RFC 8414 metadata URL`,
    ],
    ['ClientRegistration', `POST ${pair.issuer}/reg`, 'registering this app (RFC 7591 Dynamic Client Registration), scope mcp'],
    ['Authorization', new RegExp(`^GET ${pair.issuer}/auth\\?`), 'PKCE S256'],
  ];
  for (const [index, [step, request, why]] of order.entries()) {
    await next.press('Enter');
    await waitingAt(step, request, why);
    await expect(next).toBeFocused();
    expect(sent).toHaveLength(index + 1);
  }
  await expect(waiting.locator('pre')).toHaveCount(0); // the redirect is a navigation, with no body
  // What was sent shows as every step did before (the registration's answer, redacted).
  await expect(page.locator('#auth-view li.auth-step[data-step="ClientRegistration"] .auth-status')).toHaveText('HTTP 201');
  expect(windows).toBe(0); // the sign-in window opens with the redirect, not before

  const [popup] = await Promise.all([page.waitForEvent('popup'), next.click()]);
  await popup.waitForURL((url) => url.href.startsWith(`${pair.issuer}/interaction/`), { timeout: 20_000 });
  await logInAndConsent(popup, 'dave');
  // Back from the window, the code exchange waits too, showing its form without the code.
  await waitingAt('TokenExchange', `POST ${pair.issuer}/token`, 'exchanging its code');
  await expect(waiting.locator('pre')).toContainText('grant_type=authorization_code');
  await expect(waiting.locator('pre')).toContainText('code=%5Bredacted%5D');
  expect(sent.filter((request) => request.startsWith('POST') && request.endsWith('/token'))).toEqual([]);
  await page.locator('#auth-run-rest').click();
  await expect(page.locator('#status')).toContainText('Connected', { timeout: 20_000 });
  await expect(page.locator('#sign-in-bar')).toContainText('Signed in.');
  await expect(waiting).toHaveCount(0);
  await expect(page.locator('#auth-view li.auth-step.failed')).toHaveCount(0);
  expect(await whoami(page)).toContain('subject dave;');
});
