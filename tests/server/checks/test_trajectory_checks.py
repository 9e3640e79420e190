"""The trajectory checks (docs/domain.md, "Checks") passing and failing on a traced agent's
steps, a hosted comparison's one model call and a trial with only `toolCalls`; their
options validated."""

from __future__ import annotations

from typing import Any

import pytest

from server.checks import CheckKind, CheckReason, run_check, validate_check_spec
from server.errors import ValidationFailed
from server.trajectories.hosted import one_call


def llm(*calls: dict[str, Any], content: str | None = None) -> dict[str, Any]:
    return {
        "kind": "LLM",
        "name": "chat",
        "outputMessages": [{"role": "assistant", "content": content, "toolCalls": list(calls)}],
    }


def tool(name: str, arguments: Any = None, call_id: str | None = None) -> dict[str, Any]:
    return {
        "kind": "TOOL",
        "name": f"execute_tool {name}",
        "toolName": name,
        "arguments": arguments,
        "toolCallId": call_id,
    }


AGENT: list[dict[str, Any]] = [
    {"kind": "AGENT", "name": "support-bot"},
    llm({"id": "c1", "name": "lookup_order", "arguments": '{"order": "A-7", "verbose": true}'}),
    tool("lookup_order", {"order": "A-7", "verbose": True}, "c1"),
    llm({"id": "c2", "name": "refund", "arguments": {"order": "A-7", "amount": 12.5}}),
    tool("refund", {"order": "A-7", "amount": 12.5, "meta": {"by": "bot", "n": 1}}, "c2"),
    llm(content="Refunded."),
]


def check(spec: dict[str, Any], steps: list[dict[str, Any]] | None, flat: Any = ()) -> Any:
    validate_check_spec(spec)
    return run_check(spec, "Refunded.", list(flat), None, steps)


@pytest.mark.parametrize(
    ("spec", "reason"),
    [
        ({"kind": "TOOL_CALLED", "toolName": "refund"}, None),
        ({"kind": "TOOL_CALLED", "toolName": "refund", "argumentsMatch": {"amount": 12.5}}, None),
        (
            {
                "kind": "TOOL_CALLED",
                "toolName": "refund",
                "argumentsMatch": {"meta": {"by": "bot"}},
            },
            None,
        ),
        (
            {"kind": "TOOL_CALLED", "toolName": "refund", "argumentsMatch": {"amount": 13}},
            CheckReason.ARGUMENTS_MISMATCH,
        ),
        (
            {"kind": "TOOL_CALLED", "toolName": "refund", "argumentsMatch": {"meta": {"n": True}}},
            CheckReason.ARGUMENTS_MISMATCH,
        ),
        ({"kind": "TOOL_CALLED", "toolName": "delete_account"}, CheckReason.TOOL_NOT_CALLED),
        ({"kind": "TOOL_ORDER", "toolNames": ["lookup_order", "refund"]}, None),
        ({"kind": "TOOL_ORDER", "toolNames": ["refund"]}, None),
        ({"kind": "TOOL_ORDER", "toolNames": ["refund", "lookup_order"]}, CheckReason.OUT_OF_ORDER),
        ({"kind": "TOOL_ORDER", "toolNames": ["refund", "refund"]}, CheckReason.OUT_OF_ORDER),
        ({"kind": "NO_TOOL", "toolName": "delete_account"}, None),
        ({"kind": "NO_TOOL", "toolName": "refund"}, CheckReason.TOOL_CALLED),
        ({"kind": "MAX_STEPS", "n": 6}, None),
        ({"kind": "MAX_STEPS", "n": 5}, CheckReason.TOO_MANY_STEPS),
        ({"kind": "MAX_LLM_CALLS", "n": 3}, None),
        ({"kind": "MAX_LLM_CALLS", "n": 2}, CheckReason.TOO_MANY_LLM_CALLS),
    ],
)
def test_a_traced_agent(spec: dict[str, Any], reason: CheckReason | None) -> None:
    result = check(spec, AGENT)
    assert (result.kind, result.passed, result.reason) == (
        CheckKind(spec["kind"]),
        reason is None,
        reason,
    )
    assert result.score == (1.0 if reason is None else 0.0)


def test_a_call_answered_by_a_tool_step_counts_once() -> None:
    # Asked for twice (the same name, no ids), run once: two calls, the second never run.
    steps = [llm({"name": "search"}), tool("search"), llm({"name": "search"})]
    assert check({"kind": "TOOL_ORDER", "toolNames": ["search", "search"]}, steps).passed
    assert not check({"kind": "TOOL_ORDER", "toolNames": ["search"] * 3}, steps).passed


def test_steps_with_times_are_read_in_start_order() -> None:
    first = {**tool("lookup_order"), "startedAt": "2026-01-01T00:00:01Z"}
    second = {**tool("refund"), "startedAt": "2026-01-01T00:00:02Z"}
    order = {"kind": "TOOL_ORDER", "toolNames": ["lookup_order", "refund"]}
    assert check(order, [second, first]).passed
    assert not check(order, [{**second, "startedAt": None}, first]).passed  # as given


