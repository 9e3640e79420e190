"""A running comparison on its page: live progress, chips, the spend meter, "Run in
background", Cancel and Re-run; and the page riding out a server restart mid-run."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
from playwright.async_api import TimeoutError as PlaywrightTimeout
from playwright.async_api import expect

from bench.kit.factories import make_comparison_setup, make_workspace
from bench.kit.harness import Backend
from bench.kit.scenarios import CREATE
from bench.kit.waiting import eventually
from server.connections.service import Simulation
from server.workspaces.roles import Role
from tests.demo_server import free_port
from tests.portal.harness import (
    Requests,
    axe_violations,
    screenshot,
    sign_in,
)

CASES, TRIALS, COHORTS = 60, 3, 2
CALLS = CASES * TRIALS * COHORTS


async def progress_value(progress: Any, timeout: float = 30_000) -> float:
    return float(await progress.evaluate("element => element.value", timeout=timeout))


async def wait_progress_above(progress: Any, floor: float, timeout: float = 20) -> float:
    """The progress bar's value once it is above `floor` (polled: the bar moves by itself)."""
    return await eventually(
        lambda: progress_value(progress),
        until=lambda value: value > floor,
        timeout=timeout,
        interval=0.05,
        what=f"the progress bar above {floor}",
    )


async def test_a_running_comparison_shows_live_progress_and_cancels(
    sqlite_backend: Backend,
    portal_page: Any,
) -> None:
    page = portal_page
    ws = await make_workspace(sqlite_backend.sessionmaker)
    setup = await make_comparison_setup(
        sqlite_backend.sessionmaker,
        ws,
        cases=CASES,
        simulation=Simulation(latency_ms=80),
        output_cents_per_million_tokens=1000.0,
        max_concurrency=3,
    )
    cohorts = setup.labelled_cohorts("v2", "v1")
    spec = setup.input(trialsPerCase=TRIALS, budgetCapCents=500.0, label="live", cohorts=cohorts)
    created = await sqlite_backend.gql(CREATE, {"input": spec}, token=ws.tokens[Role.MEMBER])
    comparison_id = created.ok()["createComparison"]["id"]
    requests = Requests(page, sqlite_backend.base_url)
    await sign_in(
        page, sqlite_backend.base_url, ws.tokens[Role.MEMBER], f"/comparisons/{comparison_id}"
    )
    await page.get_by_role("heading", name="live").wait_for()
    await page.get_by_role("button", name="Cancel").wait_for()
    assert await axe_violations(page) == []  # SETUP
    await page.get_by_role("button", name="Start").click()

    progress = page.get_by_role("progressbar", name="Progress")
    await progress.wait_for()
    first = await wait_progress_above(progress, 0)
    main = page.get_by_role("main")
    await expect(main).to_contain_text(re.compile(rf"[1-9][\d,]* of {CALLS} calls"))
    cohorts = page.get_by_role("region", name="Cohorts")
    await expect(cohorts).to_contain_text("v2 (candidate): Running")
    await expect(cohorts).to_contain_text("v1: Running")
    await expect(main).to_contain_text("Time left: about")
    spend = page.get_by_role("meter", name="Spend")
    await expect(spend).to_have_attribute("max", "500")
    assert await wait_progress_above(progress, first) > first  # it moves without a reload
    assert await axe_violations(page) == []
    await screenshot(page, "comparison-running")

    await page.get_by_role("button", name="Run in background").click()
    await expect(progress).to_have_count(0)
    await expect(cohorts).to_have_count(0)
    await page.get_by_role("button", name="Show progress").click()
    await progress.wait_for()
    await page.get_by_role("button", name="Run in background").click()
    await expect(progress).to_have_count(0)

    await page.get_by_role("button", name="Cancel").click()  # still there in the background
    ask = page.get_by_role("alertdialog", name="Cancel this comparison?")
    await expect(ask).to_contain_text("No further model calls are made")
    await expect(ask.get_by_role("button", name="Keep it")).to_be_focused()
    assert await axe_violations(page) == []
    await ask.get_by_role("button", name="Keep it").click()  # asked first: nothing happens
    await expect(ask).to_be_hidden()
    await expect(page.get_by_role("button", name="Show progress")).to_be_visible()
    await page.get_by_role("button", name="Cancel").click()
    await ask.get_by_role("button", name="Cancel comparison").click()
    await expect(main).to_contain_text(re.compile(rf"Cancelled\. [\d,]+ of {CALLS} calls ran\."))
    await expect(main).to_contain_text("Status: Cancelled")
    await expect(main).to_contain_text("Last run just now")
    await expect(cohorts).to_contain_text("v2 (candidate): Stopped")  # unfinished when cancelled
    assert await axe_violations(page) == []  # ended

    await page.get_by_role("button", name="Re-run").click()
    ask = page.get_by_role("alertdialog", name="Re-run this comparison?")
    await expect(ask).to_contain_text(f"Up to {CALLS} model calls")
    await expect(ask).to_contain_text(re.compile(r"Up to \$[\d.,]+ if every call uses its max"))
    await expect(ask).to_contain_text("It stops once it has spent $5.00, its budget cap.")
    assert await axe_violations(page) == []
    await ask.get_by_role("button", name="Re-run").click()
    await page.wait_for_url(re.compile(r"/comparisons/(?!" + comparison_id + r")cmp_\w+$"))
    rerun_id = page.url.rsplit("/", 1)[1]
    await page.get_by_role("progressbar", name="Progress").wait_for()  # started, in the background
    member = ws.tokens[Role.MEMBER]
    cancel = "mutation($id: ID!) { cancelComparison(id: $id) { status } }"
    (await sqlite_backend.gql(cancel, {"id": rerun_id}, token=member)).ok()
    await expect(main).to_contain_text("Cancelled.")
    assert page.console_errors == []
    assert requests.outside() == []


