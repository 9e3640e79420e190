"""Cases and datasets are cursor connections, keyset-paginated in SQL."""

from __future__ import annotations

from typing import Any

from bench.kit.factories import make_dataset, make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.server.datasets.api import CASES


async def case_pages(
    backend: Backend, token: str, dataset_id: str, *, split: str | None, first: int
) -> tuple[list[str], list[dict[str, Any]]]:
    """Every case's id, page by page, and each page's connection."""
    ids: list[str] = []
    pages: list[dict[str, Any]] = []
    after = None
    while True:
        variables = {"id": dataset_id, "split": split, "first": first, "after": after}
        result = await backend.gql(CASES, variables, token=token)
        page = result.ok()["dataset"]["versions"][0]["cases"]
        pages.append(page)
        ids.extend(edge["node"]["datasetItemId"] for edge in page["edges"])
        if not page["pageInfo"]["hasNextPage"]:
            return ids, pages
        after = page["pageInfo"]["endCursor"]


async def test_cases_page_in_order_and_by_split(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    version = await make_dataset(backend.sessionmaker, ws, cases=23, holdout=9)
    viewer = ws.tokens[Role.VIEWER]
    every, pages = await case_pages(backend, viewer, version.asset_id, split=None, first=10)
    assert every == [f"case-{i:04d}" for i in range(32)]
    assert [len(p["edges"]) for p in pages] == [10, 10, 10, 2]
    assert {p["totalCount"] for p in pages} == {32}
    assert pages[0]["pageInfo"]["hasPreviousPage"] is False
    assert pages[1]["pageInfo"]["hasPreviousPage"] is True
    holdout, held = await case_pages(backend, viewer, version.asset_id, split="HOLDOUT", first=4)
    assert holdout == [f"case-{i:04d}" for i in range(23, 32)]
    assert {p["totalCount"] for p in held} == {9}
    dev, _ = await case_pages(backend, viewer, version.asset_id, split="DEV", first=100)
    assert dev == every[:23]
    node = pages[0]["edges"][3]["node"]
    assert node == {
        "datasetItemId": "case-0003",
        "input": {"question": "What is 3 + 3?"},
        "expected": "6",
        "split": "DEV",
        "tags": ["arithmetic"],
    }


async def test_case_pages_refuse_a_bad_size_or_cursor(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    version = await make_dataset(backend.sessionmaker, ws, cases=3)
    for variables in ({"first": 101}, {"first": -1}, {"after": "not a cursor"}):
        result = await backend.gql(CASES, {"id": version.asset_id, **variables}, token=ws.owner)
        assert result.codes == ["VALIDATION_FAILED"]


async def test_datasets_page_through_the_workspace_only(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    other = await make_workspace(backend.sessionmaker, name="other")
    await make_dataset(backend.sessionmaker, other, cases=1, name="theirs")
    for i in range(5):
        await make_dataset(backend.sessionmaker, ws, cases=1, name=f"d{i}")
    query = (
        "query($after: String) { datasets(first: 2, after: $after) { totalCount "
        "pageInfo { hasNextPage endCursor } edges { node { id name builtIn } } } }"
    )
    names: list[str] = []
    after = None
    while True:
        page = (await backend.gql(query, {"after": after}, token=ws.owner)).ok()["datasets"]
        own = [e["node"] for e in page["edges"] if not e["node"]["builtIn"]]
        names.extend(node["name"] for node in own)
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
    assert names == [f"d{i}" for i in range(5)]
