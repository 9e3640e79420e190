"""Subscription events executed once for every subscriber of the same query.

The progress hub (`server.comparisons.progress_hub`) hands one snapshot to every
subscription of a comparison; graphql-core would then execute each subscriber's selection
set on it separately: the same work 200 times for 200 watchers of one run, all of it
before the last of them hears of the snapshot. `SharedEventExecutor` executes an event
once per (payload object, operation, variables) and lends the result to every
subscription asking the same. Only payloads whose type says `SHARED_EVENT = True` are
shared: their fields must be plain values, read the same whoever asks.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

from cachetools import LRUCache
from prometheus_client import Counter
from strawberry.schema.schema import StrawberryGraphQLCoreExecutionContext

from server.metrics import REGISTRY

MAX_SHARED = 256
"""Results kept: a few per watched comparison is plenty (each is one snapshot)."""

EVENTS = Counter(
    "shipwise_subscription_events",
    "Subscription events delivered, by whether this one's execution was its own or shared",
    ["execution"],
    registry=REGISTRY,
)
_OWN, _SHARED = EVENTS.labels("own"), EVENTS.labels("shared")

_Key = tuple[int, int, str]
_results: LRUCache[_Key, tuple[object, Any]] = LRUCache(maxsize=MAX_SHARED)
"""(payload, its result or the future of it), least recently used first."""


class SharedEventExecutor(StrawberryGraphQLCoreExecutionContext):
    """Strawberry's executor; a subscription event with a shareable payload runs once."""

    _event_key: _Key | None = None
    _variables_key: str | None = None

    def build_per_event_executor(self, payload: Any) -> SharedEventExecutor:
        executor = super().build_per_event_executor(payload)
        assert isinstance(executor, SharedEventExecutor)
        if getattr(type(payload), "SHARED_EVENT", False):
            if self._variables_key is None:  # once per subscription
                self._variables_key = repr(sorted(self.variable_values.coerced.items()))
            executor._event_key = (id(payload), id(self.operation), self._variables_key)
        return executor

    def execute_operation(self, serially: bool | None = None) -> Any:
        key = self._event_key
        if key is None:
            return super().execute_operation(serially)
        entry = _results.get(key)
        # The entry holds its payload, so an id is not reused while it is cached.
        if entry is not None and entry[0] is self.root_value:
            _SHARED.inc()
            return _lend(entry[1])
        _OWN.inc()
        result = super().execute_operation(serially)
        if isinstance(result, Awaitable):
            result = asyncio.ensure_future(result)
        _results[key] = (self.root_value, result)
        return _lend(result)


def _lend(result: Any) -> Any:
    """The shared result; an awaited one through a fresh awaitable per subscriber (a
    cancelled subscriber must not cancel the others' execution)."""
    if isinstance(result, asyncio.Future):
        return asyncio.shield(result)
    return result
