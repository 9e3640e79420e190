"""Serving the built portal: `index.html` for every portal route, hashed files under /assets/.

`make install` builds web/ with npm into the git-ignored `web/dist/`; without it, `/` says
how to get the portal and the API works as ever.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from html import escape
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, PlainTextResponse, Response

DEFAULT_DIR = Path(__file__).resolve().parents[2] / "web" / "dist"

ASSET_PREFIX = "/assets"

ROUTES = (
    "/",
    "/sign-in",
    "/comparisons",
    "/comparisons/{rest:path}",
    "/datasets",
    "/datasets/{rest:path}",
    "/releases",
    "/experiments",
    "/experiments/{experiment_id}",
    "/experiments/{experiment_id}/diff",
    "/audit",
    "/traces",
    "/traces/{trace_id}",
    "/live",
    "/live/{live_id}",
    "/settings",
    "/prompts",
    "/prompts/{rest:path}",
    "/playground",
)
"""The portal's own paths: each answers `index.html`, and the portal routes in the browser."""

FOREVER = "public, max-age=31536000, immutable"
"""Vite puts a content hash in every file name under /assets/, so a name never changes meaning."""

_TYPES = {
    ".js": "text/javascript",
    ".css": "text/css",
    ".svg": "image/svg+xml",
    ".woff2": "font/woff2",
    ".png": "image/png",
}


def content_security_policy(host: str | None) -> str:
    """Same origin only, no inline script; the websocket of this host for live progress."""
    sockets = f" ws://{host} wss://{host}" if host else ""
    return (
        "default-src 'self'; "
        f"connect-src 'self'{sockets}; "
        "img-src 'self' data:; "
        "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )


def _secure_headers(request: Request) -> dict[str, str]:
    return {
        "Content-Security-Policy": content_security_policy(request.headers.get("host")),
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
    }


def missing_portal_html(directory: Path) -> str:
    """What `/` shows when the portal was not built."""
    return f"""<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>shipwise · the portal is not built</title></head>
  <body>
    <main>
      <h1>The portal is not built</h1>
      <p>shipwise serves its portal from files that <code>make install</code> builds with
      Node's <code>npm</code> when it is on the PATH. Install Node.js and npm, then run
      <code>make portal</code> in the shipwise checkout and reload this page. The files go
      into <code>{escape(str(directory))}</code> (<code>SHIPWISE_PORTAL_DIR</code>).</p>
      <p>The API works without it: GraphQL (and GraphiQL) at <a href="/graphql">/graphql</a>.</p>
    </main>
  </body>
</html>
"""


def index_endpoint(directory: Path) -> Callable[[Request], Awaitable[Response]]:
    """Every portal route: the portal's `index.html`, never cached (it names the hashed files)."""

    async def serve_index(request: Request) -> Response:
        index = directory / "index.html"
        headers = _secure_headers(request)
        if not index.is_file():
            return HTMLResponse(missing_portal_html(directory), headers=headers)
        headers["Cache-Control"] = "no-cache"
        return FileResponse(index, media_type="text/html; charset=utf-8", headers=headers)

    return serve_index


def asset_endpoint(directory: Path) -> Callable[[Request], Awaitable[Response]]:
    """`GET /assets/{name}`: a built file, cached for good; nothing outside the folder."""
    assets = (directory / "assets").resolve()

    async def serve_asset(request: Request) -> Response:
        name = request.path_params["name"]
        path = (assets / name).resolve()
        if path.parent != assets or not path.is_file():
            return PlainTextResponse("not found", status_code=404)
        media_type = _TYPES.get(path.suffix, "application/octet-stream")
        headers = {"Cache-Control": FOREVER, "X-Content-Type-Options": "nosniff"}
        return FileResponse(path, media_type=media_type, headers=headers)

    return serve_asset
