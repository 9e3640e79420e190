"""`datasetVersion(id)`: one version with its cases paged; another workspace's is NOT_FOUND."""

from __future__ import annotations

from bench.kit.factories import make_dataset, make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role

VERSION = """
query($id: ID!, $after: String) { datasetVersion(id: $id) {
  id number state caseCount
  cases(first: 2, after: $after) { totalCount pageInfo { hasNextPage endCursor }
    edges { node { datasetItemId } } } } }
"""


async def test_a_version_reads_its_cases_a_page_at_a_time(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    other = await make_workspace(backend.sessionmaker)
    version = await make_dataset(backend.sessionmaker, ws, cases=3)
    viewer = ws.tokens[Role.VIEWER]
    first = (await backend.gql(VERSION, {"id": version.id}, token=viewer)).ok()["datasetVersion"]
    assert (first["id"], first["state"], first["caseCount"]) == (version.id, "SEALED", 3)
    page = first["cases"]
    assert page["totalCount"] == 3 and page["pageInfo"]["hasNextPage"]
    assert [e["node"]["datasetItemId"] for e in page["edges"]] == ["case-0000", "case-0001"]
    rest = await backend.gql(
        VERSION, {"id": version.id, "after": page["pageInfo"]["endCursor"]}, token=viewer
    )
    edges = rest.ok()["datasetVersion"]["cases"]["edges"]
    assert [e["node"]["datasetItemId"] for e in edges] == ["case-0002"]
    elsewhere = await backend.gql(VERSION, {"id": version.id}, token=other.tokens[Role.VIEWER])
    assert elsewhere.codes == ["NOT_FOUND"]
