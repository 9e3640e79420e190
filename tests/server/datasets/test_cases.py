"""The case shape, checked without I/O: one table of good cases and one of bad ones."""

from __future__ import annotations

import math
from typing import Any

import pytest

from server.datasets.cases import CaseError, check_case, check_chunk
from server.errors import ValidationFailed

GOOD: list[tuple[dict[str, Any], dict[str, Any]]] = [
    (
        {"datasetItemId": "a", "input": "question"},
        {"dataset_item_id": "a", "input": "question", "expected": None, "split": "DEV", "tags": []},
    ),
    (
        {"datasetItemId": "b", "input": {"q": [1, 2.5, True, None]}, "split": "HOLDOUT"},
        {"split": "HOLDOUT", "input": {"q": [1, 2.5, True, None]}},
    ),
    (
        {"datasetItemId": "c", "input": [{"role": "user", "content": "hi"}], "tags": ["x"]},
        {"tags": ["x"]},
    ),
    (
        {"datasetItemId": "d", "input": [{"role": "user", "content": [{"type": "text"}]}]},
        {"expected": None},
    ),
    (
        {"datasetItemId": "e" * 200, "input": {}, "expected": {"any": "json"}},
        {"expected": {"any": "json"}},
    ),
]


@pytest.mark.parametrize(("raw", "expected"), GOOD, ids=lambda v: str(v)[:30])
def test_a_good_case_becomes_its_row(raw: dict[str, Any], expected: dict[str, Any]) -> None:
    row = check_case(raw)
    assert {key: row[key] for key in expected} == expected  # type: ignore[literal-required]


def _nested(depth: int) -> Any:
    value: Any = "leaf"
    for _ in range(depth):
        value = {"k": value}
    return value


BAD: list[tuple[object, str, str]] = [
    ("not an object", "", "JSON object"),
    ({"input": "x"}, "datasetItemId", "datasetItemId"),
    ({"datasetItemId": "", "input": "x"}, "datasetItemId", "1 to 200"),
    ({"datasetItemId": "x" * 201, "input": "x"}, "datasetItemId", "1 to 200"),
    ({"datasetItemId": 7, "input": "x"}, "datasetItemId", "string"),
    ({"datasetItemId": "a"}, "input", "required"),
    ({"datasetItemId": "a", "input": 3}, "input", "list of turns"),
    ({"datasetItemId": "a", "input": []}, "input", "list of turns"),
    ({"datasetItemId": "a", "input": [{"content": "no role"}]}, "input", "list of turns"),
    ({"datasetItemId": "a", "input": [{"role": "user"}]}, "input", "list of turns"),
    ({"datasetItemId": "a", "input": ["just text"]}, "input", "list of turns"),
    ({"datasetItemId": "a", "input": "x", "split": "TEST"}, "split", "DEV or HOLDOUT"),
    ({"datasetItemId": "a", "input": "x", "tags": "one"}, "tags", "list"),
    ({"datasetItemId": "a", "input": "x", "tags": [""]}, "tags", "1 to 100"),
    ({"datasetItemId": "a", "input": "x", "tags": ["t"] * 51}, "tags", "at most 50"),
    ({"datasetItemId": "a", "input": "x", "expect": "typo"}, "expect", "unknown field"),
    ({"datasetItemId": "a", "input": "nul \x00 inside"}, "input", "NUL"),
    ({"datasetItemId": "a", "input": {"k\x00": 1}}, "input", "key"),
    ({"datasetItemId": "a", "input": {"x": "\udcff"}}, "input", "unpaired surrogate"),
    ({"datasetItemId": "\ud800", "input": "x"}, "datasetItemId", "unpaired surrogate"),
    ({"datasetItemId": "a", "input": "x", "tags": ["\udcff"]}, "tags", "1 to 100"),
    ({"datasetItemId": "a", "input": {"x": math.nan}}, "input", "not finite"),
    ({"datasetItemId": "a", "input": "x", "expected": [math.inf]}, "expected", "not finite"),
    ({"datasetItemId": "a", "input": "x", "expected": {1, 2}}, "expected", "not a JSON value"),
    ({"datasetItemId": "a", "input": _nested(40)}, "input", "deeper than 32"),
]


@pytest.mark.parametrize(("raw", "field", "words"), BAD, ids=lambda v: str(v)[:40])
def test_a_bad_case_names_its_field_and_reason(raw: object, field: str, words: str) -> None:
    with pytest.raises(CaseError) as caught:
        check_case(raw)
    assert caught.value.field == field
    assert words in caught.value.reason


def test_a_chunk_names_the_index_and_the_duplicated_item_id() -> None:
    chunk = [{"datasetItemId": f"c{i}", "input": "x"} for i in range(4)]
    chunk[3]["datasetItemId"] = "c1"
    with pytest.raises(ValidationFailed) as caught:
        check_chunk(chunk)
    assert caught.value.extensions["index"] == 3
    assert caught.value.extensions["datasetItemId"] == "c1"
    assert caught.value.message.startswith("cases[3].datasetItemId:")


@pytest.mark.parametrize(
    ("chunk", "words"),
    [
        ({"not": "a list"}, "list"),
        ([], "empty"),
        ([{"datasetItemId": "a", "input": "x"}] * 3, "at most 2"),
    ],
)
def test_a_chunk_must_be_a_short_nonempty_list(chunk: object, words: str) -> None:
    with pytest.raises(ValidationFailed) as caught:
        check_chunk(chunk, limit=2)
    assert words in caught.value.message
