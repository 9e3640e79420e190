"""`SignOff.comparison`: the signed comparison with its new verdict, in the mutation's answer
(a client cache that refreshes queries by type sees the verdict change)."""

from __future__ import annotations

from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.server.reports.api import finalized_comparison

SIGN_OFF = """
mutation($id: ID!) { signOff(reportId: $id, decision: HOLD) {
  decision verdict comparison { __typename id verdict } } }
"""


async def test_the_sign_off_answers_with_the_comparison_and_its_new_verdict(
    backend: Backend,
) -> None:
    f = await finalized_comparison(backend)
    report = await f.generate()
    signed = (await f.gql(SIGN_OFF, {"id": report["id"]}, role=Role.ADMIN)).ok()["signOff"]
    assert signed["verdict"] == "HOLD"
    assert signed["comparison"] == {
        "__typename": "Comparison",
        "id": f.comparison_id,
        "verdict": "HOLD",
    }
