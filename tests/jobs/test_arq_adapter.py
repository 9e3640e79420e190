"""What `jobs/arq_adapter.py` relies on in arq, pinned: the release, the private members it
overrides or reads, and the signatures it calls them with. An arq upgrade fails here first."""

from __future__ import annotations

import asyncio
import inspect
from importlib.metadata import version
from typing import Any

import pytest
from arq.connections import RedisSettings, create_pool
from arq.worker import Worker, func
from redis.asyncio import Redis
from redis.exceptions import WatchError

from bench.kit import services
from jobs.arq_adapter import ARQ_VERSION, ShipwiseWorker, lost_broker
from tests.conftest import require_services

METHODS = {
    "_poll_iteration": (["self"], True),
    "start_jobs": (["self", "job_ids"], True),
    "finish_job": (
        [
            "self",
            "job_id",
            "finish",
            "result_data",
            "result_timeout_s",
            "keep_result_forever",
            "incr_score",
            "keep_in_progress",
        ],
        True,
    ),  # fmt: skip
    "finish_failed_job": (["self", "job_id", "result_data"], True),
    "handle_sig_wait_for_completion": (["self", "signum"], False),
    "handle_sig": (["self", "signum"], False),
    "close": (["self"], True),
    "main": (["self"], True),
    "_release_sem_dec_counter_on_complete": (["self"], False),
}
"""Each arq method the adapter overrides or calls: its parameters and whether it is async."""

ATTRIBUTES = (
    "_pool", "_handle_signals", "tasks", "ctx", "pool", "redis_settings", "queue_name",
    "job_serializer", "job_deserializer", "expires_extra_ms", "health_check_key",
    "on_shutdown",
)  # fmt: skip
"""What the adapter reads off a constructed arq Worker."""


async def nothing(ctx: dict[Any, Any]) -> None:  # noqa: ARG001 - arq passes ctx by name
    return None


def test_arq_is_the_pinned_release() -> None:
    assert version("arq") == ARQ_VERSION == "0.28.0"


def test_the_overridden_methods_keep_their_signatures() -> None:
    for name, (parameters, is_async) in METHODS.items():
        method = getattr(Worker, name)
        assert list(inspect.signature(method).parameters) == parameters, name
        assert inspect.iscoroutinefunction(method) is is_async, name
        assert name in vars(ShipwiseWorker) or name in {"_release_sem_dec_counter_on_complete"}


def test_a_worker_has_the_private_state_the_adapter_reads() -> None:
    async def build() -> ShipwiseWorker:
        return ShipwiseWorker(
            functions=[func(nothing, name="nothing")],
            redis_settings=RedisSettings(),
            handle_signals=False,
        )

    worker = asyncio.run(build())
    assert worker._pool is None
    assert worker._handle_signals is False
    missing = [name for name in ATTRIBUTES if name != "pool" and not hasattr(worker, name)]
    assert missing == []
    assert isinstance(inspect.getattr_static(Worker, "pool"), property)


async def _watch_broken(url: str) -> WatchError:
    """What redis-py raises when a watched transaction's connection dies (here killed from
    another client, as a Redis restart kills it): arq's `start_jobs` watches a key."""
    redis = Redis.from_url(url)
    try:
        async with redis.pipeline(transaction=True) as pipe:
            await pipe.watch("shipwise-test:watched")
            own_id = await pipe.client_id()  # watching: commands run at once, on its connection
            await redis.client_kill_filter(_id=own_id)
            try:
                await pipe.zscore("shipwise-test:queue", "job")
            except WatchError as error:
                return error
    finally:
        await redis.aclose()
    raise AssertionError("the killed connection raised no WatchError")


async def test_a_watch_broken_by_a_lost_connection_is_an_outage_the_worker_waits_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    require_services("redis")
    error = await _watch_broken(services.redis_url())
    assert lost_broker(error)
    assert not lost_broker(WatchError("a watched key changed"))  # arq's own conflict

    async def broken(_self: Worker) -> None:
        raise error

    monkeypatch.setattr(Worker, "_poll_iteration", broken)
    worker = ShipwiseWorker(
        functions=[func(nothing, name="nothing")],
        redis_settings=RedisSettings.from_dsn(services.redis_url()),
        handle_signals=False,
    )
    worker._pool = await create_pool(worker.redis_settings)
    try:
        await asyncio.wait_for(worker._poll_iteration(), timeout=30)  # raised before the fix
        assert worker.broker.outages == 1
    finally:
        await worker._pool.aclose(close_connection_pool=True)
