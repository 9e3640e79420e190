"""Shared concurrency slots belong to a live lease: a `shipwise worker` killed with -9 gives
its slots back when its lease ends, and a run waiting for slots stops at once on cancel."""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from redis.asyncio import Redis

from bench.kit import services
from bench.kit.factories import ComparisonSetup, make_comparison_setup, make_workspace
from bench.kit.openai_server import Behaviour, FakeOpenAI
from bench.kit.waiting import eventually
from server.runtime.slots import RedisSlots
from server.workspaces.roles import Role
from tests.conftest import require_services
from tests.jobs.crash_stack import (
    WORKER_PROCESS_TESTS,
    CrashStack,
    crash_redis_url,
    crash_stack,
    poll_status,
    workers_polling,
)
from tests.server.dispatch.api import deliveries_per_trial, leased, trial_rows

pytestmark = WORKER_PROCESS_TESTS

LEASE_SECONDS = 2
MAX_CONCURRENCY = 4
STOPS_WITHIN_SECONDS = 15
"""A cancel ends a wait for slots well inside the job's 60 s timeout, which is where a
dispatcher that missed it would stop. Idle it takes under 1 s (the row is read every
0.5 s while calls wait); at load 19–29 it took 1.0–2.99 s, the cancel's own request and the
probe's read included (docs/testing.md, Under load)."""
START = "mutation($id: ID!) { startComparison(id: $id) { status } }"
CANCEL = "mutation($id: ID!) { cancelComparison(id: $id) { status } }"
CREATE = "mutation($i: CreateComparisonInput!) { createComparison(input: $i) { id } }"


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        server.behaviour = Behaviour(delay_seconds=0.5, reply="the answer")
        yield server


@pytest.fixture
async def stack(tmp_path: Path, fernet_key: str) -> Any:
    require_services("postgres", "redis")
    async with crash_stack(
        services.postgres_url(), tmp_path, fernet_key, lease_seconds=LEASE_SECONDS
    ) as built:
        yield built


async def _setup(stack: CrashStack, fake: FakeOpenAI, cases: int) -> ComparisonSetup:
    ws = await make_workspace(stack.backend.sessionmaker)
    return await make_comparison_setup(
        stack.backend.sessionmaker,
        ws,
        cases=cases,
        connection_kind="OPENAI_COMPATIBLE",
        base_url=fake.base_url,
        secret_box=stack.backend.state.secret_box,
        max_concurrency=MAX_CONCURRENCY,
    )


async def _start(stack: CrashStack, setup: ComparisonSetup, **fields: Any) -> str:
    token = setup.workspace.tokens[Role.MEMBER]
    created = (await stack.backend.gql(CREATE, {"i": setup.input(**fields)}, token=token)).ok()
    comparison_id: str = created["createComparison"]["id"]
    (await stack.backend.gql(START, {"id": comparison_id}, token=token)).ok()
    return comparison_id


async def _slots_taken(connection_id: str) -> int:
    redis = Redis.from_url(crash_redis_url())
    try:
        key = f"shipwise:slots:connection:{connection_id}"
        return int(await redis.zcount(key, int(time.time() * 1000), "+inf"))
    finally:
        await redis.aclose()


async def test_a_killed_workers_slots_come_back_with_its_lease(
    stack: CrashStack, fake: FakeOpenAI
) -> None:
    setup = await _setup(stack, fake, cases=30)
    member = setup.workspace.tokens[Role.MEMBER]
    first = stack.start_worker()
    killed = await _start(stack, setup, trialsPerCase=2)
    await poll_status(
        stack.backend, member, killed, until=lambda c: c["progress"]["doneCalls"] >= 8
    )
    first.send_signal(signal.SIGKILL)
    first.wait()
    assert await _slots_taken(setup.connection_id) == MAX_CONCURRENCY, "the kill left its slots"
    # Its run is cancelled, so no continuation of it shares the slots the fresh run waits for.
    (await stack.backend.gql(CANCEL, {"id": killed}, token=member)).ok()

    # The bound is on the slots coming back, so it starts once the new worker polls (its
    # start-up on a loaded machine is not what is measured).
    await workers_polling(stack.log_of(stack.start_worker()))
    restarted = time.monotonic()
    fresh = await _start(stack, setup, trialsPerCase=1, sample={"size": 5, "seed": 1})
    ended = await poll_status(
        stack.backend,
        member,
        fresh,
        until=lambda c: c["status"] in ("DONE", "FAILED", "CANCELLED"),
        timeout=LEASE_SECONDS + 30,
    )
    assert time.monotonic() - restarted <= LEASE_SECONDS + 30
    assert (ended["status"], ended["stopReason"], ended["errorCode"]) == ("DONE", "COMPLETED", None)
    assert await trial_rows(stack.backend, fresh) == {"COMPLETED": 10}
    assert len(deliveries_per_trial(fake, fresh)) == 10
    assert fake.peak_concurrency <= MAX_CONCURRENCY