def test_a_hosted_comparisons_one_model_call() -> None:
    steps = one_call(
        model="m",
        output="",
        tool_calls=[{"name": "refund", "arguments": {"order": "A-7"}}],
        input_tokens=10,
        output_tokens=3,
        latency_ms=5,
    )
    assert check(
        {"kind": "TOOL_CALLED", "toolName": "refund", "argumentsMatch": {"order": "A-7"}}, steps
    ).passed
    assert check({"kind": "MAX_LLM_CALLS", "n": 1}, steps).passed
    assert check({"kind": "MAX_STEPS", "n": 0}, steps).reason == CheckReason.TOO_MANY_STEPS
    assert check({"kind": "NO_TOOL", "toolName": "refund"}, steps).reason == CheckReason.TOOL_CALLED


def test_without_a_trajectory_the_tool_checks_read_tool_calls() -> None:
    flat = [{"name": "lookup_order", "arguments": {"order": "A-7"}}, {"name": "refund"}]
    assert check({"kind": "TOOL_ORDER", "toolNames": ["lookup_order", "refund"]}, None, flat).passed
    assert check(
        {"kind": "TOOL_CALLED", "toolName": "lookup_order", "argumentsMatch": {"order": "A-7"}},
        None,
        flat,
    ).passed
    assert not check({"kind": "NO_TOOL", "toolName": "refund"}, None, flat).passed
    for kind in ("MAX_STEPS", "MAX_LLM_CALLS"):
        assert check({"kind": kind, "n": 10}, None, flat).reason == CheckReason.TRAJECTORY_MISSING


def test_no_output_fails_a_trajectory_check_too() -> None:
    result = run_check({"kind": "MAX_STEPS", "n": 10}, None, [], None, AGENT)
    assert result.reason == CheckReason.OUTPUT_MISSING


@pytest.mark.parametrize(
    "spec",
    [
        {"kind": "TOOL_CALLED", "toolName": "web.search v2"},
        {"kind": "TOOL_CALLED", "toolName": "refund", "argumentsMatch": {"order": "A-7"}},
        {"kind": "TOOL_ORDER", "toolNames": ["a", "b", "a"]},
        {"kind": "NO_TOOL", "toolName": "delete_account"},
        {"kind": "MAX_STEPS", "n": 0},
        {"kind": "MAX_LLM_CALLS", "n": 100_000},
    ],
)
def test_valid_trajectory_specs(spec: dict[str, Any]) -> None:
    assert validate_check_spec(spec) is spec


@pytest.mark.parametrize(
    ("spec", "field"),
    [
        ({"kind": "TOOL_CALLED"}, "checks[0].toolName"),
        ({"kind": "TOOL_CALLED", "toolName": " "}, "checks[0].toolName"),
        ({"kind": "TOOL_CALLED", "toolName": "x" * 201}, "checks[0].toolName"),
        (
            {"kind": "TOOL_CALLED", "toolName": "a", "argumentsMatch": "order"},
            "checks[0].argumentsMatch",
        ),
        (
            {"kind": "TOOL_CALLED", "toolName": "a", "argumentsMatch": {}},
            "checks[0].argumentsMatch",
        ),
        ({"kind": "TOOL_CALLED", "toolName": "a", "arguments": {}}, "checks[0].arguments"),
        ({"kind": "TOOL_ORDER"}, "checks[0].toolNames"),
        ({"kind": "TOOL_ORDER", "toolNames": []}, "checks[0].toolNames"),
        ({"kind": "TOOL_ORDER", "toolNames": "a,b"}, "checks[0].toolNames"),
        ({"kind": "TOOL_ORDER", "toolNames": ["a", 3]}, "checks[0].toolNames[1]"),
        ({"kind": "TOOL_ORDER", "toolNames": ["a"] * 51}, "checks[0].toolNames"),
        ({"kind": "NO_TOOL", "toolName": None}, "checks[0].toolName"),
        (
            {"kind": "NO_TOOL", "toolName": "a", "argumentsMatch": {"a": 1}},
            "checks[0].argumentsMatch",
        ),
        ({"kind": "MAX_STEPS"}, "checks[0].n"),
        ({"kind": "MAX_STEPS", "n": -1}, "checks[0].n"),
        ({"kind": "MAX_STEPS", "n": 2.5}, "checks[0].n"),
        ({"kind": "MAX_STEPS", "n": True}, "checks[0].n"),
        ({"kind": "MAX_LLM_CALLS", "n": "3"}, "checks[0].n"),
        ({"kind": "MAX_LLM_CALLS", "n": 100_001}, "checks[0].n"),
    ],
)
def test_invalid_trajectory_specs_name_the_field(spec: Any, field: str) -> None:
    with pytest.raises(ValidationFailed) as failure:
        validate_check_spec(spec)
    assert failure.value.extensions["field"] == field
