"""A real MCP test server whose lists come in pages, for mcp-lens's "Load more" / "Load all".
Built on the low-level Server API of the official Python SDK (mcp 2.3.0).

Streamable HTTP at http://127.0.0.1:<port>/mcp, served by uvicorn on loopback only, with CORS.

    .venv/bin/python tests/servers/paging_server.py --port 3212

Contents:
  tools      250 tools tool_000 .. tool_249 in pages of 100 (cursors "100", "200"; the last
             page has no nextCursor); each echoes its own name ("called tool_042").
  resources  25 resources page://r00 .. page://r24 (text/plain, text "resource rNN") in pages
             of 10 (cursors "10", "20").
  prompts    none offered.
A cursor that is not one of these gets JSON-RPC error -32602 "Invalid cursor".
"""

from __future__ import annotations

import argparse

import mcp_types as types
import uvicorn
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError
from cors import allow_the_page

SERVER_NAME = "mcp-lens-paging-test"
SERVER_VERSION = "0.1.0"
HOST = "127.0.0.1"
INVALID_PARAMS = -32602
RESOURCE_NOT_FOUND = -32002

TOOL_PAGE = 100
RESOURCE_PAGE = 10

TOOLS = [
    types.Tool(
        name=f"tool_{n:03}",
        description=f"Tool number {n}",
        input_schema={"type": "object", "properties": {}},
    )
    for n in range(250)
]
RESOURCES = [
    types.Resource(uri=f"page://r{n:02}", name=f"r{n:02}", mime_type="text/plain") for n in range(25)
]


def _page(items: list, params: types.PaginatedRequestParams | None, size: int) -> tuple[list, str | None]:
    cursor = params.cursor if params is not None else None
    start = 0
    if cursor is not None:
        if not cursor.isdigit() or int(cursor) % size != 0 or int(cursor) >= len(items):
            raise MCPError(code=INVALID_PARAMS, message="Invalid cursor", data={"cursor": cursor})
        start = int(cursor)
    end = start + size
    return items[start:end], (str(end) if end < len(items) else None)


async def list_tools(ctx: ServerRequestContext, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    tools, next_cursor = _page(TOOLS, params, TOOL_PAGE)
    return types.ListToolsResult(tools=tools, next_cursor=next_cursor)


async def call_tool(ctx: ServerRequestContext, params: types.CallToolRequestParams) -> types.CallToolResult:
    return types.CallToolResult(content=[types.TextContent(type="text", text=f"called {params.name}")])


async def list_resources(
    ctx: ServerRequestContext, params: types.PaginatedRequestParams | None
) -> types.ListResourcesResult:
    resources, next_cursor = _page(RESOURCES, params, RESOURCE_PAGE)
    return types.ListResourcesResult(resources=resources, next_cursor=next_cursor)


async def read_resource(ctx: ServerRequestContext, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
    for resource in RESOURCES:
        if resource.uri == params.uri:
            return types.ReadResourceResult(
                contents=[
                    types.TextResourceContents(
                        uri=params.uri, mime_type="text/plain", text=f"resource {resource.name}"
                    )
                ]
            )
    raise MCPError(code=RESOURCE_NOT_FOUND, message="Resource not found", data={"uri": params.uri})


server = Server(
    SERVER_NAME,
    version=SERVER_VERSION,
    on_list_tools=list_tools,
    on_call_tool=call_tool,
    on_list_resources=list_resources,
    on_read_resource=read_resource,
)


def build_app():
    app = server.streamable_http_app(host=HOST)
    allow_the_page(app)
    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=3212)
    args = parser.parse_args()
    uvicorn.run(build_app(), host=HOST, port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
