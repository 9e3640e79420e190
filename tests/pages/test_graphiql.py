"""GraphiQL on `GET /graphql` works offline: every file it loads comes from shipwise itself."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

from bench.kit import services
from bench.kit.databases import create_migrated_sqlite
from bench.kit.factories import make_workspace
from bench.kit.harness import Backend, start_backend
from server.graphiql.assets import ASSETS, integrity_of, missing
from server.settings import Settings


def _require_assets(directory: Path) -> None:
    absent = [asset.name for asset in missing(directory)]
    if not absent:
        return
    message = f"GraphiQL's files are missing ({', '.join(absent)}): run `make graphiql`"
    if services.in_ci():
        pytest.fail(f"CI=true: {message}", pytrace=False)
    pytest.skip(message)


async def _type_into(page: Any, container: str, text: str) -> None:
    """Replace the text of the visible editor inside `container`, as pasted by a person."""
    await page.locator(f"{container} .CodeMirror:visible").click()
    await page.keyboard.press("Control+A")
    await page.keyboard.insert_text(text)


async def test_the_editor_renders_and_runs_a_query_with_the_network_off(
    sqlite_backend: Backend,
    browser_page: Any,
) -> None:
    _require_assets(sqlite_backend.settings.graphiql_assets_dir)
    ws = await make_workspace(sqlite_backend.sessionmaker)
    page = browser_page
    refused: list[str] = []

    async def only_loopback(route: Any) -> None:
        if urlsplit(route.request.url).hostname == "127.0.0.1":
            await route.continue_()
        else:
            refused.append(route.request.url)
            await route.abort("internetdisconnected")

    await page.context.route("**/*", only_loopback)
    answers: list[Any] = []
    page.on("response", lambda r: answers.append(r) if r.request.method == "POST" else None)
    await page.goto(f"{sqlite_backend.base_url}/graphql")
    await page.wait_for_selector(".graphiql-query-editor .CodeMirror", timeout=20_000)

    await page.get_by_role("button", name="Headers").click()
    await _type_into(page, ".graphiql-editor-tool", f'{{"Authorization": "Bearer {ws.owner}"}}')
    await _type_into(page, ".graphiql-query-editor", "{ me { role member { name } } }")
    await page.click(".graphiql-execute-button")
    response = page.locator(".graphiql-response")
    await response.get_by_text('"OWNER"', exact=True).wait_for(timeout=20_000)
    assert '"name": "owner"' in await response.inner_text()

    bodies = [await answer.json() for answer in answers]
    schema = [b["data"]["__schema"] for b in bodies if "__schema" in (b.get("data") or {})]
    assert schema and schema[0]["queryType"]["name"] == "Query"
    sent = [answer.request.post_data_json["query"] for answer in answers]
    introspection = [query for query in sent if "__schema" in query]
    assert introspection[0].count("ofType") == 9  # GraphiQL's own, the standard query
    assert refused == []
    assert page.console_errors == []
    loaded = await page.evaluate(
        "performance.getEntriesByType('resource').map(entry => entry.name)"
    )
    assert {urlsplit(url).hostname for url in loaded} == {"127.0.0.1"}
    assert {urlsplit(url).path.rsplit("/", 1)[-1] for url in loaded} >= {a.name for a in ASSETS}


async def test_the_files_are_served_with_their_digest(sqlite_backend: Backend) -> None:
    _require_assets(sqlite_backend.settings.graphiql_assets_dir)
    for asset in ASSETS:
        response = await sqlite_backend.client.get(f"/graphiql/{asset.name}")
        assert response.status_code == 200
        assert integrity_of(response.content) == asset.integrity
        assert "immutable" in response.headers["cache-control"]
    for name in ("nope.js", "..%2Fsettings.py", "%2Fetc%2Fpasswd"):
        assert (await sqlite_backend.client.get(f"/graphiql/{name}")).status_code == 404


async def test_without_the_files_the_page_says_how_to_get_them(
    tmp_path: Path, fernet_key: str
) -> None:
    settings = Settings(
        data_dir=tmp_path / "data", secret_key=fernet_key, graphiql_assets_dir=tmp_path / "none"
    )
    await asyncio.to_thread(create_migrated_sqlite, settings.database_url)
    async with start_backend("sqlite", settings) as backend:
        page = await backend.client.get("/graphql", headers={"Accept": "text/html"})
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
        assert "make graphiql" in page.text and "npm" in page.text
        assert "<script" not in page.text
        answer = await backend.client.post("/graphql", json={"query": "{ __typename }"})
        assert answer.json() == {"data": {"__typename": "Query"}}
        missing_file = await backend.client.get(f"/graphiql/{ASSETS[0].name}")
        assert missing_file.status_code == 404
