"""A server that is NOT an MCP server: every GET/POST gets 200 text/html.

    python3 tests/servers/html_server.py --port 3004

It stands in for a URL that points at an ordinary web page. CORS is fully permissive
(preflights succeed, every answer carries Access-Control-Allow-Origin: *), so a page can
read the answer's Content-Type and must then report that it is neither JSON nor an event
stream. Standard library only; binds 127.0.0.1.
"""

from __future__ import annotations

import argparse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HOST = "127.0.0.1"
BODY = b"<!doctype html><html><body>Not an MCP server</body></html>"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "html-test-server"

    def _cors(self) -> None:
        self.send_header("Access-Control-Allow-Origin", "*")
        self.send_header("Access-Control-Expose-Headers", "Content-Type")

    def _drain_body(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if length > 0:
            self.rfile.read(length)

    def _html(self, include_body: bool = True) -> None:
        self._drain_body()
        self.send_response(200)
        self._cors()
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(BODY)))
        self.end_headers()
        if include_body:
            self.wfile.write(BODY)

    def do_GET(self) -> None:  # noqa: N802
        self._html()

    def do_POST(self) -> None:  # noqa: N802
        self._html()

    def do_HEAD(self) -> None:  # noqa: N802
        self._html(include_body=False)

    def do_DELETE(self) -> None:  # noqa: N802
        self._html()

    def do_OPTIONS(self) -> None:  # noqa: N802
        self._drain_body()
        self.send_response(204)
        self._cors()
        self.send_header("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS")
        requested = self.headers.get("Access-Control-Request-Headers")
        if requested:
            self.send_header("Access-Control-Allow-Headers", requested)
        self.send_header("Access-Control-Max-Age", "600")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args) -> None:  # quiet
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=3004)
    args = parser.parse_args()
    httpd = ThreadingHTTPServer((HOST, args.port), Handler)
    httpd.daemon_threads = True
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        httpd.server_close()


if __name__ == "__main__":
    main()
