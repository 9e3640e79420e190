"""GraphQL documents and small helpers shared by the dataset tests."""

from __future__ import annotations

from typing import Any

from bench.kit.harness import Backend, GraphQLResult

VERSION_FIELDS = (
    "id datasetId number state caseCount caseCounts { dev holdout } contentHash holdoutLooks "
    "createdAt sealedAt"
)
CREATE = "mutation($input: CreateDatasetInput!) { createDataset(input: $input) { id name } }"
OPEN = f"mutation($id: ID!) {{ openDatasetVersion(datasetId: $id) {{ {VERSION_FIELDS} }} }}"
APPEND = (
    "mutation($id: ID!, $cases: JSON!, $position: Int) "
    "{ appendDatasetCases(versionId: $id, cases: $cases, position: $position) "
    "{ appendedCount caseCount version { id state caseCount } } }"
)
SEAL = f"mutation($id: ID!) {{ sealDatasetVersion(versionId: $id) {{ {VERSION_FIELDS} }} }}"
DISCARD = f"mutation($id: ID!) {{ discardDatasetVersion(versionId: $id) {{ {VERSION_FIELDS} }} }}"
DISCARD_KEEPING = (
    "mutation($id: ID!) { discardDatasetVersion(versionId: $id, keepDataset: true) "
    f"{{ {VERSION_FIELDS} }} }}"
)
DATASET = (
    "query($id: ID!) { dataset(id: $id) { id name description builtIn "
    f"latestVersion {{ id number }} versions {{ {VERSION_FIELDS} }} }} }}"
)
CASES = (
    "query($id: ID!, $split: Split, $first: Int, $after: String) { dataset(id: $id) { "
    "versions { id cases(split: $split, first: $first, after: $after) { totalCount "
    "pageInfo { hasNextPage hasPreviousPage endCursor } "
    "edges { cursor node { datasetItemId input expected split tags } } } } } }"
)


async def create_dataset(backend: Backend, token: str, name: str = "qa") -> str:
    result = await backend.gql(CREATE, {"input": {"name": name}}, token=token)
    dataset_id: str = result.ok()["createDataset"]["id"]
    return dataset_id


async def open_version(backend: Backend, token: str, dataset_id: str) -> str:
    result = await backend.gql(OPEN, {"id": dataset_id}, token=token)
    version_id: str = result.ok()["openDatasetVersion"]["id"]
    return version_id


async def append(
    backend: Backend,
    token: str,
    version_id: str,
    cases: Any,
    position: int | None = None,
) -> GraphQLResult:
    variables = {"id": version_id, "cases": cases, "position": position}
    return await backend.gql(APPEND, variables, token=token)


async def seal(backend: Backend, token: str, version_id: str) -> GraphQLResult:
    return await backend.gql(SEAL, {"id": version_id}, token=token)


async def dataset(backend: Backend, token: str, dataset_id: str) -> dict[str, Any]:
    result = await backend.gql(DATASET, {"id": dataset_id}, token=token)
    found: dict[str, Any] = result.ok()["dataset"]
    return found


async def sealed_dataset(
    backend: Backend, token: str, cases: list[dict[str, Any]], *, name: str = "qa", chunk: int = 50
) -> tuple[str, dict[str, Any]]:
    """A dataset whose one version holds `cases`, appended `chunk` at a time and sealed."""
    dataset_id = await create_dataset(backend, token, name)
    version_id = await open_version(backend, token, dataset_id)
    for low in range(0, len(cases), chunk):
        (await append(backend, token, version_id, cases[low : low + chunk])).ok()
    sealed: dict[str, Any] = (await seal(backend, token, version_id)).ok()["sealDatasetVersion"]
    return dataset_id, sealed
