"""Hosted runs after the verdict: the verdict is readable while the runs are RUNNING, their
items come with the follow-up job, twice is once, and a lost job is found by the sweep."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import update

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.scenarios import (
    finalized,
    hosted_runs_of,
    scorecard_of,
    scripted_setup,
    wait_hosted_runs,
)
from jobs.finalize import finalize_comparison
from jobs.hosted_runs import complete_hosted_runs
from jobs.verdict_sweep import sweep_verdicts
from server.db import utcnow
from server.runs.models import Run
from server.workspaces.roles import Role
from tests.server.dispatch.by_hand import HeldQueue
from tests.server.runs.api import RUN, diff
from tests.server.verdicts.test_finalize import unfinalize

CANDIDATE = ["PP", "PF", "FF", "PE"] * 6
BASELINE = ["PP"] * 24
COUNTS = {"PP": (2, 2, 2), "PF": (2, 2, 1), "FF": (2, 2, 0), "PE": (2, 1, 1)}
"""(trials, graded, passed) of an item by its letters."""
JOB = "complete_hosted_runs"


async def _finalized_with_held_runs(
    backend: Backend,
) -> tuple[str, str, dict[str, Any], HeldQueue]:
    """A comparison finalized again by the finalize job with its follow-up held back: (a
    member's token, its id, its first scorecard, the queue holding the follow-up)."""
    ws = await make_workspace(backend.sessionmaker)
    setup = await scripted_setup(backend.sessionmaker, ws, [CANDIDATE, BASELINE])
    comparison_id, comparison = await finalized(
        backend, setup, trialsPerCase=2, checks=[{"kind": "CONTAINS"}, {"kind": "EXACT_MATCH"}]
    )
    await unfinalize(backend, comparison_id)
    held = HeldQueue()
    ctx = {"sessionmaker": backend.sessionmaker, "queue": held}
    assert await finalize_comparison(ctx, comparison_id) == "finalized"
    return ws.tokens[Role.MEMBER], comparison_id, comparison["scorecard"], held


async def _items(backend: Backend, token: str, run_id: str) -> list[dict[str, Any]]:
    found = (await backend.gql(RUN, {"id": run_id, "first": 100}, token=token)).ok()
    return [edge["node"] for edge in found["run"]["items"]["edges"]]


def _assert_complete(items: list[dict[str, Any]]) -> None:
    """The candidate run's 24 items, each with all its trials and counts."""
    assert [item["position"] for item in items] == list(range(24))
    for item, letters in zip(items, CANDIDATE, strict=True):
        assert (item["trialCount"], item["gradedCount"], item["passedCount"]) == COUNTS[letters]
        assert len(item["trials"]) == 2


async def test_the_verdict_is_read_before_its_hosted_runs_complete(backend: Backend) -> None:
    member, comparison_id, first_scorecard, held = await _finalized_with_held_runs(backend)

    state = await scorecard_of(backend, member, comparison_id)
    assert state["verdictState"] == "FINALIZED"
    assert state["scorecard"]["verdicts"] == first_scorecard["verdicts"]
    assert state["scorecard"]["usableCases"] == 24
    runs = await hosted_runs_of(backend, member, comparison_id)
    assert [(r["source"], r["status"], r["itemCount"]) for r in runs] == [
        ("HOSTED", "RUNNING", 0),
        ("HOSTED", "RUNNING", 0),
    ]
    assert {r["completedAt"] for r in runs} == {None}
    assert await _items(backend, member, runs[0]["id"]) == []
    refused = await diff(backend, member, runs[0]["id"], runs[1]["id"])
    assert refused.codes == ["CONFLICT"]
    assert refused.errors[0]["extensions"]["reason"] == "RUN_NOT_COMPLETED"
    assert [(name, args, job_id) for name, args, job_id, _ in held.enqueued] == [
        (JOB, (comparison_id,), f"hosted-runs:{comparison_id}:finalize")
    ]

    # Let the held job go to this backend's own runner (the arq worker, or in-process).
    name, args, job_id, _ = held.enqueued[0]
    assert await backend.state.queue.enqueue(name, *args, job_id=job_id)
    runs = await wait_hosted_runs(backend, member, comparison_id)
    assert [r["itemCount"] for r in runs] == [24, 24]
    finalized_at = datetime.fromisoformat(state["scorecard"]["finalizedAt"])
    assert all(datetime.fromisoformat(r["completedAt"]) >= finalized_at for r in runs)
    _assert_complete(await _items(backend, member, runs[0]["id"]))
    summary = (await diff(backend, member, runs[0]["id"], runs[1]["id"])).ok()["runDiff"]["summary"]
    assert summary["pairedCount"] == 24


async def test_the_hosted_runs_job_twice_at_once_writes_each_item_once(backend: Backend) -> None:
    member, comparison_id, _, _ = await _finalized_with_held_runs(backend)
    ctx = {"sessionmaker": backend.sessionmaker, "queue": HeldQueue()}

    outcomes = await asyncio.gather(
        complete_hosted_runs(ctx, comparison_id), complete_hosted_runs(ctx, comparison_id)
    )

    assert sorted(outcomes) == ["completed", "nothing to do"]
    assert await complete_hosted_runs(ctx, comparison_id) == "nothing to do"
    runs = await hosted_runs_of(backend, member, comparison_id)
    assert [(r["status"], r["itemCount"]) for r in runs] == [("COMPLETED", 24)] * 2
    _assert_complete(await _items(backend, member, runs[0]["id"]))


async def test_a_lost_hosted_runs_job_is_queued_again_by_the_sweep(backend: Backend) -> None:
    member, comparison_id, _, _ = await _finalized_with_held_runs(backend)  # the job is lost
    watching = HeldQueue()
    await sweep_verdicts({"sessionmaker": backend.sessionmaker, "queue": watching})
    assert not [args for name, args, *_ in watching.enqueued if comparison_id in args]
    async with backend.sessionmaker() as session, session.begin():
        await session.execute(
            update(Run)
            .where(Run.comparison_id == comparison_id)
            .values(created_at=utcnow() - timedelta(minutes=2))
        )

    ctx = {"sessionmaker": backend.sessionmaker, "queue": backend.state.queue}
    assert await sweep_verdicts(ctx) >= 1

    runs = await wait_hosted_runs(backend, member, comparison_id)
    assert [r["itemCount"] for r in runs] == [24, 24]
    _assert_complete(await _items(backend, member, runs[0]["id"]))
