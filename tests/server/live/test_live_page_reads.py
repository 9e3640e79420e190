"""The portal's `/live/:id` polls `liveComparison(id)` (its persisted `LiveComparisonPage`):
between two grading batches a read is answered whole from the process's response cache for
one primary-key read of the row's `seq` (server/api/http/cached_reads/live.py), never stale
after a batch, and never another workspace's."""

from __future__ import annotations

from typing import Any

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.statements import counting_statements
from bench.kit.waiting import API_POLL_SECONDS, eventually
from server.workspaces.roles import Role
from tests.server.live.canary import create, pattern, post_release
from tests.server.live.test_live_cursor import UNDECIDED

PAGE = "LiveComparisonPage"


async def _page(backend: Backend, token: str, live_id: str) -> tuple[Any, list[str]]:
    with counting_statements(backend) as seen:
        result = await backend.portal(PAGE, {"id": live_id}, token=token)
    return result, [s for s in seen if not s.startswith("BEGIN")]  # SQLite's BEGIN IMMEDIATE


async def test_the_live_page_is_kept_between_batches_and_never_stale(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    viewer = ws.tokens[Role.VIEWER]
    live = await create(backend, ws, shipPolicy=UNDECIDED)
    await post_release(backend, ws, release="v2", passes=pattern(0.9, 30))
    await post_release(backend, ws, release="v1", passes=pattern(0.9, 30))

    async def graded() -> list[int]:
        result, _ = await _page(backend, viewer, live["id"])
        return [a["graded"] for a in result.ok()["liveComparison"]["arms"]]

    await eventually(graded, until=lambda g: g == [30, 30], interval=API_POLL_SECONDS)
    first, _ = await _page(backend, viewer, live["id"])
    again, statements = await _page(backend, viewer, live["id"])
    assert again.body == first.body
    assert len(statements) == 1, statements
    assert "seq" in statements[0] and "sequence" not in statements[0]  # the stamp, not the row
    # A batch moves the stamp: the next read shows it.
    await post_release(backend, ws, release="v2", passes=pattern(0.9, 10))
    await eventually(graded, until=lambda g: g == [40, 30], interval=API_POLL_SECONDS)
    shown = (await _page(backend, viewer, live["id"]))[0].ok()["liveComparison"]
    assert shown["arms"][0]["graded"] == 40 and shown["sequence"]
    # Another workspace's token: NOT_FOUND, whatever is kept.
    other = await make_workspace(backend.sessionmaker, name="other")
    refused, _ = await _page(backend, other.tokens[Role.OWNER], live["id"])
    assert refused.codes == ["NOT_FOUND"]
