"""Listing releases with their bindings costs the same statements for 1 release or 50."""

from __future__ import annotations

from bench.kit.factories import (
    WorkspaceFixture,
    make_connection,
    make_model_config_version,
    make_release,
    make_workspace,
)
from bench.kit.harness import Backend
from bench.kit.statements import counting_statements
from server.assets.builtins import BUILTINS
from server.assets.models import AssetKind

QUERY = """{
  releases(first: 100) {
    totalCount
    edges { node { id name bindings {
      role assetVersion { id number kind asset { id name } }
    } } }
  }
}"""

RUBRIC = next(b for b in BUILTINS if b.kind == AssetKind.RUBRIC)


async def _workspace_with_releases(backend: Backend, count: int) -> WorkspaceFixture:
    """`count` releases, each with its own prompt template and model config, and a rubric."""
    ws = await make_workspace(backend.sessionmaker)
    connection = await make_connection(backend.sessionmaker, ws)
    for i in range(count):
        config = await make_model_config_version(
            backend.sessionmaker, ws, connection_id=connection.id, name=f"config {i}"
        )
        await make_release(
            backend.sessionmaker,
            ws,
            name=f"release {i}",
            model_config_version_id=config.id,
            rubric_version_id=RUBRIC.version_id,
        )
    return ws


async def _statements_to_list(backend: Backend, ws: WorkspaceFixture, releases: int) -> int:
    with counting_statements(backend) as statements:
        data = (await backend.gql(QUERY, token=ws.owner)).ok()
    nodes = [e["node"] for e in data["releases"]["edges"]]
    assert len(nodes) == releases
    for node in nodes:
        bindings = node["bindings"]
        assert [b["role"] for b in bindings] == ["PROMPT_TEMPLATE", "MODEL_CONFIG", "RUBRIC"]
        assert bindings[1]["assetVersion"]["asset"]["name"] == f"config {node['name'][8:]}"
        assert bindings[2]["assetVersion"]["asset"] == {"id": RUBRIC.id, "name": RUBRIC.name}
    return len(statements)


async def test_one_and_fifty_releases_cost_the_same_statements(backend: Backend) -> None:
    one = await _statements_to_list(backend, await _workspace_with_releases(backend, 1), 1)
    fifty = await _statements_to_list(backend, await _workspace_with_releases(backend, 50), 50)
    assert one == fifty
    # authentication, count, page, bindings with versions and assets (SQLite adds BEGINs)
    assert one <= 8
