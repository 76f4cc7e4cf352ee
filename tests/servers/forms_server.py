"""A real MCP test server for mcp-lens schema-driven forms, built on the low-level Server API
of the official Python SDK (mcp 2.3.0).

Streamable HTTP at http://127.0.0.1:<port>/mcp, served by uvicorn on loopback only, with CORS.

    .venv/bin/python tests/servers/forms_server.py --port 3008

The low-level `mcp.server.lowlevel.Server` publishes the hand-written inputSchema dicts below
verbatim and does NOT validate tool arguments against them (nor structuredContent against an
outputSchema): that is what lets the client's own validation and rendering be tested. Every
top-level schema carries `type: "object"` (the 2025-11-25 wire model requires it).

Echo tools answer with one text block: json.dumps(arguments, sort_keys=True, separators=(",", ":"))
of exactly the arguments received (no defaults filled in; missing `arguments` echoes as {}),
no structuredContent.

Contents:
  tool     nested_object      {user: {name*, address: {street*, zip: ^[0-9]{5}$}}}, user*       -> echo
  tool     array_of_objects   {items*: [{sku*: str, qty*: int>=1}] (1..5), tags: unique [str]}   -> echo
  tool     nullable_enum      {colour: anyOf[enum red|green|blue, null] default null,
                               size: type [string, null] enum S|M|L|null, level: int enum 1|2|3} -> echo
  tool     variants           {shape*: oneOf[Circle {kind: const circle, radius > 0},
                                             Rectangle {kind: const rect, width, height}],
                               id: anyOf[integer, string]}                                       -> echo
  tool     refs               $defs Point {x*, y*}, Tree {label*, children: [$ref Tree]};
                              {origin*: $ref Point, path: [$ref Point], tree: $ref Tree}         -> echo
  tool     formats_defaults   {email, homepage (uri), birthday (date), meeting (date-time),
                               alarm (time), retries int 0..10 default 3, ratio number
                               multipleOf 0.25 default 0.5, verbose bool default false,
                               mode enum fast|safe default safe, big: int, note: examples,
                               legacy_flag: deprecated bool, server_id: readOnly string}       -> echo
  tool     key_values         {env: additionalProperties string,
                               limits: patternProperties ^max_ -> integer}                       -> echo
  tool     tuple_and_const    {pair: prefixItems [string, integer] items false, version: const 2,
                               choices: unique [enum a|b|c]}                                     -> echo
  tool     huge               3000 optional string properties, ~1 MB of schema                    -> echo
  tool     big_enum           {pick*: enum of 5000 strings v0000..v4999}                         -> echo
  tool     wide               200 optional properties f000..f199 cycling string, integer,
                              number, boolean, enum x|y|z (render benchmark)                     -> echo
  tool     typed_output       {count*: int}; outputSchema {total*: int, items*: [str]}
                              -> structuredContent {"total":"not a number","items":[1]} (INVALID on
                                 purpose) unless count == 0 -> {"total":0,"items":[]}; plus a text
                                 block with that JSON (sorted keys, compact)
  tool     typed_error        {}; same outputSchema -> isError, text "failed on purpose", no structuredContent
  tool     ask_preferences    {} -> elicits a form (name, email, plan oneOf-const, legacy enumNames,
                              toppings multi-select, sizes anyOf-const multi-select, age, subscribe)
                              -> text json.dumps({"action": ..., "content": ...}, sort_keys, compact)
                              handshake era: an elicitation/create request on the call's stream;
                              2026-07-28 era: an input_required result (key "preferences"), then the retry
  tool     nested_lists       {pair*: prefixItems [string, integer] items false,
                               rows: [{cells*: [int], span*: prefixItems [int, int]}],
                               deep: {inner: {list: [{note: str}]}}}                            -> echo
  prompt   trip(destination*, nights?)                 -> one user message "Plan <nights|some> nights in <destination>."
  template weather://{city}/current{?units}  (weather, text/plain)  -> "read <uri>"
  template files:///{+path}                   (file)                 -> "read <uri>"
  resource forms://about (text/plain)                                -> "forms server"
"""

