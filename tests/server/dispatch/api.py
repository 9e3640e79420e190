"""Comparisons run through the API, and what they left: shared by the dispatch, spend and
crash tests, which run comparisons against a fake provider."""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from typing import Any

from sqlalchemy import func, select

from bench.kit.factories import ComparisonSetup, WorkspaceFixture, make_comparison_setup
from bench.kit.harness import Backend
from bench.kit.openai_server import FakeOpenAI, RecordedRequest
from bench.kit.waiting import API_POLL_SECONDS, eventually
from server.comparisons.models import Comparison, Trial, TrialState
from server.dispatch.models import ComparisonRange
from tests.conftest import PROVIDER_KEY

CREATE = """
mutation($input: CreateComparisonInput!) { createComparison(input: $input) { id status } }
"""
START = """
mutation($id: ID!, $bg: Boolean) { startComparison(id: $id, background: $bg) {
  id status stopReason errorCode
  progress { seq status doneCalls totalCalls failedCalls percent spentCentsSoFar
             cohorts { cohortIndex state } }
} }
"""
STATUS = """
query($id: ID!) { comparison(id: $id) { status stopReason errorCode spentCentsSoFar
  cohorts { cohortIndex passRate }
  progress { seq doneCalls totalCalls failedCalls percent etaSeconds spentCentsSoFar
             cohorts { cohortIndex state } } } }
"""
TERMINAL = ("DONE", "FAILED", "CANCELLED")


async def create(backend: Backend, token: str, setup_input: dict[str, Any]) -> str:
    data = (await backend.gql(CREATE, {"input": setup_input}, token=token)).ok()
    comparison_id: str = data["createComparison"]["id"]
    return comparison_id


async def start(
    backend: Backend, token: str, comparison_id: str, *, background: bool = True
) -> dict[str, Any]:
    data = (await backend.gql(START, {"id": comparison_id, "bg": background}, token=token)).ok()
    started: dict[str, Any] = data["startComparison"]
    return started


async def start_comparison(
    backend: Backend, token: str, setup_input: dict[str, Any], *, background: bool = True
) -> str:
    """Create and start a comparison through the API; its id."""
    comparison_id = await create(backend, token, setup_input)
    await start(backend, token, comparison_id, background=background)
    return comparison_id


async def status(backend: Backend, token: str, comparison_id: str) -> dict[str, Any]:
    data = (await backend.gql(STATUS, {"id": comparison_id}, token=token)).ok()
    comparison: dict[str, Any] = data["comparison"]
    return comparison


async def wait_terminal(
    backend: Backend, token: str, comparison_id: str, *, timeout: float = 60
) -> dict[str, Any]:
    """The comparison once terminal and its dispatcher gone (lease freed): nothing changes
    after this, so a following test sees a quiet provider."""

    async def ended() -> dict[str, Any] | None:
        comparison = await status(backend, token, comparison_id)
        if comparison["status"] in TERMINAL and not await leased(backend, comparison_id):
            return comparison
        return None

    await eventually(
        ended,
        timeout=timeout,
        interval=API_POLL_SECONDS,
        what="the comparison ended, its lease freed",
    )
    return await status(backend, token, comparison_id)


async def leased(backend: Backend, comparison_id: str) -> bool:
    """Whether a delivery holds a range's lease or the finishing lease (it is working)."""
    async with backend.sessionmaker() as session:
        owner = await session.scalar(
            select(Comparison.lease_owner).where(Comparison.id == comparison_id)
        )
        ranges = await session.scalar(
            select(func.count())
            .select_from(ComparisonRange)
            .where(
                ComparisonRange.comparison_id == comparison_id,
                ComparisonRange.lease_owner.is_not(None),
            )
        )
    return owner is not None or bool(ranges)


async def trial_rows(backend: Backend, comparison_id: str) -> dict[str, int]:
    async with backend.sessionmaker() as session:
        rows = await session.execute(
            select(Trial.state, func.count())
            .where(Trial.comparison_id == comparison_id)
            .group_by(Trial.state)
        )
        return {state.value: int(count) for state, count in rows}


async def trials_of(backend: Backend, comparison_id: str) -> list[Trial]:
    """Every trial row of the comparison in case-major order."""
    async with backend.sessionmaker() as session:
        rows = await session.scalars(
            select(Trial)
            .where(Trial.comparison_id == comparison_id)
            .order_by(Trial.case_ordinal, Trial.cohort_index, Trial.trial_index)
        )
        return list(rows)


async def committed_count(backend: Backend, comparison_id: str) -> int:
    """Trials whose outcome has committed (what `doneCalls` counts)."""
    async with backend.sessionmaker() as session:
        count = await session.scalar(
            select(func.count())
            .select_from(Trial)
            .where(Trial.comparison_id == comparison_id, Trial.state != TrialState.ADMITTED)
        )
    return int(count or 0)


async def openai_setup(
    backend: Backend, fake: FakeOpenAI, ws: WorkspaceFixture, **fields: Any
) -> ComparisonSetup:
    """A comparison setup whose connection is the fake provider (OPENAI_COMPATIBLE)."""
    return await make_comparison_setup(
        backend.sessionmaker,
        ws,
        connection_kind="OPENAI_COMPATIBLE",
        base_url=fake.base_url,
        api_key=PROVIDER_KEY,
        secret_box=backend.state.secret_box,
        **fields,
    )


def chat_requests(fake: FakeOpenAI, comparison_id: str) -> list[RecordedRequest]:
    """The provider requests dispatch sent for the comparison, in arrival order."""
    return [
        r
        for r in fake.requests
        if r.headers.get("x-shipwise-trial", "").startswith(comparison_id + "/")
    ]


def deliveries_per_trial(fake: FakeOpenAI, comparison_id: str) -> dict[str, set[str]]:
    """Trial header → the deliveries that sent it (one each when nothing was re-sent)."""
    seen: dict[str, set[str]] = defaultdict(set)
    for request in chat_requests(fake, comparison_id):
        seen[request.headers["x-shipwise-trial"]].add(request.headers["x-shipwise-delivery"])
    return seen


def partial_cases(trials: list[Trial], *, per_case: int) -> list[int]:
    """Ordinals of the cases that have some but not all of their `per_case` trial rows."""
    counts = Counter(t.case_ordinal for t in trials)
    return sorted(ordinal for ordinal, n in counts.items() if n != per_case)


async def between_sweeps() -> None:
    """The session's own sweeper (in-process with SQLite, the worker with PostgreSQL) runs
    on seconds 0, 15, 30 and 45 and would dispatch a comparison this test leaves unattended
    on purpose (or join one it shares between two deliveries): start just after one, so the
    few seconds of the test fall between two."""
    await eventually(
        lambda: 1 <= time.time() % 15 <= 6, timeout=16, interval=0.2, what="just after a sweep"
    )
