"""Check specs as stored on a comparison (`{"kind": "CONTAINS"}`, …), validated at creation.

Every failure is VALIDATION_FAILED naming the field (`checks[1].schema.properties`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from enum import StrEnum
from typing import Any

from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from jsonschema.exceptions import SchemaError  # type: ignore[import-untyped]
from jsonschema.validators import validator_for  # type: ignore[import-untyped]

from server.errors import ValidationFailed


class CheckKind(StrEnum):
    EXACT_MATCH = "EXACT_MATCH"
    CONTAINS = "CONTAINS"
    JSON_SCHEMA = "JSON_SCHEMA"
    TOOL_CALL = "TOOL_CALL"
    JUDGE_RUBRIC = "JUDGE_RUBRIC"
    TOOL_CALLED = "TOOL_CALLED"
    TOOL_ORDER = "TOOL_ORDER"
    NO_TOOL = "NO_TOOL"
    MAX_STEPS = "MAX_STEPS"
    MAX_LLM_CALLS = "MAX_LLM_CALLS"


FIELDS: dict[CheckKind, tuple[str, ...]] = {
    CheckKind.EXACT_MATCH: (),
    CheckKind.CONTAINS: (),
    CheckKind.JSON_SCHEMA: ("schema",),
    CheckKind.TOOL_CALL: ("toolName",),
    CheckKind.JUDGE_RUBRIC: ("rubricVersionId", "judgeModelConfigVersionId"),
    CheckKind.TOOL_CALLED: ("toolName",),
    CheckKind.TOOL_ORDER: ("toolNames",),
    CheckKind.NO_TOOL: ("toolName",),
    CheckKind.MAX_STEPS: ("n",),
    CheckKind.MAX_LLM_CALLS: ("n",),
}
"""Each kind's required fields besides `kind`."""
OPTIONAL_FIELDS: dict[CheckKind, tuple[str, ...]] = {CheckKind.TOOL_CALLED: ("argumentsMatch",)}
"""Each kind's fields that may be left out."""
TRAJECTORY_KINDS = frozenset(
    {
        CheckKind.TOOL_CALLED,
        CheckKind.TOOL_ORDER,
        CheckKind.NO_TOOL,
        CheckKind.MAX_STEPS,
        CheckKind.MAX_LLM_CALLS,
    }
)
"""The checks that read the trial's trajectory (docs/domain.md, "Checks"), not its output."""


def judge_key(spec: Mapping[str, Any]) -> tuple[str, str]:
    """A JUDGE_RUBRIC check's (rubric version id, judge model config version id)."""
    return (str(spec["rubricVersionId"]), str(spec["judgeModelConfigVersionId"]))


def calls_per_trial(checks: Sequence[Mapping[str, Any]]) -> int:
    """The model call plus one judge call per JUDGE_RUBRIC check."""
    return 1 + sum(1 for spec in checks if spec.get("kind") == CheckKind.JUDGE_RUBRIC)


DEFAULT_CHECKS: tuple[dict[str, Any], ...] = ({"kind": CheckKind.CONTAINS.value},)
MAX_CHECKS = 10
MAX_SCHEMA_CHARS = 100_000
MAX_ID_LENGTH = 40
TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
"""The OpenAI tools format's function-name rule."""
MAX_TRAJECTORY_TOOL_NAME = 200
"""A traced tool's name (a TOOL step's `toolName`) is any text up to this length."""
MAX_TOOL_ORDER = 50
MAX_COUNT_LIMIT = 100_000
MAX_ARGUMENTS_MATCH_CHARS = 10_000


def _fail(path: str, problem: str) -> ValidationFailed:
    return ValidationFailed(f"`{path}` {problem}", field=path)


def _json_path(parts: Any) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts)


def _refs(node: Any, path: str) -> Iterator[tuple[str, str]]:
    """Every string `$ref` in a schema, with its path."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield f"{path}.$ref", value
            else:
                yield from _refs(value, f"{path}.{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _refs(value, f"{path}[{index}]")


def _check_schema(schema: Any, path: str) -> dict[str, Any]:
    if not isinstance(schema, dict):
        raise _fail(path, "must be a JSON Schema object")
    if len(json.dumps(schema, default=str)) > MAX_SCHEMA_CHARS:
        raise _fail(path, f"must be at most {MAX_SCHEMA_CHARS} characters of JSON")
    if "$schema" in schema and (
        not isinstance(schema["$schema"], str) or validator_for(schema, default=None) is None
    ):
        raise _fail(f"{path}.$schema", "is not a JSON Schema draft this service knows")
    cls = validator_for(schema, default=Draft202012Validator)
    try:
        cls.check_schema(schema)
    except SchemaError as exc:
        raise _fail(
            path + _json_path(exc.absolute_path), f"is not valid JSON Schema: {exc.message}"
        ) from None
    except RecursionError:
        raise _fail(path, "is nested too deeply") from None
    for ref_path, ref in _refs(schema, path):
        # Only references inside the schema: fetching a URL would let a schema reach the network.
        if not ref.startswith("#"):
            raise _fail(ref_path, "may only point inside the schema (`#/…`)")
    return schema


def _text(value: Any, path: str, *, max_length: int) -> str:
    if not isinstance(value, str) or not value.strip() or len(value) > max_length:
        raise _fail(path, f"must be a non-empty string of at most {max_length} characters")
    return value


OtherKinds = Mapping[str, Callable[[dict[str, Any], str], dict[str, Any]]]
"""Kinds a caller takes besides CheckKind, each with its validator (spec, field) → spec: the
live comparisons' FEEDBACK (server/live/feedback_checks.py)."""


