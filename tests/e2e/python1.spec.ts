// mcp-lens against the Python servers most deployments still run: the Python SDK's 1.x line
// (mcp 1.30.0, `mcp.server.fastmcp.FastMCP`) and fastmcp 2.14.7, with default settings
// (tests/servers/py1_server.py, one process per flavor serving four variants).
//
// They speak only the handshake era, so on Auto the app's `server/discover` is refused and it must
// fall back to `initialize`, over Streamable HTTP. The two refusals differ (see py1_server.py):
// stateless servers answer 400 "Unsupported protocol version"; stateful ones answer 400
// "Missing session ID" WITH a fresh Mcp-Session-Id header on that same answer.

import { PY1_FASTMCP1_PORT, PY1_FASTMCP2_PORT, py1Url } from './env';
import {
  connect,
  disconnect,
  expect,
  expectServerInfo,
  field,
  openApp,
  readResource,
  runTool,
  selectTool,
  test,
  toolItem,
  toolNames,
} from './helpers';

const FLAVORS = [
  { flavor: 'fastmcp1', port: PY1_FASTMCP1_PORT, version: '1.30.0' },
  { flavor: 'fastmcp2', port: PY1_FASTMCP2_PORT, version: '2.14.7' },
];
const VARIANTS = ['stateful', 'stateless', 'stateful-json', 'stateless-json'];

for (const { flavor, port, version } of FLAVORS) {
  for (const variant of VARIANTS) {
    test(`py1 ${flavor} ${variant}: Auto falls back from server/discover to initialize, echo, add, resource`, async ({ page }) => {
      const url = py1Url(port, variant);
      const rpcs: string[] = []; // the JSON-RPC methods the page POSTed, in order
      page.on('request', (request) => {
        const body = request.postData();
        if (request.method() === 'POST' && request.url() === url && body) rpcs.push(JSON.parse(body).method ?? '(answer)');
      });

      await openApp(page, url);
      await expect(page.locator('#transport')).toHaveValue('auto');
      await connect(page);

      await expectServerInfo(page, { name: `py1-${flavor}`, version, protocolVersion: '2025-11-25' });
      // Streamable HTTP, not a fallback to the legacy HTTP+SSE transport.
      await expect(page.locator('#server-info .transport')).toHaveText('Streamable HTTP');
      expect(rpcs[0]).toBe('server/discover');
      expect(rpcs).toContain('initialize');

      await page.locator('#tab-tools').click();
      await expect(toolItem(page, 'echo')).toBeVisible();
      expect(await toolNames(page)).toEqual(expect.arrayContaining(['echo', 'add']));

      // The tools return plain values, so the SDKs add structuredContent {"result": ...}; the first
      // .content-text is the text content.
      let panel = await selectTool(page, 'echo');
      await field(panel, 'message').fill(`hello ${flavor} ${variant}`);
      let result = await runTool(page);
      await expect(result.locator('.content-text').first()).toHaveText(`Echo: hello ${flavor} ${variant}`);
      await expect(result).not.toHaveClass(/result-error/);

      panel = await selectTool(page, 'add');
      await field(panel, 'a').fill('2');
      await field(panel, 'b').fill('40');
      result = await runTool(page);
      await expect(result.locator('.content-text').first()).toHaveText('42');

      const resource = await readResource(page, 'py1://info');
      await expect(resource.locator('.content-text')).toHaveText([`py1 ${flavor} test resource`]);

      await disconnect(page);
    });
  }
}
