#!/usr/bin/env python3
"""Regenerate tests/schemas/pydantic/*.json.

Each corpus entry is a tool registered on a real `mcp.server.mcpserver.MCPServer` (mcp 2.3.0, pydantic
2.14.4). The schema is taken from `await server.list_tools()` exactly as the server would send it on the
wire (`Tool.model_dump(mode="json", by_alias=True)`), as inputSchema or, for a few tools, outputSchema.

Instances are classified by the same code path the server runs on tools/call:
`Tool.fn_metadata.validate_arguments(arguments)` for input, and the output TypeAdapter for output.
Every candidate carries the label we meant it to have; the script stops if pydantic disagrees, so the
files only ever hold what the library itself accepted or rejected.

Run:  .venv/bin/python scripts/corpus/pydantic_gen.py     (from the repo root)
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import json
import sys
import uuid
from decimal import Decimal
from enum import Enum, IntEnum
from importlib.metadata import version
from pathlib import Path
from typing import Annotated, Any, Literal, Optional, Union

from typing_extensions import NotRequired, TypedDict

from mcp.server.mcpserver import MCPServer
from pydantic import AnyUrl, BaseModel, ConfigDict, Field, HttpUrl, ValidationError

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "tests" / "schemas" / "pydantic"

server = MCPServer("corpus-pydantic")

# name of corpus file -> dict(tool=..., kind="input"|"output", sig=..., valid=[...], invalid=[...])
CASES: list[dict[str, Any]] = []


def case(file: str, sig: str, valid: list[Any], invalid: list[Any], kind: str = "input", **tool_kw: Any):
    """Register the decorated function as an MCP tool and remember the corpus entry for it."""

    def deco(fn):
        server.tool(**tool_kw)(fn)
        CASES.append(
            dict(file=file, tool=tool_kw.get("name") or fn.__name__, sig=sig, kind=kind, valid=valid, invalid=invalid)
        )
        return fn

    return deco


# --------------------------------------------------------------------------------------------- models


class Color(str, Enum):
    RED = "red"
    GREEN = "green"
    BLUE = "blue"


class Size(IntEnum):
    S = 1
    M = 2
    L = 3


class Address(BaseModel):
    street: str
    city: str
    postal_code: str = Field(pattern=r"^[0-9]{5}$")
    country: str = "US"


class Customer(BaseModel):
    """A customer placing an order."""

    name: str
    email: str | None = None
    vip: bool = False


class Passenger(BaseModel):
    first_name: str = Field(min_length=1)
    last_name: str = Field(min_length=1)
    age: int = Field(ge=0, le=130)
    seat: str | None = Field(default=None, pattern=r"^[0-9]{1,2}[A-F]$")


class Cat(BaseModel):
    pet_type: Literal["cat"]
    meows: int


class Dog(BaseModel):
    pet_type: Literal["dog"]
    barks: float
    good_boy: bool = True


class Lizard(BaseModel):
    pet_type: Literal["reptile", "lizard"]
    scales: bool


class Tree(BaseModel):
    value: int
    children: list[Tree] = []


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", title="Strict Settings")

    key: str
    enabled: bool = True


class Contact(TypedDict):
    """A contact card (TypedDict)."""

    name: str
    phone: NotRequired[str]


@dataclasses.dataclass
class Point3D:
    x: float
    y: float
    z: float = 0.0


class WeatherReport(BaseModel):
    """Current weather for a city."""

    city: str
    temperature_c: float = Field(description="Temperature in Celsius")
    conditions: Literal["sunny", "cloudy", "rain", "snow"]
    humidity: int = Field(ge=0, le=100)
    observed_at: dt.datetime


class SearchHit(TypedDict):
    title: str
    url: str
    score: float


class SearchResults(TypedDict):
    """Search results page."""

    query: str
    hits: list[SearchHit]
    next_cursor: NotRequired[str | None]


# ----------------------------------------------------------------------------------------------- tools


@case(
    "basic-scalars",
    "search_flights(origin: str, destination: str, max_stops: int, budget: float, refundable: bool)",
    valid=[{"origin": "SFO", "destination": "JFK", "max_stops": 1, "budget": 450.5, "refundable": True}],
    invalid=[
        {"origin": "SFO", "destination": "JFK", "max_stops": 1, "budget": 450.5},
        {"origin": "SFO", "destination": "JFK", "max_stops": 1.5, "budget": 450.5, "refundable": True},
        {"origin": ["SFO"], "destination": "JFK", "max_stops": 1, "budget": 450.5, "refundable": False},
    ],
)
def search_flights(origin: str, destination: str, max_stops: int, budget: float, refundable: bool) -> str:
    """Search for flights between two airports."""
    return ""


@case(
    "optional-none-defaults",
    "find_user(name: str, nickname: str | None = None, age: Optional[int] = None, tags: list[str] | None = None)",
    valid=[{"name": "ada"}, {"name": "ada", "nickname": None, "age": 36, "tags": ["math"]}],
    invalid=[{"nickname": "countess"}, {"name": "ada", "age": "thirty"}],
)
def find_user(name: str, nickname: str | None = None, age: Optional[int] = None, tags: list[str] | None = None) -> str:
    """Look up a user."""
    return ""


@case(
    "literal-enums",
    'set_log_level(level: Literal["debug", "info", "warning", "error"], verbosity: Literal[1, 2, 3] = 1, '
    'target: Literal["stderr"] = "stderr")',
    valid=[{"level": "info"}, {"level": "error", "verbosity": 3, "target": "stderr"}],
    invalid=[{"level": "trace"}, {"level": "info", "verbosity": 4}, {"level": "info", "target": "stdout"}],
)
def set_log_level(
    level: Literal["debug", "info", "warning", "error"],
    verbosity: Literal[1, 2, 3] = 1,
    target: Literal["stderr"] = "stderr",
) -> str:
    """Change the server log level."""
    return ""


@case(
    "enum-classes",
    "paint(color: Color(str, Enum), size: Size(IntEnum) = Size.M)",
    valid=[{"color": "red"}, {"color": "blue", "size": 3}],
    invalid=[{"color": "purple"}, {"color": "red", "size": 7}, {}],
)
def paint(color: Color, size: Size = Size.M) -> str:
    """Paint the canvas."""
    return ""


@case(
    "nested-model",
    "create_order(customer: Customer, shipping: Address, note: str = '')",
    valid=[
        {
            "customer": {"name": "Ada"},
            "shipping": {"street": "1 Main St", "city": "Springfield", "postal_code": "12345"},
        },
        {
            "customer": {"name": "Bob", "email": "bob@example.com", "vip": True},
            "shipping": {"street": "2 Elm", "city": "Shelbyville", "postal_code": "54321", "country": "CA"},
            "note": "leave at door",
        },
    ],
    invalid=[
        {"customer": {"name": "Ada"}, "shipping": {"street": "1 Main St", "city": "Springfield"}},
        {
            "customer": {"name": "Ada"},
            "shipping": {"street": "1 Main St", "city": "Springfield", "postal_code": "ABCDE"},
        },
    ],
)
def create_order(customer: Customer, shipping: Address, note: str = "") -> str:
    """Create an order for a customer."""
    return ""


@case(
    "list-of-passengers",
    'book_flight(flight_number: str, passengers: list[Passenger], seat_class: Literal[...] = "economy")',
    valid=[
        {"flight_number": "UA123", "passengers": [{"first_name": "Ada", "last_name": "Lovelace", "age": 36}]},
        {
            "flight_number": "UA123",
            "passengers": [
                {"first_name": "Ada", "last_name": "Lovelace", "age": 36, "seat": "12C"},
                {"first_name": "Charles", "last_name": "Babbage", "age": 79, "seat": None},
            ],
            "seat_class": "business",
        },
        {"flight_number": "UA123", "passengers": []},
    ],
    invalid=[
        {"flight_number": "UA123", "passengers": [{"first_name": "Ada", "last_name": "Lovelace", "age": 200}]},
        {"flight_number": "UA123", "passengers": [{"first_name": "", "last_name": "Lovelace", "age": 3}]},
        {"flight_number": "UA123", "passengers": [], "seat_class": "cargo"},
    ],
)
def book_flight(
    flight_number: str,
    passengers: list[Passenger],
    seat_class: Literal["economy", "premium", "business", "first"] = "economy",
) -> str:
    """Book seats on a flight for one or more passengers."""
    return ""


@case(
    "dict-additional-properties",
    "set_inventory(counts: dict[str, int], labels: dict[str, str] | None = None)",
    valid=[{"counts": {"apples": 3, "pears": 0}}, {"counts": {}, "labels": {"a": "Apple"}}],
    invalid=[{"counts": {"apples": "three"}}, {"counts": {"apples": 3}, "labels": {"a": 1}}],
)
def set_inventory(counts: dict[str, int], labels: dict[str, str] | None = None) -> str:
    """Replace the stock counts."""
    return ""


@case(
    "tuple-prefix-items",
    "move_to(point: tuple[int, int], labeled: tuple[int, str], weights: tuple[float, ...] = ())",
    valid=[{"point": [1, 2], "labeled": [7, "seven"]}, {"point": [0, 0], "labeled": [1, "a"], "weights": [0.5, 1.5]}],
    invalid=[{"point": [1, 2, 3], "labeled": [7, "seven"]}, {"point": [1, 2], "labeled": ["seven", 7]}],
)
def move_to(point: tuple[int, int], labeled: tuple[int, str], weights: tuple[float, ...] = ()) -> str:
    """Move the cursor to a point."""
    return ""


@case(
    "numeric-constraints",
    "set_thermostat(target: float = Field(ge=5, le=35), step: float = Field(gt=0, lt=1, default=0.5), "
    "fan_speed: int = Field(ge=0, le=10, multiple_of=2), offset: int = Field(gt=-5, lt=5, default=0))",
    valid=[{"target": 21.5, "fan_speed": 4}, {"target": 5, "step": 0.1, "fan_speed": 10, "offset": -4}],
    invalid=[
        {"target": 40, "fan_speed": 4},
        {"target": 20, "fan_speed": 3},
        {"target": 20, "fan_speed": 4, "step": 1},
    ],
)
def set_thermostat(
    target: Annotated[float, Field(ge=5, le=35, description="Target temperature in Celsius")],
    fan_speed: Annotated[int, Field(ge=0, le=10, multiple_of=2)],
    step: Annotated[float, Field(gt=0, lt=1)] = 0.5,
    offset: Annotated[int, Field(gt=-5, lt=5)] = 0,
) -> str:
    """Set the thermostat."""
    return ""


@case(
    "string-constraints",
    "rename_repo(owner: str(min_length=1, max_length=39, pattern), name: str(max_length=100, pattern), "
    "description: str(max_length=350) = '')",
    valid=[{"owner": "octocat", "name": "hello-world"}, {"owner": "a", "name": "x.y_z", "description": "hi"}],
    invalid=[
        {"owner": "", "name": "hello-world"},
        {"owner": "octocat", "name": "hello world"},
        {"owner": "-bad-", "name": "ok"},
    ],
)
def rename_repo(
    owner: Annotated[str, Field(min_length=1, max_length=39, pattern=r"^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$")],
    name: Annotated[str, Field(max_length=100, pattern=r"^[A-Za-z0-9._-]+$")],
    description: Annotated[str, Field(max_length=350)] = "",
) -> str:
    """Rename a repository."""
    return ""


@case(
    "string-formats",
    "schedule_meeting(start: datetime, day: date, reminder_at: time, link: AnyUrl, homepage: HttpUrl | None, "
    "meeting_id: UUID, duration: timedelta)",
    valid=[
        {
            "start": "2025-11-25T09:30:00Z",
            "day": "2025-11-25",
            "reminder_at": "09:15:00Z",
            "link": "https://meet.example.com/abc",
            "meeting_id": "123e4567-e89b-12d3-a456-426614174000",
            "duration": "PT30M",
        }
    ],
    invalid=[
        {
            "start": "yesterday",
            "day": "2025-11-25",
            "reminder_at": "09:15:00Z",
            "link": "https://meet.example.com/abc",
            "meeting_id": "123e4567-e89b-12d3-a456-426614174000",
            "duration": "PT30M",
        },
        {
            "start": "2025-11-25T09:30:00Z",
            "day": "2025-11-25",
            "reminder_at": "09:15:00Z",
            "link": "https://meet.example.com/abc",
            "meeting_id": "not-a-uuid",
            "duration": "PT30M",
        },
        {
            "start": "2025-11-25T09:30:00Z",
            "day": "2025-13-45",
            "reminder_at": "09:15:00Z",
            "link": "https://meet.example.com/abc",
            "meeting_id": "123e4567-e89b-12d3-a456-426614174000",
            "duration": "PT30M",
        },
    ],
)
def schedule_meeting(
    start: dt.datetime,
    day: dt.date,
    reminder_at: dt.time,
    link: AnyUrl,
    meeting_id: uuid.UUID,
    duration: dt.timedelta,
    homepage: HttpUrl | None = None,
) -> str:
    """Schedule a meeting."""
    return ""


@case(
    "discriminated-union",
    'adopt(pet: Annotated[Cat | Dog | Lizard, Field(discriminator="pet_type")], owner: str)',
    valid=[
        {"pet": {"pet_type": "cat", "meows": 3}, "owner": "ada"},
        {"pet": {"pet_type": "dog", "barks": 2.5}, "owner": "bob"},
        {"pet": {"pet_type": "lizard", "scales": True}, "owner": "cy"},
    ],
    invalid=[
        {"pet": {"pet_type": "fish", "fins": 2}, "owner": "ada"},
        {"pet": {"pet_type": "cat", "barks": 2.5}, "owner": "ada"},
    ],
)
def adopt(pet: Annotated[Cat | Dog | Lizard, Field(discriminator="pet_type")], owner: str) -> str:
    """Adopt a pet."""
    return ""


@case(
    "plain-unions",
    "lookup(key: int | str, fallback: Union[float, bool, None] = None, ids: list[int | str] = [])",
    valid=[{"key": 42}, {"key": "answer", "fallback": True, "ids": [1, "two"]}, {"key": "x", "fallback": 1.5}],
    invalid=[{"key": None}, {"key": [1]}, {"key": 1, "ids": [{"id": 1}]}],
)
def lookup(key: int | str, fallback: Union[float, bool, None] = None, ids: list[int | str] = []) -> str:
    """Look up a key."""
    return ""


@case(
    "recursive-tree",
    "sum_tree(tree: Tree)  # class Tree(BaseModel): value: int; children: list[Tree] = []",
    valid=[{"tree": {"value": 1}}, {"tree": {"value": 1, "children": [{"value": 2, "children": [{"value": 3}]}]}}],
    invalid=[{"tree": {"value": 1, "children": [{"children": []}]}}, {"tree": {"value": 1, "children": {"value": 2}}}],
)
def sum_tree(tree: Tree) -> int:
    """Sum every node of a tree."""
    return 0


@case(
    "defaults",
    'create_issue(title: str, assignees: Annotated[list[str], Field(default_factory=list)], body: str = "", '
    'labels: list[str] = ["triage"], draft: bool = False, priority: int = 3, weight: float = 1.0, '
    'meta: dict[str, str] = {"source": "mcp"})',
    valid=[{"title": "Bug"}, {"title": "Bug", "labels": [], "draft": True, "priority": 1, "meta": {}}],
    invalid=[{"title": "Bug", "draft": "maybe"}, {"title": "Bug", "labels": "bug"}],
)
def create_issue(
    title: str,
    assignees: Annotated[list[str], Field(default_factory=list)],
    body: str = "",
    labels: list[str] = ["triage"],
    draft: bool = False,
    priority: int = 3,
    weight: float = 1.0,
    meta: dict[str, str] = {"source": "mcp"},
) -> str:
    """Open an issue."""
    return ""


@case(
    "annotated-descriptions",
    "query_logs(query: Annotated[str, Field(description=...)], limit: Annotated[int, Field(description=..., ge=1)] "
    "= 100, since: Annotated[str | None, Field(description=...)] = None)",
    valid=[{"query": "level:error"}, {"query": "x", "limit": 5, "since": "1h"}],
    invalid=[{"query": "x", "limit": 0}, {"limit": 5}],
)
def query_logs(
    query: Annotated[str, Field(description="Log query in the Lucene syntax, e.g. `level:error AND svc:api`")],
    limit: Annotated[int, Field(description="Maximum number of lines to return", ge=1)] = 100,
    since: Annotated[str | None, Field(description="Relative start time such as `15m` or `2h`")] = None,
) -> str:
    """Search the application logs.

    Multi-line docstrings become the tool description, the schema only gets per-field descriptions.
    """
    return ""


@case(
    "titles-and-examples",
    'send_message(channel: Annotated[str, Field(title="Channel ID", examples=["C024BE91L"])], '
    'text: Annotated[str, Field(title="Message text", json_schema_extra={"format": "markdown"})], '
    "thread_ts: Annotated[str | None, Field(title=..., examples=[...])] = None)",
    valid=[{"channel": "C024BE91L", "text": "*hi*"}, {"channel": "C1", "text": "", "thread_ts": "1712345678.000100"}],
    invalid=[{"channel": 123, "text": "x"}, {"text": "x"}],
)
def send_message(
    channel: Annotated[str, Field(title="Channel ID", examples=["C024BE91L"])],
    text: Annotated[str, Field(title="Message text", json_schema_extra={"format": "markdown"})],
    thread_ts: Annotated[str | None, Field(title="Thread timestamp", examples=["1712345678.000100"])] = None,
) -> str:
    """Post a message to a channel."""
    return ""


@case(
    "set-unique-items",
    "tag_photos(tags: set[str], album_ids: frozenset[int] = frozenset(), "
    "required_tags: set[str] = Field(min_length=1, max_length=3))",
    valid=[{"tags": ["cat", "dog"], "required_tags": ["pet"]}, {"tags": [], "album_ids": [1, 2], "required_tags": ["a", "b"]}],
    invalid=[{"tags": ["cat"], "required_tags": []}, {"tags": ["cat"], "required_tags": ["a", "b", "c", "d"]}],
)
def tag_photos(
    tags: set[str],
    required_tags: Annotated[set[str], Field(min_length=1, max_length=3)],
    album_ids: frozenset[int] = frozenset(),
) -> str:
    """Tag photos."""
    return ""


@case(
    "deprecated-fields",
    'export_data(format: Literal["csv", "json"], path: str, legacy_mode: bool = Field(False, deprecated=True), '
    'delimiter: str | None = Field(None, deprecated="use format=csv options instead"))',
    valid=[{"format": "csv", "path": "/tmp/out.csv"}, {"format": "json", "path": "o.json", "legacy_mode": True}],
    invalid=[{"format": "xml", "path": "o.xml"}, {"format": "csv"}],
)
def export_data(
    format: Literal["csv", "json"],
    path: str,
    legacy_mode: Annotated[bool, Field(deprecated=True)] = False,
    delimiter: Annotated[str | None, Field(deprecated="use format=csv options instead")] = None,
) -> str:
    """Export the data set."""
    return ""


@case(
    "nullable-enums",
    'recolor(background: Optional[Color] = None, border: Color | None = Color.RED, '
    'style: Literal["solid", "dashed"] | None = None, size: Size | None)',
    valid=[{"size": None}, {"background": "green", "border": None, "style": "dashed", "size": 2}],
    invalid=[{"background": "pink", "size": 1}, {"style": "dotted", "size": None}, {}],
)
def recolor(
    size: Size | None,
    background: Optional[Color] = None,
    border: Color | None = Color.RED,
    style: Literal["solid", "dashed"] | None = None,
) -> str:
    """Recolor a shape."""
    return ""


@case(
    "optional-nested-model",
    "checkout(cart_id: str, shipping: Address, billing: Address | None = None)",
    valid=[
        {"cart_id": "c1", "shipping": {"street": "1 Main", "city": "X", "postal_code": "00001"}},
        {
            "cart_id": "c1",
            "shipping": {"street": "1 Main", "city": "X", "postal_code": "00001"},
            "billing": {"street": "9 Side", "city": "Y", "postal_code": "99999", "country": "MX"},
        },
    ],
    invalid=[{"cart_id": "c1", "shipping": {"street": "1 Main", "city": "X", "postal_code": "00001"}, "billing": {}}],
)
def checkout(cart_id: str, shipping: Address, billing: Address | None = None) -> str:
    """Check out a cart."""
    return ""


@case("no-arguments", "ping()", valid=[{}, {"ignored": 1}], invalid=[])
def ping() -> str:
    """Check the server is alive."""
    return "pong"


@case(
    "aliases",
    'read_file(file_path: Annotated[str, Field(alias="filePath")], max_bytes: Annotated[int, Field(alias="maxBytes", '
    "gt=0)] = 65536)",
    valid=[{"filePath": "/etc/hosts"}, {"filePath": "a.txt", "maxBytes": 10}],
    invalid=[{"filePath": "a.txt", "maxBytes": 0}, {"filePath": 5}],
)
def read_file(
    file_path: Annotated[str, Field(alias="filePath")],
    max_bytes: Annotated[int, Field(alias="maxBytes", gt=0)] = 65536,
) -> str:
    """Read a file."""
    return ""


@case(
    "nested-arrays-and-constrained-lists",
    "fit_curve(points: list[list[float]], degree: int = Field(1, ge=1, le=5), "
    "labels: list[str] = Field(min_length=1, max_length=5))",
    valid=[{"points": [[0, 0], [1, 1.5]], "labels": ["a"]}, {"points": [], "labels": ["a", "b"], "degree": 3}],
    invalid=[{"points": [[0, "x"]], "labels": ["a"]}, {"points": [], "labels": []}, {"points": [[1]], "labels": ["a"] * 6}],
)
def fit_curve(
    points: list[list[float]],
    labels: Annotated[list[str], Field(min_length=1, max_length=5)],
    degree: Annotated[int, Field(ge=1, le=5)] = 1,
) -> str:
    """Fit a polynomial."""
    return ""


@case(
    "decimal-and-bytes",
    "transfer(amount: Decimal, memo: bytes = b'', fee: Decimal = Field(Decimal('0.00'), max_digits=6, decimal_places=2))",
    valid=[{"amount": 10.5}, {"amount": "10.25", "memo": "thanks", "fee": "1.50"}],
    invalid=[{"amount": [10]}, {"amount": None}, {"memo": "x"}],
)
def transfer(
    amount: Decimal,
    memo: bytes = b"",
    fee: Annotated[Decimal, Field(max_digits=6, decimal_places=2)] = Decimal("0.00"),
) -> str:
    """Transfer money."""
    return ""


@case(
    "forbid-extra-typeddict-dataclass",
    "configure(settings: Strict(extra=forbid), contact: Contact(TypedDict), origin: Point3D(dataclass))",
    valid=[
        {"settings": {"key": "k"}, "contact": {"name": "Ada"}, "origin": {"x": 1, "y": 2}},
        {"settings": {"key": "k", "enabled": False}, "contact": {"name": "Ada", "phone": "555"}, "origin": {"x": 1, "y": 2, "z": 3}},
    ],
    invalid=[
        {"settings": {"key": "k", "extra": 1}, "contact": {"name": "Ada"}, "origin": {"x": 1, "y": 2}},
        {"settings": {"key": "k"}, "contact": {"phone": "555"}, "origin": {"x": 1, "y": 2}},
        {"settings": {"key": "k"}, "contact": {"name": "Ada"}, "origin": {"x": 1}},
    ],
)
def configure(settings: Strict, contact: Contact, origin: Point3D) -> str:
    """Configure the device."""
    return ""


@case(
    "any-and-free-form",
    "store(key: str, value: Any, metadata: dict[str, Any] = {}, extra: dict | None = None, items: list = [])",
    valid=[{"key": "k", "value": None}, {"key": "k", "value": {"a": [1, 2]}, "metadata": {"x": None}, "items": [1, "a"]}],
    invalid=[{"value": 1}, {"key": "k", "value": 1, "metadata": [1]}],
)
def store(key: str, value: Any, metadata: dict[str, Any] = {}, extra: dict | None = None, items: list = []) -> str:
    """Store an arbitrary JSON value."""
    return ""


# ---------------------------------------------------------------------------------------- output schemas


@case(
    "output-basemodel",
    "get_weather(city: str) -> WeatherReport (outputSchema)",
    kind="output",
    valid=[
        {
            "city": "Oslo",
            "temperature_c": -3.5,
            "conditions": "snow",
            "humidity": 80,
            "observed_at": "2025-01-01T12:00:00Z",
        }
    ],
    invalid=[
        {"city": "Oslo", "temperature_c": -3.5, "conditions": "hail", "humidity": 80, "observed_at": "2025-01-01T12:00:00Z"},
        {"city": "Oslo", "temperature_c": -3.5, "conditions": "snow", "humidity": 101, "observed_at": "2025-01-01T12:00:00Z"},
    ],
)
def get_weather(city: str) -> WeatherReport:
    """Get the weather."""
    raise NotImplementedError


@case(
    "output-typeddict-nested",
    "web_search(query: str) -> SearchResults(TypedDict with list[SearchHit], NotRequired) (outputSchema)",
    kind="output",
    valid=[
        {"query": "mcp", "hits": []},
        {"query": "mcp", "hits": [{"title": "MCP", "url": "https://modelcontextprotocol.io", "score": 0.9}], "next_cursor": None},
    ],
    invalid=[{"query": "mcp"}, {"query": "mcp", "hits": [{"title": "MCP", "url": "u"}]}],
)
def web_search(query: str) -> SearchResults:
    """Search the web."""
    raise NotImplementedError


@case(
    "output-wrapped-list",
    "list_primes(limit: int) -> list[int] (outputSchema, wrapped in {result})",
    kind="output",
    valid=[{"result": [2, 3, 5]}, {"result": []}],
    invalid=[{"result": [2, "three"]}, {"primes": [2]}, [2, 3]],
)
def list_primes(limit: int) -> list[int]:
    """List primes."""
    return []


@case(
    "output-dict-str-float",
    "exchange_rates(base: str) -> dict[str, float] (outputSchema)",
    kind="output",
    valid=[{"EUR": 0.92, "JPY": 151}, {}],
    invalid=[{"EUR": "0.92x"}, {"EUR": None}],
)
def exchange_rates(base: str) -> dict[str, float]:
    """Exchange rates."""
    return {}


@case(
    "output-recursive-tree",
    "build_tree(depth: int) -> Tree (outputSchema: self-referencing model, root $ref inlined by mcp)",
    kind="output",
    valid=[{"value": 1, "children": [{"value": 2, "children": []}]}, {"value": 0}],
    invalid=[{"value": "one"}, {"value": 1, "children": [{"value": None}]}],
)
def build_tree(depth: int) -> Tree:
    """Build a tree."""
    raise NotImplementedError


@case(
    "output-optional-primitive",
    "maybe_count(name: str) -> int | None (outputSchema, wrapped in {result})",
    kind="output",
    valid=[{"result": 3}, {"result": None}],
    invalid=[{"result": "three"}, {}],
)
def maybe_count(name: str) -> int | None:
    """Count things, maybe."""
    return None


# ------------------------------------------------------------------------------------------------- main


def dump(obj: Any) -> str:
    return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"


async def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    listed = {t.name: t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in await server.list_tools()}
    versions = f"pydantic {version('pydantic')} via mcp {version('mcp')} MCPServer.list_tools()"
    problems: list[str] = []
    written = 0
    for c in CASES:
        wire = listed[c["tool"]]
        internal = server._tool_manager.get_tool(c["tool"])  # the server's own Tool: same validators as tools/call
        assert internal is not None
        if c["kind"] == "input":
            schema = wire["inputSchema"]
            where = "inputSchema"

            def accepts(instance: Any) -> bool:
                if not isinstance(instance, dict):
                    raise TypeError("tool arguments must be an object")
                try:
                    internal.fn_metadata.validate_arguments(instance)
                    return True
                except ValidationError:
                    return False

        else:
            schema = wire["outputSchema"]
            where = "outputSchema"
            meta = internal.fn_metadata
            adapter = meta._output_adapter(meta.output_model)

            def accepts(instance: Any) -> bool:
                try:
                    adapter.validate_python(instance)
                    return True
                except ValidationError:
                    return False

        for inst in c["valid"]:
            if not accepts(inst):
                problems.append(f"{c['file']}: pydantic rejects 'valid' {json.dumps(inst)}")
        for inst in c["invalid"]:
            if accepts(inst):
                problems.append(f"{c['file']}: pydantic accepts 'invalid' {json.dumps(inst)}")
        entry = {
            "source": f"{versions}: {where} of tool {c['sig']}",
            "schema": schema,
            "valid": c["valid"],
            "invalid": c["invalid"],
        }
        (OUT / f"{c['file']}.json").write_text(dump(entry))
        written += 1
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 1
    print(f"pydantic: wrote {written} files to {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
