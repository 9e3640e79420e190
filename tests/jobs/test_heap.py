"""A worker gives the heap its jobs freed back to the system (jobs/heap.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from redis.asyncio import Redis

from jobs.heap import HeapTrim
from jobs.worker import counted

FRAGMENTED = """
import json, psutil
from jobs.heap import HeapTrim

def rss() -> float:
    return psutil.Process().memory_info().rss / 2**20

trim = HeapTrim()
blocks = [bytes(2000) for _ in range(100_000)]  # ~200 MB of C-heap blocks
kept = blocks[::20]  # every 20th stays, so the freed space is all holes
del blocks
before = rss()
first, second = trim.after_job(), trim.after_job()
print(json.dumps({"before": before, "after": rss(), "first": first, "second": second}))
"""


def test_a_trim_gives_a_fragmented_heap_back_and_waits_before_the_next() -> None:
    if not HeapTrim().available:
        pytest.skip("no malloc_trim: not glibc")
    done = subprocess.run(
        [sys.executable, "-c", FRAGMENTED], capture_output=True, text=True, check=True, timeout=60
    )
    figures = json.loads(done.stdout)
    assert figures["before"] > 150, figures  # the holes are still the process's
    assert figures["after"] < figures["before"] - 100, figures
    assert (figures["first"], figures["second"]) == (True, False)


def test_trims_are_at_least_the_period_apart() -> None:
    if not HeapTrim().available:
        pytest.skip("no malloc_trim: not glibc")
    now = [100.0]
    trim = HeapTrim(every_seconds=10, clock=lambda: now[0])
    calls = []
    for at in (100.0, 105.0, 109.9, 110.0, 111.0, 125.0):
        now[0] = at
        calls.append(trim.after_job())
    assert calls == [True, False, False, True, False, True]


class _Counting(HeapTrim):
    def __init__(self) -> None:
        super().__init__()
        self.jobs = 0

    def after_job(self) -> bool:
        self.jobs += 1
        return False


async def test_every_job_the_worker_runs_ends_with_the_trim(redis_test_url: str) -> None:
    async def fine(_ctx: dict[str, Any]) -> str:
        return "done"

    async def broken(_ctx: dict[str, Any]) -> str:
        raise RuntimeError("the job failed")

    heap = _Counting()
    redis = Redis.from_url(redis_test_url)
    try:
        ctx: dict[str, Any] = {"redis": redis, "heap": heap}
        assert await counted("fine", fine, timeout_seconds=5)(ctx) == "done"
        with pytest.raises(Exception, match="job broken failed"):
            await counted("broken", broken, timeout_seconds=5)(ctx)
    finally:
        await redis.aclose()
    assert heap.jobs == 2