from __future__ import annotations

import argparse
import json
import re
from typing import Any

import mcp_types as types
import uvicorn
from mcp.server.context import ServerRequestContext
from mcp.server.lowlevel import Server
from mcp.shared.exceptions import MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS
from cors import allow_the_page

SERVER_NAME = "mcp-lens-forms-test"
SERVER_VERSION = "0.1.0"
HOST = "127.0.0.1"

RESOURCE_NOT_FOUND = -32002


def _dump(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


# ---------------------------------------------------------------- schemas (written by hand)

OUTPUT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "total": {"type": "integer"},
        "items": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["total", "items"],
}


def _wide_schema() -> dict[str, Any]:
    cycle: list[dict[str, Any]] = [
        {"type": "string"},
        {"type": "integer"},
        {"type": "number"},
        {"type": "boolean"},
        {"type": "string", "enum": ["x", "y", "z"]},
    ]
    return {
        "type": "object",
        "properties": {f"f{i:03d}": dict(cycle[i % len(cycle)]) for i in range(200)},
    }


ECHO_TOOLS: dict[str, tuple[str, dict[str, Any]]] = {
    "nested_object": (
        "Nested objects with required fields and a pattern.",
        {
            "type": "object",
            "properties": {
                "user": {
                    "type": "object",
                    "title": "User",
                    "properties": {
                        "name": {"type": "string"},
                        "address": {
                            "type": "object",
                            "properties": {
                                "street": {"type": "string"},
                                "zip": {"type": "string", "pattern": "^[0-9]{5}$"},
                            },
                            "required": ["street"],
                        },
                    },
                    "required": ["name"],
                },
            },
            "required": ["user"],
        },
    ),
    "array_of_objects": (
        "An array of objects (1 to 5) and a set of unique strings.",
        {
            "type": "object",
            "properties": {
                "items": {
                    "type": "array",
                    "minItems": 1,
                    "maxItems": 5,
                    "items": {
                        "type": "object",
                        "properties": {
                            "sku": {"type": "string"},
                            "qty": {"type": "integer", "minimum": 1},
                        },
                        "required": ["sku", "qty"],
                    },
                },
                "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
            },
            "required": ["items"],
        },
    ),
    "nullable_enum": (
        "Nullable enums in both spellings (anyOf with null, type array with null) and an integer enum.",
        {
            "type": "object",
            "properties": {
                "colour": {
                    "anyOf": [
                        {"type": "string", "enum": ["red", "green", "blue"]},
                        {"type": "null"},
                    ],
                    "default": None,
                },
                "size": {"type": ["string", "null"], "enum": ["S", "M", "L", None]},
                "level": {"type": "integer", "enum": [1, 2, 3]},
            },
        },
    ),
    "variants": (
        "A oneOf of two titled object variants told apart by a const, and an anyOf of integer or string.",
        {
            "type": "object",
            "properties": {
                "shape": {
                    "oneOf": [
                        {
                            "title": "Circle",
                            "type": "object",
                            "properties": {
                                "kind": {"const": "circle"},
                                "radius": {"type": "number", "exclusiveMinimum": 0},
                            },
                            "required": ["kind", "radius"],
                        },
                        {
                            "title": "Rectangle",
                            "type": "object",
                            "properties": {
                                "kind": {"const": "rect"},
                                "width": {"type": "number"},
                                "height": {"type": "number"},
                            },
                            "required": ["kind", "width", "height"],
                        },
                    ]
                },
                "id": {"anyOf": [{"type": "integer"}, {"type": "string"}]},
            },
            "required": ["shape"],
        },
    ),
    "refs": (
        "$defs and $ref, including a recursive Tree.",
        {
            "type": "object",
            "$defs": {
                "Point": {
                    "type": "object",
                    "properties": {"x": {"type": "number"}, "y": {"type": "number"}},
                    "required": ["x", "y"],
                },
                "Tree": {
                    "type": "object",
                    "properties": {
                        "label": {"type": "string"},
                        "children": {"type": "array", "items": {"$ref": "#/$defs/Tree"}},
                    },
                    "required": ["label"],
                },
            },
            "properties": {
                "origin": {"$ref": "#/$defs/Point"},
                "path": {"type": "array", "items": {"$ref": "#/$defs/Point"}},
                "tree": {"$ref": "#/$defs/Tree"},
            },
            "required": ["origin"],
        },
    ),
    "formats_defaults": (
        "String formats, defaults, bounds, multipleOf, a big integer and examples.",
        {
            "type": "object",
            "properties": {
                "email": {"type": "string", "format": "email"},
                "homepage": {"type": "string", "format": "uri"},
                "birthday": {"type": "string", "format": "date"},
                "meeting": {"type": "string", "format": "date-time"},
                "alarm": {"type": "string", "format": "time"},
                "retries": {"type": "integer", "default": 3, "minimum": 0, "maximum": 10},
                "ratio": {"type": "number", "default": 0.5, "multipleOf": 0.25},
                "verbose": {"type": "boolean", "default": False},
                "mode": {"type": "string", "enum": ["fast", "safe"], "default": "safe"},
                "big": {"type": "integer"},
                "note": {"type": "string", "examples": ["hello"]},
                "legacy_flag": {"type": "boolean", "deprecated": True, "description": "Use mode instead."},
                "server_id": {"type": "string", "readOnly": True},
            },
        },
    ),
    "key_values": (
        "Maps: additionalProperties and patternProperties.",
        {
            "type": "object",
            "properties": {
                "env": {"type": "object", "additionalProperties": {"type": "string"}},
                "limits": {"type": "object", "patternProperties": {"^max_": {"type": "integer"}}},
            },
        },
    ),
    "tuple_and_const": (
        "A tuple (prefixItems, items: false), a const and a multi-select of enum strings.",
        {
            "type": "object",
            "properties": {
                "pair": {
                    "type": "array",
                    "prefixItems": [{"type": "string"}, {"type": "integer"}],
                    "items": False,
                },
                "version": {"const": 2},
                "choices": {
                    "type": "array",
                    "items": {"type": "string", "enum": ["a", "b", "c"]},
                    "uniqueItems": True,
                },
            },
        },
    ),
    "wide": ("200 optional fields of five kinds, for a render benchmark.", _wide_schema()),
    "huge": (
        "A megabyte schema: 3,000 string properties with long descriptions.",
        {
            "type": "object",
            "properties": {
                f"p{i:04d}": {"type": "string", "description": f"Field {i}. " + "lorem ipsum " * 28}
                for i in range(3000)
            },
        },
    ),
    "big_enum": (
        "An enum of 5,000 values (searched by typing, not scrolled).",
        {
            "type": "object",
            "properties": {"pick": {"type": "string", "enum": [f"v{i:04d}" for i in range(5000)]}},
            "required": ["pick"],
        },
    ),
}

