"""Variable mapping: resolving fields, coverage lines, and which cases LEAVE_OUT and REFUSE keep."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from server.errors import ValidationFailed
from server.prompting.variables import (
    MissingField,
    MissingFieldPolicy,
    check_path,
    coverage,
    default_mapping,
    resolve_field,
    resolve_variables,
    select_cases,
)


@dataclass(frozen=True)
class Case:
    dataset_item_id: str
    input: Any
    expected: Any = None


INPUT = {"question": "Why?", "ctx": {"doc": {"title": "T"}, "tags": ["a", "b"]}, "empty": None}


@pytest.mark.parametrize(
    ("path", "found", "value"),
    [
        ("input", True, INPUT),
        ("input.question", True, "Why?"),
        ("input.ctx.doc.title", True, "T"),
        ("input.ctx.tags.1", True, "b"),
        ("input.ctx.tags.2", False, None),
        ("input.ctx.tags.x", False, None),
        ("input.missing", False, None),
        ("input.question.deeper", False, None),
        ("input.empty", False, None),  # null counts as missing
        ("expected", True, {"answer": 42}),
        ("expected.answer", True, 42),
        ("other.question", False, None),
    ],
)
def test_resolve_field(path: str, found: bool, value: Any) -> None:
    assert resolve_field(INPUT, {"answer": 42}, path) == (found, value)


def test_resolve_field_on_string_and_list_inputs() -> None:
    turns = [{"role": "user", "content": "hi"}]
    assert resolve_field("plain", None, "input") == (True, "plain")
    assert resolve_field("plain", None, "input.question") == (False, None)
    assert resolve_field(turns, None, "input") == (True, turns)
    assert resolve_field(turns, None, "input.0.content") == (True, "hi")
    assert resolve_field("plain", None, "expected") == (False, None)


@pytest.mark.parametrize(
    ("case_input", "path"),
    [({"question": "q"}, "input.question"), ("a string", "input"), ([{"role": "user"}], "input")],
)
def test_default_mapping(case_input: Any, path: str) -> None:
    assert default_mapping("question", case_input) == path


@pytest.mark.parametrize("path", ["input", "input.a.b", "expected", "expected.0"])
def test_check_path_accepts(path: str) -> None:
    assert check_path(path) == path


@pytest.mark.parametrize("path", ["", "question", "input.", "input..a", "inputs.a", "input. a"])
def test_check_path_refuses(path: str) -> None:
    with pytest.raises(ValidationFailed) as failure:
        check_path(path, field="variables.question")
    assert failure.value.extensions["field"] == "variables.question"


def _cases() -> list[Case]:
    return [
        Case("c1", {"question": "q1", "context": "x"}),
        Case("c2", {"question": "q2"}),
        Case("c3", {"question": "q3", "context": "z", "topic": "t"}),
        Case("c4", {"context": "w"}),
    ]


def test_coverage_lines() -> None:
    lines = coverage(_cases(), ["question", "context"], {"context": "input.context"})
    assert [line.describe() for line in lines] == [
        "context ← input.context · found in 3 of 4 cases",
        "question ← input.question · found in 3 of 4 cases",
    ]


def test_coverage_of_string_inputs_and_of_no_cases() -> None:
    (line,) = coverage([Case("s1", "text"), Case("s2", "more")], ["question"], {})
    assert line.describe() == "question ← input · found in 2 of 2 cases"
    (empty,) = coverage([], ["question"], {})
    assert empty.describe() == "question ← input.question · found in 0 of 0 cases"


def test_leave_out_uses_the_union_of_all_cohorts_variables() -> None:
    cases = _cases()
    # Cohort 0 needs question, cohort 1 needs question and context: c2 lacks context, c4
    # lacks question, so both cohorts keep c1 and c3 only.
    selection = select_cases(
        cases, [["question"], ["question", "context"]], {}, MissingFieldPolicy.LEAVE_OUT
    )
    assert [c.dataset_item_id for c in selection.kept] == ["c1", "c3"]
    assert not selection.refused
    assert selection.left_out == 2
    assert selection.missing == [MissingField("context", "c2"), MissingField("question", "c4")]


def test_refuse_lists_every_missing_pair_and_keeps_nothing() -> None:
    selection = select_cases(
        _cases(), [["question"], ["topic"]], {"topic": "input.topic"}, MissingFieldPolicy.REFUSE
    )
    assert selection.refused
    assert selection.kept == []
    assert selection.missing == [
        MissingField("topic", "c1"),
        MissingField("topic", "c2"),
        MissingField("question", "c4"),
        MissingField("topic", "c4"),
    ]


def test_refuse_keeps_all_when_nothing_is_missing() -> None:
    cases = _cases()[:3]
    selection = select_cases(cases, [["question"]], {}, MissingFieldPolicy.REFUSE)
    assert (selection.kept, selection.missing, selection.refused) == (cases, [], False)


def test_resolve_variables_leaves_missing_ones_out() -> None:
    case = Case("c1", {"question": "q1"}, expected="A")
    assert resolve_variables(case, ["question", "context", "gold"], {"gold": "expected"}) == {
        "question": "q1",
        "gold": "A",
    }
