"""One output graded with a check list, JUDGE_RUBRIC checks by a judge call: the one code a
hosted comparison's trial (`server.dispatch.trials`) and an imported run's trial
(`server.judged_imports`) are graded with.

The plain checks run first (`server.checks.evaluate.run_in_order`: the results in the order
the checks were asked for, a gap for each JUDGE_RUBRIC check), then one judge call fills
each gap. A judge call that fails, or answers no structured grade, is an error code (the
trial failed or is missing), never a pass; what the calls made still cost is counted.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from server.assets.models import AssetVersion
from server.checks.evaluate import CheckResult, run_in_order
from server.checks.spec import CheckKind, judge_key
from server.connections.models import ModelConnection
from server.judges.rubric import judge_messages, parse_grade
from server.providers.base import CallResult, DispatchError, ModelCall
from server.providers.pricing import call_cost

Call = Callable[[ModelConnection, ModelCall], Awaitable[CallResult]]
"""Sends one model call within the connection's limits."""


@dataclass(frozen=True, slots=True)
class RubricJudge:
    """A JUDGE_RUBRIC check's rubric and judge model, resolved."""

    rubric: str
    scale: str
    connection: ModelConnection
    model: str
    temperature: float | None
    max_output_tokens: int
    params: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Case:
    """What the judge sees of the case besides the output, and how calls name it."""

    input: Any
    expected: Any
    case_key: str
    trial_header: str
    """`X-Shipwise-Trial` of the graded trial; its judge calls add `/judge`."""
    delivery_header: str


@dataclass(slots=True)
class Graded:
    """The checks' results in spec order, or the error code that left the trial ungraded."""

    results: list[CheckResult] | None = None
    error: DispatchError | None = None
    cost_micros: int = 0
    """What the judge calls cost."""
    judge_calls: int = 0
    by_connection: dict[str, tuple[int, int]] = field(default_factory=dict)
    """(calls, micro-dollars) per judge connection."""
    stopped: bool = False
    """A judge call was not made: a spend limit was reached."""

    @property
    def passed(self) -> bool | None:
        return None if self.results is None else all(c.passed for c in self.results)

    @property
    def score(self) -> float | None:
        if self.results is None:
            return None
        return sum(c.score for c in self.results) / len(self.results) if self.results else 1.0


async def grade_output(
    specs: list[dict[str, Any]],
    output: str,
    tool_calls: list[dict[str, Any]],
    case: Case,
    *,
    trajectory: list[dict[str, Any]] | None = None,
    judges: Mapping[tuple[str, str], RubricJudge],
    call: Call,
    may_call: Callable[[], bool] = lambda: True,
) -> Graded:
    """`output` graded with `specs` (the trajectory checks read `trajectory`: docs/domain.md);
    `may_call` is asked before each judge call (a spend cap): when it says no, the trial is
    left ungraded and `stopped`."""
    results, judged = run_in_order(specs, output, tool_calls, case.expected, trajectory)
    graded = Graded()
    for index, key in judged.items():
        if not may_call():
            graded.stopped = True
            return graded
        judge = judges[key]
        result, cost = await _judge(judge, case, output, call)
        graded.cost_micros += cost
        graded.judge_calls += 1
        connection_id = judge.connection.id
        calls, micros = graded.by_connection.get(connection_id, (0, 0))
        graded.by_connection[connection_id] = (calls + 1, micros + cost)
        if isinstance(result, DispatchError):
            graded.error = result
            return graded
        results[index] = result
    graded.results = [r for r in results if r is not None]  # every judge's place filled
    return graded


async def _judge(
    judge: RubricJudge, case: Case, output: str, call: Call
) -> tuple[CheckResult | DispatchError, int]:
    """(the rubric check's result or an error code, what the judge call cost)."""
    result = await call(
        judge.connection,
        ModelCall(
            messages=judge_messages(
                rubric=judge.rubric,
                scale=judge.scale,
                case_input=case.input,
                expected=case.expected,
                output=output,
            ),
            model=judge.model,
            max_output_tokens=judge.max_output_tokens,
            temperature=judge.temperature,
            params=judge.params,
            trial_header=f"{case.trial_header}/judge",
            delivery_header=case.delivery_header,
            case_key=case.case_key,
        ),
    )
    cost = call_cost(
        judge.connection, input_tokens=result.input_tokens, output_tokens=result.output_tokens
    )
    if result.error is not None:
        return result.error, cost
    grade = parse_grade(judge.scale, result.output)
    if grade is None:
        return DispatchError.JUDGE_GRADE_UNPARSEABLE, cost
    return CheckResult(CheckKind.JUDGE_RUBRIC, grade.passed, grade.score), cost


async def load_judges(
    session: AsyncSession, specs: list[dict[str, Any]]
) -> dict[tuple[str, str], RubricJudge]:
    """Each JUDGE_RUBRIC check's judge, by (rubric version, model config version); the ids
    were resolved in their workspace when the checks were named."""
    return {
        judge_key(spec): await _load(session, spec)
        for spec in specs
        if spec.get("kind") == CheckKind.JUDGE_RUBRIC
    }


async def _load(session: AsyncSession, spec: Mapping[str, Any]) -> RubricJudge:
    rubric_id, config_id = judge_key(spec)
    rubric = await session.get(AssetVersion, rubric_id)
    config = await session.get(AssetVersion, config_id)
    assert rubric is not None and config is not None
    connection = await session.get(ModelConnection, config.content["connectionId"])
    assert connection is not None
    return RubricJudge(
        rubric=str(rubric.content["text"]),
        scale=str(rubric.content["scale"]),
        connection=connection,
        model=str(config.content["model"]),
        temperature=config.content.get("temperature"),
        max_output_tokens=int(config.content["maxOutputTokens"]),
        params=dict(config.content.get("params") or {}),
    )
