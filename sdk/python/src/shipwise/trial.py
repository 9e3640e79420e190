"""One task call turned into a trial: its output, metrics, tool calls, trajectory and local
scores.

A task may answer `{"output", "metrics"?, "toolCalls"?, "trajectory"?, "traceId"?}`: the
trajectory is the steps it took (`{kind, name, startedAt?, durationMs?, …}`, as the
server's docs/domain.md "Trajectories in runs" says), sent with the trial where the server
takes one; the server checks it, fills each metric it gives that the task did not, and its
trajectory checks read it.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import inspect
import json
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import Executor
from typing import Any

from shipwise.errors import TaskOutputError

Task = Callable[[Any], Any]
"""`def task(input) -> str | dict` or `async def task(input) -> str | dict`."""
Scorer = Callable[[Any, Any, Any], "float | bool"]
"""`scorer(input, output, expected) -> float | bool`; a bool also decides `passed`."""

log = logging.getLogger("shipwise")
MAX_ERROR_CHARS = 500
OUTPUT_FIELDS = frozenset({"output", "metrics", "toolCalls", "passed", "trajectory", "traceId"})


class ScorerFailed(Exception):
    """A scorer raised: the trial is failed with the scorer's error."""

    def __init__(self, name: str, error: Exception) -> None:
        super().__init__(f"scorer {name!r}: {error_text(error)}")
        self.error = error


def error_text(exc: BaseException) -> str:
    """`Type: message`, cut to MAX_ERROR_CHARS: never a traceback."""
    text = f"{type(exc).__name__}: {exc}".strip()
    return text if len(text) <= MAX_ERROR_CHARS else text[: MAX_ERROR_CHARS - 1] + "…"


def _shape(answer: object) -> dict[str, Any]:
    """The task's answer as `{"output", "metrics", "toolCalls", "passed"}`."""
    if isinstance(answer, str):
        return {"output": answer, "metrics": {}, "toolCalls": [], "passed": None,
                "trajectory": None, "traceId": None}  # fmt: skip
    if not isinstance(answer, Mapping):
        raise TaskOutputError(
            f"the task returned {type(answer).__name__}; it must return a str or a dict "
            '{"output": str, "metrics": {…}, "toolCalls": […]}',
            extensions={"field": "task"},
        )
    unknown = set(answer) - OUTPUT_FIELDS
    if unknown:
        raise TaskOutputError(
            f"the task's dict has unknown key {sorted(unknown)[0]!r} "
            f"(allowed: {', '.join(sorted(OUTPUT_FIELDS))})",
            extensions={"field": "task"},
        )
    if "output" not in answer:
        raise TaskOutputError('the task\'s dict needs an "output"', extensions={"field": "task"})
    metrics = answer.get("metrics") or {}
    calls = answer.get("toolCalls") or []
    passed = answer.get("passed")
    if not isinstance(metrics, Mapping) or not isinstance(calls, list):
        raise TaskOutputError(
            '"metrics" must be a dict and "toolCalls" a list', extensions={"field": "task"}
        )
    if passed is not None and not isinstance(passed, bool):
        raise TaskOutputError('"passed" must be true, false or None', extensions={"field": "task"})
    steps = answer.get("trajectory")
    trace_id = answer.get("traceId")
    if steps is not None and not isinstance(steps, list):
        raise TaskOutputError('"trajectory" must be a list of steps', extensions={"field": "task"})
    if trace_id is not None and not isinstance(trace_id, str):
        raise TaskOutputError('"traceId" must be a string', extensions={"field": "task"})
    return {"output": answer["output"], "metrics": dict(metrics), "toolCalls": calls,
            "passed": passed, "trajectory": steps, "traceId": trace_id}  # fmt: skip


async def call(task: Task, value: Any, executor: Executor) -> tuple[Any, float]:
    """The task's answer and its wall time in ms; a sync task runs on `executor`, in a copy
    of this context (its spans are this trial's: `shipwise.tracing`)."""
    started = time.perf_counter()
    if inspect.iscoroutinefunction(task):
        answer = await task(value)
    else:
        loop = asyncio.get_running_loop()
        in_context = functools.partial(contextvars.copy_context().run, task, value)
        answer = await loop.run_in_executor(executor, in_context)
        if inspect.isawaitable(answer):
            answer = await _awaited(answer)
    return answer, (time.perf_counter() - started) * 1000


