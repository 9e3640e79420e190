"""When the database cannot be reached, a request answers `UNAVAILABLE` (503 with
`Retry-After` where no field ran), never INTERNAL, a 500 or the driver's text; the API
answers again once the database does. The served app reaches the real PostgreSQL through a
TCP relay on 127.0.0.1 that the test cuts and restores."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from cryptography.fernet import Fernet

from bench.kit.factories import make_workspace
from bench.kit.harness import start_backend
from server.db import create_engine, create_sessionmaker
from server.settings import Settings
from server.workspaces.roles import Role

LIST = "{ comparisons(first: 1) { edges { node { id } } } }"
GRAPHQL_RESPONSE = "application/graphql-response+json"


class Relay:
    """Forwards each connection to `target`; `cut` closes the listener and every
    connection, `restore` listens on the same port again."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.port = 0
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    async def restore(self) -> None:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]

    async def cut(self) -> None:
        assert self._server is not None
        self._server.close()
        for writer in list(self._writers):
            writer.transport.abort()
        await self._server.wait_closed()

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(*self.target)
        self._writers |= {writer, up_writer}

        async def pump(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            with contextlib.suppress(ConnectionError, OSError):
                while chunk := await source.read(65536):
                    sink.write(chunk)
                    await sink.drain()
            sink.transport.abort()

        await asyncio.gather(pump(reader, up_writer), pump(up_reader, writer))
        self._writers -= {writer, up_writer}


@pytest.fixture
async def relayed(postgres_database: str, tmp_path: Path) -> AsyncIterator[tuple[Relay, object]]:
    parts = urlsplit(postgres_database)
    relay = Relay(parts.hostname or "127.0.0.1", parts.port or 5432)
    await relay.restore()
    user = f"{parts.username}@" if parts.username else ""
    settings = Settings(
        data_dir=tmp_path,
        database_url=urlunsplit(parts._replace(netloc=f"{user}127.0.0.1:{relay.port}")),
        secret_key=Fernet.generate_key().decode(),
    )
    async with start_backend("postgres", settings) as backend:
        yield relay, backend


async def test_an_unreachable_database_answers_unavailable_then_the_api_recovers(
    relayed: tuple[Relay, object], postgres_database: str
) -> None:
    relay, backend = relayed
    engine = create_engine(postgres_database)
    try:
        ws = await make_workspace(create_sessionmaker(engine), name="relay")
    finally:
        await engine.dispose()
    headers = {"Authorization": f"Bearer {ws.tokens[Role.VIEWER]}", "Accept": GRAPHQL_RESPONSE}
    client = backend.client  # type: ignore[attr-defined]

    before = await client.post("/graphql", json={"query": LIST}, headers=headers)
    assert before.status_code == 200 and before.json()["data"]["comparisons"]["edges"] == []

    await relay.cut()
    cut = await client.post("/graphql", json={"query": LIST}, headers=headers)
    body = cut.json()
    codes = {error["extensions"]["code"] for error in body["errors"]}
    assert codes == {"UNAVAILABLE"}
    if any("path" in error for error in body["errors"]):  # a field ran: GraphQL's own 200
        assert cut.status_code == 200 and body["data"] is None
    else:
        assert cut.status_code == 503 and cut.headers["Retry-After"] == "1"
    text = cut.text.lower()
    for leak in ("asyncpg", "sqlalchemy", "connection", "postgres", str(relay.port)):
        assert leak not in text

    await relay.restore()
    after = await client.post("/graphql", json={"query": LIST}, headers=headers)
    assert after.status_code == 200 and after.json()["data"]["comparisons"]["edges"] == []