# Listed last (after the tools above): structures whose parts a person adds, at depth.
NESTED_LISTS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "pair": {
            "type": "array",
            "prefixItems": [{"type": "string"}, {"type": "integer"}],
            "items": False,
        },
        "rows": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "cells": {"type": "array", "items": {"type": "integer"}},
                    "span": {
                        "type": "array",
                        "prefixItems": [{"type": "integer"}, {"type": "integer"}],
                        "items": False,
                    },
                },
                "required": ["cells", "span"],
            },
        },
        "deep": {
            "type": "object",
            "properties": {
                "inner": {
                    "type": "object",
                    "properties": {
                        "list": {
                            "type": "array",
                            "items": {"type": "object", "properties": {"note": {"type": "string"}}},
                        }
                    },
                }
            },
        },
    },
    "required": ["pair"],
}

TOOLS: list[types.Tool] = [
    *(
        types.Tool(name=name, description=description, input_schema=schema)
        for name, (description, schema) in ECHO_TOOLS.items()
    ),
    types.Tool(
        name="typed_output",
        description=(
            "Returns structuredContent that is INVALID against its outputSchema on purpose, "
            "unless count == 0 (then it is valid)."
        ),
        input_schema={
            "type": "object",
            "properties": {"count": {"type": "integer"}},
            "required": ["count"],
        },
        output_schema=OUTPUT_SCHEMA,
    ),
    types.Tool(
        name="typed_error",
        description="Has an outputSchema but always fails (isError, no structuredContent).",
        input_schema={"type": "object", "properties": {}},
        output_schema=OUTPUT_SCHEMA,
    ),
    types.Tool(
        name="ask_preferences",
        description="Asks the person for their preferences with a form elicitation and reports the answer.",
        input_schema={"type": "object", "properties": {}},
    ),
    types.Tool(
        name="nested_lists",
        description="A required tuple, lists inside list items, and a list three objects deep.",
        input_schema=NESTED_LISTS_SCHEMA,
    ),
]

