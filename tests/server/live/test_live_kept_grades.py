"""A grading batch decides on the grade columns its worker kept from earlier batches plus its
own (server/live/history.py), not on every grade row read back: what it shows must be what
the stored grade rows say, also when the kept columns are stale (another worker graded in
between, which a poisoned keep stands in for here)."""

from __future__ import annotations

from typing import Any

import pytest

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.waiting import API_POLL_SECONDS, eventually
from server.db import utcnow
from server.live import figures, grading, history
from server.live.models import LiveComparison
from server.workspaces.roles import Role
from tests.server.live.canary import create, pattern, post_release, read


async def _from_grade_rows(backend: Backend, live_id: str) -> figures.Figures:
    """The figures recomputed from every stored grade row, as before the kept columns."""
    async with backend.sessionmaker() as session:
        row = await session.get(LiveComparison, live_id)
        assert row is not None
        rows = await grading._all_grades(session, live_id)
        releases = (row.candidate_release, *row.baseline_releases)
        return figures.compute(
            candidate=row.candidate_release,
            baselines=row.baseline_releases,
            policy_document=row.ship_policy,
            history=history.History.empty(releases, grading._alpha(row)).extend(rows),
            traces={},
        )


async def _graded(backend: Backend, token: str, live_id: str, total: int) -> dict[str, Any]:
    return await eventually(
        lambda: read(backend, token, live_id),
        until=lambda r: sum(a["graded"] for a in r["arms"]) >= total,
        interval=API_POLL_SECONDS,
        what=f"{total} traces graded",
    )


async def test_what_a_batch_shows_is_what_the_grade_rows_say(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    viewer = ws.tokens[Role.VIEWER]
    live = await create(backend, ws, shipPolicy={"qualityMarginPoints": 1})
    total = 0
    for round_ in range(4):
        if round_ == 2:  # a stale keep: columns of 3 grades while the row counts more
            stale = history.History.empty(("v2", "v1"), 0.1).extend(
                [history.Grade("v2", 0.0, False, 0, 0, 1.0, utcnow())] * 3
            )
            history.keep(live["id"], stale)
        await post_release(backend, ws, release="v2", passes=pattern(0.9, 30))
        await post_release(backend, ws, release="v1", passes=pattern(0.9, 30))
        total += 60
        shown = await _graded(backend, viewer, live["id"], total)
    assert shown["status"] == "RUNNING", shown["decision"]
    expected = await _from_grade_rows(backend, live["id"])
    for arm, want in zip(shown["arms"], expected.arms, strict=True):
        assert arm["graded"] == want["graded"] == 120
        assert arm["passRate"] == pytest.approx(want["passRate"])
        assert arm["latencyP95Ms"] == pytest.approx(want["latencyP95Ms"])
    assert arm["traces"] == 120  # no backlog: the traces seen are the graded ones
    assert shown["decision"]["outcome"] == expected.decision["outcome"]
    assert [p["traces"] for p in shown["sequence"]] == [p["traces"] for p in expected.sequence]
    assert shown["sequence"][-1]["traces"] == 120
    for key in ("low", "high", "estimate"):
        got = [p[key] for p in shown["sequence"]]
        assert got == pytest.approx([p[key] for p in expected.sequence]), key
