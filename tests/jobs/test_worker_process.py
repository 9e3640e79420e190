"""A real `shipwise worker` process runs registry jobs against PostgreSQL and Redis."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
from datetime import timedelta

from sqlalchemy import delete, select

from bench.kit.harness import Backend
from bench.kit.waiting import eventually
from server.db import utcnow
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


async def test_metrics_show_each_live_workers_last_heartbeat(
    postgres_backend: Backend, worker_process: subprocess.Popen[bytes]
) -> None:
    gone = "gone-host:1"
    async with postgres_backend.sessionmaker() as session, session.begin():
        await session.execute(delete(WorkerHeartbeat))
        session.add(WorkerHeartbeat(worker_name=gone, seen_at=utcnow() - timedelta(days=2)))
    before = utcnow().timestamp()
    assert await postgres_backend.state.queue.enqueue("record_heartbeat", job_id="beat-metrics")
    line = re.compile(
        r'^shipwise_worker_last_heartbeat_seconds\{worker="(\S+)"\} (\S+)$', re.MULTILINE
    )

    async def shown() -> dict[str, float]:
        text = (await postgres_backend.client.get("/metrics")).text
        return {worker: float(seen) for worker, seen in line.findall(text)}

    workers = await eventually(shown, timeout=60, what="a worker's heartbeat in /metrics")
    mine = f"{socket.gethostname()}:{worker_process.pid}"
    assert list(workers) == [mine]  # silent for two days: the gone worker is not listed
    assert before - 1 <= workers[mine] <= utcnow().timestamp()
    async with postgres_backend.sessionmaker() as session:
        names = list((await session.execute(select(WorkerHeartbeat.worker_name))).scalars())
    assert names == [mine]  # and its row is dropped by the next beat


def test_the_worker_refuses_to_start_without_redis() -> None:
    env = {k: v for k, v in os.environ.items() if k != "SHIPWISE_REDIS_URL"}
    done = subprocess.run(
        [sys.executable, "-m", "server.cli", "worker"], env=env, capture_output=True, timeout=60
    )
    assert done.returncode == 2
    assert b"SHIPWISE_REDIS_URL" in done.stderr
