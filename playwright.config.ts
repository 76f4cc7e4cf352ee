import { defineConfig } from '@playwright/test';
import chromium from './tests/chromium.json';
import {
  APP_PORT,
  APP_URL,
  EVERYTHING_PORT,
  EVERYTHING_SSE_PORT,
  FORMS_PORT,
  HOST,
  HTML_PORT,
  PYTHON_NO_CORS_PORT,
  PYTHON_PORT,
  PYTHON_SSE_PORT,
  PY1_FASTMCP1_PORT,
  PY1_FASTMCP2_PORT,
} from './tests/e2e/env';

// End-to-end tests: the built app (dist/) in Debian's Chromium, talking straight from the page to
// real MCP servers that Playwright starts on 127.0.0.1 before the tests and stops afterwards
// (also when tests fail). Build the app first (`trunk build --release`), then `npx playwright test`.
//
// Readiness: Playwright polls each `url` until it answers with a status in [200, 404).
// The MCP endpoints answer a plain GET with 400 (no session / not acceptable), which counts.

const PYTHON = '.venv/bin/python';
// The Python SDK's 1.x line and fastmcp 2.x (tests/servers/requirements-py1.txt) live in their own venv.
const PYTHON_PY1 = '.venv-py1/bin/python';
// The directory holding the built app; dist/ (trunk's output) unless MCP_LENS_DIST says otherwise.
const APP_DIR = process.env.MCP_LENS_DIST || 'dist';
// Reusing already-running servers is opt-in, so a stray process on a port is never tested by mistake.
const reuseExistingServer = process.env.MCP_LENS_REUSE_SERVERS === '1';

// The specs that run a language model on the CPU (llama.cpp in the page, llama-server) hold
// both cores for minutes: beside them another spec's waits starve (a popup's close past 20 s, a
// keystroke's draft). scripts/test.sh runs them alone, one worker, after the rest
// (MCP_LENS_MODEL_SPECS=skip, then only them); a plain `npx playwright test` runs everything.
const MODEL_SPECS = ['**/chat-in-page.spec.ts', '**/chat-model.spec.ts'];

export default defineConfig({
  testDir: 'tests/e2e',
  testIgnore: process.env.MCP_LENS_MODEL_SPECS === 'skip' ? MODEL_SPECS : undefined,
  // Two spec files at a time, each file's tests in order. The tests wait on servers and the
  // page more than they compute: with one worker the suite used 0.6 of the machine's 2 cores
  // (787 s on a clean clone); two took it from 13.2 to 10.1 minutes on the same machine.
  // Tests that change a server's state start their own server on a free port (spawn.ts), so
  // the shared servers above stay as every test expects them.
  workers: 2,
  fullyParallel: false,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: 'list',
  forbidOnly: true,
  use: {
    baseURL: APP_URL,
    headless: true,
    browserName: 'chromium',
    launchOptions: { executablePath: chromium.executablePath, args: chromium.args },
    // Recording a trace costs a quarter of the suite's time on this 2-core machine (forms,
    // scale and everything specs: 157-161 s with traces kept on failure, 122 s without), so it
    // is opt-in: MCP_LENS_TRACE=1 (or --trace on). A failing test keeps a screenshot either way.
    trace: process.env.MCP_LENS_TRACE === '1' ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
  },
  webServer: [
    {
      name: 'app',
      // Fail fast with a clear message when the app has not been built.
      command:
        `test -f '${APP_DIR}/index.html' || { echo "${APP_DIR}/index.html is missing: build the app first (trunk build --release)" >&2; exit 1; }; ` +
        `exec python3 -m http.server ${APP_PORT} --bind ${HOST} --directory '${APP_DIR}' 2>/dev/null`, // (its access log is noise)
      url: APP_URL,
      reuseExistingServer,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      name: 'everything',
      command: `exec node -r ./tests/servers/loopback.cjs node_modules/@modelcontextprotocol/server-everything/dist/index.js streamableHttp`,
      env: { PORT: String(EVERYTHING_PORT) },
      url: `http://${HOST}:${EVERYTHING_PORT}/mcp`,
      reuseExistingServer,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      name: 'python',
      command: `exec ${PYTHON} tests/servers/python_server.py --port ${PYTHON_PORT}`,
      url: `http://${HOST}:${PYTHON_PORT}/mcp`,
      reuseExistingServer,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      name: 'python-no-cors',
      command: `exec ${PYTHON} tests/servers/python_server.py --port ${PYTHON_NO_CORS_PORT} --no-cors`,
      url: `http://${HOST}:${PYTHON_NO_CORS_PORT}/mcp`,
      reuseExistingServer,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      // Legacy HTTP+SSE servers: readiness by port, since GET /sse is an endless stream.
      name: 'everything-sse',
      command: `exec node -r ./tests/servers/loopback.cjs node_modules/@modelcontextprotocol/server-everything/dist/index.js sse`,
      env: { PORT: String(EVERYTHING_SSE_PORT) },
      port: EVERYTHING_SSE_PORT,
      reuseExistingServer,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      name: 'python-sse',
      command: `exec ${PYTHON} tests/servers/python_server.py --port ${PYTHON_SSE_PORT} --transport sse`,
      port: PYTHON_SSE_PORT,
      reuseExistingServer,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      name: 'forms',
      command: `exec ${PYTHON} tests/servers/forms_server.py --port ${FORMS_PORT}`,
      url: `http://${HOST}:${FORMS_PORT}/mcp`,
      reuseExistingServer,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    // mcp 1.x FastMCP and fastmcp 2.x, each serving four variants (stateful/stateless x SSE/json).
    // Readiness by port: a GET on their endpoints gets 406, and on a stateful one opens a session.
    ...([
      ['fastmcp1', PY1_FASTMCP1_PORT],
      ['fastmcp2', PY1_FASTMCP2_PORT],
    ] as const).map(([flavor, port]) => ({
      name: `py1-${flavor}`,
      command: `exec ${PYTHON_PY1} tests/servers/py1_server.py --flavor ${flavor} --port ${port}`,
      port,
      reuseExistingServer,
      timeout: 30_000,
      stdout: 'ignore' as const,
      stderr: 'pipe' as const,
    })),
    {
      name: 'html',
      command: `exec python3 tests/servers/html_server.py --port ${HTML_PORT}`,
      url: `http://${HOST}:${HTML_PORT}/`,
      reuseExistingServer,
      timeout: 30_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
});
