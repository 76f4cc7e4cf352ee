#!/usr/bin/env python3
"""Write tests/schemas/real/*.json from schemas captured from real MCP servers.

Inputs (real.sh produces the first group; the second is checked in):
  <raw-dir>/everything-tools.json        tools/list of server-everything over Streamable HTTP (curl)
  <raw-dir>/everything-elicitation.json  the elicitation/create request its trigger-elicitation-request sends
  <raw-dir>/<server>-tools.json          tools/list of the stdio servers (filesystem, memory,
                                         sequential-thinking, playwright)
Schemas are copied as sent. The candidate instances below are classified with the `jsonschema` package
(draft from `$schema`, else 2020-12, formats checked): a candidate it disagrees with is dropped and
reported, never relabelled.

Run:  .venv/bin/python scripts/corpus/real_gen.py <raw-dir>
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.dont_write_bytecode = True  # keep __pycache__ out of scripts/corpus
sys.path.insert(0, str(Path(__file__).resolve().parent))
from check_corpus import write_checked  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "schemas" / "real"

# (corpus file, raw file id, tool name, "inputSchema" | "outputSchema" | "requestedSchema", valid, invalid)
CASES: list[tuple[str, str, str, str, list[Any], list[Any]]] = [
    (
        "everything-elicitation-requested-schema", "everything-elicitation", "trigger-elicitation-request",
        "requestedSchema",
        [
            {"name": "Ada Lovelace"},
            {
                "name": "Ada", "check": True, "firstLine": "Call me Ishmael.", "email": "ada@example.com",
                "homepage": "https://example.com", "birthdate": "1815-12-10", "integer": 42, "number": 3.14,
                "untitledSingleSelectEnum": "Joey", "untitledMultipleSelectEnum": ["Piano", "Drums"],
                "titledSingleSelectEnum": "hero-2", "titledMultipleSelectEnum": ["fish-1", "fish-3"],
                "legacyTitledEnum": "pet-4",
            },
        ],
        [
            {"check": True},
            {"name": "Ada", "integer": 101, "untitledMultipleSelectEnum": []},
            {"name": "Ada", "titledSingleSelectEnum": "Superman"},
        ],
    ),
    (
        "everything-get-annotated-message", "everything", "get-annotated-message", "inputSchema",
        [{"messageType": "error"}, {"messageType": "debug", "includeImage": True}],
        [{"messageType": "warning"}, {"includeImage": True}, {"messageType": "success", "includeImage": "yes"}],
    ),
    (
        "everything-gzip-file-as-resource", "everything", "gzip-file-as-resource", "inputSchema",
        [{}, {"name": "x.gz", "data": "data:text/plain;base64,aGk=", "outputType": "resource"}],
        [{"outputType": "file"}, {"data": "not a uri"}, {"name": 5}],
    ),
    (
        "everything-get-resource-reference", "everything", "get-resource-reference", "inputSchema",
        [{}, {"resourceType": "Blob", "resourceId": 7}],
        [{"resourceType": "text"}, {"resourceId": "7"}],
    ),
    (
        "everything-trigger-url-elicitation", "everything", "trigger-url-elicitation", "inputSchema",
        [{"url": "https://example.com/consent"}, {"url": "https://example.com", "message": "Open", "errorPath": True}],
        [{"message": "Open"}, {"url": "example dot com"}, {"url": "https://example.com", "errorPath": "false"}],
    ),
    (
        "everything-get-structured-content-output", "everything", "get-structured-content", "outputSchema",
        [{"temperature": 22.5, "conditions": "Partly cloudy", "humidity": 65}],
        [
            {"temperature": 22.5, "conditions": "Partly cloudy"},
            {"temperature": "22.5", "conditions": "Sunny", "humidity": 65},
            {"temperature": 22.5, "conditions": "Sunny", "humidity": 65, "wind": 3},
        ],
    ),
    (
        "filesystem-edit-file", "filesystem", "edit_file", "inputSchema",
        [
            {"path": "/tmp/a.txt", "edits": []},
            {"path": "/tmp/a.txt", "edits": [{"oldText": "foo", "newText": "bar"}], "dryRun": True},
        ],
        [
            {"path": "/tmp/a.txt"},
            {"path": "/tmp/a.txt", "edits": [{"oldText": "foo"}]},
            {"path": "/tmp/a.txt", "edits": {"oldText": "foo", "newText": "bar"}},
        ],
    ),
    (
        "filesystem-read-multiple-files", "filesystem", "read_multiple_files", "inputSchema",
        [{"paths": ["/tmp/a.txt"]}, {"paths": ["a", "b", "c"]}],
        [{"paths": []}, {"paths": "/tmp/a.txt"}, {"paths": [1]}],
    ),
    (
        "memory-create-entities", "memory", "create_entities", "inputSchema",
        [
            {"entities": []},
            {"entities": [{"name": "Ada", "entityType": "person", "observations": ["wrote the first program"]}]},
        ],
        [
            {"entities": [{"name": "Ada", "entityType": "person"}]},
            {"entities": [{"name": "Ada", "entityType": "person", "observations": "one"}]},
            {},
        ],
    ),
    (
        "memory-read-graph-output", "memory", "read_graph", "outputSchema",
        [
            {"entities": [], "relations": []},
            {
                "entities": [{"name": "Ada", "entityType": "person", "observations": []}],
                "relations": [{"from": "Ada", "to": "Babbage", "relationType": "worked_with"}],
            },
        ],
        [
            {"entities": []},
            {"entities": [], "relations": [{"from": "Ada", "to": "Babbage"}]},
            {"entities": [{"name": "Ada", "entityType": "person", "observations": [], "age": 36}], "relations": []},
        ],
    ),
    (
        "sequential-thinking", "sequential-thinking", "sequentialthinking", "inputSchema",
        [
            {"thought": "First, read the spec.", "nextThoughtNeeded": True, "thoughtNumber": 1, "totalThoughts": 3},
            {
                "thought": "Revise step 1.", "nextThoughtNeeded": "false", "thoughtNumber": 2, "totalThoughts": 3,
                "isRevision": True, "revisesThought": 1, "branchFromThought": 1, "branchId": "b1",
                "needsMoreThoughts": False,
            },
        ],
        [
            {"thought": "x", "nextThoughtNeeded": True, "thoughtNumber": 0, "totalThoughts": 3},
            {"thought": "x", "nextThoughtNeeded": 1, "thoughtNumber": 1, "totalThoughts": 3},
            {"thought": "x", "nextThoughtNeeded": True, "thoughtNumber": 1.5, "totalThoughts": 3},
        ],
    ),
    (
        "playwright-browser-emulate-media", "playwright", "browser_emulate_media", "inputSchema",
        [{}, {"colorScheme": "dark", "reducedMotion": None, "media": "print"}],
        [{"colorScheme": "sepia"}, {"contrast": "less"}, {"colorScheme": "dark", "zoom": 2}],
    ),
    (
        "playwright-browser-fill-form", "playwright", "browser_fill_form", "inputSchema",
        [
            {"fields": []},
            {
                "fields": [
                    {"target": "e12", "name": "Email", "type": "textbox", "value": "a@example.com"},
                    {"element": "Terms checkbox", "target": "e13", "name": "Terms", "type": "checkbox", "value": "true"},
                ]
            },
        ],
        [
            {"fields": [{"target": "e12", "name": "Email", "type": "textarea", "value": "x"}]},
            {"fields": [{"target": "e12", "name": "Email", "type": "textbox"}]},
            {"fields": [{"target": "e12", "name": "Email", "type": "textbox", "value": "x", "extra": 1}]},
        ],
    ),
    (
        "playwright-browser-click", "playwright", "browser_click", "inputSchema",
        [{"target": "e5"}, {"element": "Submit button", "target": "e5", "doubleClick": False, "button": "right", "modifiers": ["Shift", "ControlOrMeta"]}],
        [{"element": "Submit"}, {"target": "e5", "button": "back"}, {"target": "e5", "modifiers": ["Ctrl"]}],
    ),
    (
        "playwright-browser-network-request", "playwright", "browser_network_request", "inputSchema",
        [{"index": 1}, {"index": 3, "part": "response-body", "filename": "body.json"}],
        [{"index": 0}, {"index": 1.5}, {"index": 1, "part": "cookies"}],
    ),
]


def load_raw(raw: Path) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for f in sorted(raw.glob("*-tools.json")):
        out[f.name.removesuffix("-tools.json")] = json.loads(f.read_text())
    out["everything-elicitation"] = json.loads((raw / "everything-elicitation.json").read_text())
    return out


def find(raw: dict[str, dict[str, Any]], src: str, tool: str, key: str) -> tuple[Any, str]:
    dump = raw[src]
    if key == "requestedSchema":
        return dump["params"]["requestedSchema"], (
            f"{dump['server']} over streamableHttp: requestedSchema of the elicitation/create request "
            f"sent while running tool {dump['tool']} (SEP-1330 enum shapes)"
        )
    tool_obj = next(t for t in dump["tools"] if t["name"] == tool)
    return tool_obj[key], f"{dump['server']} tools/list over {dump['transport']}: {key} of tool {tool}"


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    raw = load_raw(Path(argv[0]))
    OUT.mkdir(parents=True, exist_ok=True)
    dropped = 0
    for file, src, tool, key, valid, invalid in CASES:
        schema, source = find(raw, src, tool, key)
        dropped += write_checked(OUT, file, source, schema, valid, invalid)
    print(f"real: wrote {len(CASES)} files to {OUT.relative_to(ROOT)} ({dropped} candidates dropped)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
