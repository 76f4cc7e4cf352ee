"""A real MCP test server for the 2026-07-28 extensions mcp-lens shows, on the official Python
SDK (mcp 2.3.0): the tasks extension (SEP-2663, `io.modelcontextprotocol/tasks`) and list
lifetimes (SEP-2549, `ttlMs`).

Streamable HTTP at http://127.0.0.1:<port>/mcp, served by uvicorn on loopback only, with CORS
for the page (cors.py).

    .venv/bin/python tests/servers/tasks_ext_server.py --port 3040 --list-ttl-ms 5000

No registry server speaks the tasks extension yet; the SDK serves its methods through its
extension interface (`mcp.server.extension`: `MethodBinding` for tasks/get, tasks/update and
tasks/cancel, `intercept_tool_call` to answer a call with a task). A task's state moves with
time and answers, read whenever it is asked for (no work runs in the background):

  tool     render(pages: int = 3)  with the extension declared: a task, `working` for 1.5 s,
                                   then `input_required` (an elicitation: which format?),
                                   then after tasks/update `working` 1.5 s more, then
                                   `completed` with "Rendered <pages> pages as <format>."
                                   Without the extension: "Rendered <pages> pages as png."
  tool     long_job()              with the extension: a task `working` ("Step <n> of 1000")
                                   until cancelled; tasks/cancel ends it `cancelled`.
  tool     broken_job()            with the extension: a task that fails after 1 s with the
                                   JSON-RPC error -32603 "the renderer crashed".
  tool     echo(message: str)      never a task: "Echo: <message>"
  prompt   greet(name: str)

tools/list and prompts/list carry `ttlMs` (`--list-ttl-ms`) with `cacheScope: public`.
"""

from __future__ import annotations

import argparse
import datetime
import itertools
import time
import uuid
from typing import Any

import uvicorn
from cors import allow_the_page
from pydantic import ConfigDict, Field

from mcp.server.caching import CacheHint
from mcp.server.extension import Extension, MethodBinding
from mcp.server.mcpserver import MCPServer
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, RequestParams

HOST = "127.0.0.1"
EXTENSION_ID = "io.modelcontextprotocol/tasks"
TASK_TOOLS = ("render", "long_job", "broken_job")
PHASE_SECONDS = 1.5
TTL_MS = 600_000
POLL_MS = 500


