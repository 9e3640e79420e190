"""Running a trial's checks on its output: one function per kind and a dispatch table.

A result's `reason` is a short bounded code (`CheckReason`), never output text. A trial
passes when every check passes; its score is the mean of the checks' scores.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from jsonschema.validators import validator_for  # type: ignore[import-untyped]
from referencing import Registry
from referencing.exceptions import Unresolvable

from server.checks.results import CheckReason, CheckResult, failed, passed
from server.checks.spec import TRAJECTORY_KINDS, CheckKind, judge_key
from server.checks.trajectory import TRAJECTORY_CHECKS

__all__ = ["CheckReason", "CheckResult", "run_check", "run_checks", "run_in_order"]


def expected_text(expected: Any) -> str | None:
    """The expected answer as text: a string as is, anything else as sorted-key JSON."""
    if expected is None:
        return None
    return expected if isinstance(expected, str) else json.dumps(expected, sort_keys=True)


_FENCED = re.compile(r"```(?:json)?[ \t]*\n?(.*?)```", re.DOTALL | re.IGNORECASE)


def parse_json_output(output: str) -> tuple[bool, Any]:
    """(parsed, value): the output as JSON, or the first ```json fenced block in it."""
    candidates = [output.strip()]
    fenced = _FENCED.search(output)
    if fenced:
        candidates.append(fenced.group(1).strip())
    for text in candidates:
        try:
            return True, json.loads(text)
        except (ValueError, RecursionError):
            continue
    return False, None


def _normalized(text: str) -> str:
    return " ".join(text.split()).casefold()


Check = Callable[[Mapping[str, Any], str, Sequence[Mapping[str, Any]], Any], CheckResult]


def exact_match(
    _spec: Mapping[str, Any], output: str, _calls: Sequence[Mapping[str, Any]], expected: Any
) -> CheckResult:
    """The stripped output equals the expected text (or, for a non-string, parses equal to it)."""
    kind = CheckKind.EXACT_MATCH
    want = expected_text(expected)
    if want is None:
        return failed(kind, CheckReason.EXPECTED_MISSING)
    if output.strip() == want:
        return passed(kind)
    if not isinstance(expected, str):
        parsed, value = parse_json_output(output)
        # JSON equality, not spacing: {"a":1} answers {"a": 1}. bool is not int here.
        if parsed and json.dumps(value, sort_keys=True) == want:
            return passed(kind)
    return failed(kind, CheckReason.MISMATCH)


def contains(
    _spec: Mapping[str, Any], output: str, _calls: Sequence[Mapping[str, Any]], expected: Any
) -> CheckResult:
    """The expected text appears in the output, ignoring case and runs of whitespace."""
    kind = CheckKind.CONTAINS
    want = expected_text(expected)
    if want is None or not want.strip():
        return failed(kind, CheckReason.EXPECTED_MISSING)
    if _normalized(want) in _normalized(output):
        return passed(kind)
    return failed(kind, CheckReason.NOT_CONTAINED)


_NO_REMOTE = Registry()
"""No `retrieve`: a `$ref` outside the schema is unresolvable instead of fetched."""


@lru_cache(maxsize=128)
def _validator(schema_json: str) -> Any:
    schema = json.loads(schema_json)
    cls = validator_for(schema, default=Draft202012Validator)
    return cls(schema, registry=_NO_REMOTE)


def json_schema(
    spec: Mapping[str, Any], output: str, _calls: Sequence[Mapping[str, Any]], _expected: Any
) -> CheckResult:
    """The output (or its fenced ```json block) is JSON that the schema accepts."""
    kind = CheckKind.JSON_SCHEMA
    parsed, value = parse_json_output(output)
    if not parsed:
        return failed(kind, CheckReason.OUTPUT_NOT_JSON)
    try:
        valid = _validator(json.dumps(spec["schema"], sort_keys=True)).is_valid(value)
    except (Unresolvable, RecursionError):
        return failed(kind, CheckReason.SCHEMA_UNUSABLE)
    return passed(kind) if valid else failed(kind, CheckReason.SCHEMA_MISMATCH)


def tool_call(
    spec: Mapping[str, Any], _output: str, calls: Sequence[Mapping[str, Any]], _expected: Any
) -> CheckResult:
    """A tool call named `toolName` was made."""
    kind = CheckKind.TOOL_CALL
    if any(call.get("name") == spec["toolName"] for call in calls):
        return passed(kind)
    return failed(kind, CheckReason.TOOL_NOT_CALLED)


CHECKS: Mapping[CheckKind, Check] = {
    CheckKind.EXACT_MATCH: exact_match,
    CheckKind.CONTAINS: contains,
    CheckKind.JSON_SCHEMA: json_schema,
    CheckKind.TOOL_CALL: tool_call,
}


Steps = Sequence[Mapping[str, Any]]
"""A trial's trajectory (`server.trajectories.steps`), or None without one."""


def run_check(
    spec: Mapping[str, Any],
    output: str | None,
    tool_calls: Sequence[Mapping[str, Any]],
    expected: Any,
    trajectory: Steps | None = None,
) -> CheckResult:
    """One check on one answer; JUDGE_RUBRIC is graded by a judge call, not here."""
    kind = CheckKind(spec["kind"])
    if output is None:
        if kind == CheckKind.JUDGE_RUBRIC:
            raise NotImplementedError(f"{kind.value} checks are graded by the judge")
        return failed(kind, CheckReason.OUTPUT_MISSING)
    if kind in TRAJECTORY_KINDS:
        return TRAJECTORY_CHECKS[kind](spec, tool_calls, trajectory)
    check = CHECKS.get(kind)
    if check is None:
        raise NotImplementedError(f"{kind.value} checks are graded by the judge")
    return check(spec, output, tool_calls, expected)


def run_checks(
    specs: Sequence[Mapping[str, Any]],
    output: str | None,
    tool_calls: Sequence[Mapping[str, Any]] | None,
    expected: Any,
    trajectory: Steps | None = None,
) -> tuple[bool, float, list[CheckResult]]:
    """(all passed, mean score, each result); no specs passes with score 1."""
    results = [run_check(spec, output, tool_calls or (), expected, trajectory) for spec in specs]
    if not results:
        return True, 1.0, []
    return (
        all(r.passed for r in results),
        sum(r.score for r in results) / len(results),
        results,
    )


def run_in_order(
    specs: Sequence[Mapping[str, Any]],
    output: str | None,
    tool_calls: Sequence[Mapping[str, Any]] | None,
    expected: Any,
    trajectory: Steps | None = None,
) -> tuple[list[CheckResult | None], dict[int, tuple[str, str]]]:
    """Each check's result in spec order, None in a JUDGE_RUBRIC check's place; and those
    places' judge keys (a judge call grades them: `server.judges.rubric_grade`)."""
    results: list[CheckResult | None] = []
    judged: dict[int, tuple[str, str]] = {}
    for index, spec in enumerate(specs):
        if spec.get("kind") != CheckKind.JUDGE_RUBRIC:
            results.append(run_check(spec, output, tool_calls or (), expected, trajectory))
        else:
            judged[index] = judge_key(spec)
            results.append(None)
    return results, judged
