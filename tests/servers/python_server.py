"""A real MCP test server for mcp-lens, built on the official Python SDK (mcp 2.3.0).

Streamable HTTP at http://127.0.0.1:<port>/mcp, served by uvicorn on loopback only.

    .venv/bin/python tests/servers/python_server.py --port 3002            # with CORS (default)
    .venv/bin/python tests/servers/python_server.py --port 3003 --no-cors  # SDK defaults: no CORS at all
    .venv/bin/python tests/servers/python_server.py --port 3006 --transport sse  # legacy HTTP+SSE at /sse
    .venv/bin/python tests/servers/python_server.py --port 3007 --event-store    # resumable streams (retry: 500)
    .venv/bin/python tests/servers/python_server.py --port 3012 --cors-without era-headers  # CORS lacks mcp-method/mcp-name
    .venv/bin/python tests/servers/python_server.py --port 3013 --cors-without delete       # CORS lacks DELETE

mcp 2.3.0 speaks the handshake era (initialize, 2025-11-25) and the stateless 2026-07-28 era.

Contents:
  tool     echo(message: str)                               -> "Echo: <message>"
  tool     calculate(a: float, b: int,
                     operation: "add" | "multiply",
                     negate: bool = False)                   -> "Result: <float>"  (a=2.5, b=4, multiply, negate -> "Result: -10.0")
  tool     fail(reason: str)                                -> isError result, text "Error executing tool fail: <reason>"
  tool     request_info()                                   -> "authorization=<Authorization or (none)>; x-mcp-lens-test=<X-Mcp-Lens-Test or (none)>"
  tool     interrupted_echo(message: str)                   -> closes its own stream first; "Echo after a cut: <message>" (needs --event-store)
  tool     favourite_colour()                               -> elicits {colour}; "Your favourite colour is <colour>."
  tool     add_tool()                                       -> registers added_<n>, sends tools/list_changed; "Added added_<n>."
  tool     count_roots()                                    -> asks roots/list; "<n> roots: <uri>, ..."
  prompt   greet(name: str)                                 -> one user message "Please greet <name> warmly."
  resource test://info (text/plain)                         -> "mcp-lens python test resource"
"""

from __future__ import annotations

import argparse
import itertools
from typing import Annotated, Literal

import anyio
import uvicorn
from cors import allow_the_page

from mcp.server.mcpserver import Context, Elicit, ListRoots, MCPServer, Resolve
from mcp_types import ListRootsResult
from pydantic import BaseModel
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.streamable_http import EventMessage, EventStore

SERVER_NAME = "mcp-lens-python-test"
SERVER_VERSION = "0.1.0"
HOST = "127.0.0.1"

server = MCPServer(SERVER_NAME, version=SERVER_VERSION, log_level="WARNING")


# structured_output=False: plain text content only (no outputSchema / structuredContent),
# so the result shown by the app is exactly the text below.
@server.tool(description="Echo a message back.", structured_output=False)
def echo(message: str) -> str:
    return f"Echo: {message}"


@server.tool(
    description="Add or multiply a (number) and b (integer); optionally negate the result.",
    structured_output=False,
)
def calculate(
    a: float,
    b: int,
    operation: Literal["add", "multiply"],
    negate: bool = False,
) -> str:
    value = float(a + b) if operation == "add" else float(a * b)
    if negate:
        value = -value
    # repr of a Python float: 2.5*4 -> "10.0", 1.5+2 -> "3.5"
    return f"Result: {value!r}"


@server.tool(description="Always fails with the given reason (the result has isError: true).", structured_output=False)
def fail(reason: str) -> str:
    # ToolError = an anticipated failure: the SDK returns isError with the message
    # (any other exception is reported only as "Error executing tool fail").
    raise ToolError(reason)


@server.tool(
    description="Report the Authorization and X-Mcp-Lens-Test headers this HTTP request carried.",
    structured_output=False,
)
def request_info(ctx: Context) -> str:
    headers = ctx.headers or {}
    auth = headers.get("authorization", "(none)")
    custom = headers.get("x-mcp-lens-test", "(none)")
    return f"authorization={auth}; x-mcp-lens-test={custom}"


