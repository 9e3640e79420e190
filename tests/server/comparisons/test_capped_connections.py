"""`Comparison.cappedConnections`: the connections whose monthly cap stopped a run, so the
portal can say "Stopped: my-connection reached its monthly cap of $50.00"."""

from __future__ import annotations

from bench.kit.factories import make_comparison_setup, make_workspace
from bench.kit.harness import Backend
from bench.kit.scenarios import run_comparison
from server.workspaces.roles import Role

CAPPED = """
query($id: ID!) { comparison(id: $id) {
  status stopReason progress { doneCalls totalCalls }
  cappedConnections { id name monthlyCapCents monthToDateSpentCents } } }
"""


async def test_a_run_stopped_by_a_monthly_cap_names_the_connection(
    sqlite_backend: Backend,
) -> None:
    ws = await make_workspace(sqlite_backend.sessionmaker)
    setup = await make_comparison_setup(
        sqlite_backend.sessionmaker,
        ws,
        cases=20,
        output_cents_per_million_tokens=1_000_000.0,  # a cent per output token
        monthly_cap_cents=2.0,
        max_concurrency=1,
    )
    member = ws.tokens[Role.MEMBER]
    comparison_id = await run_comparison(sqlite_backend, member, setup.input(trialsPerCase=1))
    data = await sqlite_backend.gql(CAPPED, {"id": comparison_id}, token=ws.tokens[Role.VIEWER])
    comparison = data.ok()["comparison"]
    assert (comparison["status"], comparison["stopReason"]) == ("DONE", "CONNECTION_CAP")
    assert comparison["progress"]["doneCalls"] < comparison["progress"]["totalCalls"]
    (capped,) = comparison["cappedConnections"]
    assert capped["id"] == setup.connection_id and capped["name"].startswith("conn")
    assert capped["monthlyCapCents"] == 2.0
    assert capped["monthToDateSpentCents"] >= 2.0


async def test_a_run_not_stopped_by_a_monthly_cap_names_none(sqlite_backend: Backend) -> None:
    ws = await make_workspace(sqlite_backend.sessionmaker)
    setup = await make_comparison_setup(
        sqlite_backend.sessionmaker, ws, cases=4, monthly_cap_cents=1_000.0
    )
    member = ws.tokens[Role.MEMBER]
    comparison_id = await run_comparison(sqlite_backend, member, setup.input(trialsPerCase=1))
    comparison = (await sqlite_backend.gql(CAPPED, {"id": comparison_id}, token=member)).ok()[
        "comparison"
    ]
    assert (comparison["stopReason"], comparison["cappedConnections"]) == ("COMPLETED", [])