async def wait_moved_or_ended(page: Any, progress: Any, floor: float, timeout: float = 30) -> None:
    """Until the progress bar is above `floor`, or the run ended and the bar made way for the
    ended view (a resumed run may finish before the page's websocket is back)."""
    main = page.get_by_role("main")

    async def moved_or_ended() -> bool:
        if "calls ran." in await main.inner_text():
            return True
        try:
            return await progress_value(progress, timeout=500) > floor
        except PlaywrightTimeout:  # gone: the ended view replaced it, seen on the next look
            return False

    await eventually(
        moved_or_ended, timeout=timeout, interval=0.05, what=f"progress above {floor} or ended"
    )


# --- a server restarted mid-run ------------------------------------------------------------


class ServeProcess:
    """`shipwise serve --demo` on a fixed port and data dir, stopped and started again."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    async def start(self) -> str:
        """Start it and wait until it serves; the token its banner printed."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("SHIPWISE_")}
        env["SHIPWISE_DATA_DIR"] = str(self.data_dir)
        self.starts += 1
        out = self.data_dir.parent / f"serve-{self.starts}.out"
        with open(out, "wb") as sink:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "server.cli", "serve", "--demo", "--port", str(self.port)],
                env=env,
                stdout=sink,
                stderr=subprocess.STDOUT,
            )
        async with httpx.AsyncClient(base_url=self.base, timeout=1) as client:

            async def token() -> str | None:
                try:
                    up = (await client.get("/healthz")).status_code == 200
                except httpx.HTTPError:
                    up = False
                found = re.search(r"Token:\s+(sw_\S+)", out.read_text())
                return found.group(1) if up and found else None

            try:
                served = await eventually(token, timeout=120, interval=0.05, what="serve started")
            except AssertionError:
                raise AssertionError(f"serve did not start: {out.read_text()[-2000:]}") from None
        assert served is not None
        return served

    async def stop(self) -> None:
        """SIGTERM, as a deploy does: it finishes its in-flight calls and hands over."""
        if self.process is not None:
            self.process.terminate()
            await asyncio.to_thread(self.process.wait, 30)
            self.process = None


def subscriptions_sent(page: Any) -> list[int | None]:
    """The `afterSeq` of every progress subscription the page sends, in order."""
    sent: list[int | None] = []

    def on_frame(payload: str | bytes) -> None:
        message = json.loads(payload)
        if message.get("type") == "subscribe" and "comparisonProgress" in str(message):
            sent.append(message["payload"]["variables"].get("afterSeq"))

    page.on("websocket", lambda ws: ws.on("framesent", on_frame))
    return sent


