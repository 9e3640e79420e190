"""The run diff page shows a case's two trajectories side by side (docs/domain.md,
"Trajectories in runs"): a `region` "Trajectory (baseline)" and "Trajectory (candidate)",
steps aligned by tool name and order, a differing tool and a step one side only took marked
in words; the steps' texts render as text, never as markup."""

from __future__ import annotations

from typing import Any

from playwright.async_api import expect

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.portal.harness import axe_violations, screenshot, sign_in
from tests.server.runs.api import experiment, import_run

XSS = '<img src=x onerror="window.__xss=1"> <script>window.__xss=1</script>'


def llm(answer: str | None = None) -> dict[str, Any]:
    return {
        "kind": "LLM",
        "name": "chat gpt-t",
        "model": "gpt-t",
        "outputMessages": [{"role": "assistant", "content": answer}],
    }


def tool(name: str) -> dict[str, Any]:
    return {
        "kind": "TOOL",
        "name": f"execute_tool {name}",
        "toolName": name,
        "arguments": {"order": "A-7"},
        "result": "done",
    }


def run_items(passed: bool, trajectory: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {
            "datasetItemId": "c-00",
            "input": "Refund order A-7",
            "trials": [{"passed": passed, "output": "ok", "trajectory": trajectory}],
        }
    ]


async def test_a_cases_trajectories_side_by_side_with_differences_in_words(
    sqlite_backend: Backend, portal_page: Any
) -> None:
    page = portal_page
    backend = sqlite_backend
    ws = await make_workspace(backend.sessionmaker)
    member = ws.tokens[Role.MEMBER]
    exp = await experiment(backend, member, "agents")
    base_steps = [llm(), tool("lookup_order"), tool("refund_order"), llm(XSS)]
    cand_steps = [llm(), tool("lookup_order"), tool("escalate"), llm("Escalated."), tool("notify")]
    baseline = await import_run(backend, member, exp, run_items(True, base_steps), key="b")
    candidate = await import_run(backend, member, exp, run_items(False, cand_steps), key="c")

    await sign_in(
        page,
        backend.base_url,
        ws.tokens[Role.VIEWER],
        f"/experiments/{exp}/diff?candidate={candidate}&baseline={baseline}",
    )
    await page.get_by_role("heading", name="Run diff").wait_for()
    await page.get_by_role("button", name="Show trajectories of case c-00").click()

    left = page.get_by_role("region", name="Trajectory (baseline)", exact=True)
    right = page.get_by_role("region", name="Trajectory (candidate)", exact=True)
    await expect(left).to_be_visible()
    await expect(right).to_be_visible()
    await expect(page.get_by_text("2 steps differ.")).to_be_visible()
    left_steps = left.get_by_role("list", name="Steps").get_by_role("listitem")
    right_steps = right.get_by_role("list", name="Steps").get_by_role("listitem")
    # Aligned: the same number of rows, row by row.
    await expect(left_steps).to_have_count(5)
    await expect(right_steps).to_have_count(5)
    for index, (baseline_name, candidate_name) in enumerate(
        [
            ("LLM chat gpt-t", "LLM chat gpt-t"),
            ("TOOL lookup_order", "TOOL lookup_order"),
            ("TOOL refund_order (a different tool)", "TOOL escalate (a different tool)"),
            ("LLM chat gpt-t", "LLM chat gpt-t"),
            ("no step (only in the candidate)", "TOOL notify (only in the candidate)"),
        ]
    ):
        await expect(left_steps.nth(index)).to_have_accessible_name(baseline_name)
        await expect(right_steps.nth(index)).to_have_accessible_name(candidate_name)
    # The marks are words on the page, not colour alone.
    await expect(right_steps.nth(4)).to_contain_text("only in the candidate")
    await expect(left_steps.nth(2)).to_contain_text("a different tool")
    # Model text is untrusted: shown as text.
    await expect(left_steps.nth(3)).to_contain_text(XSS)
    assert await page.evaluate("window.__xss") is None
    assert await axe_violations(page) == []
    await screenshot(page, "run-diff-trajectories")

    await page.get_by_role("button", name="Hide trajectories of case c-00").click()
    await expect(left).to_have_count(0)