@server.prompt(description="Ask the model to greet someone.")
def greet(name: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": f"Please greet {name} warmly."}]


@server.resource("test://info", name="info", description="A static text resource.", mime_type="text/plain")
def info() -> str:
    return "mcp-lens python test resource"


@server.tool(
    description="Echo, but cut this request's event stream first: the answer arrives only after the client resumes (needs --event-store).",
    structured_output=False,
)
async def interrupted_echo(message: str, ctx: Context) -> str:
    await ctx.report_progress(1, 2, "about to cut the stream")
    await ctx.close_sse_stream()
    await anyio.sleep(0.3)  # the answer is stored while the client is away
    return f"Echo after a cut: {message}"


class Favourite(BaseModel):
    colour: str


def ask_colour() -> Elicit[Favourite]:
    return Elicit("What is your favourite colour?", Favourite)


@server.tool(
    description="Asks the person for their favourite colour (elicitation: a server request in 2025, an input_required round in 2026-07-28).",
    structured_output=False,
)
def favourite_colour(answer: Annotated[Favourite, Resolve(ask_colour)]) -> str:
    return f"Your favourite colour is {answer.colour}."


def client_roots() -> ListRoots:
    return ListRoots()


@server.tool(description="Counts the client's roots (roots/list, either era).", structured_output=False)
def count_roots(roots: Annotated[ListRootsResult, Resolve(client_roots)]) -> str:
    return f"{len(roots.roots)} roots: " + ", ".join(str(root.uri) for root in roots.roots)


_added = itertools.count(1)


@server.tool(
    description="Adds a tool named added_<n> and tells the client that the tool list changed.",
    structured_output=False,
)
async def add_tool(ctx: Context) -> str:
    name = f"added_{next(_added)}"

    def added() -> str:
        return f"I am {name}."

    server.add_tool(added, name=name, description="Added at run time.", structured_output=False)
    await ctx.session.send_tool_list_changed()  # handshake era: on the session's GET stream
    await ctx.notify_tools_changed()  # stateless era: to subscriptions/listen streams
    return f"Added {name}."


class InMemoryEventStore(EventStore):
    """Keeps every event so a client can resume a stream with Last-Event-ID."""

    def __init__(self) -> None:
        self._events: list[tuple[str, str, object]] = []  # (event id, stream id, message)
        self._counter = itertools.count(1)

    async def store_event(self, stream_id, message):
        event_id = str(next(self._counter))
        self._events.append((event_id, stream_id, message))
        return event_id

    async def replay_events_after(self, last_event_id, send_callback):
        stream_id = next((s for e, s, _ in self._events if e == last_event_id), None)
        if stream_id is None:
            return None
        after = False
        for event_id, stream, message in self._events:
            if event_id == last_event_id:
                after = True
            elif after and stream == stream_id and message is not None:
                await send_callback(EventMessage(message, event_id))
        return stream_id


def build_app(cors: bool, transport: str = "streamable-http", event_store: bool = False, cors_without: str | None = None):
    # host=127.0.0.1 makes the SDK turn on its DNS-rebinding protection (Host and Origin
    # must be 127.0.0.1:* / localhost:* / [::1]:*), exactly like a real deployment on loopback.
    if transport == "sse":
        # Legacy HTTP+SSE: GET /sse, then POST to the endpoint it names (/messages/?session_id=...).
        app = server.sse_app(host=HOST)
    elif event_store:
        # Resumable: events are stored, and every stream starts with a priming event whose
        # id the client can resume from, with `retry: 500`.
        app = server.streamable_http_app(host=HOST, event_store=InMemoryEventStore(), retry_interval=500)
    else:
        app = server.streamable_http_app(host=HOST)
    if cors:
        allow_the_page(app, without=cors_without)
    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=3002)
    parser.add_argument("--no-cors", action="store_true", help="serve without any CORS headers (SDK default)")
    parser.add_argument(
        "--transport",
        choices=["streamable-http", "sse"],
        default="streamable-http",
        help="streamable-http (/mcp, default) or the legacy HTTP+SSE transport (/sse)",
    )
    parser.add_argument("--event-store", action="store_true", help="keep events so streams can be resumed")
    parser.add_argument(
        "--cors-without",
        choices=["era-headers", "delete"],
        help="CORS that forgets the 2026-07-28 headers (mcp-method, mcp-name) or the DELETE method",
    )
    args = parser.parse_args()
    app = build_app(
        cors=not args.no_cors, transport=args.transport, event_store=args.event_store, cors_without=args.cors_without
    )
    uvicorn.run(app, host=HOST, port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
