"""The GraphiQL page and its files, all served by shipwise (no CDN, so it works offline)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from html import escape
from pathlib import Path

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, PlainTextResponse, Response

from server.graphiql.assets import ASSETS, BY_NAME, missing

ASSET_PATH = "/graphiql"
"""Where the files are served: `/graphiql/<name>`."""

_SCRIPT = """
      const url = window.location.href.split("?")[0];
      const subscriptionUrl = url.replace(/^http/, "ws");
      const fetcher = GraphiQL.createFetcher({ url, subscriptionUrl });
      const explorer = GraphiQLPluginExplorer.explorerPlugin();
      ReactDOM.createRoot(document.getElementById("graphiql")).render(
        React.createElement(GraphiQL, {
          fetcher,
          plugins: [explorer],
          defaultEditorToolsVisibility: true,
          isHeadersEditorEnabled: true,
          shouldPersistHeaders: true,
          inputValueDeprecation: true,
        }),
      );
"""

_STYLE = "body { margin: 0; } #graphiql { height: 100vh; }"


def _tag(name: str) -> str:
    asset = BY_NAME[name]
    href = f"{ASSET_PATH}/{asset.name}"
    if asset.is_css:
        return f'<link rel="stylesheet" href="{href}" integrity="{asset.integrity}" />'
    return f'<script src="{href}" integrity="{asset.integrity}"></script>'


def graphiql_html() -> str:
    styles = "\n    ".join(_tag(a.name) for a in ASSETS if a.is_css)
    scripts = "\n    ".join(_tag(a.name) for a in ASSETS if not a.is_css)
    return f"""<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>shipwise · GraphiQL</title>
    <style>{_STYLE}</style>
    {styles}
  </head>
  <body>
    <div id="graphiql">Loading…</div>
    {scripts}
    <script>{_SCRIPT}</script>
  </body>
</html>
"""


def missing_assets_html(directory: Path, absent: list[str], url: str) -> str:
    """What `GET /graphql` shows when GraphiQL's files were not fetched."""
    names = "".join(f"<li><code>{escape(name)}</code></li>" for name in absent)
    return f"""<!doctype html>
<html lang="en">
  <head><meta charset="utf-8" /><title>shipwise · GraphiQL is not installed</title></head>
  <body style="font-family: sans-serif; max-width: 46rem; margin: 3rem auto; line-height: 1.5">
    <h1>GraphiQL's files are not installed</h1>
    <p>shipwise serves GraphiQL from its own files, so that it works offline; they are
    fetched from the npm registry by <code>make install</code> when Node's
    <code>npm</code> is on the PATH. To get them, install npm and run
    <code>make graphiql</code> (or <code>python -m server.graphiql.fetch</code>) in the
    shipwise checkout, then reload this page. They go into
    <code>{escape(str(directory))}</code> (<code>SHIPWISE_GRAPHIQL_ASSETS_DIR</code>);
    missing:</p>
    <ul>{names}</ul>
    <p>The API works without them: POST GraphQL to this address, e.g.</p>
    <pre>curl -s -X POST -H 'Content-Type: application/json' \\
  -H 'Authorization: Bearer sw_…' \\
  -d '{{"query": "{{ me {{ role }} }}"}}' {escape(url)}</pre>
  </body>
</html>
"""


def render(directory: Path, url: str) -> HTMLResponse:
    """GraphiQL, or, when its files are missing, a page saying how to get them."""
    absent = [asset.name for asset in missing(directory)]
    if absent:
        return HTMLResponse(missing_assets_html(directory, absent, url))
    return HTMLResponse(graphiql_html())


def asset_endpoint(directory: Path) -> Callable[[Request], Awaitable[Response]]:
    """`GET /graphiql/{name}`: only the files the page names, cached for good."""

    async def serve_asset(request: Request) -> Response:
        asset = BY_NAME.get(request.path_params["name"])
        path = directory / asset.name if asset is not None else None
        if path is None or not path.is_file():
            return PlainTextResponse("not found", status_code=404)
        media_type = "text/css" if path.suffix == ".css" else "text/javascript"
        return FileResponse(
            path,
            media_type=media_type,
            headers={"Cache-Control": "public, max-age=31536000, immutable"},
        )

    return serve_asset
