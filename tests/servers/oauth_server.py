"""An MCP server that only answers requests with a valid access token from a real authorization
server (tests/servers/oauth_as.mjs, oidc-provider), for the sign-in end-to-end tests. Everything
that decides is fastmcp 2.x's (2.14.7, .venv-py1) and the Python SDK's under it:

    .venv-py1/bin/python tests/servers/oauth_server.py --port 4001 --issuer http://127.0.0.1:4000

- `JWTVerifier` checks each bearer token: its signature against the issuer's JWKS
  (<issuer>/jwks), `iss`, `aud` (this server's URL, http://127.0.0.1:<port>/mcp: the resource the
  client asked for, RFC 8707), `exp`, and the scope `mcp`;
- `RemoteAuthProvider` serves the Protected Resource Metadata (RFC 9728) at
  /.well-known/oauth-protected-resource/mcp, naming the issuer and the scope `mcp`, and answers
  a request without a valid token 401 with `WWW-Authenticate: Bearer error="invalid_token",
  ..., resource_metadata="..."`.

CORS: tests/servers/cors.py, plus `WWW-Authenticate` among the exposed headers (without it the
page cannot read the challenge's `resource_metadata` and `scope`).

Tool `whoami`: who the token says the caller is, and which token it was: its `jti`, when it was
issued and when it expires, so the test sees the page come back with a new token after a refresh.
"""

from __future__ import annotations

import argparse
import datetime
import os
import warnings

# Quiet: fastmcp logs every refused token at INFO, and authlib warns that fastmcp 2.x imports
# its deprecated jose module; the tests read the answers, not the logs.
os.environ.setdefault("FASTMCP_LOG_LEVEL", "WARNING")
import authlib.deprecate  # noqa: E402  (it sets its warnings to "always" when imported)

warnings.filterwarnings("ignore", category=authlib.deprecate.AuthlibDeprecationWarning)

import uvicorn  # noqa: E402
from fastmcp import FastMCP  # noqa: E402
from fastmcp.server.auth import RemoteAuthProvider  # noqa: E402
from fastmcp.server.auth.providers.jwt import JWTVerifier  # noqa: E402
from fastmcp.server.dependencies import get_access_token  # noqa: E402

from cors import allow_the_page  # noqa: E402

HOST = "127.0.0.1"


def build_app(port: int, issuer: str):
    base = f"http://{HOST}:{port}"
    verifier = JWTVerifier(
        jwks_uri=f"{issuer}/jwks",
        issuer=issuer,
        audience=f"{base}/mcp",
        required_scopes=["mcp"],
    )
    auth = RemoteAuthProvider(token_verifier=verifier, authorization_servers=[issuer], base_url=base)
    server = FastMCP("oauth-protected", auth=auth)

    @server.tool
    def whoami() -> str:
        """Who the access token says you are, and which token it was."""
        token = get_access_token()
        claims = token.claims if token else {}

        def at(key: str) -> str:
            seconds = claims.get(key)
            if not isinstance(seconds, (int, float)):
                return "?"
            return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc).strftime("%H:%M:%S")

        return (
            f"subject {claims.get('sub')}; client {claims.get('client_id')}; scope {claims.get('scope')}; "
            f"token {claims.get('jti')} issued {at('iat')}, expires {at('exp')}"
        )

    app = server.http_app(path="/mcp")
    return allow_the_page(app, expose_extra=("WWW-Authenticate",))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--issuer", required=True, help="the authorization server, e.g. http://127.0.0.1:4000")
    args = parser.parse_args()
    uvicorn.run(build_app(args.port, args.issuer), host=HOST, port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
