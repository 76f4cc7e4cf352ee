"""CORS for the Python test servers: what a server must allow so the mcp-lens page (another
origin) can call it from the browser. Shared by python_server.py, forms_server.py (mcp 2.3.0, .venv) and
py1_server.py (mcp 1.x / fastmcp 2.x, .venv-py1): it needs only Starlette, so it works in both venvs."""

from __future__ import annotations

from starlette.middleware.cors import CORSMiddleware


ERA_HEADERS = ("mcp-method", "mcp-name")


def allow_the_page(app, without: str | None = None, expose_extra: tuple[str, ...] = ()):
    """Adds CORS to a Starlette app: any origin, the MCP headers, and the ones to expose
    (and `expose_extra`: e.g. WWW-Authenticate, for a server that asks for a sign-in).

    `without` leaves out what real deployments often forget, to test what the page says then:
    "era-headers" (the 2026-07-28 era's mcp-method and mcp-name) or "delete" (the DELETE method
    that ends a session)."""
    methods = ["GET", "POST", "DELETE", "OPTIONS"]
    # "*" would not cover Authorization, so every header is listed explicitly.
    headers = [
        "content-type",
        "accept",
        "authorization",
        "mcp-session-id",
        "mcp-protocol-version",
        "last-event-id",
        *ERA_HEADERS,
        "x-mcp-lens-test",  # the custom header python_server.py's request_info tool reports
    ]
    if without == "delete":
        methods.remove("DELETE")
    if without == "era-headers":
        headers = [h for h in headers if h not in ERA_HEADERS]
    app.add_middleware(
        CORSMiddleware,
        allow_origins=["*"],
        allow_methods=methods,
        allow_headers=headers,
        expose_headers=["Mcp-Session-Id", "Mcp-Protocol-Version", "Last-Event-Id", *expose_extra],
    )
    return app
