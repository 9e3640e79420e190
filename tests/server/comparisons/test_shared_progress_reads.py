"""Subscribers of one comparison share its row's reads (server/api/comparisons/
progress_reads.py): those asking at once share one read, and an ended comparison's snapshot
is answered without reading the row again — in one workspace only."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from gql.transport.exceptions import TransportQueryError

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.statements import listening
from server.workspaces.roles import Role
from tests.server.comparisons.progress_api import CANCEL, collect, row_progress, slow_setup


@contextmanager
def statements_naming(backend: Backend, value: str) -> Iterator[list[str]]:
    """The SQL statements run on the backend's database whose parameters hold `value`."""
    seen: list[str] = []

    def record(_conn: Any, _cursor: Any, sql: str, parameters: Any, *_: Any) -> None:
        if value in repr(parameters):
            seen.append(sql)

    with listening(backend.state.engine.sync_engine, "before_cursor_execute", record):
        yield seen


async def test_subscribers_of_an_ended_comparison_read_its_row_once(backend: Backend) -> None:
    ws, comparison_id = await slow_setup(backend, cases=2)
    (await backend.gql(CANCEL, {"id": comparison_id}, token=ws.tokens[Role.MEMBER])).ok()
    viewer = ws.tokens[Role.VIEWER]
    row = await row_progress(backend, viewer, comparison_id)
    with statements_naming(backend, comparison_id) as first:
        assert await collect(backend, viewer, comparison_id) == [row]
    assert first, "the first subscriber reads the row"
    with statements_naming(backend, comparison_id) as later:
        answers = await asyncio.gather(*(collect(backend, viewer, comparison_id) for _ in range(8)))
    assert answers == [[row]] * 8
    assert later == [], "an ended comparison's snapshot is kept"


async def test_an_ended_comparisons_kept_snapshot_is_not_found_from_another_workspace(
    backend: Backend,
) -> None:
    ws, comparison_id = await slow_setup(backend, cases=2)
    (await backend.gql(CANCEL, {"id": comparison_id}, token=ws.tokens[Role.MEMBER])).ok()
    assert [s["status"] for s in await collect(backend, ws.owner, comparison_id)] == ["CANCELLED"]
    other = await make_workspace(backend.sessionmaker)
    with pytest.raises(TransportQueryError) as failure:
        await collect(backend, other.owner, comparison_id)
    assert [e["extensions"]["code"] for e in failure.value.errors or []] == ["NOT_FOUND"]
