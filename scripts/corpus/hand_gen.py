#!/usr/bin/env python3
"""Write tests/schemas/hand/*.json: hand-written edge cases that real servers send.

The schemas are written here by hand (that is what this family is). The candidate instances are classified
with the `jsonschema` package (dialect from `$schema`, else draft 2020-12; formats checked, see
check_corpus.py): a candidate jsonschema disagrees with is dropped and reported, never relabelled.

Run:  .venv/bin/python scripts/corpus/hand_gen.py
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.dont_write_bytecode = True  # keep __pycache__ out of scripts/corpus
sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_corpus import write_checked  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "schemas" / "hand"
SPEC = "MCP spec 2025-11-25 elicitation (SEP-1330)"

# file -> (source, schema, valid candidates, invalid candidates)
CASES: dict[str, tuple[str, dict[str, Any], list[Any], list[Any]]] = {}


def case(file: str, source: str, schema: dict[str, Any], valid: list[Any], invalid: list[Any]) -> None:
    assert file not in CASES
    CASES[file] = (source, schema, valid, invalid)


# ------------------------------------------------------------------------- elicitation (requestedSchema)

case(
    "elicitation-legacy-enum-names",
    f"hand-written after {SPEC}: legacy single-select enum with parallel enumNames (deprecated but still sent)",
    {
        "type": "object",
        "properties": {
            "color": {
                "type": "string",
                "title": "Color",
                "description": "Pick a color",
                "enum": ["#FF0000", "#00FF00", "#0000FF"],
                "enumNames": ["Red", "Green", "Blue"],
                "default": "#00FF00",
            }
        },
        "required": ["color"],
    },
    [{"color": "#FF0000"}],
    [{"color": "Red"}, {}, {"color": None}],
)

case(
    "elicitation-titled-single-select",
    f"hand-written after {SPEC}: titled single-select enum as oneOf of {{const, title}}, plus untitled enum",
    {
        "type": "object",
        "properties": {
            "size": {
                "type": "string",
                "title": "Shirt size",
                "oneOf": [
                    {"const": "s", "title": "Small"},
                    {"const": "m", "title": "Medium"},
                    {"const": "l", "title": "Large"},
                ],
                "default": "m",
            },
            "fit": {"type": "string", "title": "Fit", "enum": ["slim", "regular", "loose"]},
        },
        "required": ["size"],
    },
    [{"size": "s"}, {"size": "l", "fit": "loose"}],
    [{"size": "Small"}, {"size": "m", "fit": "baggy"}, {"fit": "slim"}],
)

case(
    "elicitation-multi-select-untitled",
    f"hand-written after {SPEC}: multi-select as array of string enum with minItems/maxItems and a default array",
    {
        "type": "object",
        "properties": {
            "toppings": {
                "type": "array",
                "title": "Toppings",
                "description": "Choose one to three toppings",
                "minItems": 1,
                "maxItems": 3,
                "items": {"type": "string", "enum": ["cheese", "ham", "mushroom", "olive", "pineapple"]},
                "default": ["cheese"],
            }
        },
        "required": ["toppings"],
    },
    [{"toppings": ["cheese"]}, {"toppings": ["ham", "olive", "mushroom"]}],
    [{"toppings": []}, {"toppings": ["cheese", "ham", "olive", "mushroom"]}, {"toppings": ["anchovy"]}],
)

case(
    "elicitation-multi-select-titled",
    f"hand-written after {SPEC}: titled multi-select, items.anyOf of {{const, title}}, default array",
    {
        "type": "object",
        "properties": {
            "days": {
                "type": "array",
                "title": "Delivery days",
                "maxItems": 2,
                "items": {
                    "anyOf": [
                        {"const": "mon", "title": "Monday"},
                        {"const": "wed", "title": "Wednesday"},
                        {"const": "fri", "title": "Friday"},
                    ]
                },
                "default": ["mon", "fri"],
            }
        },
    },
    [{}, {"days": []}, {"days": ["wed", "fri"]}],
    [{"days": ["Monday"]}, {"days": ["mon", "wed", "fri"]}, {"days": "mon"}],
)

case(
    "elicitation-primitive-fields",
    f"hand-written after {SPEC}: every primitive field kind (string formats email/uri/date/date-time, "
    "length limits, integer and number ranges, boolean default)",
    {
        "type": "object",
        "properties": {
            "name": {"type": "string", "title": "Full name", "minLength": 2, "maxLength": 50},
            "email": {"type": "string", "format": "email", "title": "Email"},
            "website": {"type": "string", "format": "uri", "title": "Website"},
            "birthday": {"type": "string", "format": "date", "title": "Birthday"},
            "meeting": {"type": "string", "format": "date-time", "title": "Meeting time"},
            "age": {"type": "integer", "minimum": 0, "maximum": 150, "title": "Age"},
            "rating": {"type": "number", "minimum": 0, "maximum": 5, "default": 2.5, "title": "Rating"},
            "subscribe": {"type": "boolean", "default": True, "title": "Subscribe to newsletter"},
        },
        "required": ["name", "email"],
    },
    [
        {"name": "Ada", "email": "ada@example.com"},
        {
            "name": "Ada Lovelace", "email": "ada@example.com", "website": "https://ada.example",
            "birthday": "1815-12-10", "meeting": "2025-11-25T10:00:00Z", "age": 36, "rating": 4.5,
            "subscribe": False,
        },
    ],
    [
        {"name": "A", "email": "ada@example.com"},
        {"name": "Ada", "email": "ada-at-example"},
        {"name": "Ada", "email": "ada@example.com", "age": 36.5, "birthday": "10/12/1815"},
    ],
)

# ------------------------------------------------------------------------------------ nullability

case(
    "type-array-nullable",
    "hand-written: nullable via type arrays, as emitted by schemars/zod draft-7 ('type': ['string','null'])",
    {
        "type": "object",
        "properties": {
            "nickname": {"type": ["string", "null"]},
            "age": {"type": ["integer", "null"], "minimum": 0},
            "tags": {"type": ["array", "null"], "items": {"type": "string"}},
            "either": {"type": ["number", "string", "boolean"]},
        },
        "required": ["nickname"],
    },
    [{"nickname": None}, {"nickname": "ada", "age": None, "tags": ["a"], "either": True}],
    [{}, {"nickname": 3}, {"nickname": None, "age": -1}],
)

case(
    "anyof-null",
    "hand-written: nullable via anyOf [X, {type: null}] around a primitive, an enum, an object and a $ref "
    "(pydantic / zod 4 style)",
    {
        "type": "object",
        "$defs": {"Point": {"type": "object", "properties": {"x": {"type": "number"}, "y": {"type": "number"}}, "required": ["x", "y"]}},
        "properties": {
            "limit": {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}], "default": None},
            "mode": {"anyOf": [{"type": "string", "enum": ["fast", "safe"]}, {"type": "null"}]},
            "meta": {"anyOf": [{"type": "object", "additionalProperties": {"type": "string"}}, {"type": "null"}]},
            "origin": {"anyOf": [{"$ref": "#/$defs/Point"}, {"type": "null"}]},
        },
    },
    [{}, {"limit": None, "mode": None, "meta": None, "origin": None}, {"limit": 5, "mode": "safe", "meta": {"a": "b"}, "origin": {"x": 1, "y": 2}}],
    [{"limit": 0}, {"mode": "slow"}, {"origin": {"x": 1}}],
)

# ------------------------------------------------------------------------------------ references

case(
    "draft07-definitions-ref",
    "hand-written: draft-07 dialect with '#/definitions/X' refs, a ref to a ref, and a ref with sibling keywords",
    {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "definitions": {
            "Email": {"type": "string", "format": "email"},
            "Contact": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "email": {"$ref": "#/definitions/Email"}},
                "required": ["name"],
            },
            "PrimaryContact": {"$ref": "#/definitions/Contact"},
        },
        "properties": {
            "owner": {"$ref": "#/definitions/PrimaryContact"},
            "watchers": {"type": "array", "items": {"$ref": "#/definitions/Contact"}},
            "cc": {"$ref": "#/definitions/Email", "description": "siblings of $ref are ignored in draft-07"},
        },
        "required": ["owner"],
    },
    [{"owner": {"name": "Ada"}}, {"owner": {"name": "Ada", "email": "ada@example.com"}, "watchers": [{"name": "Bob"}], "cc": "c@example.com"}],
    [{"owner": {"email": "ada@example.com"}}, {"owner": {"name": "Ada", "email": "nope"}}, {"owner": {"name": "Ada"}, "watchers": [{}]}],
)

case(
    "ref-cycle",
    "hand-written: mutually recursive $defs (Folder -> File -> Folder) reached from properties",
    {
        "type": "object",
        "$defs": {
            "Folder": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "entries": {"type": "array", "items": {"$ref": "#/$defs/File"}}},
                "required": ["name"],
            },
            "File": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "size": {"type": "integer"}, "link": {"$ref": "#/$defs/Folder"}},
                "required": ["name"],
            },
        },
        "properties": {"root": {"$ref": "#/$defs/Folder"}},
        "required": ["root"],
    },
    [{"root": {"name": "/"}}, {"root": {"name": "/", "entries": [{"name": "a", "size": 1, "link": {"name": "b", "entries": [{"name": "c"}]}}]}}],
    [{"root": {"entries": []}}, {"root": {"name": "/", "entries": [{"name": "a", "link": {"entries": []}}]}}, {}],
)

case(
    "root-ref-to-defs",
    "hand-written: root is a bare $ref into $defs (what pydantic emits for a self-referencing model before "
    "an SDK inlines it), no root 'type'",
    {
        "$defs": {
            "Node": {
                "type": "object",
                "properties": {"id": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}, "default": []}},
                "required": ["id"],
            }
        },
        "$ref": "#/$defs/Node",
    },
    [{"id": "a"}, {"id": "a", "children": [{"id": "b", "children": []}]}],
    [{}, {"id": "a", "children": [{"id": 1}]}],
)

case(
    "allof-merge",
    "hand-written: allOf merging two object schemas (one via $ref), each with its own properties and required",
    {
        "type": "object",
        "$defs": {"Paging": {"type": "object", "properties": {"page": {"type": "integer", "minimum": 1}, "per_page": {"type": "integer", "maximum": 100}}}},
        "allOf": [
            {"type": "object", "properties": {"query": {"type": "string", "minLength": 1}}, "required": ["query"]},
            {"$ref": "#/$defs/Paging"},
            {"properties": {"sort": {"enum": ["asc", "desc"]}}},
        ],
    },
    [{"query": "mcp"}, {"query": "mcp", "page": 2, "per_page": 100, "sort": "asc"}],
    [{"page": 1}, {"query": "mcp", "page": 0}, {"query": "mcp", "sort": "up"}],
)

# ------------------------------------------------------------------------------------ object shapes

case(
    "pattern-properties",
    "hand-written: patternProperties with additionalProperties false (header-like maps)",
    {
        "type": "object",
        "properties": {"url": {"type": "string"}},
        "patternProperties": {"^x-[a-z-]+$": {"type": "string"}, "^n_[0-9]+$": {"type": "number"}},
        "additionalProperties": False,
        "required": ["url"],
    },
    [{"url": "/"}, {"url": "/", "x-trace-id": "abc", "n_1": 2.5}],
    [{"url": "/", "x-trace-id": 1}, {"url": "/", "Authorization": "Bearer t"}, {"url": "/", "n_one": 1}],
)

case(
    "object-no-properties",
    "hand-written: 'type: object' and nothing else (free-form arguments, e.g. a tool taking any object)",
    {"type": "object"},
    [{}, {"anything": [1, {"nested": True}]}],
    [[], "x", None],
)

case(
    "closed-empty-object",
    "hand-written: a tool with no arguments that forbids extras: empty properties, additionalProperties false",
    {"type": "object", "properties": {}, "additionalProperties": False},
    [{}],
    [{"x": 1}],
)

case(
    "boolean-subschemas",
    "hand-written: true/false as subschemas (schemars emits 'true' for serde_json::Value), additionalProperties true",
    {
        "type": "object",
        "properties": {"payload": True, "forbidden": False, "items": {"type": "array", "items": True}},
        "required": ["payload"],
        "additionalProperties": True,
    },
    [{"payload": None}, {"payload": {"a": 1}, "items": [1, "a"], "extra": 1}],
    [{}, {"payload": 1, "forbidden": 1}, {"payload": 1, "items": {}}],
)

# ------------------------------------------------------------------------------------ values

case(
    "const-and-mixed-enum",
    "hand-written: const of several JSON types and an enum mixing 1, \"a\", null, true (no 'type')",
    {
        "type": "object",
        "properties": {
            "version": {"const": "2025-11-25"},
            "answer": {"const": 42},
            "flag": {"const": True},
            "nothing": {"const": None},
            "mixed": {"enum": [1, "a", None, True]},
            "object_const": {"const": {"kind": "fixed", "n": [1, 2]}},
        },
        "required": ["version", "mixed"],
    },
    [{"version": "2025-11-25", "mixed": None}, {"version": "2025-11-25", "mixed": "a", "answer": 42, "flag": True, "nothing": None, "object_const": {"kind": "fixed", "n": [1, 2]}}],
    [{"version": "2025-06-18", "mixed": 1}, {"version": "2025-11-25", "mixed": False}, {"version": "2025-11-25", "mixed": 1, "answer": 41}],
)

case(
    "exclusive-bounds-2020-12",
    "hand-written: exclusiveMinimum/exclusiveMaximum as numbers (draft 6+ / 2020-12), with multipleOf",
    {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "ratio": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
            "temperature": {"type": "number", "exclusiveMinimum": -273.15, "maximum": 1000},
            "step": {"type": "number", "exclusiveMinimum": 0, "multipleOf": 0.5},
        },
        "required": ["ratio"],
    },
    [{"ratio": 0.5}, {"ratio": 0.999, "temperature": -273.1, "step": 1.5}],
    [{"ratio": 0}, {"ratio": 1}, {"ratio": 0.5, "step": 0}],
)

case(
    "exclusive-bounds-draft04-boolean",
    "hand-written: draft-04 exclusiveMinimum/exclusiveMaximum as booleans next to minimum/maximum (old servers); "
    "must not crash a 2020-12 reader",
    {
        "$schema": "http://json-schema.org/draft-04/schema#",
        "type": "object",
        "properties": {
            "price": {"type": "number", "minimum": 0, "exclusiveMinimum": True},
            "discount": {"type": "number", "minimum": 0, "maximum": 100, "exclusiveMaximum": True},
            "count": {"type": "integer", "minimum": 1, "exclusiveMinimum": False},
        },
        "required": ["price"],
    },
    [{"price": 0.01}, {"price": 10, "discount": 0, "count": 1}],
    [{"price": 0}, {"price": 1, "discount": 100}, {"price": 1, "count": 0}],
)

case(
    "annotations-deprecated-readonly-examples",
    "hand-written: annotation keywords real schemas carry: deprecated, readOnly, writeOnly, examples, "
    "$comment, title/description on properties and default",
    {
        "type": "object",
        "title": "Update user",
        "description": "Fields of a user record",
        "$comment": "annotation-only keywords must not affect validation",
        "properties": {
            "id": {"type": "string", "readOnly": True, "description": "Server-assigned id"},
            "password": {"type": "string", "writeOnly": True, "minLength": 8},
            "username": {"type": "string", "examples": ["ada", "grace_h"], "title": "Username"},
            "legacy_flag": {"type": "boolean", "deprecated": True, "default": False, "description": "Use `mode` instead"},
            "mode": {"type": "string", "enum": ["a", "b"], "examples": ["a"], "default": "a"},
        },
        "required": ["username"],
        "examples": [{"username": "ada"}],
    },
    [{"username": "ada"}, {"username": "ada", "id": "u1", "password": "correct horse", "legacy_flag": True, "mode": "b"}],
    [{"id": "u1"}, {"username": "ada", "password": "short"}, {"username": "ada", "mode": "c"}],
)

case(
    "conditional-keywords",
    "hand-written: if/then/else, dependentRequired, oneOf exclusivity, not, propertyNames, contains/minContains",
    {
        "type": "object",
        "properties": {
            "kind": {"enum": ["file", "url"]},
            "path": {"type": "string"},
            "url": {"type": "string", "format": "uri"},
            "credit_card": {"type": "string"},
            "billing_address": {"type": "string"},
            "id": {"oneOf": [{"type": "integer"}, {"type": "number", "multipleOf": 0.5}]},
            "name": {"type": "string", "not": {"const": "admin"}},
            "labels": {"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}},
            "steps": {"type": "array", "contains": {"const": "deploy"}, "minContains": 1, "maxContains": 1},
        },
        "required": ["kind"],
        "if": {"properties": {"kind": {"const": "file"}}},
        "then": {"required": ["path"]},
        "else": {"required": ["url"]},
        "dependentRequired": {"credit_card": ["billing_address"]},
    },
    [{"kind": "file", "path": "/a"}, {"kind": "url", "url": "https://example.com", "id": 1.5, "labels": {"team": "x"}, "steps": ["build", "deploy"]}],
    [{"kind": "url", "path": "/a"}, {"kind": "file", "path": "/a", "credit_card": "4111"}, {"kind": "file", "path": "/a", "id": 2}],
)


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    dropped = 0
    for file, (source, schema, valid, invalid) in CASES.items():
        dropped += write_checked(OUT, file, source, schema, valid, invalid)
    print(f"hand: wrote {len(CASES)} files to {OUT.relative_to(ROOT)} ({dropped} candidates dropped)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
