"""A run's end on its page and the controls that spend or stop (issue 34 b, d): a finished
run's subscription ends without a "Connection lost" banner; Re-run and Cancel ask first in
an `alertdialog`, Re-run with what the run may spend."""

from __future__ import annotations

import re
from typing import Any

from playwright.async_api import expect

from bench.kit.factories import make_comparison_setup, make_workspace
from bench.kit.harness import Backend
from bench.kit.scenarios import CREATE
from bench.kit.waiting import eventually
from server.connections.service import Simulation
from server.workspaces.roles import Role
from tests.portal.harness import axe_violations, sign_in

CASES, TRIALS = 6, 1
LIST = "{ comparisons(first: 20) { totalCount edges { node { id status } } } }"


async def _comparison(
    backend: Backend, *, latency_ms: int = 30, **spec: Any
) -> tuple[str, str]:
    ws = await make_workspace(backend.sessionmaker)
    setup = await make_comparison_setup(
        backend.sessionmaker,
        ws,
        cases=CASES,
        simulation=Simulation(latency_ms=latency_ms),
        input_cents_per_million_tokens=100.0,
        output_cents_per_million_tokens=1000.0,
    )
    cohorts = setup.labelled_cohorts("v2", "v1")
    made = setup.input(trialsPerCase=TRIALS, label="controls", cohorts=cohorts, **spec)
    member = ws.tokens[Role.MEMBER]
    created = await backend.gql(CREATE, {"input": made}, token=member)
    return created.ok()["createComparison"]["id"], member


async def test_a_finished_run_ends_its_subscription_without_a_lost_connection(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    # Each call takes 2 s, so the run (12 calls, 8 at a time) outlasts the page's opening
    # of its subscription even on a slow host: a run that ended first opens no socket.
    comparison_id, member = await _comparison(sqlite_backend, latency_ms=2000)
    sockets: list[Any] = []
    closed: list[Any] = []

    def opened(socket: Any) -> None:
        sockets.append(socket)
        socket.on("close", lambda s: closed.append(s))

    page.on("websocket", opened)
    await sign_in(page, sqlite_backend.base_url, member, f"/comparisons/{comparison_id}")
    await page.get_by_role("button", name="Start").click()
    await eventually(lambda: len(sockets), until=lambda n: n >= 1, what="a websocket")
    main = page.get_by_role("main")
    await expect(main).to_contain_text(f"{CASES * TRIALS * 2} of {CASES * TRIALS * 2} calls ran")
    # The live view's subscription completed and the socket, with nothing left on it, closed.
    await eventually(
        lambda: len(closed), until=lambda n: n == len(sockets), what="the websocket closed"
    )
    await page.evaluate("() => new Promise((done) => requestAnimationFrame(() => done(null)))")
    banner = page.get_by_role("status").filter(has_text="Connection lost")
    await expect(banner).to_have_count(0)
    assert page.console_errors == []


async def test_cancel_and_rerun_ask_first_and_rerun_shows_its_cost_bound(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    comparison_id, member = await _comparison(sqlite_backend, budgetCapCents=50.0)
    await sign_in(page, sqlite_backend.base_url, member, f"/comparisons/{comparison_id}")

    await page.get_by_role("button", name="Cancel").click()
    ask = page.get_by_role("alertdialog", name="Cancel this comparison?")
    await expect(ask.get_by_role("button", name="Cancel comparison")).to_be_visible()
    assert await axe_violations(page) == []
    await ask.get_by_role("button", name="Keep it").click()  # back: nothing happens
    await expect(ask).to_have_count(0)
    status = "query($id: ID!) { comparison(id: $id) { status } }"
    found = await sqlite_backend.gql(status, {"id": comparison_id}, token=member)
    assert found.ok()["comparison"]["status"] == "SETUP"

    await page.get_by_role("button", name="Cancel").click()
    await page.keyboard.press("Escape")  # Escape goes back too
    await expect(ask).to_have_count(0)
    await page.get_by_role("button", name="Cancel").click()
    await ask.get_by_role("button", name="Cancel comparison").click()
    main = page.get_by_role("main")
    await expect(main).to_contain_text("Status: Cancelled")

    await page.get_by_role("button", name="Re-run").click()
    rerun = page.get_by_role("alertdialog", name="Re-run this comparison?")
    await expect(rerun).to_contain_text(
        re.compile(r"[Uu]p to (\$[0-9.,]+|[0-9.]+ ¢) if every call uses its max output tokens")
    )
    await expect(rerun).to_contain_text(re.compile(r"\$0\.50\b.*budget cap|budget cap.*\$0\.50"))
    assert await axe_violations(page) == []
    await rerun.get_by_role("button", name="Keep it").click()
    await expect(rerun).to_have_count(0)
    listed = (await sqlite_backend.gql(LIST, token=member)).ok()["comparisons"]
    assert listed["totalCount"] == 1  # no re-run made

    await page.get_by_role("button", name="Re-run").click()
    await rerun.get_by_role("button", name="Re-run").click()
    await page.wait_for_url(re.compile(r"/comparisons/(?!" + comparison_id + r")cmp_\w+$"))
    listed = (await sqlite_backend.gql(LIST, token=member)).ok()["comparisons"]
    assert listed["totalCount"] == 2
    assert page.console_errors == []
