"""The JobQueue / EventBus / RateLimiter contract, once per adapter pair (embedded, Redis)."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest

from bench.kit.waiting import eventually
from server.runtime.interfaces import Event, JobFunction, JobRegistry, JobStats, PeriodicJob
from tests.server.runtime.runtime_harness import Harness, MakeHarness

# arq 0.28's Worker.close() calls redis-py's deprecated close().
pytestmark = pytest.mark.filterwarnings("ignore:Call to deprecated close:DeprecationWarning")

SECRET = "sk-live-" + "do-not-log-me"


async def record(ctx: dict[str, Any], value: int, *, tag: str = "") -> None:
    ctx["calls"].append(
        {
            "job": "record",
            "value": value,
            "tag": tag,
            "job_id": ctx["job_id"],
            "job_try": ctx["job_try"],
            "ctx_keys": set(ctx),
            "at": time.monotonic(),
        }
    )


async def chain(ctx: dict[str, Any], step: int) -> None:
    """Publishes its progress and enqueues its own continuation, as dispatch does."""
    await ctx["events"].publish("chain", step, {"step": step})
    if step < 3:
        await ctx["queue"].enqueue("chain", step + 1, job_id=f"chain:{step + 1}")
    ctx["calls"].append({"job": "chain", "step": step})


async def boom(_ctx: dict[str, Any]) -> None:
    raise ValueError(SECRET)


async def slow(_ctx: dict[str, Any]) -> None:
    await asyncio.sleep(30)


async def tick(ctx: dict[str, Any]) -> None:
    ctx["calls"].append({"job": "tick", "job_id": ctx["job_id"]})


FUNCTIONS: dict[str, JobFunction] = {
    "record": record,
    "chain": chain,
    "boom": boom,
    "slow": slow,
    "tick": tick,
}
REGISTRY = JobRegistry(functions=FUNCTIONS, timeout_seconds=1)


async def take(events: AsyncIterator[Event], n: int, timeout: float = 3.0) -> list[Event]:
    async with asyncio.timeout(timeout):
        return [await anext(events) for _ in range(n)]


async def aclose(events: AsyncIterator[Event]) -> None:
    """Subscriptions are async generators; the interface promises only an iterator."""
    close = getattr(events, "aclose", None)
    if close is not None:
        await close()


# Jobs


async def test_enqueue_runs_the_function_with_args_and_ctx(make_harness: MakeHarness) -> None:
    h = await make_harness(REGISTRY)

    assert await h.queue.enqueue("record", 7, tag="x", job_id="r-7")
    await h.run_jobs()

    [call] = h.calls
    assert (call["value"], call["tag"], call["job_id"], call["job_try"]) == (7, "x", "r-7", 1)
    assert {"job_id", "job_try", "enqueue_time", "queue", "events", "stopping"} <= call["ctx_keys"]


async def test_jobs_enqueue_continuations_and_publish_through_ctx(
    make_harness: MakeHarness,
) -> None:
    h = await make_harness(REGISTRY)

    await h.queue.enqueue("chain", 1)
    await h.run_jobs()

    assert [c["step"] for c in h.calls] == [1, 2, 3]
    assert [e.seq for e in await take(h.events.subscribe("chain"), 3)] == [1, 2, 3]


async def test_job_id_dedupes_while_queued_then_frees(make_harness: MakeHarness) -> None:
    h = await make_harness(REGISTRY)

    assert await h.queue.enqueue("record", 1, job_id="same", delay=timedelta(milliseconds=100))
    assert not await h.queue.enqueue("record", 2, job_id="same")
    assert (await h.queue.stats()).queued == 1
    await h.run_jobs()
    assert [c["value"] for c in h.calls] == [1]

    assert await h.queue.enqueue("record", 3, job_id="same"), "a finished job frees its id"
    await h.run_jobs()
    assert [c["value"] for c in h.calls] == [1, 3]


async def test_delay_defers_the_run(make_harness: MakeHarness) -> None:
    h = await make_harness(REGISTRY)
    enqueued_at = time.monotonic()

    await h.queue.enqueue("record", 1, delay=timedelta(milliseconds=500))
    assert h.calls == []
    assert (await h.queue.stats()).queued == 1
    await h.run_jobs()

    [call] = h.calls
    assert call["at"] - enqueued_at >= 0.45
    assert (await h.queue.stats()).queued == 0


async def test_unknown_job_name_is_refused(make_harness: MakeHarness) -> None:
    h = await make_harness(REGISTRY)

    with pytest.raises(LookupError):
        await h.queue.enqueue("no_such_job")


async def test_failing_job_is_counted_and_logged_without_its_message(
    make_harness: MakeHarness, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    h = await make_harness(REGISTRY)

    await h.queue.enqueue("boom")
    await h.queue.enqueue("record", 1)
    await h.run_jobs()

    stats = await h.queue.stats()
    assert stats.counts[("boom", "failed")] == 1
    assert stats.counts[("record", "complete")] == 1
    assert SECRET not in caplog.text
    failures = [r for r in caplog.records if r.name == "shipwise.jobs"]
    assert any("boom" in r.getMessage() and "ValueError" in r.getMessage() for r in failures)


async def test_job_over_the_timeout_fails(make_harness: MakeHarness) -> None:
    h = await make_harness(REGISTRY)
    started = time.monotonic()

    await h.queue.enqueue("slow")
    await h.run_jobs()

    assert (await h.queue.stats()).counts == {("slow", "failed"): 1}
    assert time.monotonic() - started < 5


async def test_stats_count_per_name_and_outcome(make_harness: MakeHarness) -> None:
    h = await make_harness(REGISTRY)
    assert await h.queue.stats() == JobStats(counts={}, queued=0)

    for value in range(3):
        await h.queue.enqueue("record", value)
    await h.queue.enqueue("boom")
    assert (await h.queue.stats()).queued == 4
    await h.run_jobs()

    stats = await h.queue.stats()
    assert dict(stats.counts) == {("record", "complete"): 3, ("boom", "failed"): 1}
    assert stats.queued == 0


async def test_periodic_job_runs_on_its_schedule(make_harness: MakeHarness, backend: str) -> None:
    # arq cron has whole-second resolution; the embedded runner takes any period.
    if backend == "embedded":
        periodic = PeriodicJob("tick", every=timedelta(milliseconds=200))
    else:
        periodic = PeriodicJob("tick", every=timedelta(seconds=1), run_at_startup=True)
    h = await make_harness(JobRegistry(functions=FUNCTIONS, periodic=(periodic,)))

    await h.run_periodic(2)

    ticks = [c["job_id"] for c in h.calls if c["job"] == "tick"]
    assert len(ticks) >= 2 and len(set(ticks)) == len(ticks)
    assert (await h.queue.stats()).counts[("tick", "complete")] >= 2


# Events


async def test_subscribe_after_seq_then_live(make_harness: MakeHarness) -> None:
    h = await make_harness(REGISTRY)
    for seq in range(1, 6):
        await h.events.publish("c1", seq, {"seq": seq, "status": "RUNNING"})

    events = h.events.subscribe("c1", after_seq=2)
    backlog = await take(events, 3)
    await h.events.publish("c1", 6, {"seq": 6, "status": "DONE"})
    [live] = await take(events, 1)
    await aclose(events)

    assert [e.seq for e in backlog] == [3, 4, 5]
    assert backlog[0] == Event(topic="c1", seq=3, payload={"seq": 3, "status": "RUNNING"})
    assert (live.seq, live.payload["status"]) == (6, "DONE")


async def test_topics_are_independent(make_harness: MakeHarness) -> None:
    h = await make_harness(REGISTRY)
    await h.events.publish("a", 1, {"topic": "a"})
    await h.events.publish("b", 5, {"topic": "b"})
    await h.events.publish("a", 2, {"topic": "a"})

    assert [e.payload["topic"] for e in await take(h.events.subscribe("a"), 2)] == ["a", "a"]
    assert [e.seq for e in await take(h.events.subscribe("b"), 1)] == [5]


async def test_stale_seq_is_ignored(make_harness: MakeHarness) -> None:
    h = await make_harness(REGISTRY)
    for seq in (1, 3, 2, 3, 5, 4):
        await h.events.publish("c1", seq, {"seq": seq})
    await h.events.publish("c1", 6, {"seq": 6})

    assert [e.seq for e in await take(h.events.subscribe("c1"), 4)] == [1, 3, 5, 6]


async def test_concurrent_publishers_never_break_order(make_harness: MakeHarness) -> None:
    h = await make_harness(REGISTRY)
    seqs = list(range(1, 61))
    random.Random(4).shuffle(seqs)

    await asyncio.gather(*(h.events.publish("c1", seq, {"seq": seq}) for seq in seqs))
    await h.events.publish("c1", 61, {"seq": 61})

    seen: list[int] = []
    async for event in h.events.subscribe("c1"):
        seen.append(event.seq)
        if event.seq == 61:
            break
    assert seen == sorted(set(seen)) and 60 in seen


async def test_two_subscribers_each_see_everything(make_harness: MakeHarness) -> None:
    h = await make_harness(REGISTRY)
    first = asyncio.create_task(take(h.events.subscribe("c1"), 5))
    second = asyncio.create_task(take(h.events.subscribe("c1"), 5))
    await _subscribed(h, readers=2)

    for seq in range(1, 6):
        await h.events.publish("c1", seq, {"seq": seq})

    assert [e.seq for e in await first] == [1, 2, 3, 4, 5]
    assert [e.seq for e in await second] == [1, 2, 3, 4, 5]


async def test_retention_is_bounded_newest_last(make_harness: MakeHarness) -> None:
    h = await make_harness(REGISTRY, maxlen=10)
    for seq in range(1, 251):
        await h.events.publish("c1", seq, {"seq": seq})

    events = h.events.subscribe("c1")
    retained = await take(events, 10)
    await h.events.publish("c1", 251, {"seq": 251})
    [live] = await take(events, 1)

    assert [e.seq for e in retained] == list(range(241, 251))
    assert live.seq == 251


async def test_cancelled_subscription_ends_cleanly(make_harness: MakeHarness) -> None:
    h = await make_harness(REGISTRY)
    waiting = asyncio.create_task(take(h.events.subscribe("c1"), 1, timeout=30))
    await _subscribed(h, readers=1)
    assert not waiting.done()

    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(waiting, 1)

    await eventually(h.blocked_readers, until=lambda n: n == 0, timeout=2, what="no reader")
    await h.events.publish("c1", 1, {"seq": 1})
    assert [e.seq for e in await take(h.events.subscribe("c1"), 1)] == [1]


async def test_close_ends_open_subscriptions(make_harness: MakeHarness) -> None:
    h = await make_harness(REGISTRY)
    await h.events.publish("c1", 1, {"seq": 1})

    async def drain() -> list[int]:
        return [event.seq async for event in h.events.subscribe("c1")]

    reader = asyncio.create_task(drain())
    await _subscribed(h, readers=1)
    await h.events.close()

    assert await asyncio.wait_for(reader, 2) == [1]


async def test_payload_must_be_json(make_harness: MakeHarness) -> None:
    h = await make_harness(REGISTRY)

    with pytest.raises(TypeError):
        await h.events.publish("c1", 1, {"at": object()})


# Rate limiting


async def test_rate_limiter_allows_limit_then_refuses(make_harness: MakeHarness) -> None:
    h = await make_harness(REGISTRY)

    assert [await h.limiter.hit("user:1", limit=3) for _ in range(4)] == [True] * 3 + [False]
    assert await h.limiter.hit("user:2", limit=3)


async def test_rate_limiter_window_resets(make_harness: MakeHarness) -> None:
    h = await make_harness(REGISTRY)
    h.clock.now = 6_000.0

    assert await h.limiter.hit("k", limit=1, window_seconds=60)
    assert not await h.limiter.hit("k", limit=1, window_seconds=60)
    h.clock.now += 59.0
    assert not await h.limiter.hit("k", limit=1, window_seconds=60)
    h.clock.now += 1.0
    assert await h.limiter.hit("k", limit=1, window_seconds=60)


async def _subscribed(h: Harness, *, readers: int) -> None:
    """Until `readers` subscriptions wait for events: the Redis adapter's block in XREAD;
    an in-process subscription blocks without I/O, within one turn of the loop."""
    if h.backend == "redis":
        await eventually(
            h.blocked_readers, until=lambda n: n >= readers, timeout=5, what="readers blocked"
        )
    else:
        await asyncio.sleep(0)
