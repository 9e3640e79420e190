"""Judge checks on live traffic: the judge grades the sampled traces (the fake OpenAI judge
on 127.0.0.1 passes an answer that names the reference), the day's cap stops judging, and a
judge of another workspace is refused before anything starts."""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.openai_server import Behaviour, FakeOpenAI
from bench.kit.waiting import API_POLL_SECONDS, eventually
from server.live.models import LiveGrade
from server.spend.models import ConnectionSpend
from server.workspaces.roles import Role
from tests.server.dispatch.test_judge_rubric import graded_by_city
from tests.server.live.canary import CREATE, create, post_release, read
from tests.server.runs.test_judged_imports import judge_of


async def judged_rows(backend: Backend, live_id: str) -> tuple[int, int]:
    async with backend.sessionmaker() as session:
        judged = await session.scalar(
            select(func.count()).where(
                LiveGrade.live_comparison_id == live_id, LiveGrade.judged.is_(True)
            )
        )
        cost = await session.scalar(
            select(func.sum(LiveGrade.judge_cost_micros)).where(
                LiveGrade.live_comparison_id == live_id
            )
        )
    return int(judged or 0), int(cost or 0)


async def test_the_judge_grades_sampled_traces_within_the_daily_cap(
    backend: Backend, fake_openai: FakeOpenAI
) -> None:
    fake_openai.behaviour = Behaviour(reply=graded_by_city)
    ws = await make_workspace(backend.sessionmaker)
    judge = await judge_of(backend, ws, fake_openai)
    live = await create(backend, ws, checks=[judge.check()], judgeSampleRate=1.0)
    capped = await create(
        backend,
        ws,
        service="shop",
        checks=[judge.check()],
        judgeSampleRate=1.0,
        judgeDailyCapCents=0.0001,
    )
    await post_release(backend, ws, release="v2", passes=[True, False] * 10)
    await post_release(backend, ws, release="v1", passes=[True] * 20)
    viewer = ws.tokens[Role.VIEWER]
    found: dict[str, Any] = await eventually(
        lambda: read(backend, viewer, live["id"]),
        until=lambda r: [a["graded"] for a in r["arms"]] == [20, 20],
        interval=API_POLL_SECONDS,
    )
    assert [a["passRate"] for a in found["arms"]] == [0.5, 1.0]  # the judge's grades
    assert await judged_rows(backend, live["id"]) > (39, 0)
    async with backend.sessionmaker() as session:
        ledger = await session.scalar(
            select(func.sum(ConnectionSpend.spent_micros)).where(
                ConnectionSpend.connection_id == judge.connection.id
            )
        )
    assert ledger is not None and ledger > 0  # judge calls count against the connection
    await eventually(
        lambda: read(backend, viewer, capped["id"]),
        until=lambda r: [a["graded"] for a in r["arms"]] == [20, 20],
        interval=API_POLL_SECONDS,
    )
    judged, cost = await judged_rows(backend, capped["id"])
    assert 1 <= judged < 40 and cost > 0  # the cap stopped judging once reached


async def test_another_workspaces_judge_is_refused(
    backend: Backend, fake_openai: FakeOpenAI
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    other = await make_workspace(backend.sessionmaker, name="other")
    judge = await judge_of(backend, other, fake_openai)
    spec = {"service": "shop", "candidateRelease": "v2", "baselineReleases": ["v1"],
            "checks": [judge.check()]}  # fmt: skip
    result = await backend.gql(CREATE, {"input": spec}, token=ws.tokens[Role.MEMBER])
    assert result.codes in (["NOT_FOUND"], ["VALIDATION_FAILED"]), result.errors