def iso(at: float) -> str:
    """Wall-clock ISO 8601 with milliseconds (sorts like the times it stands for)."""
    moment = datetime.datetime.fromtimestamp(at, tz=datetime.timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


class Task:
    """One task: its tool, when it started, the answers it got and whether it was cancelled."""

    def __init__(self, tool: str, arguments: dict[str, Any]):
        self.id = str(uuid.uuid4())
        self.tool = tool
        self.arguments = arguments
        self.created = time.time()
        self.answered_at: float | None = None
        self.answer: dict[str, Any] | None = None
        self.cancelled_at: float | None = None

    def state(self) -> dict[str, Any]:
        """The task as tasks/get gives it now: status, message, and what the status carries."""
        now = time.time()
        base = {"taskId": self.id, "createdAt": iso(self.created), "ttlMs": TTL_MS, "pollIntervalMs": POLL_MS}
        if self.cancelled_at is not None:
            return {**base, "status": "cancelled", "statusMessage": "Cancelled at the client's request.",
                    "lastUpdatedAt": iso(self.cancelled_at)}
        started = self.created + PHASE_SECONDS
        if self.tool == "long_job":
            step = int((now - self.created) / 0.5) + 1
            return {**base, "status": "working", "statusMessage": f"Step {min(step, 1000)} of 1000",
                    "lastUpdatedAt": iso(self.created + (step - 1) * 0.5)}
        if self.tool == "broken_job":
            if now < self.created + 1.0:
                return {**base, "status": "working", "statusMessage": "Starting the renderer",
                        "lastUpdatedAt": iso(self.created)}
            return {**base, "status": "failed", "statusMessage": "The renderer crashed.",
                    "lastUpdatedAt": iso(self.created + 1.0),
                    "error": {"code": -32603, "message": "the renderer crashed"}}
        # render
        if now < started:
            return {**base, "status": "working", "statusMessage": "Laying out the pages",
                    "lastUpdatedAt": iso(self.created)}
        if self.answered_at is None:
            return {**base, "status": "input_required", "statusMessage": "Which format?",
                    "lastUpdatedAt": iso(started),
                    "inputRequests": {"format-1": {"method": "elicitation/create", "params": {
                        "mode": "form",
                        "message": "Which format should the pages be rendered in?",
                        "requestedSchema": {"type": "object", "properties": {
                            "format": {"type": "string", "enum": ["png", "pdf"], "title": "Format"}},
                            "required": ["format"]}}}}}
        done = self.answered_at + PHASE_SECONDS
        if now < done:
            return {**base, "status": "working", "statusMessage": "Rendering",
                    "lastUpdatedAt": iso(self.answered_at)}
        answer = self.answer or {}
        if answer.get("action") != "accept":
            text = "Not rendered: no format was chosen."
        else:
            text = f"Rendered {self.arguments.get('pages', 3)} pages as {answer.get('content', {}).get('format')}."
        return {**base, "status": "completed", "statusMessage": "Done", "lastUpdatedAt": iso(done),
                "result": {"content": [{"type": "text", "text": text}], "isError": False}}


TASKS: dict[str, Task] = {}


class TaskParams(RequestParams):
    model_config = ConfigDict(populate_by_name=True, extra="allow")
    task_id: str = Field(alias="taskId")


class UpdateParams(TaskParams):
    input_responses: dict[str, Any] = Field(alias="inputResponses")


def known(task_id: str) -> Task:
    task = TASKS.get(task_id)
    if task is None:
        raise MCPError(INVALID_PARAMS, f"No task {task_id!r}.")
    return task


async def tasks_get(ctx: Any, params: TaskParams) -> dict[str, Any]:
    return {"resultType": "complete", **known(params.task_id).state()}


async def tasks_update(ctx: Any, params: UpdateParams) -> dict[str, Any]:
    task = known(params.task_id)
    answer = params.input_responses.get("format-1")
    if task.tool == "render" and task.answered_at is None and isinstance(answer, dict):
        task.answer = answer
        task.answered_at = time.time()
    return {"resultType": "complete"}


async def tasks_cancel(ctx: Any, params: TaskParams) -> dict[str, Any]:
    task = known(params.task_id)
    if task.state()["status"] in ("working", "input_required"):
        task.cancelled_at = time.time()
    return {"resultType": "complete"}


def declared(ctx: Any) -> bool:
    capabilities = getattr(ctx.session, "client_capabilities", None)
    extensions = getattr(capabilities, "extensions", None) or {}
    return EXTENSION_ID in extensions


class TasksExtension(Extension):
    identifier = EXTENSION_ID

    def methods(self):
        return [
            MethodBinding("tasks/get", TaskParams, tasks_get),
            MethodBinding("tasks/update", UpdateParams, tasks_update),
            MethodBinding("tasks/cancel", TaskParams, tasks_cancel),
        ]

    async def intercept_tool_call(self, params, ctx, call_next):
        # The server decides: these tools run as tasks for a client that declared the extension.
        if params.name in TASK_TOOLS and declared(ctx):
            task = Task(params.name, dict(params.arguments or {}))
            TASKS[task.id] = task
            return {**task.state(), "resultType": "task"}
        return await call_next(ctx)


def build_server(list_ttl_ms: int) -> MCPServer:
    hint = CacheHint(ttl_ms=list_ttl_ms, scope="public")
    server = MCPServer(
        "mcp-lens-tasks-extension-test",
        version="0.1.0",
        log_level="WARNING",
        extensions=[TasksExtension()],
        cache_hints={"tools/list": hint, "prompts/list": hint},
    )

    @server.tool()
    def render(pages: int = 3) -> str:
        """Renders pages (as a task when the client declared the tasks extension)."""
        return f"Rendered {pages} pages as png."

    @server.tool()
    def long_job() -> str:
        """Runs until cancelled (as a task)."""
        return "A long job needs the tasks extension."

    @server.tool()
    def broken_job() -> str:
        """Fails (as a task)."""
        return "A broken job needs the tasks extension."

    counter = itertools.count(1)

    @server.tool()
    def echo(message: str) -> str:
        """Echoes the message (never a task)."""
        next(counter)
        return f"Echo: {message}"

    @server.prompt()
    def greet(name: str) -> str:
        """A greeting."""
        return f"Please greet {name} warmly."

    return server


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=3040)
    parser.add_argument("--list-ttl-ms", type=int, default=5000, help="the ttlMs of tools/list and prompts/list")
    args = parser.parse_args()
    app = build_server(args.list_ttl_ms).streamable_http_app(host=HOST)
    allow_the_page(app)
    uvicorn.run(app, host=HOST, port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
