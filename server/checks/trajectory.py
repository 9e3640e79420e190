"""The trajectory checks (docs/domain.md, "Checks"): what an agent did, read from the trial's
trajectory (`server.trajectories`). Without a trajectory the tool checks read the trial's flat
`toolCalls`, and the step counts cannot be told (`trajectory_missing`).

`TOOL_CALLED {toolName, argumentsMatch?}`: a call of the tool whose arguments hold these
keys with these values (an object value is matched the same way, key by key);
`TOOL_ORDER {toolNames}`: calls of these tools in this order, others may come between;
`NO_TOOL {toolName}`; `MAX_STEPS {n}`; `MAX_LLM_CALLS {n}`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from server.checks.results import CheckReason, CheckResult, failed, passed
from server.checks.spec import CheckKind
from server.trajectories.reading import llm_calls, tool_calls

Steps = Sequence[Mapping[str, Any]]
TrajectoryCheck = Callable[
    [Mapping[str, Any], Sequence[Mapping[str, Any]], Steps | None], CheckResult
]


def _calls(flat: Sequence[Mapping[str, Any]], steps: Steps | None) -> Sequence[Mapping[str, Any]]:
    return flat if steps is None else tool_calls(steps)


def _arguments(value: Any) -> Any:
    """A JSON text of arguments (as models write them) parsed; anything else as is."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except (ValueError, RecursionError):
            return value
    return value


def holds(value: Any, wanted: Any) -> bool:
    """`value` has every key of `wanted` with a value that holds it; other values are equal
    (1 and 1.0 are, true and 1 are not)."""
    if isinstance(wanted, dict):
        return isinstance(value, dict) and all(
            key in value and holds(value[key], want) for key, want in wanted.items()
        )
    return isinstance(value, bool) == isinstance(wanted, bool) and bool(value == wanted)


def tool_called(
    spec: Mapping[str, Any], flat: Sequence[Mapping[str, Any]], steps: Steps | None
) -> CheckResult:
    kind = CheckKind.TOOL_CALLED
    named = [call for call in _calls(flat, steps) if call.get("name") == spec["toolName"]]
    if not named:
        return failed(kind, CheckReason.TOOL_NOT_CALLED)
    wanted = spec.get("argumentsMatch")
    if wanted is None or any(holds(_arguments(call.get("arguments")), wanted) for call in named):
        return passed(kind)
    return failed(kind, CheckReason.ARGUMENTS_MISMATCH)


def tool_order(
    spec: Mapping[str, Any], flat: Sequence[Mapping[str, Any]], steps: Steps | None
) -> CheckResult:
    kind = CheckKind.TOOL_ORDER
    wanted: list[str] = list(spec["toolNames"])
    made = iter(call.get("name") for call in _calls(flat, steps))
    # `in` on an iterator consumes it: each name must come after the one before.
    if all(name in made for name in wanted):
        return passed(kind)
    return failed(kind, CheckReason.OUT_OF_ORDER)


def no_tool(
    spec: Mapping[str, Any], flat: Sequence[Mapping[str, Any]], steps: Steps | None
) -> CheckResult:
    kind = CheckKind.NO_TOOL
    if any(call.get("name") == spec["toolName"] for call in _calls(flat, steps)):
        return failed(kind, CheckReason.TOOL_CALLED)
    return passed(kind)


def max_steps(
    spec: Mapping[str, Any], _flat: Sequence[Mapping[str, Any]], steps: Steps | None
) -> CheckResult:
    kind = CheckKind.MAX_STEPS
    if steps is None:
        return failed(kind, CheckReason.TRAJECTORY_MISSING)
    return passed(kind) if len(steps) <= spec["n"] else failed(kind, CheckReason.TOO_MANY_STEPS)


def max_llm_calls(
    spec: Mapping[str, Any], _flat: Sequence[Mapping[str, Any]], steps: Steps | None
) -> CheckResult:
    kind = CheckKind.MAX_LLM_CALLS
    if steps is None:
        return failed(kind, CheckReason.TRAJECTORY_MISSING)
    if llm_calls(steps) <= spec["n"]:
        return passed(kind)
    return failed(kind, CheckReason.TOO_MANY_LLM_CALLS)


TRAJECTORY_CHECKS: Mapping[CheckKind, TrajectoryCheck] = {
    CheckKind.TOOL_CALLED: tool_called,
    CheckKind.TOOL_ORDER: tool_order,
    CheckKind.NO_TOOL: no_tool,
    CheckKind.MAX_STEPS: max_steps,
    CheckKind.MAX_LLM_CALLS: max_llm_calls,
}
