"""Each check kind passing and failing, and check specs validated at comparison creation."""

from __future__ import annotations

from typing import Any

import pytest

from server.checks import (
    CheckKind,
    CheckReason,
    CheckResult,
    run_check,
    run_checks,
    validate_check_spec,
    validate_check_specs,
)
from server.errors import ValidationFailed

EXACT = {"kind": "EXACT_MATCH"}
CONTAINS = {"kind": "CONTAINS"}
SCHEMA = {
    "kind": "JSON_SCHEMA",
    "schema": {
        "type": "object",
        "properties": {"answer": {"type": "integer"}},
        "required": ["answer"],
    },
}
TOOL = {"kind": "TOOL_CALL", "toolName": "search"}


@pytest.mark.parametrize(
    ("output", "expected", "passed", "reason"),
    [
        ("  Paris\n", "Paris", True, None),
        ("paris", "Paris", False, CheckReason.MISMATCH),
        ("Paris.", "Paris", False, CheckReason.MISMATCH),
        ("42", 42, True, None),
        ("true", True, True, None),
        ('{"b": 2, "a": 1}', {"a": 1, "b": 2}, True, None),
        ('{"a":1,"b":2}', {"a": 1, "b": 2}, True, None),  # JSON-equal, spaced differently
        ('{"a": 1}', {"a": 1, "b": 2}, False, CheckReason.MISMATCH),
        ("1", True, False, CheckReason.MISMATCH),
        ("anything", None, False, CheckReason.EXPECTED_MISSING),
    ],
)
def test_exact_match(output: str, expected: Any, passed: bool, reason: CheckReason | None) -> None:
    result = run_check(EXACT, output, [], expected)
    assert result == CheckResult(CheckKind.EXACT_MATCH, passed, 1.0 if passed else 0.0, reason)


@pytest.mark.parametrize(
    ("output", "expected", "passed", "reason"),
    [
        ("The capital is Paris.", "paris", True, None),
        ("New   York\ncity", "new york", True, None),
        ("The answer is 42", 42, True, None),
        ("London", "Paris", False, CheckReason.NOT_CONTAINED),
        ("text", None, False, CheckReason.EXPECTED_MISSING),
        ("text", "   ", False, CheckReason.EXPECTED_MISSING),
    ],
)
def test_contains(output: str, expected: Any, passed: bool, reason: CheckReason | None) -> None:
    result = run_check(CONTAINS, output, [], expected)
    assert (result.passed, result.reason) == (passed, reason)


@pytest.mark.parametrize(
    ("output", "passed", "reason"),
    [
        ('{"answer": 4}', True, None),
        ('Sure:\n```json\n{"answer": 4}\n```\nDone.', True, None),
        ('```\n{"answer": 4}\n```', True, None),
        ('{"answer": "four"}', False, CheckReason.SCHEMA_MISMATCH),
        ("{}", False, CheckReason.SCHEMA_MISMATCH),
        ("not json", False, CheckReason.OUTPUT_NOT_JSON),
        ('```json\n{"answer": \n```', False, CheckReason.OUTPUT_NOT_JSON),
        ("", False, CheckReason.OUTPUT_NOT_JSON),
    ],
)
def test_json_schema(output: str, passed: bool, reason: CheckReason | None) -> None:
    result = run_check(SCHEMA, output, [], None)
    assert (result.passed, result.reason) == (passed, reason)


def test_json_schema_with_an_internal_ref() -> None:
    spec = {
        "kind": "JSON_SCHEMA",
        "schema": {
            "$defs": {"n": {"type": "integer"}},
            "type": "array",
            "items": {"$ref": "#/$defs/n"},
        },
    }
    validate_check_spec(spec)
    assert run_check(spec, "[1, 2]", [], None).passed
    assert run_check(spec, '[1, "x"]', [], None).reason == CheckReason.SCHEMA_MISMATCH


def test_a_schema_that_escaped_validation_is_never_fetched() -> None:
    spec = {"kind": "JSON_SCHEMA", "schema": {"$ref": "http://127.0.0.1:1/schema.json"}}
    assert run_check(spec, "{}", [], None).reason == CheckReason.SCHEMA_UNUSABLE


