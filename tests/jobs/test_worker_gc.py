"""A worker stops the collector scanning what its start-up built (`jobs.worker.freeze_startup`):
a full collection over it cost a dispatch worker tens of µs a call. In a process of its own,
so the suite's collector is left as it is."""

from __future__ import annotations

import json
import subprocess
import sys

STARTUP = """
import asyncio, gc, json, sys
from redis.asyncio import Redis
from jobs.worker import worker_settings
from server.runtime.interfaces import JobRegistry

async def noop(ctx):
    return None

async def main():
    settings = worker_settings(
        JobRegistry(functions={"noop": noop}, timeout_seconds=5), redis_url=sys.argv[1]
    )
    redis = Redis.from_url(sys.argv[1])
    ctx = {"redis": redis}
    before = gc.get_freeze_count()
    await settings["on_startup"](ctx)
    frozen = gc.get_freeze_count()
    await settings["on_shutdown"](ctx)
    await redis.aclose()
    print(json.dumps({"before": before, "frozen": frozen, "scanned": len(gc.get_objects())}))

asyncio.run(main())
"""


def test_the_worker_start_up_freezes_what_it_built(redis_test_url: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", STARTUP, redis_test_url],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    figures = json.loads(done.stdout)
    assert figures["before"] == 0, figures
    assert figures["frozen"] > 10_000, figures  # the modules, the registry, the pools
    assert figures["scanned"] < figures["frozen"] // 10, figures  # only what came after
