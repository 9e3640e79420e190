"""A real `shipwise worker` process runs registry jobs against PostgreSQL and Redis."""

from __future__ import annotations

import os
import subprocess
import sys

from sqlalchemy import delete, select

from bench.kit.harness import Backend
from bench.kit.waiting import eventually
from server.ops.models import WorkerHeartbeat


async def test_the_worker_runs_an_enqueued_job_and_counts_it(
    postgres_backend: Backend, worker_process: subprocess.Popen[bytes]
) -> None:
    assert worker_process.poll() is None, "the worker process exited"
    async with postgres_backend.sessionmaker() as session, session.begin():
        await session.execute(delete(WorkerHeartbeat))
    assert await postgres_backend.state.queue.enqueue("record_heartbeat", job_id="beat-test")

    async def beats() -> list[str]:
        async with postgres_backend.sessionmaker() as session:
            return list((await session.execute(select(WorkerHeartbeat.worker_name))).scalars())

    names = await eventually(beats, timeout=60, what="a heartbeat")
    assert names[0].endswith(f":{worker_process.pid}")
    stats = await postgres_backend.state.queue.stats()
    assert stats.counts.get(("record_heartbeat", "complete"), 0) >= 1


def test_the_worker_refuses_to_start_without_redis() -> None:
    env = {k: v for k, v in os.environ.items() if k != "SHIPWISE_REDIS_URL"}
    done = subprocess.run(
        [sys.executable, "-m", "server.cli", "worker"], env=env, capture_output=True, timeout=60
    )
    assert done.returncode == 2
    assert b"SHIPWISE_REDIS_URL" in done.stderr
