"""The content hash: PostgreSQL's jsonb text of each case, which `json_text` reproduces."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.datasets.digest import json_text
from tests.server.datasets.api import sealed_dataset

CASES: list[dict[str, Any]] = [
    {"datasetItemId": "a", "input": "plain text"},
    {
        "datasetItemId": "b",
        "input": {"zz": 1, "é": [1.0, 1e-07, 1e16, -0.0, 0.1], "ab": {"y": None, "x": True}},
        "expected": 'tab\there "quoted" \\ / \u0001 \u2028',
        "split": "HOLDOUT",
        "tags": ["t1", "ünï"],
    },
    {
        "datasetItemId": "c",
        "input": [{"role": "user", "content": "hi"}],
        "expected": {"big": 12345678901234567890, "float": 0.30000000000000004},
    },
    {"datasetItemId": "d", "input": {"n": 2}, "expected": 0.30000000000000004},
]
# Computed once by PostgreSQL 15 (`jsonb_build_array(...)::text` per case): the definition
# must not drift, and SQLite must give the same.
HASH = "5a52211045fc05387e0ceeb32f4bab828279eec86d31fcdbf2470690540b2cba"


@pytest.mark.parametrize(
    ("value", "written"),
    [
        ({"b": 1, "aa": 2, "a": 3}, '{"a": 3, "b": 1, "aa": 2}'),
        ({"é": 1, "z": 2, "ab": 3}, '{"z": 2, "ab": 3, "é": 1}'),
        ([1.0, 1e-07, 1e16, -0.0, 1.5e-05], "[1.0, 0.0000001, 10000000000000000, 0.0, 0.000015]"),
        (['\u0001\t"\\/é'], '["\\u0001\\t\\"\\\\/é"]'),
        (
            [None, True, False, 10**30, -3],
            "[null, true, false, 1000000000000000000000000000000, -3]",
        ),
        ({}, "{}"),
        ([], "[]"),
    ],
)
def test_json_text_writes_what_postgresql_writes(value: Any, written: str) -> None:
    assert json_text(value) == written


async def test_the_hash_is_the_same_on_both_backends(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    _, sealed = await sealed_dataset(backend, ws.owner, CASES)
    assert sealed["contentHash"] == HASH


JSON_TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_characters="\x00"))
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | JSON_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(JSON_TEXT, inner, max_size=4),
    max_leaves=12,
)


async def test_json_text_matches_postgresql_on_generated_values(backend: Backend) -> None:
    if backend.name != "postgres":
        pytest.skip("compares with PostgreSQL's own jsonb output")
    values: list[Any] = []

    @settings(max_examples=300, suppress_health_check=list(HealthCheck), deadline=None)
    @given(JSON_VALUES)
    def collect(value: Any) -> None:
        values.append(value)

    collect()
    async with backend.sessionmaker() as session:
        for value in values:
            written = await session.scalar(
                text("SELECT CAST(CAST(:value AS jsonb) AS text)"), {"value": json.dumps(value)}
            )
            assert written == json_text(value), value
