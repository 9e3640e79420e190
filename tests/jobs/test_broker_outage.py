"""A real `shipwise worker` outlives its Redis: a private `redis-server` is stopped mid-run and
started again on the same port; the run ends DONE with nothing answered twice."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bench.kit import services
from bench.kit.openai_server import Behaviour, FakeOpenAI
from bench.kit.private_redis import PrivateRedis
from bench.kit.waiting import eventually
from tests.conftest import require_services
from tests.jobs.crash_stack import WORKER_PROCESS_TESTS, CrashStack, crash_stack, workers_polling
from tests.jobs.fault_checks import (
    assert_done_once_each,
    assert_finalized,
    assert_in_order_to_done,
    done_at_least,
    follow,
    new_setup,
    poll_tolerant,
    probe,
    start,
)
from tests.private_services import free_port

pytestmark = WORKER_PROCESS_TESTS

CASES, TRIALS = 50, 3
TOTAL = CASES * TRIALS * 2
OUTAGE_SECONDS = 2.0
SEQ = "query($id: ID!) { comparison(id: $id) { progress { seq } } }"


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI() as server:
        server.behaviour = Behaviour(delay_seconds=0.1, reply="the answer")  # a run of ~8 s
        yield server


@pytest.fixture
async def stack(
    tmp_path: Path, fernet_key: str, redis: PrivateRedis
) -> AsyncIterator[tuple[CrashStack, int]]:
    require_services("postgres")
    health_port = free_port()
    async with crash_stack(
        services.postgres_url(),
        tmp_path,
        fernet_key,
        lease_seconds=30,  # the production default: recovery must not wait for a lease
        redis_url=redis.url,
        env={"SHIPWISE_WORKER_HEALTH_PORT": str(health_port)},
    ) as built:
        yield built, health_port


async def _readyz(port: int, wanted: int, *, timeout: float, what: str) -> None:
    """Until `/readyz` answers `wanted`; a failure names the last status (0: no answer)."""
    await eventually(
        lambda: asyncio.to_thread(probe, port, "/readyz"),
        until=lambda status: status == wanted,
        timeout=timeout,
        what=what,
    )


async def test_a_redis_restart_mid_run_leaves_the_worker_up_and_the_run_done(
    stack: tuple[CrashStack, int], redis: PrivateRedis, fake: FakeOpenAI
) -> None:
    crash, health_port = stack
    backend = crash.backend
    worker = crash.start_worker()
    # The process's start (an interpreter and our imports) is not what is tested, and on a
    # loaded host it alone took over 30 s: wait for the worker to poll (its log), then ready.
    await workers_polling(crash.log_of(worker), timeout=120)
    await _readyz(health_port, 200, timeout=30, what="ready")
    setup, token = await new_setup(backend, fake, cases=CASES, max_concurrency=4)
    comparison_id = await start(backend, setup, token, trials=TRIALS)
    watching = asyncio.ensure_future(follow(backend, token, comparison_id))
    await poll_tolerant(backend, token, comparison_id, until=done_at_least(TOTAL * 2 // 5))
    before_seq = (await backend.gql(SEQ, {"id": comparison_id}, token=token)).ok()["comparison"][
        "progress"
    ]["seq"]

    redis.stop()
    down_at = time.monotonic()
    # The worker's heartbeat pings every second, busy or not; 30 s bounds that on a loaded
    # host.
    await _readyz(health_port, 503, timeout=30, what="not ready")
    assert probe(health_port, "/healthz") == 200
    # The API still answers reads while Redis is away.
    during = await poll_tolerant(backend, token, comparison_id, until=lambda _: True)
    # (A delivery keeps the slots it holds, so calls may even go on meanwhile.)
    assert during["status"] in ("RUNNING", "DONE")
    await asyncio.sleep(max(0.0, OUTAGE_SECONDS - (time.monotonic() - down_at)))
    redis.start()

    await _readyz(health_port, 200, timeout=40, what="ready again")
    await assert_done_once_each(backend, fake, token, comparison_id, total=TOTAL)
    assert worker.poll() is None, "the worker exited"
    await assert_finalized(backend, token, comparison_id)
    # A subscription open through the outage ends with the terminal snapshot; one that
    # resumes from the seq seen before it gets only later ones.
    assert_in_order_to_done(await watching)
    assert_in_order_to_done(
        await follow(backend, token, comparison_id, after_seq=before_seq), after_seq=before_seq
    )

    following = await start(backend, setup, token, trials=1)
    await assert_done_once_each(backend, fake, token, following, total=CASES * 2)
    assert worker.poll() is None
    log = (crash.log_dir / "worker-0.log").read_text()
    assert "broker unreachable" in log and "broker reconnected" in log
