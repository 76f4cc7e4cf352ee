"""CORS for the Python test servers: what a server must allow so the mcp-lens page (another
origin) can call it from the browser. Shared by python_server.py, forms_server.py (mcp 2.3.0, .venv) and
py1_server.py (mcp 1.x / fastmcp 2.x, .venv-py1): it needs only Starlette, so it works in both venvs."""

from __future__ import annotations

from starlette.middleware.cors import CORSMiddleware


def allow_the_page(app):
    """Adds CORS to a Starlette app: any origin, the MCP headers, and the ones to expose."""
    app.add_middleware(
        CORSMiddleware,
        allow_origins=["*"],
        allow_methods=["GET", "POST", "DELETE", "OPTIONS"],
        # "*" would not cover Authorization, so every header is listed explicitly.
        allow_headers=[
            "content-type",
            "accept",
            "authorization",
            "mcp-session-id",
            "mcp-protocol-version",
            "last-event-id",
            "mcp-method",
            "mcp-name",
            "x-mcp-lens-test",  # the custom header python_server.py's request_info tool reports
        ],
        expose_headers=["Mcp-Session-Id", "Mcp-Protocol-Version", "Last-Event-Id"],
    )
    return app
