"""The statement counter counts a request's own statements, never a job's beside it."""

from __future__ import annotations

import asyncio

from sqlalchemy import text

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.statements import counting_statements


async def test_only_the_requests_own_statements_count(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)

    async def sweep() -> None:  # like a periodic job on the server's engine
        async with backend.sessionmaker() as session:
            await session.execute(text("SELECT 42"))

    with counting_statements(backend, token_checks=True) as seen:
        (await backend.gql("{ me { role } }", token=ws.owner)).ok()
        await asyncio.create_task(sweep())
    assert seen, "the request's statements count"
    assert not any("SELECT 42" in statement for statement in seen)
