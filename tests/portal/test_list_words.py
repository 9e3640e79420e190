"""The comparisons list at phone width: "Cancelled" on one line, and a run's cost as the CLI
and the report write it (issue 34 g)."""

from __future__ import annotations

from typing import Any

from playwright.async_api import expect

from bench.kit.factories import make_comparison_setup, make_workspace
from bench.kit.harness import Backend
from bench.kit.scenarios import CREATE, run_comparison, wait_finalized
from server.money import dollars
from server.workspaces.roles import Role
from tests.portal.harness import sign_in

LINES = """(cell) => { const tops = new Set();
  const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const range = document.createRange(); range.selectNodeContents(node);
    for (const r of range.getClientRects()) tops.add(Math.round(r.top));
  }
  return tops.size; }"""
"""How many lines a cell's text takes (its text's boxes only, not its elements')."""


async def test_the_list_keeps_status_words_whole_and_money_as_everywhere(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    ws = await make_workspace(sqlite_backend.sessionmaker)
    setup = await make_comparison_setup(
        sqlite_backend.sessionmaker, ws, cases=4, output_cents_per_million_tokens=1000.0
    )
    member = ws.tokens[Role.MEMBER]
    done_id = await run_comparison(
        sqlite_backend, member, setup.input(trialsPerCase=1, label="done run")
    )
    await wait_finalized(sqlite_backend, member, done_id)
    made = await sqlite_backend.gql(
        CREATE, {"input": setup.input(label="cancelled run")}, token=member
    )
    cancelled_id = made.ok()["createComparison"]["id"]
    cancel = "mutation($id: ID!) { cancelComparison(id: $id) { status } }"
    (await sqlite_backend.gql(cancel, {"id": cancelled_id}, token=member)).ok()
    spent_query = "query($id: ID!) { comparison(id: $id) { spentCentsSoFar } }"
    spent = (await sqlite_backend.gql(spent_query, {"id": done_id}, token=member)).ok()
    cents = spent["comparison"]["spentCentsSoFar"]
    assert 0 < cents < 0.1

    await page.set_viewport_size({"width": 390, "height": 844})
    await sign_in(page, sqlite_backend.base_url, member)
    table = page.get_by_role("table").first
    done_row = table.get_by_role("row").filter(has_text="done run")
    spend = done_row.get_by_role("cell", name=dollars(cents), exact=True)
    await expect(spend).to_have_count(1)  # as the CLI and the report write it
    row = table.get_by_role("row").filter(has_text="cancelled run")
    cell = row.get_by_role("cell", name="Cancelled", exact=True)
    await expect(cell).to_have_count(1)
    assert await cell.evaluate(LINES) == 1  # one line: not "Cancel" / "led"
