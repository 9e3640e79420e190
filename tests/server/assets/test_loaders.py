"""Listing assets with their versions costs the same statements for 1 asset or 50."""

from __future__ import annotations

from bench.kit.factories import WorkspaceFixture, make_asset_version, make_workspace
from bench.kit.harness import Backend
from bench.kit.statements import counting_statements
from server.assets.models import AssetKind

QUERY = """{
  assets(first: 100) {
    totalCount
    edges { node { id name builtIn versions { id number contentHash asset { id name } } } }
  }
}"""


async def _workspace_with_assets(backend: Backend, count: int) -> WorkspaceFixture:
    """`count` rubrics of two versions each."""
    ws = await make_workspace(backend.sessionmaker)
    for i in range(count):
        for scale in ("PASS_FAIL", "SCORE_0_1"):
            await make_asset_version(
                backend.sessionmaker,
                ws,
                kind=AssetKind.RUBRIC,
                content={"text": f"rubric {i}", "scale": scale},
                name=f"rubric {i}",
            )
    return ws


async def _statements_to_list(backend: Backend, ws: WorkspaceFixture, assets: int) -> int:
    with counting_statements(backend) as statements:
        data = (await backend.gql(QUERY, token=ws.owner)).ok()
    nodes = [e["node"] for e in data["assets"]["edges"] if not e["node"]["builtIn"]]
    assert len(nodes) == assets
    assert all([v["number"] for v in n["versions"]] == [1, 2] for n in nodes)
    assert all(v["asset"]["name"] == n["name"] for n in nodes for v in n["versions"])
    return len(statements)


async def test_one_and_fifty_assets_cost_the_same_statements(backend: Backend) -> None:
    one = await _statements_to_list(backend, await _workspace_with_assets(backend, 1), 1)
    fifty = await _statements_to_list(backend, await _workspace_with_assets(backend, 50), 50)
    assert one == fifty
    # authentication, count, page, versions (SQLite adds BEGIN statements of its own)
    assert one <= 8
