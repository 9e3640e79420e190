"""The comparison's case dialog shows the candidate's and the baseline's trajectories side by
side, as the run diff does (web/src/components/Trajectories.tsx): a `region` "Trajectory
(baseline)" and "Trajectory (candidate)", each trial one model call with the tool calls it
asked for, a call asking for different tools marked in words; the texts render as text."""

from __future__ import annotations

import re
from typing import Any

from playwright.async_api import expect

from bench.kit.factories import make_comparison_setup, make_workspace
from bench.kit.harness import Backend
from bench.kit.scenarios import run_comparison, wait_finalized
from server.connections.service import Simulation
from server.workspaces.roles import Role
from tests.portal.harness import axe_violations, sign_in

XSS = '<img src=x onerror="window.__xss=1">'


def answer(tool: str, text: str) -> dict[str, Any]:
    return {"output": text, "toolCalls": [{"name": tool, "arguments": {"order": "A-7"}}]}


async def test_the_case_dialog_shows_both_trajectories_aligned_with_differences_marked(
    sqlite_backend: Backend, portal_page: Any
) -> None:
    page = portal_page
    backend = sqlite_backend
    ws = await make_workspace(backend.sessionmaker)
    cases = [
        {"datasetItemId": f"t-{i}", "input": {"question": f"Order A-7 ({i})?"}, "expected": "done"}
        for i in range(3)
    ]
    script = {
        c["datasetItemId"]: {
            "models": {
                "model-0": answer("refund_order", f"{XSS} refunded"),
                "model-1": answer("lookup_order", "done"),
            }
        }
        for c in cases
    }
    setup = await make_comparison_setup(
        backend.sessionmaker, ws, case_list=cases, simulation=Simulation(script=script)
    )
    member = ws.tokens[Role.MEMBER]
    comparison_id = await run_comparison(
        backend,
        member,
        setup.input(trialsPerCase=1, cohorts=setup.labelled_cohorts("new", "old")),
    )
    assert (await wait_finalized(backend, member, comparison_id))["verdictState"] == "FINALIZED"
    await sign_in(page, backend.base_url, ws.tokens[Role.VIEWER], f"/comparisons/{comparison_id}")
    failures = page.get_by_role("region", name="Failure analysis")
    await failures.get_by_role("tab", name=re.compile(r"^All \(\d+\)$")).click()
    await (
        failures.get_by_role("row", name=re.compile(r"^t-1 "))
        .get_by_role("button", name="Debug")
        .click()
    )
    dialog = page.get_by_role("dialog", name="Case t-1")
    trajectories = dialog.get_by_role("region", name="Trajectories", exact=True)
    await expect(trajectories).to_contain_text("new (candidate) against old")
    left = trajectories.get_by_role("region", name="Trajectory (baseline)", exact=True)
    right = trajectories.get_by_role("region", name="Trajectory (candidate)", exact=True)
    await expect(left).to_be_visible()
    await expect(right).to_be_visible()
    await expect(trajectories).to_contain_text("1 step differs.")
    left_steps = left.get_by_role("list", name="Steps").get_by_role("listitem")
    right_steps = right.get_by_role("list", name="Steps").get_by_role("listitem")
    await expect(left_steps).to_have_count(1)
    await expect(right_steps).to_have_count(1)
    await expect(left_steps.first).to_have_accessible_name("LLM chat (asks for different tools)")
    await expect(left_steps.first).to_contain_text("asks for lookup_order")
    await expect(right_steps.first).to_contain_text("asks for refund_order")
    await expect(right_steps.first).to_contain_text(f"{XSS} refunded")  # as text
    await expect(left_steps.first).to_contain_text('"order": "A-7"')
    assert await dialog.get_by_role("img").count() == 0
    assert await page.evaluate("typeof window.__xss") == "undefined"
    assert await axe_violations(page) == []
    assert page.console_errors == []