async def _awaited(answer: Awaitable[Any]) -> Any:
    return await answer


def build(
    answer: object,
    wall_ms: float,
    case: Mapping[str, Any],
    scorers: Mapping[str, Scorer],
    *,
    graded_by_server: bool,
    send_tool_calls: bool,
    send_trajectory: bool = False,
) -> dict[str, Any]:
    """The trial as the server stores it; TaskOutputError for an answer of the wrong type.

    With a trajectory sent, `errors` is left to the server (it counts the failed steps)."""
    shaped = _shape(answer)
    trial: dict[str, Any] = {
        "output": shaped["output"],
        "metrics": _metrics(shaped, wall_ms, traced=send_trajectory and bool(shaped["trajectory"])),
    }
    if send_tool_calls and shaped["toolCalls"]:
        trial["toolCalls"] = shaped["toolCalls"]
    if send_trajectory:
        trial.update(_traced(shaped))
    evaluators: dict[str, float] = {}
    verdicts: list[bool] = []
    for name, scorer in scorers.items():
        try:
            score = scorer(case.get("input"), shaped["output"], case.get("expected"))
        except Exception as exc:  # the user's scorer: this trial fails, the evaluation goes on
            raise ScorerFailed(name, exc) from exc
        if isinstance(score, bool):
            verdicts.append(score)
        elif not isinstance(score, int | float):
            raise TaskOutputError(
                f"scorer {name!r} returned {type(score).__name__}; it must return a number "
                "or a bool",
                extensions={"field": "scorers"},
            )
        evaluators[name] = float(score)
    if evaluators:
        trial["evaluators"] = evaluators
    try:
        json.dumps(trial, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise TaskOutputError(
            f"the task's answer is not JSON ({exc}); return text, numbers, lists and dicts",
            extensions={"field": "task"},
        ) from None
    if not graded_by_server:
        passed = shaped["passed"]
        if passed is None and verdicts:
            passed = all(verdicts)
        if passed is not None:
            trial["passed"] = passed
    return trial


def traced(answer: object, steps: list[dict[str, Any]]) -> object:
    """The answer with the spans recorded during its call as its trajectory, unless it has
    one (or none were recorded)."""
    if not steps:
        return answer
    if isinstance(answer, str):
        return {"output": answer, "trajectory": steps}
    if isinstance(answer, Mapping) and answer.get("trajectory") is None:
        return {**answer, "trajectory": steps}
    return answer


def _metrics(shaped: Mapping[str, Any], wall_ms: float, *, traced: bool) -> dict[str, Any]:
    """The task's metrics, the wall time measured here, and `errors` 0 unless the trajectory
    sent will count them."""
    metrics: dict[str, Any] = {**shaped["metrics"], "wallMs": round(wall_ms, 3)}
    if not traced:
        metrics["errors"] = 0
    if shaped["toolCalls"]:
        metrics.setdefault("toolCalls", len(shaped["toolCalls"]))
    return metrics


def _traced(shaped: Mapping[str, Any]) -> dict[str, Any]:
    """The trial's `trajectory` and `traceId`, those the task gave."""
    return {key: shaped[key] for key in ("trajectory", "traceId") if shaped[key] not in (None, [])}


def failed(exc: BaseException, wall_ms: float, *, graded_by_server: bool = False) -> dict[str, Any]:
    """A call that raised: a failed trial with a bounded error text, never a traceback.

    Where the server grades the run, the trial goes without an output (the server leaves it
    ungraded: failed or missing, as a hosted trial without an answer) and the error text
    is logged here instead of being graded as if it were an answer.
    """
    text = str(exc)[:MAX_ERROR_CHARS] if isinstance(exc, ScorerFailed) else error_text(exc)
    metrics = {"wallMs": round(wall_ms, 3), "errors": 1}
    if graded_by_server:
        log.warning("shipwise: a failed trial: %s", text)
        return {"metrics": metrics}
    return {"passed": False, "output": {"error": text}, "metrics": metrics}
