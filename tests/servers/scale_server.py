"""A real MCP test server for scale: thousands of tools and very large results, for the
benchmark (scripts/bench.mjs) and the scale e2e tests. Built on the low-level Server API of the
official Python SDK (mcp 2.3.0).

Streamable HTTP at http://127.0.0.1:<port>/mcp, served by uvicorn on loopback only, with CORS.

    .venv/bin/python tests/servers/scale_server.py --port 3213 [--tools 5000] [--page 500]

Contents:
  tools  --tools tools (default 5000) in pages of --page (default 500; cursors are the offset
         as text, the last page has no nextCursor). Four of them come first and are real work:
           big_text     {megabytes: number = 10}: one text block of that many MB (numbered lines).
           big_json     {megabytes: number = 10, structured: boolean = false}: one text block
                        holding a JSON array of that many MB; with structured, the same array
                        also as structuredContent.items (the message is then twice as big).
           many_blocks  {count: integer = 5000}: that many small text blocks.
           echo         {message: string}: "Echo: <message>".
         The rest are scale_0004 .. scale_NNNN, each with a small object schema (two properties)
         and a description, answering "called <name>".
  No prompts or resources.
A cursor that is not an offset of a page gets JSON-RPC error -32602 "Invalid cursor".
"""

from __future__ import annotations

import argparse
import json

import mcp_types as types
import uvicorn
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError
from cors import allow_the_page

SERVER_NAME = "mcp-lens-scale-test"
SERVER_VERSION = "0.1.0"
HOST = "127.0.0.1"
INVALID_PARAMS = -32602
MEGABYTE = 1024 * 1024
# The size argument of big_text and big_json.
MEGABYTES = {"type": "number", "default": 10, "minimum": 0, "maximum": 64}

WORK_TOOLS = [
    types.Tool(
        name="big_text",
        description="One text block of `megabytes` MB (numbered lines).",
        input_schema={
            "type": "object",
            "properties": {"megabytes": MEGABYTES},
        },
    ),
    types.Tool(
        name="big_json",
        description="A JSON array of `megabytes` MB as text (and as structuredContent.items if `structured`).",
        input_schema={
            "type": "object",
            "properties": {
                "megabytes": MEGABYTES,
                "structured": {"type": "boolean", "default": False},
            },
        },
    ),
    types.Tool(
        name="many_blocks",
        description="`count` small text blocks.",
        input_schema={
            "type": "object",
            "properties": {"count": {"type": "integer", "default": 5000, "minimum": 0, "maximum": 100000}},
        },
    ),
    types.Tool(
        name="echo",
        description="Echoes the message back.",
        input_schema={
            "type": "object",
            "properties": {"message": {"type": "string"}},
            "required": ["message"],
        },
    ),
]


def filler_tools(total: int) -> list[types.Tool]:
    return [
        types.Tool(
            name=f"scale_{n:04}",
            description=f"Scale tool number {n}: answers with its own name.",
            input_schema={
                "type": "object",
                "properties": {
                    "text": {"type": "string", "description": "Any text"},
                    "count": {"type": "integer", "minimum": 0},
                },
            },
        )
        for n in range(len(WORK_TOOLS), total)
    ]


def text_of(megabytes: float) -> str:
    size = int(megabytes * MEGABYTE)
    lines: list[str] = []
    length = 0
    n = 0
    while length < size:
        line = f"line {n:08}: the quick brown fox jumps over the lazy dog\n"
        lines.append(line)
        length += len(line)
        n += 1
    return "".join(lines)[:size]


def items_of(megabytes: float) -> list[dict]:
    size = int(megabytes * MEGABYTE)
    items: list[dict] = []
    length = 2
    n = 0
    while length < size:
        item = {"id": n, "name": f"item {n}", "tags": ["alpha", "beta"], "score": n * 0.5}
        items.append(item)
        length += len(json.dumps(item)) + 1
        n += 1
    return items


def make_server(total_tools: int, page_size: int) -> Server:
    tools = (WORK_TOOLS + filler_tools(total_tools))[:total_tools]

    async def list_tools(
        ctx: ServerRequestContext, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        cursor = params.cursor if params is not None else None
        start = 0
        if cursor is not None:
            if not cursor.isdigit() or int(cursor) % page_size != 0 or int(cursor) >= len(tools):
                raise MCPError(code=INVALID_PARAMS, message="Invalid cursor", data={"cursor": cursor})
            start = int(cursor)
        end = start + page_size
        return types.ListToolsResult(tools=tools[start:end], next_cursor=str(end) if end < len(tools) else None)

    async def call_tool(ctx: ServerRequestContext, params: types.CallToolRequestParams) -> types.CallToolResult:
        args = params.arguments or {}
        if params.name == "big_text":
            text = text_of(float(args.get("megabytes", 10)))
            return types.CallToolResult(content=[types.TextContent(type="text", text=text)])
        if params.name == "big_json":
            items = items_of(float(args.get("megabytes", 10)))
            return types.CallToolResult(
                content=[types.TextContent(type="text", text=json.dumps(items))],
                structured_content={"items": items} if args.get("structured") else None,
            )
        if params.name == "many_blocks":
            count = int(args.get("count", 5000))
            return types.CallToolResult(
                content=[types.TextContent(type="text", text=f"block {n}") for n in range(count)]
            )
        if params.name == "echo":
            return types.CallToolResult(content=[types.TextContent(type="text", text=f"Echo: {args.get('message', '')}")])
        if any(tool.name == params.name for tool in tools):
            return types.CallToolResult(content=[types.TextContent(type="text", text=f"called {params.name}")])
        raise MCPError(code=INVALID_PARAMS, message=f"Unknown tool: {params.name}")

    return Server(SERVER_NAME, version=SERVER_VERSION, on_list_tools=list_tools, on_call_tool=call_tool)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=3213)
    parser.add_argument("--tools", type=int, default=5000)
    parser.add_argument("--page", type=int, default=500)
    args = parser.parse_args()
    app = make_server(args.tools, args.page).streamable_http_app(host=HOST)
    allow_the_page(app)
    uvicorn.run(app, host=HOST, port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
