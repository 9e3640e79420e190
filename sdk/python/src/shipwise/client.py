"""`shipwise.Client` and the module-level `evaluate` / `aevaluate`.

Each call is written once, as a coroutine on a transport (`shipwise.evaluation`); the
`Client` method opens the transport (`_on_transport`), the module-level function uses a
default `Client()` (`_on_default_client`) and the blocking twin runs it to completion on a
fresh event loop (`blocking`): one signature for all four, checked by mypy through the
ParamSpec.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import os
from collections.abc import Callable, Coroutine
from typing import Any, Concatenate, ParamSpec, TypeVar

from shipwise.errors import AuthError
from shipwise.evaluation import aevaluate as _aevaluate
from shipwise.evaluation import in_event_loop
from shipwise.transport import Transport

DEFAULT_URL = "http://127.0.0.1:8000"

P = ParamSpec("P")
R = TypeVar("R")

EVALUATE_DOC = """Run `task` on every case (× `trials`) of the dataset's latest sealed version (or
`version`) into a run of `experiment`, then diff and decide it against `baseline`.

`task(input)` (def or async def) returns a str or `{"output", "metrics", "toolCalls",
"passed"}`; an exception is a failed trial. `checks` are graded by the server; `scorers`
{name: (input, output, expected) -> float | bool} run here and are sent as evaluators (a
bool also decides `passed` when there are no checks). Run it again with the same
`idempotency_key` to resume an interrupted evaluation.
"""


def blocking(
    coroutine: Callable[P, Coroutine[Any, Any, R]], name: str, doc: str | None = None
) -> Callable[P, R]:
    """The blocking twin `name` of `coroutine`: refused inside a running event loop."""

    @functools.wraps(coroutine)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        if in_event_loop():
            raise RuntimeError(
                f"shipwise.{name}() blocks; inside an event loop use "
                f"`await shipwise.a{name}(...)`"
            )
        return asyncio.run(coroutine(*args, **kwargs))

    run.__name__ = run.__qualname__ = name
    if doc is not None:
        run.__doc__ = doc
    return run


def _on_transport(
    work: Callable[Concatenate[Transport, P], Coroutine[Any, Any, R]], doc: str
) -> Callable[Concatenate[Client, P], Coroutine[Any, Any, R]]:
    """A `Client` method: `work` on a transport the call opens and closes."""

    async def method(self: Client, /, *args: P.args, **kwargs: P.kwargs) -> R:
        async with self.transport() as transport:
            return await work(transport, *args, **kwargs)

    method.__name__ = method.__qualname__ = work.__name__
    method.__doc__ = doc
    shown = inspect.signature(work)
    self_ = inspect.Parameter("self", inspect.Parameter.POSITIONAL_ONLY)
    params = [self_, *list(shown.parameters.values())[1:]]
    setattr(method, "__signature__", shown.replace(parameters=params))  # for help()  # noqa: B010
    return method


def _on_default_client(
    method: Callable[Concatenate[Client, P], Coroutine[Any, Any, R]],
) -> Callable[P, Coroutine[Any, Any, R]]:
    """A module-level function: `method` of `Client()` (`SHIPWISE_URL`, `SHIPWISE_TOKEN`)."""

    async def function(*args: P.args, **kwargs: P.kwargs) -> R:
        return await method(Client(), *args, **kwargs)

    function.__name__ = function.__qualname__ = method.__name__
    function.__doc__ = method.__doc__
    shown = inspect.signature(method)
    params = list(shown.parameters.values())[1:]
    setattr(function, "__signature__", shown.replace(parameters=params))  # for help()  # noqa: B010
    return function


class Client:
    """A shipwise server and an API token (MEMBER or above to write runs).

    `url` defaults to `SHIPWISE_URL` (else http://127.0.0.1:8000), `token` to
    `SHIPWISE_TOKEN`.
    """

    def __init__(self, url: str | None = None, token: str | None = None, *, timeout: float = 60):
        self.url = (url or os.environ.get("SHIPWISE_URL") or DEFAULT_URL).rstrip("/")
        found = token or os.environ.get("SHIPWISE_TOKEN")
        if not found:
            raise AuthError("no API token: pass Client(token=…) or set SHIPWISE_TOKEN")
        self._token = found
        self.timeout = timeout

    def __repr__(self) -> str:
        return f"Client(url={self.url!r})"  # never the token

    def transport(self) -> Transport:
        return Transport(self.url, self._token, timeout=self.timeout)

    aevaluate = _on_transport(_aevaluate, "`evaluate` for code already inside an event loop.")
    evaluate = blocking(aevaluate, "evaluate", EVALUATE_DOC)


aevaluate = _on_default_client(Client.aevaluate)
evaluate = blocking(
    aevaluate,
    "evaluate",
    "`Client().evaluate(…)`: the server and token from `SHIPWISE_URL` and `SHIPWISE_TOKEN`.",
)
