"""`experiment(id)`: one experiment of the workspace; another workspace's is NOT_FOUND."""

from __future__ import annotations

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role

CREATE = "mutation($n: String!) { createExperiment(input: {name: $n}) { id } }"
ONE = "query($id: ID!) { experiment(id: $id) { id name dailyBudgetCents } }"


async def test_one_experiment_by_id_in_its_workspace_only(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    other = await make_workspace(backend.sessionmaker)
    made = await backend.gql(CREATE, {"n": "nightly"}, token=ws.tokens[Role.MEMBER])
    experiment_id = made.ok()["createExperiment"]["id"]
    found = await backend.gql(ONE, {"id": experiment_id}, token=ws.tokens[Role.VIEWER])
    assert found.ok()["experiment"] == {
        "id": experiment_id,
        "name": "nightly",
        "dailyBudgetCents": None,
    }
    elsewhere = await backend.gql(ONE, {"id": experiment_id}, token=other.tokens[Role.VIEWER])
    assert elsewhere.codes == ["NOT_FOUND"]
