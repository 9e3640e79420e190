"""O(batch) recording: after every batch of a faulty run, the counters a record added (the
comparison's, each cohort's, and the spend ledgers the caps read) equal a recompute from the
trial rows, computed here in SQL in the same transaction."""

from __future__ import annotations

import asyncio
from typing import Any
from uuid import uuid4

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

from bench.kit.factories import WorkspaceFixture, actor_for, make_workspace
from bench.kit.harness import Backend
from bench.kit.openai_server import Behaviour, FakeOpenAI
from bench.kit.waiting import eventually
from jobs.delivery import dispatch_comparison
from server.comparisons import lifecycle
from server.db import utcnow
from server.dispatch import store as dispatch_store
from server.providers.registry import ProviderPool
from server.runtime.redis import ArqQueue
from server.settings import Settings
from server.spend import ledgers
from server.workspaces.roles import Role
from tests.server.dispatch.api import (
    create,
    openai_setup,
    start,
    trials_of,
    wait_terminal,
)

CASES, TRIALS, COHORTS = 12, 2, 2
MICROS_PER_CALL = 15_000
"""The fake's 3 output tokens at 500,000 ¢ (5,000,000,000 µ$) per million."""


async def _recomputed(session: AsyncSession, comparison_id: str) -> dict[str, Any]:
    """What the counters must be, straight from the rows (the test's own SQL)."""
    cohorts = {
        int(index): (int(done), int(failed), int(spent))
        for index, done, failed, spent in await session.execute(
            text(
                "SELECT cohort_index, SUM(CASE WHEN state != 'ADMITTED' THEN 1 ELSE 0 END), "
                "SUM(CASE WHEN state = 'ERRORED' THEN 1 ELSE 0 END), COALESCE(SUM(cost_micros), 0) "
                "FROM trial WHERE comparison_id = :c GROUP BY cohort_index"
            ),
            {"c": comparison_id},
        )
    }
    (connection_month,) = (
        await session.execute(
            text(
                "SELECT COALESCE(SUM(cost_micros), 0) FROM trial WHERE connection_id = "
                "(SELECT connection_id FROM trial WHERE comparison_id = :c LIMIT 1) "
                "AND completed_at IS NOT NULL"
            ),
            {"c": comparison_id},
        )
    ).one()
    return {"cohorts": cohorts, "connection_month": int(connection_month)}


async def _stored(session: AsyncSession, comparison_id: str) -> dict[str, Any]:
    done, failed, spent = (
        await session.execute(
            text("SELECT done_calls, failed_calls, spent_micros FROM comparison WHERE id = :c"),
            {"c": comparison_id},
        )
    ).one()
    cohorts = {
        int(index): (int(d), int(f), int(s))
        for index, d, f, s in await session.execute(
            text(
                "SELECT cohort_index, done_trials, failed_trials, spent_micros "
                "FROM comparison_cohort WHERE comparison_id = :c AND done_trials > 0"
            ),
            {"c": comparison_id},
        )
    }
    (connection_id,) = (
        await session.execute(
            text("SELECT connection_id FROM trial WHERE comparison_id = :c LIMIT 1"),
            {"c": comparison_id},
        )
    ).one()
    month = await ledgers.connection_month(session, [connection_id], now=utcnow())
    return {
        "totals": (int(done), int(failed), int(spent)),
        "cohorts": cohorts,
        "connection_month": month[connection_id],
    }


async def _dispatch_here(
    backend: Backend,
    ws: WorkspaceFixture,
    comparison_id: str,
    *,
    settings: Settings | None = None,
    deliveries: int = 1,
) -> None:
    """Start on a queue no worker reads, then run the dispatch job's deliveries in-process
    (`deliveries` at once, each as if in a process of its own, until the run ends)."""
    queue = ArqQueue(backend.settings.redis_url or "", queue_name=f"counters-{uuid4().hex}")
    providers = ProviderPool(backend.state.secret_box)
    try:
        await lifecycle.start(
            sessionmaker=backend.sessionmaker,
            events=backend.state.events,
            queue=queue,
            actor=actor_for(ws, Role.MEMBER),
            comparison_id=comparison_id,
        )
        ctx = {
            "sessionmaker": backend.sessionmaker,
            "settings": settings or backend.settings,
            "queue": queue,
            "events": backend.state.events,
            "providers": providers,
        }
        ended = asyncio.Event()

        async def delivery() -> bool:
            """One delivery, as the queue would run it again until the run has ended."""
            outcome = await dispatch_comparison(ctx, comparison_id)
            if outcome.startswith(("done", "stopped", "failed")) and outcome != "done here":
                ended.set()
            return ended.is_set()

        async def deliver() -> None:
            await eventually(delivery, timeout=120, interval=0.05, what="dispatch ended")

        await asyncio.gather(*(deliver() for _ in range(deliveries)))
    finally:
        await providers.aclose()
        await queue.close()


