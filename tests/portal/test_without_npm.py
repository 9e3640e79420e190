"""Without a built portal (no npm at install), `/` says how to get it and the API works."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx

from bench.kit.databases import create_migrated_sqlite
from server.app import create_app
from server.settings import Settings


async def test_the_root_page_says_how_to_build_the_portal(tmp_path: Path, fernet_key: str) -> None:
    settings = Settings(
        data_dir=tmp_path / "data", secret_key=fernet_key, portal_dir=tmp_path / "nothing"
    )
    await asyncio.to_thread(create_migrated_sqlite, settings.database_url)
    app = create_app(settings)
    transport = httpx.ASGITransport(app=app)
    async with app.router.lifespan_context(app):
        async with httpx.AsyncClient(transport=transport, base_url="http://shipwise") as client:
            page = await client.get("/comparisons")
            assert page.status_code == 200
            assert "The portal is not built" in page.text and "make portal" in page.text
            assert page.headers["content-security-policy"].startswith("default-src 'self'")
            assert (await client.get("/assets/index.js")).status_code == 404
            answer = await client.post("/graphql", json={"query": "{ __typename }"})
            assert answer.json() == {"data": {"__typename": "Query"}}