async def gql(base: str, token: str, query: str, variables: dict[str, Any] | None = None) -> Any:
    async with httpx.AsyncClient(base_url=base, timeout=30) as client:
        response = await client.post(
            "/graphql",
            json={"query": query, "variables": variables or {}},
            headers={"Authorization": f"Bearer {token}"},
        )
    body = response.json()
    assert not body.get("errors"), body
    return body["data"]


SLOW_CONNECTION = """
mutation { createModelConnection(input: {name: "slow-sim", kind: SIMULATED, maxConcurrency: 2,
  simulation: {seed: 3, accuracy: 0.8, latencyMs: 60}}) { id } }
"""
CONFIG_ASSET = """
mutation { createAsset(input: {kind: MODEL_CONFIG, name: "slow config"}) { id } }
"""
CONFIG_VERSION = """
mutation($asset: ID!, $content: JSON!) {
  addAssetVersion(input: {assetId: $asset, content: $content}) { id } }
"""
DEMO = "{ releases { edges { node { id name } } } datasets { edges { node { id } } } }"


async def slow_demo_comparison(base: str, token: str) -> str:
    """The demo's two releases, each on a slower SIMULATED connection: 60 cases × 2 trials ×
    2 cohorts at 2 calls at a time, about 7 s of calls. Its id (SETUP)."""
    connection = (await gql(base, token, SLOW_CONNECTION))["createModelConnection"]["id"]
    asset = (await gql(base, token, CONFIG_ASSET))["createAsset"]["id"]
    content = {"connectionId": connection, "model": "sim-slow", "maxOutputTokens": 16}
    version = (await gql(base, token, CONFIG_VERSION, {"asset": asset, "content": content}))[
        "addAssetVersion"
    ]["id"]
    demo = await gql(base, token, DEMO)
    releases = {e["node"]["name"]: e["node"]["id"] for e in demo["releases"]["edges"]}
    cohorts = [
        {
            "kind": "VARIANT",
            "baseReleaseId": releases[name],
            "overrides": [{"role": "MODEL_CONFIG", "assetVersionId": version}],
            "label": label,
        }
        for name, label in (("capitals v2", "v2 slow"), ("capitals v1", "v1 slow"))
    ]
    spec = {
        "datasetId": demo["datasets"]["edges"][0]["node"]["id"],
        "cohorts": cohorts,
        "trialsPerCase": 2,
        "label": "restarted",
    }
    created = await gql(base, token, CREATE, {"input": spec})
    comparison_id: str = created["createComparison"]["id"]
    return comparison_id


async def test_the_page_rides_out_a_server_restart_mid_run(
    tmp_path: Path,
    portal_page: Any,
) -> None:
    page = portal_page
    server = ServeProcess(tmp_path / "data")
    token = await server.start()
    try:
        comparison_id = await slow_demo_comparison(server.base, token)
        requests = Requests(page, server.base)
        asked_after = subscriptions_sent(page)
        await sign_in(page, server.base, token, f"/comparisons/{comparison_id}")
        await page.get_by_role("button", name="Start").click()
        progress = page.get_by_role("progressbar", name="Progress")
        await progress.wait_for()
        before = await wait_progress_above(progress, 10)

        await page.evaluate("window.__samePage = true")
        await server.stop()
        lost = page.get_by_role("status").filter(has_text="Connection lost — retrying")
        await lost.wait_for()
        stopped_at = await progress_value(progress)
        assert stopped_at >= before
        await server.start()

        await expect(lost).to_have_count(0, timeout=20_000)
        await wait_moved_or_ended(page, progress, stopped_at)  # live again, on the same page
        # The first subscribe asked after the page's own snapshot; the one after the restart
        # after the last seq received, not from the start again.
        assert len(asked_after) >= 2, asked_after
        assert asked_after[-1] is not None and asked_after[-1] > (asked_after[0] or 0)
        main = page.get_by_role("main")
        await expect(main).to_contain_text("Done. 240 of 240 calls ran.", timeout=30_000)
        chips = page.get_by_role("region", name="Cohorts")
        await expect(chips).to_contain_text("v2 slow (candidate): Done")
        await expect(chips).to_contain_text("v1 slow: Done")
        await page.get_by_role("region", name="Verdict").wait_for(timeout=30_000)
        assert await page.evaluate("window.__samePage") is True  # never reloaded
        assert requests.outside() == []
    finally:
        await server.stop()