async def test_counters_equal_a_recompute_after_every_batch_of_a_faulty_run(
    backend: Backend, fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await openai_setup(
        backend,
        fake_openai,
        ws,
        cases=CASES,
        max_concurrency=2,
        output_cents_per_million_tokens=500_000.0,
    )
    fake_openai.behaviour = Behaviour(delay_seconds=0.05)
    # Faults among the answers: given-up 500s and 400s (errored, cost 0), malformed answers.
    fake_openai.enqueue(
        *[Behaviour(status=400), Behaviour(malformed=True), Behaviour(delay_seconds=0.05)] * 6
    )
    checks: list[tuple[dict[str, Any], dict[str, Any]]] = []
    original = dispatch_store.record

    async def record_then_compare(session: AsyncSession, **kwargs: Any) -> Any:
        progress = await original(session, **kwargs)
        await session.flush()  # the batch's writes, seen from inside its transaction
        comparison_id = kwargs["comparison_id"]
        checks.append(
            (await _stored(session, comparison_id), await _recomputed(session, comparison_id))
        )
        return progress

    monkeypatch.setattr(dispatch_store, "record", record_then_compare)
    member = ws.tokens[Role.MEMBER]
    comparison_id = await create(backend, member, setup.input(trialsPerCase=TRIALS))
    if backend.name == "sqlite":  # the embedded runner dispatches in this process
        await start(backend, member, comparison_id)
    else:  # the session's worker is another process: dispatch here, on the same database
        await _dispatch_here(backend, ws, comparison_id)
    ended = await wait_terminal(backend, member, comparison_id)

    assert (ended["status"], ended["stopReason"]) == ("DONE", "COMPLETED")
    assert len(checks) >= 3, "several batches were recorded"
    for stored, recomputed in checks:
        assert stored["cohorts"] == recomputed["cohorts"]
        done = sum(d for d, _, _ in recomputed["cohorts"].values())
        failed = sum(f for _, f, _ in recomputed["cohorts"].values())
        spent = sum(s for _, _, s in recomputed["cohorts"].values())
        assert stored["totals"] == (done, failed, spent)
        assert stored["connection_month"] == recomputed["connection_month"]
    trials = await trials_of(backend, comparison_id)
    errored = [t for t in trials if t.error_code is not None]
    assert len(trials) == CASES * TRIALS * COHORTS and len(errored) >= 6
    assert ended["progress"]["failedCalls"] == len(errored)
    assert ended["spentCentsSoFar"] == (len(trials) - len(errored)) * MICROS_PER_CALL / 10_000


async def test_counters_equal_a_recompute_after_every_batch_with_two_deliveries_interleaving(
    backend: Backend, fake_openai: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two deliveries share one faulty run, range by range: every record, whichever
    delivery wrote it, leaves the counters equal to a recompute."""
    if backend.name == "sqlite":
        pytest.skip("several deliveries of one comparison run on PostgreSQL (one process here)")
    ws = await make_workspace(backend.sessionmaker)
    setup = await openai_setup(
        backend,
        fake_openai,
        ws,
        cases=CASES,
        max_concurrency=4,
        output_cents_per_million_tokens=500_000.0,
    )
    fake_openai.behaviour = Behaviour(delay_seconds=0.05)
    fake_openai.enqueue(
        *[Behaviour(status=400), Behaviour(malformed=True), Behaviour(delay_seconds=0.05)] * 6
    )
    checks: list[tuple[str, dict[str, Any], dict[str, Any]]] = []
    original = dispatch_store.record

    async def record_then_compare(session: AsyncSession, **kwargs: Any) -> Any:
        progress = await original(session, **kwargs)
        await session.flush()
        comparison_id = kwargs["comparison_id"]
        stored = await _stored(session, comparison_id)
        checks.append(
            (kwargs["claims"][0].index, stored, await _recomputed(session, comparison_id))
        )
        return progress

    monkeypatch.setattr(dispatch_store, "record", record_then_compare)
    member = ws.tokens[Role.MEMBER]
    comparison_id = await create(backend, member, setup.input(trialsPerCase=TRIALS))
    settings = backend.settings.model_copy(update={"dispatch_range_cases": 2})
    await _dispatch_here(backend, ws, comparison_id, settings=settings, deliveries=2)
    ended = await wait_terminal(backend, member, comparison_id)

    assert (ended["status"], ended["stopReason"]) == ("DONE", "COMPLETED")
    trials = await trials_of(backend, comparison_id)
    assert len(trials) == CASES * TRIALS * COHORTS
    assert len({t.delivery_id for t in trials}) >= 2, "two deliveries dispatched the run"
    assert len({index for index, _, _ in checks}) >= 4, "records of several ranges"
    for _, stored, recomputed in checks:
        assert stored["cohorts"] == recomputed["cohorts"]
        done = sum(d for d, _, _ in recomputed["cohorts"].values())
        failed = sum(f for _, f, _ in recomputed["cohorts"].values())
        spent = sum(s for _, _, s in recomputed["cohorts"].values())
        assert stored["totals"] == (done, failed, spent)
        assert stored["connection_month"] == recomputed["connection_month"]
    errored = [t for t in trials if t.error_code is not None]
    assert len(errored) >= 6 and ended["progress"]["failedCalls"] == len(errored)
