"""Live comparisons over GraphQL, fed by traces posted over OTLP (docs/live.md): a 30-point
drop is DONT_SHIP early and stays so, equal releases SHIP, a pricier canary is stopped by its
cost guardrail, traffic from before the start is not counted, each trace is graded once,
and another workspace sees nothing."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import func, select

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.waiting import API_POLL_SECONDS, eventually
from server.live.models import LiveGrade
from server.workspaces.roles import Role
from tests.server.live.canary import CANCEL, CREATE, LIST, create, pattern, post_release, read


async def decided(backend: Backend, token: str, live_id: str, **kw: Any) -> dict[str, Any]:
    return await eventually(
        lambda: read(backend, token, live_id),
        until=lambda r: r["status"] != "RUNNING",
        interval=API_POLL_SECONDS,
        what="the live comparison's decision",
        **kw,
    )


async def graded_rows(backend: Backend, live_id: str) -> int:
    async with backend.sessionmaker() as session:
        count = await session.scalar(
            select(func.count()).where(LiveGrade.live_comparison_id == live_id)
        )
    return int(count or 0)


async def test_a_thirty_point_drop_is_dont_ship_early_and_final(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    viewer = ws.tokens[Role.VIEWER]
    # Traffic from before the start: a perfect candidate that must not count.
    await post_release(backend, ws, release="v2", passes=[True] * 40, at_ns=time.time_ns() - 10**10)
    live = await create(backend, ws, label="canary")
    assert live["status"] == "RUNNING" and live["decision"] is None
    assert [a["release"] for a in live["arms"]] == ["v2", "v1"]
    for _ in range(6):  # 50 traces an arm a round: 60% vs 90%
        await post_release(backend, ws, release="v2", passes=pattern(0.6, 50))
        await post_release(backend, ws, release="v1", passes=pattern(0.9, 50))
    found = await decided(backend, viewer, live["id"])
    assert found["status"] == "DECIDED" and found["decidedAt"]
    assert found["decision"]["outcome"] == "DONT_SHIP"
    quality = found["decision"]["criteria"][0]
    assert quality["kind"] == "QUALITY" and quality["status"] == "VIOLATED"
    assert quality["high"] < -2
    assert found["decision"]["sentence"].startswith("Don't ship v2")
    candidate = found["arms"][0]
    assert candidate["graded"] <= 300 and candidate["passRate"] < 0.7  # the old traces: out
    assert 0 < len(found["sequence"]) <= 500
    last = found["sequence"][-1]
    assert last["low"] <= last["estimate"] <= last["high"] < -2
    # Final: more traces, even perfect ones, change nothing.
    await post_release(backend, ws, release="v2", passes=[True] * 50)
    await post_release(backend, ws, release="v1", passes=[True] * 50)
    again = await read(backend, viewer, live["id"])
    assert again["decision"] == found["decision"] and again["status"] == "DECIDED"
    assert await graded_rows(backend, live["id"]) == sum(a["graded"] for a in found["arms"])


async def test_equal_releases_ship_and_each_trace_is_graded_once(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    viewer = ws.tokens[Role.VIEWER]
    live = await create(backend, ws, shipPolicy={"qualityMarginPoints": 10})
    outcomes: list[str] = []
    for _ in range(20):
        await post_release(backend, ws, release="v2", passes=pattern(0.9, 100))
        await post_release(backend, ws, release="v1", passes=pattern(0.9, 100))
        now = await eventually(
            lambda: read(backend, viewer, live["id"]),
            until=lambda r: r["decision"] is not None,
            interval=API_POLL_SECONDS,
        )
        outcomes.append(now["decision"]["outcome"])
        if now["status"] != "RUNNING":
            break
    found = await decided(backend, viewer, live["id"])
    assert found["decision"]["outcome"] == "SHIP", found["decision"]["sentence"]
    assert "DONT_SHIP" not in outcomes
    assert {c["status"] for c in found["decision"]["criteria"]} == {"MET"}
    rows = await graded_rows(backend, live["id"])
    assert rows == sum(a["graded"] for a in found["arms"])


async def test_a_pricier_canary_is_stopped_by_its_cost_guardrail(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    prices = """mutation($p: [ModelPriceInput!]!) { setModelPrices(prices: $p) { model } }"""
    (
        await backend.gql(
            prices,
            {
                "p": [
                    {
                        "model": "cheap",
                        "inputCentsPerMillionTokens": 100,
                        "outputCentsPerMillionTokens": 400,
                    },
                    {
                        "model": "dear",
                        "inputCentsPerMillionTokens": 300,
                        "outputCentsPerMillionTokens": 1200,
                    },
                ]
            },
            token=ws.tokens[Role.ADMIN],
        )
    ).ok()
    live = await create(
        backend,
        ws,
        shipPolicy={"guardrails": [{"metric": "COST_PER_CASE", "maxIncreasePercent": 20}]},
    )
    for _ in range(4):
        await post_release(backend, ws, release="v2", passes=[True] * 50, model="dear")
        await post_release(backend, ws, release="v1", passes=[True] * 50, model="cheap")
    found = await decided(backend, ws.tokens[Role.VIEWER], live["id"])
    assert found["decision"]["outcome"] == "DONT_SHIP"
    cost = next(c for c in found["decision"]["criteria"] if c["metric"] == "COST_PER_CASE")
    assert cost["status"] == "VIOLATED" and cost["low"] > 1.2
    assert found["arms"][0]["costPerTrace"] > 2 * found["arms"][1]["costPerTrace"]


async def test_under_twenty_traces_an_arm_there_is_no_decision(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    live = await create(backend, ws)
    await post_release(backend, ws, release="v2", passes=[False] * 10)
    await post_release(backend, ws, release="v1", passes=[True] * 30)
    found = await eventually(
        lambda: read(backend, ws.tokens[Role.VIEWER], live["id"]),
        until=lambda r: r["arms"][0]["graded"] == 10 and r["arms"][1]["graded"] == 30,
        interval=API_POLL_SECONDS,
    )
    assert found["decision"]["outcome"] == "NO_DECISION"
    assert found["decision"]["reason"] == "INSUFFICIENT_CASES"
    assert found["status"] == "RUNNING"


async def test_cancel_list_and_another_workspace(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    other = await make_workspace(backend.sessionmaker, name="other")
    live = await create(backend, ws)
    for token in (other.tokens[Role.OWNER],):
        result = await backend.gql(
            "query($id: ID!) { liveComparison(id: $id) { id } }", {"id": live["id"]}, token=token
        )
        assert result.codes == ["NOT_FOUND"]
        assert (await backend.gql(CANCEL, {"id": live["id"]}, token=token)).codes == ["NOT_FOUND"]
        listed = (await backend.gql(LIST, {}, token=token)).ok()["liveComparisons"]
        assert listed["totalCount"] == 0
    refused = await backend.gql(CANCEL, {"id": live["id"]}, token=ws.tokens[Role.VIEWER])
    assert refused.codes == ["FORBIDDEN"]
    cancelled = (await backend.gql(CANCEL, {"id": live["id"]}, token=ws.tokens[Role.MEMBER])).ok()
    assert cancelled["cancelLiveComparison"]["status"] == "CANCELLED"
    again = await backend.gql(CANCEL, {"id": live["id"]}, token=ws.tokens[Role.MEMBER])
    assert again.codes == ["CONFLICT"]
    listed = (await backend.gql(LIST, {"status": "CANCELLED"}, token=ws.owner)).ok()
    assert [e["node"]["id"] for e in listed["liveComparisons"]["edges"]] == [live["id"]]


async def test_bad_input_is_refused_with_the_field(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    cases: list[tuple[dict[str, Any], str]] = [
        ({"baselineReleases": []}, "baselineReleases"),
        ({"baselineReleases": ["v2"]}, "baselineReleases"),
        ({"judgeSampleRate": 1.5}, "judgeSampleRate"),
        ({"maxDays": 0}, "maxDays"),
        ({"checks": [{"kind": "NOPE"}]}, "checks[0].kind"),
        ({"shipPolicy": {"qualityMarginPoints": -1}}, "shipPolicy.qualityMarginPoints"),
    ]
    for change, field in cases:
        spec: dict[str, Any] = {
            "service": "shop",
            "candidateRelease": "v2",
            "baselineReleases": ["v1"],
            **change,
        }
        result = await backend.gql(CREATE, {"input": spec}, token=token)
        assert result.codes == ["VALIDATION_FAILED"], (change, result.errors)
        assert result.errors[0]["extensions"].get("field") == field, result.errors
