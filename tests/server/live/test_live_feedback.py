"""FEEDBACK checks (server/live/feedback_checks.py): a live comparison's quality read from its
traces' feedback scores, the span attributes' and `scoreTrace`'s, the latter winning; a trace
with no score of the name has no quality; the check refused where it cannot be read."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from bench.kit.factories import WorkspaceFixture, make_comparison_setup, make_workspace
from bench.kit.harness import Backend
from bench.kit.waiting import API_POLL_SECONDS, eventually
from server.workspaces.roles import Role
from tests.server.live.canary import CREATE, chat_span, create, read
from tests.server.traces.otlp_bodies import SpanSpec, post_spans

SCORE = """mutation($t: ID!, $v: Float!) { scoreTrace(traceId: $t, name: "thumbs", value: $v) {
  value } }"""
AHEAD_NS = 120 * 10**9
"""The traces start two minutes ahead, so they are watched by a comparison created after
they were first stored."""


async def _first_spans(
    backend: Backend, ws: WorkspaceFixture, release: str, thumbs: Sequence[float | None]
) -> list[SpanSpec]:
    """One single-span trace an entry, each answering correctly, its span's thumbs as given."""
    start = time.time_ns() + AHEAD_NS
    spans = []
    for i, value in enumerate(thumbs):
        span = chat_span(
            release_answer="It is Paris.", model="m", tokens=(10, 10), duration_ms=50.0,
            at_ns=start + i * 1000,
        )  # fmt: skip
        if value is not None:
            span.attributes["shipwise.feedback.thumbs"] = value
        spans.append(span)
    await post_spans(
        backend,
        spans,
        token=ws.tokens[Role.MEMBER],
        service="shop",
        **{"shipwise.release": release},
    )
    return spans


async def _late_spans(
    backend: Backend, ws: WorkspaceFixture, release: str, firsts: list[SpanSpec]
) -> None:
    """A child span for each trace: its ingest writes the trace again, after the start."""
    spans = [
        SpanSpec(
            first.trace_id,
            "cleanup",
            parent_id=first.span_id,
            start_ms=1.0,
            base_ns=first.base_ns,
        )  # fmt: skip
        for first in firsts
    ]
    await post_spans(
        backend,
        spans,
        token=ws.tokens[Role.MEMBER],
        service="shop",
        **{"shipwise.release": release},
    )


async def graded(
    backend: Backend, ws: WorkspaceFixture, live_id: str, counts: list[int]
) -> dict[str, Any]:
    """The live comparison once its arms have graded `counts` traces."""
    return await eventually(
        lambda: read(backend, ws.tokens[Role.VIEWER], live_id),
        until=lambda r: [a["graded"] for a in r["arms"]] == counts,
        interval=API_POLL_SECONDS,
        what=f"{counts} traces graded an arm",
    )


async def test_feedback_scores_are_the_quality_and_the_latest_score_wins(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    # Every answer passes CONTAINS; only the feedback tells the releases apart.
    candidate = await _first_spans(backend, ws, "v2", [1.0] * 40 + [None] * 10)
    baseline = await _first_spans(backend, ws, "v1", [1.0] * 36 + [0.0] * 4)
    for span in candidate[:20]:  # scoreTrace overrides the span's score
        result = await backend.gql(
            SCORE, {"t": span.trace_id, "v": 0.0}, token=ws.tokens[Role.MEMBER]
        )
        assert result.ok()["scoreTrace"]["value"] == 0.0
    live = await create(backend, ws, checks=[{"kind": "FEEDBACK", "name": "thumbs"}])
    assert live["status"] == "RUNNING"
    await _late_spans(backend, ws, "v2", candidate)
    await _late_spans(backend, ws, "v1", baseline)
    found = await graded(backend, ws, live["id"], [50, 40])
    mine, theirs = found["arms"]
    # 20 of the 40 scored candidate traces pass (the other 20 scored 0 by scoreTrace); the 10
    # without feedback have no quality: 20 / 40, not 30 / 50 nor 40 / 50.
    assert mine["passRate"] == 0.5, mine
    assert theirs["passRate"] == 36 / 40, theirs
    assert found["decision"]["criteria"][0]["estimate"] < -30


async def test_a_feedback_threshold_and_bad_feedback_checks(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    stars = [5.0, 4.0, 3.0, 1.0]
    candidate = await _first_spans(backend, ws, "v2", stars * 5)
    baseline = await _first_spans(backend, ws, "v1", [5.0] * 20)
    live = await create(
        backend, ws, checks=[{"kind": "FEEDBACK", "name": " thumbs ", "atLeast": 4}]
    )
    assert json.loads(json.dumps(live)) == live
    listed = await backend.gql(
        "query($id: ID!) { liveComparison(id: $id) { checks } }",
        {"id": live["id"]},
        token=ws.tokens[Role.VIEWER],
    )
    assert listed.ok()["liveComparison"]["checks"] == [
        {"kind": "FEEDBACK", "name": "thumbs", "atLeast": 4.0}
    ]
    await _late_spans(backend, ws, "v2", candidate)
    await _late_spans(backend, ws, "v1", baseline)
    found = await graded(backend, ws, live["id"], [20, 20])
    assert [a["passRate"] for a in found["arms"]] == [0.5, 1.0]

    bad: list[tuple[Any, str]] = [
        ({"kind": "FEEDBACK"}, "checks[0].name"),
        ({"kind": "FEEDBACK", "name": "  "}, "checks[0].name"),
        ({"kind": "FEEDBACK", "name": "x", "atLeast": "high"}, "checks[0].atLeast"),
        ({"kind": "FEEDBACK", "name": "x", "atLeast": True}, "checks[0].atLeast"),
        ({"kind": "FEEDBACK", "name": "x", "below": 1}, "checks[0].below"),
        ({"kind": ["FEEDBACK"], "name": "x"}, "checks[0].kind"),
    ]
    for check, field in bad:
        spec = {"service": "shop", "candidateRelease": "v2", "baselineReleases": ["v1"]}
        result = await backend.gql(
            CREATE, {"input": {**spec, "checks": [check]}}, token=ws.tokens[Role.MEMBER]
        )
        assert result.codes == ["VALIDATION_FAILED"], (check, result.errors)
        assert result.errors[0]["extensions"].get("field") == field, result.errors


async def test_a_comparison_refuses_a_feedback_check(backend: Backend) -> None:
    """A replayed case has no production feedback: only live comparisons take the check."""
    ws = await make_workspace(backend.sessionmaker)
    setup = await make_comparison_setup(backend.sessionmaker, ws)
    result = await backend.gql(
        """mutation($input: CreateComparisonInput!) { createComparison(input: $input) { id } }""",
        {"input": setup.input(checks=[{"kind": "FEEDBACK", "name": "thumbs"}])},
        token=ws.tokens[Role.MEMBER],
    )
    assert result.codes == ["VALIDATION_FAILED"]
    assert result.errors[0]["extensions"].get("field") == "checks[0].kind"