# MCP 2025-11-25 elicitation shapes: string with default/format, titled single-select (oneOf const),
# legacy enumNames, multi-select (items enum / items anyOf const), integer, boolean.
PREFERENCES_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": "Name", "minLength": 2, "default": "Ada"},
        "email": {"type": "string", "format": "email"},
        "plan": {
            "type": "string",
            "title": "Plan",
            "oneOf": [{"const": "free", "title": "Free"}, {"const": "pro", "title": "Pro"}],
            "default": "pro",
        },
        "legacy": {"type": "string", "enum": ["a", "b"], "enumNames": ["Option A", "Option B"]},
        "toppings": {
            "type": "array",
            "title": "Toppings",
            "items": {"type": "string", "enum": ["cheese", "ham", "olives"]},
            "minItems": 1,
            "default": ["cheese"],
        },
        "sizes": {
            "type": "array",
            "items": {"anyOf": [{"const": "s", "title": "Small"}, {"const": "l", "title": "Large"}]},
        },
        "age": {"type": "integer", "minimum": 0, "maximum": 150},
        "subscribe": {"type": "boolean", "default": True},
    },
    "required": ["name", "plan"],
}
PREFERENCES_MESSAGE = "Tell us your preferences."
PREFERENCES_KEY = "preferences"


# ---------------------------------------------------------------- handlers


def _text(text: str) -> list[types.ContentBlock]:
    return [types.TextContent(type="text", text=text)]


