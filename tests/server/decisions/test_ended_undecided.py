"""A comparison that ended CANCELLED decides NO_DECISION at once, on its page and in the list
alike (`server/decisions/document.py`: `ENDED_UNDECIDED`); one not yet run has none."""

from __future__ import annotations

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.scenarios import CREATE, scripted_setup
from server.workspaces.roles import Role
from tests.server.comparisons.documents import CANCEL

PAGE = "query($id: ID!) { comparison(id: $id) { status decision { outcome reason sentence } } }"
LIST = "{ comparisons(first: 10) { edges { node { id status decision { outcome } } } } }"
SAME = ["PP", "PF", "FF", "PP"] * 6


async def test_a_cancelled_comparison_is_no_decision_on_its_page_and_in_the_list(
    backend: Backend,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await scripted_setup(backend.sessionmaker, ws, [SAME, SAME])
    member = ws.tokens[Role.MEMBER]
    created = (await backend.gql(CREATE, {"input": setup.input()}, token=member)).ok()
    comparison_id = created["createComparison"]["id"]

    waiting = (await backend.gql(PAGE, {"id": comparison_id}, token=member)).ok()["comparison"]
    assert (waiting["status"], waiting["decision"]) == ("SETUP", None)
    listed = (await backend.gql(LIST, token=member)).ok()["comparisons"]["edges"]
    assert [(e["node"]["id"], e["node"]["decision"]) for e in listed] == [(comparison_id, None)]

    (await backend.gql(CANCEL, {"id": comparison_id}, token=member)).ok()
    page = (await backend.gql(PAGE, {"id": comparison_id}, token=member)).ok()["comparison"]
    assert page["status"] == "CANCELLED"
    assert (page["decision"]["outcome"], page["decision"]["reason"]) == (
        "NO_DECISION",
        "NOT_RUN_TO_END",
    )
    assert "did not reach its end" in page["decision"]["sentence"]
    listed = (await backend.gql(LIST, token=member)).ok()["comparisons"]["edges"]
    assert [(e["node"]["status"], e["node"]["decision"]) for e in listed] == [
        ("CANCELLED", {"outcome": "NO_DECISION"})
    ]
