"""`shipwise.Client` and the module-level `evaluate` / `aevaluate`.

Each call is written once, as a coroutine; its blocking twin is `blocking(coroutine)`: the
same signature (checked by mypy through the ParamSpec), run to completion on a fresh event
loop.
"""

from __future__ import annotations

import asyncio
import functools
import os
from collections.abc import Callable, Coroutine, Iterable, Mapping
from typing import Any, ParamSpec, TypeVar

from shipwise.errors import AuthError
from shipwise.evaluation import CheckLike, in_event_loop
from shipwise.evaluation import aevaluate as _aevaluate
from shipwise.policy import ShipPolicy
from shipwise.result import EvaluationResult
from shipwise.transport import Transport
from shipwise.trial import Scorer, Task

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
    coroutine: Callable[P, Coroutine[Any, Any, R]], doc: str | None = None
) -> Callable[P, R]:
    """The blocking twin of `coroutine`: refused inside a running event loop."""

    @functools.wraps(coroutine)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        if in_event_loop():
            name = coroutine.__name__.removeprefix("a")
            raise RuntimeError(
                f"shipwise.{name}() blocks; inside an event loop use "
                f"`await shipwise.a{name}(...)`"
            )
        return asyncio.run(coroutine(*args, **kwargs))

    run.__name__ = run.__qualname__ = coroutine.__name__.removeprefix("a")
    if doc is not None:
        run.__doc__ = doc
    return run


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

    async def aevaluate(
        self,
        task: Task,
        dataset: str,
        experiment: str,
        trials: int = 1,
        concurrency: int = 8,
        split: str | None = "DEV",
        sample: int | None = None,
        checks: Iterable[CheckLike] | None = None,
        scorers: Mapping[str, Scorer] | None = None,
        baseline: str | None = "previous",
        policy: ShipPolicy | None = None,
        *,
        version: str | None = None,
        sample_seed: int = 0,
        idempotency_key: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        progress: bool | None = None,
    ) -> EvaluationResult:
        """`evaluate` for code already inside an event loop."""
        async with self.transport() as transport:
            return await _aevaluate(
                task, transport, dataset=dataset, experiment=experiment, trials=trials,
                concurrency=concurrency, split=split, sample=sample, sample_seed=sample_seed,
                checks=checks, scorers=scorers, baseline=baseline, policy=policy,
                version=version, idempotency_key=idempotency_key, metadata=metadata,
                progress=progress,
            )  # fmt: skip

    evaluate = blocking(aevaluate, EVALUATE_DOC)


async def aevaluate(
    task: Task,
    dataset: str,
    experiment: str,
    trials: int = 1,
    concurrency: int = 8,
    split: str | None = "DEV",
    sample: int | None = None,
    checks: Iterable[CheckLike] | None = None,
    scorers: Mapping[str, Scorer] | None = None,
    baseline: str | None = "previous",
    policy: ShipPolicy | None = None,
    *,
    client: Client | None = None,
    **options: Any,
) -> EvaluationResult:
    """`evaluate` for code already inside an event loop."""
    return await (client or Client()).aevaluate(
        task, dataset, experiment, trials, concurrency, split, sample, checks, scorers,
        baseline, policy, **options,
    )  # fmt: skip


evaluate = blocking(
    aevaluate,
    "`Client().evaluate(…)`: the server and token from `SHIPWISE_URL` and `SHIPWISE_TOKEN`.",
)