@pytest.mark.parametrize(
    ("calls", "passed"),
    [
        ([{"name": "search", "arguments": {"q": "x"}}], True),
        ([{"name": "lookup", "arguments": {}}, {"name": "search", "arguments": "raw"}], True),
        ([{"name": "lookup", "arguments": {}}], False),
        ([], False),
    ],
)
def test_tool_call(calls: list[dict[str, Any]], passed: bool) -> None:
    result = run_check(TOOL, "", calls, None)
    assert result.passed == passed
    assert result.reason == (None if passed else CheckReason.TOOL_NOT_CALLED)


def test_run_checks_combines_results() -> None:
    calls = [{"name": "search", "arguments": {}}]
    passed, score, results = run_checks([CONTAINS, TOOL], "It is 4", calls, "4")
    assert (passed, score) == (True, 1.0)
    passed, score, results = run_checks([EXACT, CONTAINS, TOOL], "It is 4", calls, "4")
    assert not passed
    assert score == pytest.approx(2 / 3)
    assert [r.passed for r in results] == [False, True, True]
    assert results[0].as_json() == {
        "kind": "EXACT_MATCH",
        "passed": False,
        "score": 0.0,
        "reason": "mismatch",
    }
    assert run_checks([], "x", None, None) == (True, 1.0, [])


def test_no_output_fails_every_check() -> None:
    passed, score, results = run_checks([EXACT, SCHEMA, TOOL], None, [], "4")
    assert (passed, score) == (False, 0.0)
    assert {r.reason for r in results} == {CheckReason.OUTPUT_MISSING}


def test_judge_rubric_is_not_run_here() -> None:
    spec = {
        "kind": "JUDGE_RUBRIC",
        "rubricVersionId": "astv_1",
        "judgeModelConfigVersionId": "astv_2",
    }
    assert validate_check_spec(spec) == spec
    with pytest.raises(NotImplementedError):
        run_checks([spec], "x", [], None)


@pytest.mark.parametrize("spec", [EXACT, CONTAINS, SCHEMA, TOOL])
def test_valid_specs(spec: dict[str, Any]) -> None:
    assert validate_check_spec(spec) is spec


@pytest.mark.parametrize(
    ("spec", "field"),
    [
        ("CONTAINS", "checks[0]"),
        ({}, "checks[0].kind"),
        ({"kind": "REGEX"}, "checks[0].kind"),
        ({"kind": ["CONTAINS"]}, "checks[0].kind"),
        ({"kind": "CONTAINS", "schema": {}}, "checks[0].schema"),
        ({"kind": "JSON_SCHEMA"}, "checks[0].schema"),
        ({"kind": "JSON_SCHEMA", "schema": "object"}, "checks[0].schema"),
        ({"kind": "JSON_SCHEMA", "schema": {"type": "objekt"}}, "checks[0].schema.type"),
        (
            {"kind": "JSON_SCHEMA", "schema": {"properties": {"a": {"minimum": "x"}}}},
            "checks[0].schema.properties.a.minimum",
        ),
        ({"kind": "JSON_SCHEMA", "schema": {"$schema": "urn:nope"}}, "checks[0].schema.$schema"),
        (
            {"kind": "JSON_SCHEMA", "schema": {"items": {"$ref": "https://x.test/s.json"}}},
            "checks[0].schema.items.$ref",
        ),
        ({"kind": "TOOL_CALL"}, "checks[0].toolName"),
        ({"kind": "TOOL_CALL", "toolName": "has space"}, "checks[0].toolName"),
        ({"kind": "TOOL_CALL", "toolName": ""}, "checks[0].toolName"),
        ({"kind": "JUDGE_RUBRIC", "rubricVersionId": "r"}, "checks[0].judgeModelConfigVersionId"),
        (
            {"kind": "JUDGE_RUBRIC", "rubricVersionId": 1, "judgeModelConfigVersionId": "j"},
            "checks[0].rubricVersionId",
        ),
    ],
)
def test_invalid_specs_name_the_field(spec: Any, field: str) -> None:
    with pytest.raises(ValidationFailed) as failure:
        validate_check_spec(spec)
    assert failure.value.extensions["field"] == field
    assert field in failure.value.message


@pytest.mark.parametrize(
    ("specs", "field"),
    [
        ([], "checks"),
        (None, "checks"),
        ([EXACT] * 11, "checks"),
        ([EXACT, {"kind": "X"}], "checks[1].kind"),
    ],
)
def test_validate_check_specs(specs: Any, field: str) -> None:
    with pytest.raises(ValidationFailed) as failure:
        validate_check_specs(specs)
    assert failure.value.extensions["field"] == field
    assert validate_check_specs([EXACT, TOOL]) == [EXACT, TOOL]
