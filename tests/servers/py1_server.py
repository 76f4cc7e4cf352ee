"""MCP servers as most Python deployments still run them: the Python SDK's 1.x line (mcp 1.30.0,
`from mcp.server.fastmcp import FastMCP`) or fastmcp 2.x (2.14.7, `from fastmcp import FastMCP`),
with their default settings. Needs its own venv (tests/servers/requirements-py1.txt):

    .venv-py1/bin/python tests/servers/py1_server.py --port 3010 --flavor fastmcp1
    .venv-py1/bin/python tests/servers/py1_server.py --port 3011 --flavor fastmcp2

One process serves the four variants of its flavor, each its own server with its own session
manager, on 127.0.0.1 (uvicorn):

    /stateful/mcp         default settings: sessions (Mcp-Session-Id), answers as SSE
    /stateless/mcp        stateless_http=True
    /stateful-json/mcp    json_response=True
    /stateless-json/mcp   stateless_http=True, json_response=True

`--stateless` / `--json-response` instead serve just that one variant at /mcp.

Server name `py1-fastmcp1` or `py1-fastmcp2` (version: mcp 1.x reports its package version
1.30.0, fastmcp 2.x its own, 2.14.7). Both negotiate protocol 2025-11-25 and speak only the
handshake era (initialize).

Contents (default decorators, so the tools also carry an outputSchema and structuredContent
`{"result": ...}`):
  tool     echo(message: str) -> str    "Echo: <message>"
  tool     add(a: int, b: int) -> int   a + b
  prompt   greet(name: str)             one user message "Please greet <name> warmly."
  resource py1://info (text/plain)      "py1 <flavor> test resource"

CORS: Starlette's CORSMiddleware around everything (tests/servers/cors.py, which needs only
Starlette). Without it the page's preflight gets 405.

Why these servers exist: on "Auto" the app first POSTs `server/discover` (the 2026-07-28 stateless
era) and falls back to `initialize` when refused. These servers refuse it in two different ways.
Observed with curl (mcp 1.30.0 and fastmcp 2.14.7 answer byte for byte the same), POST
{"jsonrpc":"2.0","id":0,"method":"server/discover","params":{}} with Content-Type: application/json,
Accept: application/json, text/event-stream, MCP-Protocol-Version: 2026-07-28:

  /stateful/mcp, /stateful-json/mcp:
    HTTP 400, content-type application/json, WITH a fresh `mcp-session-id: <32 hex>` header,
    body {"jsonrpc":"2.0","id":"server-error","error":{"code":-32600,"message":"Bad Request: Missing session ID"}}
    (no session header was sent, so the session manager makes a new transport and session for the
    request, stamps its id on the answer, and only then finds the request is not an `initialize`.
    Every such request leaves a new idle session on the server. The same with
    MCP-Protocol-Version 2025-11-25 or none, and even for a plain GET, which gets 406 "Not Acceptable:
    Client must accept text/event-stream" plus a fresh session id.)
  /stateless/mcp, /stateless-json/mcp:
    HTTP 400, content-type application/json, NO mcp-session-id header,
    body {"jsonrpc":"2.0","id":"server-error","error":{"code":-32600,"message":"Bad Request: Unsupported protocol
    version: 2026-07-28. Supported versions: 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25"}}
    (with MCP-Protocol-Version 2025-11-25 or none: HTTP 200 carrying a JSON-RPC error
    {"code":-32602,"message":"Invalid request parameters","data":""}, as SSE or JSON per variant;
    a plain GET gets 406.)

  initialize (protocolVersion 2025-11-25) on every variant: HTTP 200, protocolVersion "2025-11-25",
  serverInfo {"name":"py1-fastmcp1","version":"1.30.0"} / {"name":"py1-fastmcp2","version":"2.14.7"}
  (fastmcp 2.x also declares listChanged and `tasks`), an mcp-session-id header on the stateful
  variants only; SSE variants answer `event: message` + `data: {...}` as text/event-stream, json
  variants application/json. notifications/initialized -> 202; tools/call echo {"message":"hi"} ->
  content [{"type":"text","text":"Echo: hi"}], structuredContent {"result":"Echo: hi"}; DELETE of a
  session -> 200. CORS preflights get 200 (the headers cors.py allows). mcp 1.x refuses a foreign Origin
  with 403 "Invalid Origin header" (DNS-rebinding protection); fastmcp 2.x does not check it.
  Playwright waits for these servers by port: a GET readiness probe gets 406 (and would open sessions).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import warnings
from pathlib import Path

import uvicorn
from starlette.applications import Starlette
from starlette.routing import Mount

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cors import allow_the_page  # noqa: E402  (needs only Starlette)

HOST = "127.0.0.1"

# (path prefix, stateless_http, json_response)
VARIANTS = [
    ("/stateful", False, False),
    ("/stateless", True, False),
    ("/stateful-json", False, True),
    ("/stateless-json", True, True),
]


def add_contents(server, flavor: str) -> None:
    """The same tools, prompt and resource on either flavor's FastMCP, with default decorators."""

    @server.tool()
    def echo(message: str) -> str:
        """Echo a message back."""
        return f"Echo: {message}"

    @server.tool()
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    @server.prompt()
    def greet(name: str) -> str:
        """Ask the model to greet someone."""
        return f"Please greet {name} warmly."

    @server.resource("py1://info", mime_type="text/plain")
    def info() -> str:
        """A static text resource."""
        return f"py1 {flavor} test resource"


