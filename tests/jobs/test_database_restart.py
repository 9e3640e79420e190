"""PostgreSQL restarted mid-run (`pg_ctl restart -m fast` of a cluster this test starts on a
free port): the running comparison ends DONE with no trial answered twice, and the API
answers again within 5 s."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bench.kit.openai_server import Behaviour, FakeOpenAI
from bench.kit.private_redis import PrivateRedis
from bench.kit.waiting import eventually
from tests.jobs.crash_stack import STATUS, WORKER_PROCESS_TESTS, CrashStack, crash_stack
from tests.jobs.fault_checks import (
    assert_done_once_each,
    assert_finalized,
    done_at_least,
    new_setup,
    poll_tolerant,
    start,
)
from tests.private_services import PrivatePostgres, private_postgres

pytestmark = WORKER_PROCESS_TESTS

CASES, TRIALS = 50, 3
TOTAL = CASES * TRIALS * 2
LEASE_SECONDS = 30
API_BACK_WITHIN_S = 5.0


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        server.behaviour = Behaviour(delay_seconds=0.1, reply="the answer")  # a run of ~8 s
        yield server


@pytest.fixture
def postgres() -> Iterator[PrivatePostgres]:
    cluster = private_postgres()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
async def stack(
    tmp_path: Path, fernet_key: str, postgres: PrivatePostgres, redis: PrivateRedis
) -> AsyncIterator[CrashStack]:
    async with crash_stack(
        postgres.admin_url,
        tmp_path,
        fernet_key,
        lease_seconds=LEASE_SECONDS,
        redis_url=redis.url,
    ) as built:
        yield built


async def test_a_postgres_restart_mid_run_ends_done_and_the_api_answers_again(
    stack: CrashStack, postgres: PrivatePostgres, fake: FakeOpenAI
) -> None:
    backend = stack.backend
    worker = stack.start_worker()
    setup, token = await new_setup(backend, fake, cases=CASES, max_concurrency=4)
    comparison_id = await start(backend, setup, token, trials=TRIALS)
    await poll_tolerant(backend, token, comparison_id, until=done_at_least(TOTAL * 2 // 5))

    await asyncio.to_thread(postgres.restart)  # returns once the server accepts connections
    answer = await eventually(
        lambda: backend.gql(STATUS, {"id": comparison_id}, token=token),
        until=lambda a: not a.errors,
        timeout=API_BACK_WITHIN_S,
        interval=0.1,
        what="the API answering again",
    )
    seen = answer.data["comparison"]
    await poll_tolerant(  # the run goes on within 5 s of the database answering again
        backend,
        token,
        comparison_id,
        until=lambda c: (
            c["progress"]["doneCalls"] > seen["progress"]["doneCalls"] or c["status"] == "DONE"
        ),
        timeout=5,
    )

    await assert_done_once_each(
        backend, fake, token, comparison_id, total=TOTAL, timeout=LEASE_SECONDS - 5
    )
    assert worker.poll() is None, "the worker exited"
    await assert_finalized(backend, token, comparison_id)
    following = await start(backend, setup, token, trials=1)
    await assert_done_once_each(backend, fake, token, following, total=CASES * 2)
    assert worker.poll() is None
