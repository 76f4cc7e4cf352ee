// Ports and URLs shared by playwright.config.ts and the specs. Every server is on 127.0.0.1.
// Each port can be overridden with an environment variable (e.g. when one is taken locally).

function port(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0 || value > 65535) {
    throw new Error(`${name}=${raw} is not a valid TCP port`);
  }
  return value;
}

export const HOST = '127.0.0.1';

/** The built app (dist/), served by `python3 -m http.server`. */
export const APP_PORT = port('MCP_LENS_APP_PORT', 8080);
/** @modelcontextprotocol/server-everything, streamable HTTP (`/mcp`). */
export const EVERYTHING_PORT = port('MCP_LENS_EVERYTHING_PORT', 3001);
/** tests/servers/python_server.py with CORS. */
export const PYTHON_PORT = port('MCP_LENS_PYTHON_PORT', 3002);
/** tests/servers/python_server.py --no-cors. */
export const PYTHON_NO_CORS_PORT = port('MCP_LENS_PYTHON_NO_CORS_PORT', 3003);
/** tests/servers/html_server.py: answers text/html to everything. */
export const HTML_PORT = port('MCP_LENS_HTML_PORT', 3004);
/** server-everything in legacy HTTP+SSE mode (`/sse`, then POST `/message?sessionId=`). */
export const EVERYTHING_SSE_PORT = port('MCP_LENS_EVERYTHING_SSE_PORT', 3005);
/** tests/servers/python_server.py --transport sse (`/sse`, then POST `/messages/?session_id=`). */
export const PYTHON_SSE_PORT = port('MCP_LENS_PYTHON_SSE_PORT', 3006);
/** tests/servers/forms_server.py: tools with rich input schemas that echo their arguments. */
export const FORMS_PORT = port('MCP_LENS_FORMS_PORT', 3008);
/** tests/servers/py1_server.py --flavor fastmcp1: mcp 1.x `FastMCP`, four variants on one port. */
export const PY1_FASTMCP1_PORT = port('MCP_LENS_PY1_FASTMCP1_PORT', 3010);
/** tests/servers/py1_server.py --flavor fastmcp2: fastmcp 2.x, four variants on one port. */
export const PY1_FASTMCP2_PORT = port('MCP_LENS_PY1_FASTMCP2_PORT', 3011);
/** A port nothing listens on. */
export const CLOSED_PORT = port('MCP_LENS_CLOSED_PORT', 3999);

export const APP_URL = `http://${HOST}:${APP_PORT}/`;
export const EVERYTHING_URL = `http://${HOST}:${EVERYTHING_PORT}/mcp`;
export const PYTHON_URL = `http://${HOST}:${PYTHON_PORT}/mcp`;
export const PYTHON_NO_CORS_URL = `http://${HOST}:${PYTHON_NO_CORS_PORT}/mcp`;
export const HTML_URL = `http://${HOST}:${HTML_PORT}/mcp`;
export const FORMS_URL = `http://${HOST}:${FORMS_PORT}/mcp`;
export const CLOSED_URL = `http://${HOST}:${CLOSED_PORT}/mcp`;
export const EVERYTHING_SSE_URL = `http://${HOST}:${EVERYTHING_SSE_PORT}/sse`;
export const PYTHON_SSE_URL = `http://${HOST}:${PYTHON_SSE_PORT}/sse`;
/** py1_server.py's variants: `/stateful/mcp`, `/stateless/mcp`, `/stateful-json/mcp`, `/stateless-json/mcp`. */
export const py1Url = (port: number, variant: string): string => `http://${HOST}:${port}/${variant}/mcp`;
