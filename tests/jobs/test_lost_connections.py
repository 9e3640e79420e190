"""Dispatch rides out lost database connections: the comparison database's backends are
terminated again and again mid-run (`pg_terminate_backend`, this test's database only)
while a real `shipwise worker` dispatches; the run goes on at once, under its lease."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest

from bench.kit import services
from bench.kit.openai_server import Behaviour, FakeOpenAI
from bench.kit.private_redis import PrivateRedis
from tests.conftest import require_services
from tests.jobs.crash_stack import WORKER_PROCESS_TESTS, CrashStack, crash_stack
from tests.jobs.fault_checks import (
    assert_done_once_each,
    assert_finalized,
    done_at_least,
    new_setup,
    poll_tolerant,
    start,
)

pytestmark = WORKER_PROCESS_TESTS

CASES, TRIALS = 50, 3
TOTAL = CASES * TRIALS * 2
MIN_ROUNDS, MAX_ROUNDS = 6, 100
ROUND_GAP_S = 0.05
"""Cut often: most cuts find a connection idle in the pool (replaced at checkout, unseen);
the rounds go on until one lands inside a transaction."""
LEASE_SECONDS = 30
"""The production default: had a delivery to wait for its lease to end, the test would
time out before the run ended."""

TERMINATE = """
SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
WHERE datname = $1 AND pid <> pg_backend_pid()
"""


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        # Calls slow enough that the run outlasts the rounds (about 8 s at 4 at a time).
        server.behaviour = Behaviour(delay_seconds=0.1, reply="the answer")
        yield server


@pytest.fixture
async def stack(tmp_path: Path, fernet_key: str, redis: PrivateRedis) -> AsyncIterator[CrashStack]:
    require_services("postgres")
    async with crash_stack(
        services.postgres_url(),
        tmp_path,
        fernet_key,
        lease_seconds=LEASE_SECONDS,
        redis_url=redis.url,
    ) as built:
        yield built


async def terminate_backends(database: str, *, until: Callable[[], bool]) -> int:
    """Terminate every connection to `database` (only it), round after round: at least
    MIN_ROUNDS, and on until `until()` holds (a cut landed inside a transaction); how many."""
    import asyncpg  # type: ignore[import-untyped]

    plain = services.postgres_url().replace("postgresql+asyncpg", "postgresql")
    admin = await asyncpg.connect(plain)
    try:
        killed = 0
        for round_ in range(MAX_ROUNDS):
            killed += int(await admin.fetchval(TERMINATE, database))
            await asyncio.sleep(ROUND_GAP_S)
            if round_ + 1 >= MIN_ROUNDS and until():
                break
        return killed
    finally:
        await admin.close()


async def test_terminated_backends_mid_run_never_stop_the_run(
    stack: CrashStack, fake: FakeOpenAI
) -> None:
    backend = stack.backend
    database = stack.env["SHIPWISE_DATABASE_URL"].rpartition("/")[2]
    worker = stack.start_worker()
    setup, token = await new_setup(backend, fake, cases=CASES, max_concurrency=4)
    comparison_id = await start(backend, setup, token, trials=TRIALS)
    await poll_tolerant(backend, token, comparison_id, until=done_at_least(TOTAL // 5))
    log = stack.log_dir / "worker-0.log"

    def ran_again() -> bool:
        return "database connection lost" in log.read_text()

    killed = await terminate_backends(database, until=ran_again)
    assert killed > 0 and ran_again(), "a unit of work had its connection cut and ran again"
    answered_again = time.monotonic()
    at_end = await poll_tolerant(backend, token, comparison_id, until=lambda _: True)
    await poll_tolerant(
        backend,
        token,
        comparison_id,
        until=lambda c: (
            c["progress"]["doneCalls"] > at_end["progress"]["doneCalls"] or c["status"] == "DONE"
        ),
        timeout=5,
    )
    assert time.monotonic() - answered_again < 5 + 1, "the run went on within 5 s"
    await assert_done_once_each(
        backend, fake, token, comparison_id, total=TOTAL, timeout=LEASE_SECONDS - 5
    )
    assert worker.poll() is None, "the worker exited"
    await assert_finalized(backend, token, comparison_id)

    following = await start(backend, setup, token, trials=1)
    await assert_done_once_each(backend, fake, token, following, total=CASES * 2)
    assert worker.poll() is None
