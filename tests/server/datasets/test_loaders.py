"""Listing datasets with their versions costs the same number of SQL statements for 1 or 50."""

from __future__ import annotations

from typing import Any

from bench.kit.factories import WorkspaceFixture, actor_for, make_dataset, make_workspace
from bench.kit.harness import Backend
from bench.kit.statements import counting_statements
from server.datasets import versions

LIST = (
    "{ datasets(first: 100) { totalCount edges { node { id name "
    "latestVersion { id caseCount caseCounts { dev holdout } holdoutLooks } "
    "versions { id number state caseCount caseCounts { dev holdout } holdoutLooks } } } } }"
)


async def datasets_with_two_versions(backend: Backend, ws: WorkspaceFixture, count: int) -> None:
    """`count` datasets, each with a SEALED version 1 and an OPEN version 2."""
    for i in range(count):
        version = await make_dataset(backend.sessionmaker, ws, cases=2, holdout=1, name=f"d{i}")
        async with backend.sessionmaker() as session, session.begin():
            await versions.open_version(
                session=session, actor=actor_for(ws), dataset_id=version.asset_id
            )


async def listed(backend: Backend, token: str) -> tuple[list[dict[str, Any]], int]:
    with counting_statements(backend) as statements:
        result = await backend.gql(LIST, token=token)
    edges = result.ok()["datasets"]["edges"]
    return [edge["node"] for edge in edges], len(statements)


async def test_one_and_fifty_datasets_cost_the_same_statements(backend: Backend) -> None:
    one = await make_workspace(backend.sessionmaker, name="one")
    fifty = await make_workspace(backend.sessionmaker, name="fifty")
    await datasets_with_two_versions(backend, one, 1)
    await datasets_with_two_versions(backend, fifty, 50)

    few, few_statements = await listed(backend, one.owner)
    many, many_statements = await listed(backend, fifty.owner)

    assert len(few) == 1 and len(many) == 50
    for node in many:
        assert [(v["number"], v["state"]) for v in node["versions"]] == [
            (2, "OPEN"),
            (1, "SEALED"),
        ]
        assert node["latestVersion"]["caseCount"] == 3
        assert node["latestVersion"]["caseCounts"] == {"dev": 2, "holdout": 1}
    assert many_statements == few_statements
    # auth, count, page, versions, holdout looks (and a BEGIN each on SQLite)
    assert few_statements <= 10
