"""jobs/worker.py: cron translation, worker settings, and a real `run_worker` process."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import redis
from arq.cron import next_cron

from bench.kit.waiting import eventually
from jobs.worker import cron_fields, worker_settings
from server.runtime.interfaces import JobRegistry, PeriodicJob
from server.runtime.redis import COUNTS_KEY, ArqQueue

REPO = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize(
    ("every", "hour", "minute", "second"),
    [
        (timedelta(seconds=1), None, None, set(range(60))),
        (timedelta(seconds=15), None, None, {0, 15, 30, 45}),
        (timedelta(seconds=60), None, None, {0}),
        (timedelta(minutes=5), None, set(range(0, 60, 5)), {0}),
        (timedelta(minutes=30), None, {0, 30}, {0}),
        (timedelta(hours=1), None, {0}, {0}),
        (timedelta(hours=6), {0, 6, 12, 18}, {0}, {0}),
        (timedelta(days=1), {0}, {0}, {0}),
    ],
)
def test_cron_fields(
    every: timedelta, hour: set[int] | None, minute: set[int] | None, second: set[int]
) -> None:
    fields = cron_fields(every)

    assert fields == {"hour": hour, "minute": minute, "second": second}
    first = next_cron(datetime(2025, 3, 1, 10, 7, 3), **fields)
    assert next_cron(first, **fields) - first == every


@pytest.mark.parametrize(
    "every",
    [
        timedelta(0),
        timedelta(milliseconds=500),
        timedelta(seconds=1.5),
        timedelta(seconds=7),
        timedelta(seconds=90),
        timedelta(minutes=7),
        timedelta(hours=5),
        timedelta(days=2),
    ],
)
def test_cron_fields_refuses_periods_cron_cannot_keep(every: timedelta) -> None:
    with pytest.raises(ValueError, match="divisor"):
        cron_fields(every)


async def noop(ctx: dict[str, Any]) -> None:
    del ctx


def test_worker_settings() -> None:
    registry = JobRegistry(
        functions={"noop": noop, "sweep": noop},
        periodic=(PeriodicJob("sweep", every=timedelta(minutes=10), run_at_startup=True),),
        timeout_seconds=120,
    )

    settings = worker_settings(registry, redis_url="redis://example:6380/3")

    assert [(f.name, f.timeout_s) for f in settings["functions"]] == [
        ("noop", 125),
        ("sweep", 125),
    ]
    [sweep] = settings["cron_jobs"]
    assert (sweep.name, sweep.minute, sweep.second, sweep.run_at_startup) == (
        "cron:sweep",
        set(range(0, 60, 10)),
        {0},
        True,
    )
    redis_settings = settings["redis_settings"]
    assert (redis_settings.host, redis_settings.port, redis_settings.database) == (
        "example",
        6380,
        3,
    )
    assert settings["keep_result"] == 0, "a finished job must free its id, as embedded does"
    assert settings["allow_abort_jobs"] is False
    assert settings["health_check_interval"] <= 30


def test_worker_settings_refuses_unregistered_periodic_job() -> None:
    registry = JobRegistry(functions={}, periodic=(PeriodicJob("ghost", timedelta(minutes=1)),))

    with pytest.raises(ValueError, match="ghost"):
        worker_settings(registry, redis_url="redis://localhost")


WORKER_SCRIPT = """
import sys

from jobs.worker import run_worker
from server.runtime.interfaces import JobRegistry


async def handover(ctx):
    await ctx["redis"].set("test:started", ctx["greeting"])
    await ctx["stopping"].wait()
    await ctx["redis"].set("test:handed-over", "1")


async def on_startup(ctx):
    ctx["greeting"] = "hello"


run_worker(
    registry=JobRegistry(functions={"handover": handover}),
    redis_url=sys.argv[1],
    on_startup=on_startup,
)
"""


async def test_run_worker_hands_over_on_sigterm(redis_url: str) -> None:
    worker = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        WORKER_SCRIPT,
        redis_url,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    queue = ArqQueue(redis_url)
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    try:
        assert await queue.enqueue("handover", job_id="handover-1")
        started = await eventually(
            lambda: client.get("test:started"), timeout=15, what="the job started"
        )
        assert started == "hello"

        worker.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(worker.wait(), 10) == 0

        assert client.get("test:handed-over") == "1"
        assert client.hgetall(COUNTS_KEY) == {"handover|complete": "1"}
        assert (await queue.stats()).queued == 0
    finally:
        if worker.returncode is None:
            worker.kill()
            await worker.wait()
        await queue.close()
        client.close()