async def list_tools(ctx: ServerRequestContext, params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
    return types.ListToolsResult(tools=TOOLS)


async def call_tool(
    ctx: ServerRequestContext, params: types.CallToolRequestParams
) -> types.CallToolResult | types.InputRequiredResult:
    # The raw wire params: arguments exactly as the client sent them (the SDK only checks
    # that they form an object; nothing is validated against inputSchema or defaulted).
    raw = ctx.params or {}
    arguments = raw.get("arguments")
    if arguments is None:
        arguments = {}
    name = params.name

    if name in ECHO_TOOLS or name == "nested_lists":
        return types.CallToolResult(content=_text(_dump(arguments)))

    if name == "typed_output":
        count = arguments.get("count")
        if count == 0 and not isinstance(count, bool):
            structured: dict[str, Any] = {"total": 0, "items": []}
        else:
            structured = {"total": "not a number", "items": [1]}  # invalid against OUTPUT_SCHEMA on purpose
        # The low-level server sends structuredContent as is (no outputSchema check).
        return types.CallToolResult(content=_text(_dump(structured)), structured_content=structured)

    if name == "typed_error":
        return types.CallToolResult(content=_text("failed on purpose"), is_error=True)

    if name == "ask_preferences":
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            # 2026-07-28: no server-to-client requests; ask with input_required, answer on the retry.
            responses = raw.get("inputResponses") or {}
            answer = responses.get(PREFERENCES_KEY)
            if not isinstance(answer, dict):
                return types.InputRequiredResult(
                    input_requests={
                        PREFERENCES_KEY: types.ElicitRequest(
                            params=types.ElicitRequestFormParams(
                                message=PREFERENCES_MESSAGE, requested_schema=PREFERENCES_SCHEMA
                            )
                        )
                    }
                )
            action, content = answer.get("action"), answer.get("content")
        else:
            # Handshake era: an elicitation/create request on this call's response stream.
            result = await ctx.session.elicit_form(
                message=PREFERENCES_MESSAGE,
                requested_schema=PREFERENCES_SCHEMA,
                related_request_id=ctx.request_id,
            )
            action, content = result.action, result.content
        return types.CallToolResult(content=_text(_dump({"action": action, "content": content})))

    raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown tool: {name}")


TRIP = types.Prompt(
    name="trip",
    description="Plan a trip.",
    arguments=[
        types.PromptArgument(name="destination", description="Where to go.", required=True),
        types.PromptArgument(name="nights", description="How many nights (optional).", required=False),
    ],
)


async def list_prompts(
    ctx: ServerRequestContext, params: types.PaginatedRequestParams | None
) -> types.ListPromptsResult:
    return types.ListPromptsResult(prompts=[TRIP])


async def get_prompt(ctx: ServerRequestContext, params: types.GetPromptRequestParams) -> types.GetPromptResult:
    if params.name != "trip":
        raise MCPError(code=types.INVALID_PARAMS, message=f"Unknown prompt: {params.name}")
    args = params.arguments or {}
    destination = args.get("destination")
    if not destination:
        raise MCPError(code=types.INVALID_PARAMS, message="Missing required argument: destination")
    nights = args.get("nights") or "some"
    return types.GetPromptResult(
        description="Plan a trip.",
        messages=[
            types.PromptMessage(
                role="user",
                content=types.TextContent(type="text", text=f"Plan {nights} nights in {destination}."),
            )
        ],
    )


ABOUT = types.Resource(uri="forms://about", name="about", description="About this server.", mime_type="text/plain")
TEMPLATES = [
    types.ResourceTemplate(
        uri_template="weather://{city}/current{?units}",
        name="weather",
        description="Current weather for a city.",
        mime_type="text/plain",
    ),
    types.ResourceTemplate(uri_template="files:///{+path}", name="file", description="A file by path."),
]
# What each template matches (RFC 6570: {city} has no '/', {+path} may; {?units} is a query).
TEMPLATE_PATTERNS = [
    (re.compile(r"^weather://[^/?#]+/current(\?[^#]*)?$"), "text/plain"),
    (re.compile(r"^files:///.+$"), None),
]


async def list_resources(
    ctx: ServerRequestContext, params: types.PaginatedRequestParams | None
) -> types.ListResourcesResult:
    return types.ListResourcesResult(resources=[ABOUT])


async def list_resource_templates(
    ctx: ServerRequestContext, params: types.PaginatedRequestParams | None
) -> types.ListResourceTemplatesResult:
    return types.ListResourceTemplatesResult(resource_templates=TEMPLATES)


async def read_resource(ctx: ServerRequestContext, params: types.ReadResourceRequestParams) -> types.ReadResourceResult:
    uri = params.uri  # a plain str: exactly what the client sent
    if uri == ABOUT.uri:
        return types.ReadResourceResult(
            contents=[types.TextResourceContents(uri=uri, mime_type="text/plain", text="forms server")]
        )
    for pattern, mime_type in TEMPLATE_PATTERNS:
        if pattern.match(uri):
            return types.ReadResourceResult(
                contents=[types.TextResourceContents(uri=uri, mime_type=mime_type, text=f"read {uri}")]
            )
    raise MCPError(code=RESOURCE_NOT_FOUND, message="Resource not found", data={"uri": uri})


server = Server(
    SERVER_NAME,
    version=SERVER_VERSION,
    on_list_tools=list_tools,
    on_call_tool=call_tool,
    on_list_prompts=list_prompts,
    on_get_prompt=get_prompt,
    on_list_resources=list_resources,
    on_list_resource_templates=list_resource_templates,
    on_read_resource=read_resource,
)


def build_app():
    # host=127.0.0.1 makes the SDK turn on its DNS-rebinding protection (Host and Origin
    # must be 127.0.0.1:* / localhost:* / [::1]:*), exactly like a real deployment on loopback.
    app = server.streamable_http_app(host=HOST)
    allow_the_page(app)
    return app


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=3008)
    args = parser.parse_args()
    uvicorn.run(build_app(), host=HOST, port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