def fastmcp1_app(stateless: bool, json_response: bool) -> Starlette:
    """mcp 1.x: the settings live on the FastMCP instance, so one instance per variant.
    Default host 127.0.0.1 turns on the SDK's DNS-rebinding protection (Origin http://127.0.0.1:*,
    http://localhost:*, http://[::1]:* only), as in a real deployment on loopback."""
    from mcp.server.fastmcp import FastMCP

    server = FastMCP("py1-fastmcp1", log_level="WARNING", stateless_http=stateless, json_response=json_response)
    add_contents(server, "fastmcp1")
    return server.streamable_http_app()  # route /mcp


_fastmcp2_server = None


def fastmcp2_app(stateless: bool, json_response: bool) -> Starlette:
    """fastmcp 2.x: one server, one http_app (own session manager) per variant."""
    global _fastmcp2_server
    if _fastmcp2_server is None:
        # fastmcp's import makes authlib print deprecation warnings; authlib turns them to "always"
        # when its deprecate module loads, so silence them after that.
        import authlib.deprecate  # noqa: F401

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from fastmcp import FastMCP

        _fastmcp2_server = FastMCP("py1-fastmcp2")
        add_contents(_fastmcp2_server, "fastmcp2")
    return _fastmcp2_server.http_app(path="/mcp", stateless_http=stateless, json_response=json_response)


def build_app(flavor: str, variants) -> Starlette:
    make = fastmcp1_app if flavor == "fastmcp1" else fastmcp2_app
    apps = [(prefix, make(stateless, json_response)) for prefix, stateless, json_response in variants]

    # A mounted app's lifespan does not run by itself: run every variant's (its session manager,
    # and for fastmcp 2.x the server's own lifespan, which is re-entrant) in the outer one.
    @contextlib.asynccontextmanager
    async def lifespan(_app):
        async with contextlib.AsyncExitStack() as stack:
            for _, sub in apps:
                await stack.enter_async_context(sub.router.lifespan_context(sub))
            yield

    app = Starlette(routes=[Mount(prefix, app=sub) for prefix, sub in apps], lifespan=lifespan)
    return allow_the_page(app)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=3010)
    parser.add_argument("--flavor", choices=["fastmcp1", "fastmcp2"], default="fastmcp1")
    parser.add_argument("--stateless", action="store_true", help="serve only the stateless_http=True variant, at /mcp")
    parser.add_argument("--json-response", action="store_true", help="serve only a json_response=True variant, at /mcp")
    args = parser.parse_args()
    if args.stateless or args.json_response:
        variants = [("", args.stateless, args.json_response)]
    else:
        variants = VARIANTS
    uvicorn.run(build_app(args.flavor, variants), host=HOST, port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
