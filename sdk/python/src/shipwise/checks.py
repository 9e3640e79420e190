"""The server's checks, by name and options: `checks=[shipwise.checks.contains()]`.

The server grades each trial's output with them, with the code its hosted comparisons
use; the SDK only names them. A name the server does not know is refused here, before
anything is sent.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from shipwise.errors import ValidationError

KINDS: dict[str, tuple[str, ...]] = {
    "EXACT_MATCH": (),
    "CONTAINS": (),
    "JSON_SCHEMA": ("schema",),
    "TOOL_CALL": ("toolName",),
    "JUDGE_RUBRIC": ("rubricVersionId", "judgeModelConfigVersionId"),
    "TOOL_CALLED": ("toolName",),
    "TOOL_ORDER": ("toolNames",),
    "NO_TOOL": ("toolName",),
    "MAX_STEPS": ("n",),
    "MAX_LLM_CALLS": ("n",),
}
"""Each check kind and the options it requires (as the server's `CheckKind`)."""


@dataclass(frozen=True)
class Check:
    """One check: a kind and its options, sent as `{"kind": …, **options}`."""

    kind: str
    options: Mapping[str, Any] = field(default_factory=dict)

    def spec(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.options}


def check(kind: str, **options: Any) -> Check:
    """A check by its name; ValidationError for an unknown name or a missing option."""
    name = kind.upper() if isinstance(kind, str) else kind
    if name not in KINDS:
        raise ValidationError(
            f"unknown check {kind!r} (known: {', '.join(KINDS)})",
            extensions={"field": "checks", "known": list(KINDS)},
        )
    missing = [option for option in KINDS[name] if option not in options]
    if missing:
        raise ValidationError(
            f"check {name} needs {', '.join(missing)}", extensions={"field": "checks"}
        )
    return Check(name, dict(options))


def exact_match() -> Check:
    """The stripped output equals the case's expected text."""
    return check("EXACT_MATCH")


def contains() -> Check:
    """The expected text appears in the output (case and runs of whitespace ignored)."""
    return check("CONTAINS")


def json_schema(schema: Mapping[str, Any]) -> Check:
    """The output is JSON that the schema accepts."""
    return check("JSON_SCHEMA", schema=dict(schema))


def tool_call(tool_name: str) -> Check:
    """The task's `toolCalls` include one named `tool_name`."""
    return check("TOOL_CALL", toolName=tool_name)


def judge_rubric(rubric_version_id: str, judge_model_config_version_id: str) -> Check:
    """A judge model grades the output on a rubric (through the workspace's connection)."""
    return check(
        "JUDGE_RUBRIC",
        rubricVersionId=rubric_version_id,
        judgeModelConfigVersionId=judge_model_config_version_id,
    )


def tool_called(tool_name: str, arguments_match: Mapping[str, Any] | None = None) -> Check:
    """The trajectory (else the `toolCalls`) holds a call of `tool_name`, with arguments
    holding these keys and values when `arguments_match` is given."""
    if arguments_match is None:
        return check("TOOL_CALLED", toolName=tool_name)
    return check("TOOL_CALLED", toolName=tool_name, argumentsMatch=dict(arguments_match))


def tool_order(*tool_names: str) -> Check:
    """Calls of these tools happen in this order; other calls may come between."""
    return check("TOOL_ORDER", toolNames=list(tool_names))


def no_tool(tool_name: str) -> Check:
    """No call of `tool_name`."""
    return check("NO_TOOL", toolName=tool_name)


def max_steps(n: int) -> Check:
    """The trajectory has at most `n` steps."""
    return check("MAX_STEPS", n=n)


def max_llm_calls(n: int) -> Check:
    """The trajectory makes at most `n` model calls."""
    return check("MAX_LLM_CALLS", n=n)


def specs(checks: Iterable[Check | str | Mapping[str, Any]] | None) -> list[dict[str, Any]]:
    """The checks as the server's JSON specs; names and dicts are checked like `check()`."""
    found: list[dict[str, Any]] = []
    for item in checks or ():
        if isinstance(item, Check):
            found.append(item.spec())
        elif isinstance(item, str):
            found.append(check(item).spec())
        elif isinstance(item, Mapping):
            options = {k: v for k, v in item.items() if k != "kind"}
            found.append(check(str(item.get("kind")), **options).spec())
        else:
            raise ValidationError(
                f"a check must be a shipwise.checks.Check, a name or a dict, not "
                f"{type(item).__name__}",
                extensions={"field": "checks"},
            )
    return found