async def test_cancel_ends_a_wait_for_slots_at_once_and_nothing_is_ambiguous(
    stack: CrashStack, fake: FakeOpenAI
) -> None:
    setup = await _setup(stack, fake, cases=10)
    member = setup.workspace.tokens[Role.MEMBER]
    await workers_polling(stack.log_of(stack.start_worker()))
    # Another live holder (this test) has every slot of the connection.
    other = RedisSlots(crash_redis_url())
    key = f"connection:{setup.connection_id}"
    try:
        holds = [other.hold(key, MAX_CONCURRENCY) for _ in range(MAX_CONCURRENCY)]
        for hold in holds:
            await hold.__aenter__()
        comparison_id = await _start(stack, setup, trialsPerCase=1)
        await eventually(
            lambda: trial_rows(stack.backend, comparison_id),
            until=lambda counts: counts.get("ADMITTED", 0) >= 4,
            timeout=30,
            what="the worker admitted a window",
        )
        cancelled_at = time.monotonic()
        (await stack.backend.gql(CANCEL, {"id": comparison_id}, token=member)).ok()
        await eventually(
            lambda: _leased(stack, comparison_id),
            until=lambda held: not held,
            timeout=STOPS_WITHIN_SECONDS,
            what="the dispatcher stopped waiting for slots",
        )
        elapsed = time.monotonic() - cancelled_at
        assert elapsed < STOPS_WITHIN_SECONDS, "the dispatcher kept waiting for slots"
        # The delivery has ended: the admitted calls waited for slots, and none was sent.
        assert deliveries_per_trial(fake, comparison_id) == {}
        for hold in holds:
            await hold.__aexit__(None, None, None)
    finally:
        await other.close()
    ended = await poll_status(stack.backend, member, comparison_id, until=lambda _c: True)
    assert (ended["status"], ended["errorCode"]) == ("CANCELLED", None)
    # The waiting calls were never sent: their checkpoints went, none is left ambiguous.
    assert await trial_rows(stack.backend, comparison_id) == {}
    assert ended["progress"]["doneCalls"] == 0
    assert deliveries_per_trial(fake, comparison_id) == {}


JOB_TIMEOUT_SECONDS = 4


@pytest.fixture
async def short_jobs(tmp_path: Path, fernet_key: str) -> Any:
    require_services("postgres", "redis")
    async with crash_stack(
        services.postgres_url(),
        tmp_path,
        fernet_key,
        lease_seconds=LEASE_SECONDS,
        job_timeout_seconds=JOB_TIMEOUT_SECONDS,
    ) as built:
        yield built


async def test_a_job_that_times_out_waiting_for_slots_leaves_nothing_ambiguous(
    short_jobs: CrashStack, fake: FakeOpenAI
) -> None:
    stack = short_jobs
    setup = await _setup(stack, fake, cases=4)
    member = setup.workspace.tokens[Role.MEMBER]
    await workers_polling(stack.log_of(stack.start_worker()))
    other = RedisSlots(crash_redis_url())
    key = f"connection:{setup.connection_id}"
    try:
        holds = [other.hold(key, MAX_CONCURRENCY) for _ in range(MAX_CONCURRENCY)]
        for hold in holds:
            await hold.__aenter__()
        failed_before = await _failed_dispatches(stack)
        comparison_id = await _start(stack, setup, trialsPerCase=1)
        # The delivery waiting for slots runs longer than a job may: it times out.
        await eventually(
            lambda: _failed_dispatches(stack),
            until=lambda failed: failed > failed_before,
            timeout=JOB_TIMEOUT_SECONDS + 30,
            what="the waiting delivery timed out",
        )
        assert deliveries_per_trial(fake, comparison_id) == {}
        for hold in holds:
            await hold.__aexit__(None, None, None)
    finally:
        await other.close()
    ended = await poll_status(
        stack.backend,
        member,
        comparison_id,
        until=lambda c: c["status"] in ("DONE", "FAILED", "CANCELLED"),
        timeout=30,
    )
    # The timed-out delivery's calls were never sent: not ambiguous, sent later, once each.
    assert (ended["status"], ended["stopReason"], ended["errorCode"]) == ("DONE", "COMPLETED", None)
    assert await trial_rows(stack.backend, comparison_id) == {"COMPLETED": 8}
    sent = deliveries_per_trial(fake, comparison_id)
    assert len(sent) == 8 and all(len(d) == 1 for d in sent.values())


async def _failed_dispatches(stack: CrashStack) -> int:
    """Dispatch jobs the workers counted as failed (a timeout is a failure)."""
    stats = await stack.backend.state.queue.stats()
    return stats.counts.get(("dispatch_comparison", "failed"), 0)


async def _leased(stack: CrashStack, comparison_id: str) -> bool:
    return await leased(stack.backend, comparison_id)