def validate_check_spec(
    spec: Any, *, field: str = "checks[0]", also: OtherKinds | None = None
) -> dict[str, Any]:
    """One check spec, checked against its kind's shape; returns it unchanged."""
    if not isinstance(spec, dict):
        raise _fail(field, "must be an object with a `kind`")
    named = spec.get("kind")
    if also and isinstance(named, str) and named in also:
        return also[named](spec, field)
    kind = _kind(spec, field, also)
    _check_fields(kind, spec, field)
    if kind == CheckKind.JSON_SCHEMA:
        _check_schema(spec["schema"], f"{field}.schema")
    elif kind == CheckKind.TOOL_CALL:
        name = spec["toolName"]
        if not isinstance(name, str) or not TOOL_NAME.match(name):
            raise _fail(f"{field}.toolName", "must be 1 to 64 letters, digits, `_` or `-`")
    elif kind == CheckKind.JUDGE_RUBRIC:
        for key in FIELDS[kind]:
            _text(spec[key], f"{field}.{key}", max_length=MAX_ID_LENGTH)
    elif kind in TRAJECTORY_KINDS:
        _check_trajectory_options(kind, spec, field)
    return spec


def _kind(spec: dict[str, Any], field: str, also: OtherKinds | None) -> CheckKind:
    try:
        return CheckKind(str(spec.get("kind")))
    except (ValueError, TypeError):
        kinds = ", ".join([*(k.value for k in CheckKind), *(also or ())])
        raise _fail(f"{field}.kind", f"must be one of {kinds}") from None


def _check_fields(kind: CheckKind, spec: dict[str, Any], field: str) -> None:
    """No field the kind does not know, and every one it requires."""
    allowed = {"kind", *FIELDS[kind], *OPTIONAL_FIELDS.get(kind, ())}
    for key in spec:
        if key not in allowed:
            raise _fail(f"{field}.{key}", f"is not a field of a {kind.value} check")
    for key in FIELDS[kind]:
        if key not in spec:
            raise _fail(f"{field}.{key}", f"is required by a {kind.value} check")


def _check_trajectory_options(kind: CheckKind, spec: dict[str, Any], field: str) -> None:
    if kind in (CheckKind.TOOL_CALLED, CheckKind.NO_TOOL):
        _text(spec["toolName"], f"{field}.toolName", max_length=MAX_TRAJECTORY_TOOL_NAME)
    if kind == CheckKind.TOOL_CALLED and spec.get("argumentsMatch") is not None:
        match = spec["argumentsMatch"]
        if not isinstance(match, dict) or not match:
            raise _fail(f"{field}.argumentsMatch", "must be a non-empty object of argument values")
        if len(json.dumps(match, default=str)) > MAX_ARGUMENTS_MATCH_CHARS:
            raise _fail(
                f"{field}.argumentsMatch",
                f"must be at most {MAX_ARGUMENTS_MATCH_CHARS:,} characters of JSON",
            )
    elif kind == CheckKind.TOOL_ORDER:
        names = spec["toolNames"]
        if not isinstance(names, list) or not 1 <= len(names) <= MAX_TOOL_ORDER:
            raise _fail(f"{field}.toolNames", f"must be a list of 1 to {MAX_TOOL_ORDER} tool names")
        for index, name in enumerate(names):
            _text(name, f"{field}.toolNames[{index}]", max_length=MAX_TRAJECTORY_TOOL_NAME)
    elif kind in (CheckKind.MAX_STEPS, CheckKind.MAX_LLM_CALLS):
        n = spec["n"]
        if type(n) is not int or not 0 <= n <= MAX_COUNT_LIMIT:
            raise _fail(f"{field}.n", f"must be a whole number from 0 to {MAX_COUNT_LIMIT:,}")


def validate_check_specs(
    specs: Any, *, field: str = "checks", also: OtherKinds | None = None
) -> list[dict[str, Any]]:
    """A comparison's checks: 1 to MAX_CHECKS specs, each valid."""
    if not isinstance(specs, list) or not 1 <= len(specs) <= MAX_CHECKS:
        raise _fail(field, f"must be a list of 1 to {MAX_CHECKS} checks")
    return [validate_check_spec(s, field=f"{field}[{i}]", also=also) for i, s in enumerate(specs)]
