"""Bad input through the API: a coded error naming the case, and nothing written."""

from __future__ import annotations

import json
from typing import Any

import pytest
from sqlalchemy import func, select

from bench.kit.factories import WorkspaceFixture, dataset_cases, make_workspace
from bench.kit.harness import Backend
from server.assets.models import Asset, AssetVersion
from server.datasets.cases import MAX_CASES_PER_CHUNK
from server.datasets.models import DatasetCase
from tests.server.datasets.api import APPEND, CREATE, append, create_dataset, dataset, open_version


async def open_with(backend: Backend, ws: WorkspaceFixture, cases: int) -> str:
    """An OPEN version already holding `cases` cases."""
    version_id = await open_version(backend, ws.owner, await create_dataset(backend, ws.owner))
    if cases:
        (await append(backend, ws.owner, version_id, dataset_cases(cases))).ok()
    return version_id


async def stored(backend: Backend, version_id: str) -> tuple[int, int]:
    """(rows in dataset_case, the version's caseCount)."""
    async with backend.sessionmaker() as session:
        rows = await session.scalar(
            select(func.count())
            .select_from(DatasetCase)
            .where(DatasetCase.dataset_version_id == version_id)
        )
        count = await session.scalar(
            select(AssetVersion.case_count).where(AssetVersion.id == version_id)
        )
    return int(rows or 0), int(count or 0)


BAD_CHUNKS: list[tuple[str, Any, int, str]] = [
    ("missing input", [{"datasetItemId": "n-1"}], 0, "`input` is required"),
    ("bad split", [{"datasetItemId": "n-1", "input": "x", "split": "TRAIN"}], 0, "DEV or HOLDOUT"),
    ("long id", [{"datasetItemId": "x" * 201, "input": "x"}], 0, "1 to 200"),
    ("not an object", [1], 0, "JSON object"),
    ("NUL", [{"datasetItemId": "n-1", "input": "a\u0000b"}], 0, "NUL"),
    ("turns", [{"datasetItemId": "n-1", "input": [{"role": "user"}]}], 0, "list of turns"),
]


