"""fastmcp 4.2 (PyPI `fastmcp==4.2.3`, on mcp 2.3.0 in .venv) with its default settings: a server of
both eras, as most new Python servers are written.

    .venv/bin/python tests/servers/fastmcp4_server.py --port 3012

Streamable HTTP at http://127.0.0.1:<port>/mcp (uvicorn, loopback only), CORS via cors.py.

Contents:
  tool     ask_name {}            asks the person's name with `ctx.elicit` (an old-style,
                                  server-initiated elicitation/create) -> "accept: Ada" or the action
  tool     echo(message: str)     "Echo: <message>"
  resource fastmcp4://info (text/plain) -> "fastmcp 4 test resource"

What it does that the app must read well (observed with curl, fastmcp 4.2.3):
  - `server/discover` is answered (supportedVersions ["2026-07-28"]): on Auto the app speaks the
    stateless 2026-07-28 era with it.
  - On 2026-07-28, `ask_name` cannot elicit the old way: the call answers HTTP 200 with a result
    {"isError": true, "content": [{"type": "text", "text": "elicitation via server-initiated
    requests is unavailable on 2026-07-28 connections."}]}. Pinned to 2025-11-25 (initialize), the
    same call sends elicitation/create on the call's stream and answers with what the person chose.
  - `subscriptions/listen` is not implemented: HTTP 404 with the JSON-RPC body
    {"jsonrpc":"2.0","id":N,"error":{"code":-32601,"message":"Method not found","data":"subscriptions/listen"}}.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

import uvicorn
from fastmcp import Context, FastMCP

sys.path.insert(0, str(Path(__file__).resolve().parent))
from cors import allow_the_page  # noqa: E402

HOST = "127.0.0.1"

mcp = FastMCP("fastmcp4-test")


@dataclass
class Name:
    name: str


@mcp.tool
async def ask_name(ctx: Context) -> str:
    """Asks for your name (an elicitation), then greets you."""
    answer = await ctx.elicit("What is your name?", response_type=Name)
    if answer.action == "accept":
        return f"accept: {answer.data.name}"
    return answer.action


@mcp.tool
def echo(message: str) -> str:
    """Echoes the message back."""
    return f"Echo: {message}"


@mcp.resource("fastmcp4://info", mime_type="text/plain")
def info() -> str:
    return "fastmcp 4 test resource"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args()
    app = allow_the_page(mcp.http_app(path="/mcp"))
    uvicorn.run(app, host=HOST, port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
