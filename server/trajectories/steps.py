"""The trajectory of a run trial (docs/domain.md, "Trajectories in runs"), checked without I/O.

A trajectory is a list of steps, each `{id?, kind, name, startedAt?, durationMs?, status?,
errorType?, provider?, model?, inputMessages?, outputMessages?, finishReasons?, inputTokens?,
outputTokens?, costCents?, toolName?, toolCallId?, arguments?, result?, parentId?}`, messages
`{role, content?, toolCalls? [{id?, name, arguments?}]}`. Every field but `kind` and `name`
may be absent or null. A trial may name the ingested trace it came from by `traceId` (32
hex digits). Errors are CaseError naming the field (`trials[0].trajectory[3].kind`).
"""

from __future__ import annotations

import json
import math
import re
from datetime import UTC, datetime
from typing import Any

from server.datasets.cases import CaseError, bad_text, check_json

STEP_KINDS = ("AGENT", "LLM", "TOOL", "RETRIEVAL", "OTHER")
STEP_STATUSES = ("OK", "ERROR")
MAX_STEPS = 1_000
MAX_TRAJECTORY_CHARS = 1_000_000
"""A trial's trajectory, as JSON."""
MAX_MESSAGES = 200
MAX_TOOL_CALLS_PER_MESSAGE = 100
MAX_FINISH_REASONS = 20
MAX_SHORT_TEXT = 200
MAX_NAME = 1_000
TRACE_ID = re.compile(r"^[0-9a-fA-F]{32}$")

STEP_FIELDS = frozenset(
    {
        "id",
        "kind",
        "name",
        "startedAt",
        "durationMs",
        "status",
        "errorType",
        "provider",
        "model",
        "inputMessages",
        "outputMessages",
        "finishReasons",
        "inputTokens",
        "outputTokens",
        "costCents",
        "toolName",
        "toolCallId",
        "arguments",
        "result",
        "parentId",
    }
)
SHORT_TEXT_FIELDS = ("id", "errorType", "provider", "model", "toolName", "toolCallId", "parentId")
MESSAGE_FIELDS = frozenset({"role", "content", "toolCalls"})
TOOL_CALL_FIELDS = frozenset({"id", "name", "arguments"})


def check_trace_id(value: object, where: str) -> None:
    if type(value) is not str or not TRACE_ID.match(value) or not value.strip("0"):
        raise CaseError("`traceId` must be a trace id of 32 hex digits, not all zero", where)


def check_trajectory(raw: object, where: str) -> None:
    """A trial's `trajectory`, or CaseError naming the first problem under `where`."""
    if type(raw) is not list or len(raw) > MAX_STEPS:
        raise CaseError(f"`trajectory` must be a list of at most {MAX_STEPS:,} steps", where)
    check_json(raw, where, 1)
    size = len(json.dumps(raw, ensure_ascii=False))
    if size > MAX_TRAJECTORY_CHARS:
        raise CaseError(
            f"`trajectory` has {size:,} characters of JSON; at most {MAX_TRAJECTORY_CHARS:,}",
            where,
        )
    for index, step in enumerate(raw):
        _check_step(step, f"{where}[{index}]")


def _check_step(step: object, where: str) -> None:
    if type(step) is not dict:
        raise CaseError("a step must be an object with a `kind` and a `name`", where)
    _known(step, STEP_FIELDS, where)
    if step.get("kind") not in STEP_KINDS:
        raise CaseError(f"`kind` must be one of {', '.join(STEP_KINDS)}", f"{where}.kind")
    _text(step.get("name"), f"{where}.name", MAX_NAME, required=True)
    status = step.get("status")
    if status is not None and status not in STEP_STATUSES:
        raise CaseError(f"`status` must be one of {', '.join(STEP_STATUSES)}", f"{where}.status")
    for key in SHORT_TEXT_FIELDS:
        _text(step.get(key), f"{where}.{key}", MAX_SHORT_TEXT)
    started = step.get("startedAt")
    if started is not None and started_at(started) is None:
        raise CaseError("`startedAt` must be an ISO 8601 date and time", f"{where}.startedAt")
    for key in ("durationMs", "costCents"):
        _number(step.get(key), f"{where}.{key}")
    for key in ("inputTokens", "outputTokens"):
        value = step.get(key)
        if value is not None and (type(value) is not int or value < 0):
            raise CaseError(f"`{key}` must be a whole number, 0 or more", f"{where}.{key}")
    for key in ("inputMessages", "outputMessages"):
        _messages(step.get(key), f"{where}.{key}")
    reasons = step.get("finishReasons")
    if reasons is not None:
        if type(reasons) is not list or len(reasons) > MAX_FINISH_REASONS:
            raise CaseError(
                f"`finishReasons` must be a list of at most {MAX_FINISH_REASONS} strings",
                f"{where}.finishReasons",
            )
        for reason in reasons:
            _text(reason, f"{where}.finishReasons", MAX_SHORT_TEXT, required=True)


def _known(value: dict[str, Any], fields: frozenset[str], where: str) -> None:
    if not value.keys() <= fields:
        name = sorted(value.keys() - fields)[0]
        raise CaseError(
            f"unknown field `{name}` (allowed: {', '.join(sorted(fields))})", f"{where}.{name}"
        )


def _text(value: object, where: str, limit: int, *, required: bool = False) -> None:
    if value is None and not required:
        return
    if type(value) is not str or not value or len(value) > limit:
        raise CaseError(f"must be a non-empty string of at most {limit:,} characters", where)
    if bad_text(value):
        raise CaseError("contains a NUL character or an unpaired surrogate", where)


def _number(value: object, where: str) -> None:
    if value is None:
        return
    finite = type(value) is int or (type(value) is float and math.isfinite(value))
    if not finite or value < 0:  # type: ignore[operator]
        raise CaseError("must be a number, 0 or more", where)


def _messages(messages: object, where: str) -> None:
    if messages is None:
        return
    if type(messages) is not list or len(messages) > MAX_MESSAGES:
        raise CaseError(f"must be a list of at most {MAX_MESSAGES} messages", where)
    for index, message in enumerate(messages):
        here = f"{where}[{index}]"
        if type(message) is not dict:
            raise CaseError("a message must be an object with a `role`", here)
        _known(message, MESSAGE_FIELDS, here)
        _text(message.get("role"), f"{here}.role", MAX_SHORT_TEXT, required=True)
        content = message.get("content")
        if content is not None and type(content) is not str:
            raise CaseError("`content` must be a string or null", f"{here}.content")
        _tool_calls(message.get("toolCalls"), f"{here}.toolCalls")


def _tool_calls(calls: object, where: str) -> None:
    if calls is None:
        return
    if type(calls) is not list or len(calls) > MAX_TOOL_CALLS_PER_MESSAGE:
        raise CaseError(f"must be a list of at most {MAX_TOOL_CALLS_PER_MESSAGE} tool calls", where)
    for index, call in enumerate(calls):
        here = f"{where}[{index}]"
        if type(call) is not dict:
            raise CaseError("a tool call must be an object with a `name`", here)
        _known(call, TOOL_CALL_FIELDS, here)
        _text(call.get("name"), f"{here}.name", MAX_SHORT_TEXT, required=True)
        _text(call.get("id"), f"{here}.id", MAX_SHORT_TEXT)


def started_at(value: object) -> datetime | None:
    """An ISO 8601 date and time (a `Z` suffix too), or None; without an offset it is UTC."""
    if type(value) is not str or len(value) > 64:
        return None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        return None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed
