"""EmbeddedQueue lifecycle beyond the shared contract: start, drain, close."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest

from bench.kit.waiting import eventually
from server.runtime.embedded import EmbeddedQueue
from server.runtime.interfaces import JobRegistry, JobStats, PeriodicJob


async def wait_for_stop(ctx: dict[str, Any], name: str) -> None:
    ctx["log"].append(f"{name} started")
    await ctx["stopping"].wait()
    await asyncio.sleep(0.05)  # the in-flight work finishes and commits
    await ctx["queue"].enqueue("note", f"{name} continued")  # dropped: found again at start-up
    ctx["log"].append(f"{name} handed over")


async def note(ctx: dict[str, Any], name: str) -> None:
    ctx["log"].append(name)


async def tick(ctx: dict[str, Any]) -> None:
    ctx["log"].append(ctx["job_id"])


REGISTRY = JobRegistry(functions={"wait_for_stop": wait_for_stop, "note": note})


async def test_close_cancels_delayed_jobs_and_lets_running_ones_hand_over() -> None:
    log: list[str] = []
    ctx: dict[str, Any] = {"log": log}
    queue = ctx["queue"] = EmbeddedQueue(REGISTRY, ctx)
    await queue.enqueue("wait_for_stop", "a")
    await queue.enqueue("note", "later", delay=timedelta(seconds=30))
    await eventually(lambda: "a started" in log, what="the job started")

    await asyncio.wait_for(queue.close(), 2)

    assert log == ["a started", "a handed over"]
    assert await queue.stats() == JobStats(counts={("wait_for_stop", "complete"): 1}, queued=0)
    assert not await queue.enqueue("note", "too late")


async def test_close_cancels_jobs_that_outlive_the_grace_period() -> None:
    async def stubborn(ctx: dict[str, Any]) -> None:
        ctx["log"].append("started")
        await asyncio.sleep(30)

    log: list[str] = []
    registry = JobRegistry(functions={"stubborn": stubborn})
    queue = EmbeddedQueue(registry, {"log": log}, close_timeout=0.1)
    await queue.enqueue("stubborn")
    await eventually(lambda: log == ["started"], what="the job started")

    await asyncio.wait_for(queue.close(), 2)

    assert log == ["started"]
    assert (await queue.stats()).counts == {}, "a cancelled run is no outcome"


async def test_close_waits_for_a_cancelled_job_to_finish_what_it_sent() -> None:
    """A delivery cancelled after the grace still finishes the call it sent and records it
    (its pipeline cancels only what is not sent): close returns after that, so the lifespan
    closes the providers after those calls, not under them."""

    async def sending(ctx: dict[str, Any]) -> None:
        call = asyncio.ensure_future(asyncio.sleep(3))  # a provider call in flight
        ctx["log"].append("sent")
        try:
            await asyncio.wait({call})
        except asyncio.CancelledError:
            await asyncio.wait({call})
            ctx["log"].append("recorded")
            raise

    log: list[str] = []
    registry = JobRegistry(functions={"sending": sending})
    queue = EmbeddedQueue(registry, {"log": log}, close_timeout=0.1)
    await queue.enqueue("sending")
    await eventually(lambda: log == ["sent"], what="the call sent")

    await asyncio.wait_for(queue.close(), 10)

    assert log == ["sent", "recorded"]
    assert (await queue.stats()).queued == 0


async def test_drain_waits_for_continuations() -> None:
    async def countdown(ctx: dict[str, Any], n: int) -> None:
        ctx["log"].append(str(n))
        if n:
            await ctx["queue"].enqueue("countdown", n - 1, delay=timedelta(milliseconds=10))

    log: list[str] = []
    ctx: dict[str, Any] = {"log": log}
    queue = EmbeddedQueue(JobRegistry(functions={"countdown": countdown}), ctx)
    ctx["queue"] = queue

    await queue.enqueue("countdown", 3)
    await queue.drain(timeout=2)

    assert log == ["3", "2", "1", "0"]
    await queue.close()


async def test_periodic_jobs_wait_for_start_and_stop_at_close() -> None:
    log: list[str] = []
    registry = JobRegistry(
        functions={"tick": tick},
        periodic=(PeriodicJob("tick", every=timedelta(milliseconds=50), run_at_startup=True),),
    )
    queue = EmbeddedQueue(registry, {"log": log})
    assert not _ticking(), "periodic jobs start with start(), once the ctx is complete"
    assert log == []

    await queue.start()
    assert (await queue.stats()).queued == 1, "run_at_startup is queued by start()"
    await eventually(lambda: len(log) >= 3, timeout=5, what="three ticks")
    await queue.close()
    assert not _ticking(), "close ends the periodic task: nothing more runs"
    runs = len(log)

    assert runs >= 3 and len(log) == runs
    assert (await queue.stats()).counts == {("tick", "complete"): runs}
    assert all(int(job_id.split(":")[1]) % 50 == 0 for job_id in log[1:]), "ticks on the period"


def test_unregistered_periodic_job_is_refused() -> None:
    registry = JobRegistry(functions={}, periodic=(PeriodicJob("ghost", timedelta(seconds=1)),))

    with pytest.raises(ValueError, match="ghost"):
        EmbeddedQueue(registry, {})


def _ticking() -> list[asyncio.Task[Any]]:
    """The periodic `tick` task, while it lives (it is the only thing that runs ticks)."""
    return [t for t in asyncio.all_tasks() if t.get_name() == "periodic tick" and not t.done()]