@pytest.mark.parametrize(("name", "bad", "index", "words"), BAD_CHUNKS, ids=lambda v: str(v)[:14])
async def test_a_bad_case_fails_its_whole_chunk(
    backend: Backend, name: str, bad: list[Any], index: int, words: str
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    version_id = await open_with(backend, ws, 5)
    chunk = [*bad, *dataset_cases(3, prefix=f"after-{name}")]
    result = await append(backend, ws.owner, version_id, chunk)
    assert result.codes == ["VALIDATION_FAILED"]
    error = result.errors[0]
    assert error["extensions"]["index"] == index
    assert words in error["message"] and words in error["extensions"]["reason"]
    assert error["message"].startswith(f"cases[{index}]")
    assert await stored(backend, version_id) == (5, 5)


@pytest.mark.parametrize(
    ("value", "words"), [(float("nan"), "not finite"), ("\udcff", "unpaired surrogate")]
)
async def test_what_json_can_say_but_the_database_cannot_store_is_refused(
    backend: Backend, value: Any, words: str
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    version_id = await open_with(backend, ws, 2)
    cases = [{"datasetItemId": "odd", "input": {"x": value}}]
    # Python's json writes NaN and "\udcff", and reads them back as a float and a lone surrogate.
    body = json.dumps({"query": APPEND, "variables": {"id": version_id, "cases": cases}})
    response = await backend.client.post(
        "/graphql",
        content=body,
        headers={"Authorization": f"Bearer {ws.owner}", "Content-Type": "application/json"},
    )
    errors = response.json()["errors"]
    assert [e["extensions"]["code"] for e in errors] == ["VALIDATION_FAILED"]
    assert words in errors[0]["message"]
    assert await stored(backend, version_id) == (2, 2)


async def test_a_duplicate_inside_a_chunk_names_the_id_and_index(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    version_id = await open_with(backend, ws, 0)
    chunk = dataset_cases(6)
    chunk[4]["datasetItemId"] = chunk[1]["datasetItemId"]
    result = await append(backend, ws.owner, version_id, chunk)
    assert result.codes == ["VALIDATION_FAILED"]
    extensions = result.errors[0]["extensions"]
    assert extensions["index"] == 4 and extensions["datasetItemId"] == "case-0001"
    assert "case-0001" in result.errors[0]["message"]
    assert await stored(backend, version_id) == (0, 0)


async def test_a_duplicate_of_an_earlier_chunk_names_the_id_and_index(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    version_id = await open_with(backend, ws, 10)
    chunk = dataset_cases(3, prefix="new")
    chunk.append({"datasetItemId": "case-0007", "input": "again"})
    for position in (None, 10):
        result = await append(backend, ws.owner, version_id, chunk, position=position)
        assert result.codes == ["VALIDATION_FAILED"]
        extensions = result.errors[0]["extensions"]
        assert extensions["index"] == 3 and extensions["datasetItemId"] == "case-0007"
        assert "already in this version" in extensions["reason"]
    assert await stored(backend, version_id) == (10, 10)


async def test_chunks_hold_one_to_five_thousand_cases(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    version_id = await open_with(backend, ws, 0)
    too_many = [{"datasetItemId": f"c{i}", "input": "x"} for i in range(MAX_CASES_PER_CHUNK + 1)]
    over = await append(backend, ws.owner, version_id, too_many)
    assert over.codes == ["VALIDATION_FAILED"] and "at most 5000" in over.errors[0]["message"]
    not_chunks: list[Any] = [[], {"datasetItemId": "not-a-list", "input": "x"}]
    for bad in not_chunks:
        assert (await append(backend, ws.owner, version_id, bad)).codes == ["VALIDATION_FAILED"]
    most = await append(backend, ws.owner, version_id, too_many[:-1])
    assert most.ok()["appendDatasetCases"]["caseCount"] == MAX_CASES_PER_CHUNK


@pytest.mark.parametrize("position", [-1, 2**31 - 2])
async def test_a_position_out_of_range_is_refused(backend: Backend, position: int) -> None:
    ws = await make_workspace(backend.sessionmaker)
    version_id = await open_with(backend, ws, 1)
    result = await append(backend, ws.owner, version_id, dataset_cases(3, prefix="p"), position)
    assert result.codes == ["VALIDATION_FAILED"]
    assert result.errors[0]["extensions"]["field"] == "position"
    assert await stored(backend, version_id) == (1, 1)


@pytest.mark.parametrize(
    ("dataset_input", "field"),
    [
        ({"name": "  "}, "name"),
        ({"name": "n" * 201}, "name"),
        ({"name": "d", "description": "x" * 2001}, "description"),
    ],
)
async def test_a_bad_dataset_is_refused_and_not_created(
    backend: Backend, dataset_input: dict[str, str], field: str
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    result = await backend.gql(CREATE, {"input": dataset_input}, token=ws.owner)
    assert result.codes == ["VALIDATION_FAILED"]
    assert result.errors[0]["extensions"]["field"] == field
    async with backend.sessionmaker() as session:
        count = await session.scalar(
            select(func.count()).select_from(Asset).where(Asset.workspace_id == ws.id)
        )
    assert count == 0


async def test_a_dataset_name_is_unique_in_the_workspace(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    other = await make_workspace(backend.sessionmaker, name="other")
    dataset_id = await create_dataset(backend, ws.owner, "golden")
    again = await backend.gql(CREATE, {"input": {"name": " golden "}}, token=ws.owner)
    assert again.codes == ["CONFLICT"] and again.errors[0]["extensions"]["field"] == "name"
    await create_dataset(backend, other.owner, "golden")
    assert (await dataset(backend, ws.owner, dataset_id))["name"] == "golden"
