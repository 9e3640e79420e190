"""Waiting on a condition: a test says what it waits for, never how long to sleep.

    rows = await eventually(lambda: rows_of(comparison_id), until=lambda r: len(r) == 3)
    eventually_blocking(lambda: port_open(port), timeout=30, what="the server")

The probe (sync or async) is polled until `until(answer)` holds (by default: the answer is
truthy), and that answer is returned; at the timeout the test fails naming what it waited
for and the last answer. A timeout is a bound
on a slow host, not a pause: a predicate that holds returns at once.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, overload

T = TypeVar("T")

POLL_SECONDS = 0.02
API_POLL_SECONDS = 0.2
"""For a probe that asks the API: a workspace's tokens are limited to 600 requests a minute,
so a wait polled every 0.02 s was refused RATE_LIMITED after 12 s (a 300-case comparison on
a loaded host). Five a second stay clear of the limit for any wait."""


def _truthy(answer: object) -> bool:
    return bool(answer)


@overload
async def eventually(
    probe: Callable[[], Awaitable[T]],
    *,
    until: Callable[[T], object] = ...,
    timeout: float = ...,
    what: str = ...,
    interval: float = ...,
) -> T: ...


@overload
async def eventually(
    probe: Callable[[], T],
    *,
    until: Callable[[T], object] = ...,
    timeout: float = ...,
    what: str = ...,
    interval: float = ...,
) -> T: ...


async def eventually(
    probe: Callable[[], Any],
    *,
    until: Callable[[Any], object] = _truthy,
    timeout: float = 30.0,
    what: str = "the condition",
    interval: float = POLL_SECONDS,
) -> Any:
    """The probe's first answer for which `until` holds, polled every `interval`."""
    deadline = time.monotonic() + timeout
    while True:
        answer = probe()
        if inspect.isawaitable(answer):
            answer = await answer
        if until(answer):
            return answer
        if time.monotonic() >= deadline:
            raise AssertionError(f"{what}: not within {timeout:g} s (last: {answer!r})")
        await asyncio.sleep(interval)


def eventually_blocking(
    probe: Callable[[], T],
    *,
    until: Callable[[T], object] = _truthy,
    timeout: float = 30.0,
    what: str = "the condition",
    interval: float = 0.05,
) -> T:
    """`eventually` for code without an event loop (threads, subprocesses)."""
    deadline = time.monotonic() + timeout
    while True:
        answer = probe()
        if until(answer):
            return answer
        if time.monotonic() >= deadline:
            raise AssertionError(f"{what}: not within {timeout:g} s (last: {answer!r})")
        time.sleep(interval)
