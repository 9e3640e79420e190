"""The comparisons list says each comparison's ship decision in words (docs/decision.md): "Ship",
"Don't ship", "No decision" for a cancelled run, nothing before the decision exists. The
portal sends the list by its persisted hash, so this also proves its compiled plan
(server/api/http/compiled_documents.py) answers the decision from the list's read."""

from __future__ import annotations

from typing import Any

from playwright.async_api import expect

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.scenarios import CREATE, finalized, scripted_setup
from server.workspaces.roles import Role
from tests.portal.harness import axe_violations, sign_in

CANCEL = "mutation($id: ID!) { cancelComparison(id: $id) { status } }"


async def test_the_list_says_each_decision_in_words(
    postgres_backend: Backend,
    portal_page: Any,
) -> None:
    backend, page = postgres_backend, portal_page
    ws = await make_workspace(backend.sessionmaker)
    member = ws.tokens[Role.MEMBER]
    # Both cohorts pass every case: the candidate ships; failing every case, it does not.
    same = await scripted_setup(backend.sessionmaker, ws, [["P"] * 20, ["P"] * 20])
    _, shipped = await finalized(backend, same, trialsPerCase=1, label="same answers")
    assert shipped["decision"]["outcome"] == "SHIP", shipped["decision"]
    worse = await scripted_setup(backend.sessionmaker, ws, [["F"] * 20, ["P"] * 20])
    _, blocked = await finalized(backend, worse, trialsPerCase=1, label="worse answers")
    assert blocked["decision"]["outcome"] == "DONT_SHIP", blocked["decision"]
    made = await backend.gql(CREATE, {"input": same.input(label="cancelled run")}, token=member)
    (await backend.gql(CANCEL, {"id": made.ok()["createComparison"]["id"]}, token=member)).ok()
    waiting_input = same.input(label="not started")
    (await backend.gql(CREATE, {"input": waiting_input}, token=member)).ok()

    await sign_in(page, backend.base_url, member)
    table = page.get_by_role("table", name="Comparisons")
    await expect(table.get_by_role("columnheader", name="Decision")).to_have_count(1)
    for label, words in (
        ("same answers", "Ship"),
        ("worse answers", "Don't ship"),
        ("cancelled run", "No decision"),
    ):
        row = table.get_by_role("row").filter(has_text=label)
        await expect(row.get_by_role("cell", name=words, exact=True)).to_have_count(1)
    waiting = table.get_by_role("row").filter(has_text="not started")
    for words in ("Ship", "Don't ship", "More data needed", "No decision"):
        await expect(waiting.get_by_role("cell", name=words, exact=True)).to_have_count(0)
    assert await axe_violations(page) == []
    assert page.console_errors == []
