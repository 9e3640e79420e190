"""The big run, end to end: 100,000 cases × 3 cohorts × 3 trials (900,000 calls) against the
0 ms fake provider (its own process) on PostgreSQL + Redis with two `shipwise worker`s and one
`shipwise serve`: create → DONE → FINALIZED (hosted runs COMPLETED) → the decision readable.

    .venv/bin/python bench/scale.py                       # full size (tens of minutes)
    .venv/bin/python bench/scale.py --smoke               # a few seconds: it still runs

Prints calls/s over the whole dispatch (start → DONE), finalization seconds (the run's end →
the committed verdict) and the hosted runs' (→ COMPLETED), each process's peak RSS (sampled
every 50 ms), the database's size, the portal's verdict-visible time for the comparison
(median of cold loads in Chromium: bench/portal.py's measure; skipped without a built
portal or Chromium) and the p99 of the comparison's case page at 50 connections (wrk, the
portal's own documents: the case list alone, then a page load's three reads in turn; the
larger p99 is the figure). The fake's log (bench/fake_provider.py) must show every trial
answered once. Ends with one JSON line with
calls_per_s, finalize_s, max_rss_mb (the largest process), verdict_visible_ms and
case_page_p99_ms.

Targets (issue 38): ≥ 3,000 calls/s; finalization ≤ 10 s; every process ≤ 500 MB; verdict
visible ≤ 1 s; case page p99 ≤ 250 ms at 50 clients.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx
from cryptography.fernet import Fernet
from sqlalchemy import func, select, text, update

from bench.dispatch import REDIS_URL, SETTLE_SECONDS, child_env, start_fake, wait_until_polling
from bench.harness import (
    ADMIN_URL,
    SMOKE_HELP,
    PeakRss,
    create_migrated_database,
    drop_database,
    emit,
    free_port,
    shipwise,
    worker_command,
)
from bench.kit.factories import actor_for, make_comparison, make_comparison_setup, make_workspace
from bench.kit.portal_documents import persisted_body
from bench.wrk import CLIENTS, require_wrk, run_wrk, write_lua
from server.comparisons import lifecycle
from server.comparisons.models import TERMINAL_STATUSES, Comparison
from server.db import create_engine, create_sessionmaker
from server.runs.models import Run, RunSource, RunStatus
from server.runtime.redis import ArqQueue, RedisStreamEventBus
from server.security import SecretBox
from server.verdicts.models import ComparisonVerdict, VerdictState
from server.workspaces.models import Workspace
from server.workspaces.roles import Role

ROOT = Path(__file__).resolve().parents[1]
CONCURRENCY = 64
CHECKS = [{"kind": "CONTAINS"}]
TARGETS = {
    "calls_per_s": 3000,
    "finalize_s": 10.0,
    "max_rss_mb": 500,
    "verdict_visible_ms": 1000,
    "case_page_p99_ms": 250,
}
CASE_PAGE_VARIABLES = {"filter": "ALL", "baseline": 1, "first": 50, "after": None}
"""The portal's case list of the comparison on its "All" tab: 50 cases, each cohort's trials
with their outputs (the "Regressions" tab it opens on is empty when nothing regressed)."""
DECISION = """
query($id: ID!) { comparison(id: $id) { status verdictState
  scorecard { usableCases verdicts { baselineCohortIndex outcome summary } } } }
"""


def _env(database_url: str, key: str, queue_name: str, workdir: Path) -> dict[str, str]:
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith("SHIPWISE_")},
        "SHIPWISE_DATABASE_URL": database_url,
        "SHIPWISE_REDIS_URL": REDIS_URL,
        "SHIPWISE_SECRET_KEY": key,
        "SHIPWISE_QUEUE_NAME": queue_name,
        "SHIPWISE_DATA_DIR": str(workdir / "data"),
        "SHIPWISE_LOG_LEVEL": "WARNING",
    }


def _start(command: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as output:
        return subprocess.Popen(
            command, env=child_env(env), stdout=output, stderr=subprocess.STDOUT, cwd=ROOT
        )


async def _healthy(port: int) -> None:
    deadline = time.monotonic() + 300  # a bound for a loaded host's start, not a delay
    async with httpx.AsyncClient() as client:
        while time.monotonic() < deadline:
            try:
                if (await client.get(f"http://127.0.0.1:{port}/healthz")).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            await asyncio.sleep(0.1)
    raise SystemExit("the API never answered /healthz")


def _case_page(
    port: int, token: str, comparison_id: str, seconds: int, workdir: Path, warm: bool = True
) -> dict[str, tuple[float, float, float, int, int]]:
    """wrk at 50 connections on the portal's own documents sent as the portal sends them, by
    their persisted hash (bench/kit/portal_documents.py): the case list alone, then a page
    load's three reads in turn; each (req/s, p50, p99, errors, requests)."""
    url = f"http://127.0.0.1:{port}/graphql"
    variables = {"id": comparison_id, **CASE_PAGE_VARIABLES}
    cases = persisted_body("ComparisonCases", variables)
    page = [
        persisted_body("ComparisonPage", {"id": comparison_id}),
        persisted_body("ComparisonScorecard", {"id": comparison_id}),
        cases,
    ]
    for body in page:
        headers = {"Authorization": f"Bearer {token}"}
        answer = httpx.post(url, json=body, headers=headers, timeout=60)
        if answer.status_code != 200 or "errors" in answer.json():
            raise SystemExit(f"the case page's read failed: {answer.text[:2000]}")
    figures = {}
    for name, bodies in (("cases", [cases]), ("page", page)):
        lua = write_lua(workdir / f"{name}.lua", bodies, token)
        if warm:  # a smoke run goes without
            run_wrk(url, lua, 2)
        figures[name] = run_wrk(url, lua, seconds)
    return figures


def fake_log(base_url: str, comparison_id: str) -> dict[str, Any]:
    """The fake's log of one comparison (bench/fake_provider.py); exits on a trial answered
    twice."""
    root = base_url.removesuffix("/v1")
    log: dict[str, Any] = httpx.get(
        f"{root}/log", params={"comparison": comparison_id}, timeout=60
    ).json()
    emit(
        f"the fake's log: {log['calls']:,} calls, {log['distinct']:,} distinct trials, "
        f"{log['answered_twice']} answered twice"
    )
    if log["answered_twice"]:
        raise SystemExit(f"trials answered twice: {log['examples']}")
    return log


def _verdict_visible(base_url: str, comparison_id: str, token: str, loads: int) -> float | None:
    """The median, over `loads` cold loads of the comparison's page in Chromium (a new
    context each: no cache), of the time from navigation to the "Verdict" region visible
    (as bench/portal.py); None without a built portal or Chromium."""
    from playwright.sync_api import sync_playwright

    from bench.kit.browser import CHROMIUM_ARGS, chromium_path
    from server.portal.files import DEFAULT_DIR

    executable = chromium_path()
    if loads < 1 or not (DEFAULT_DIR / "index.html").is_file() or executable is None:
        emit("verdict visible: skipped (no built portal, no Chromium, or --loads 0)")
        return None
    page_url = f"{base_url}/comparisons/{comparison_id}"
    times: list[float] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        for index in range(loads + 1):  # the first is a warm-up: the server's first queries
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            context.add_init_script(
                f"sessionStorage.setItem('shipwise.token', {json.dumps(token)})"
            )
            page = context.new_page()
            requests: list[tuple[str, Any]] = []
            page.on("requestfinished", partial(_record, requests))
            page.goto(page_url, wait_until="commit")
            page.get_by_role("region", name="Verdict").wait_for(state="visible", timeout=30_000)
            if index:
                times.append(float(page.evaluate("performance.now()")))
                emit(f"  cold load {index}: {times[-1]:.0f} ms; {_slowest(requests)}")
            context.close()
        browser.close()
    median = statistics.median(times)
    emit(f"verdict visible: median {median:.0f} ms of {loads} cold loads (target ≤ 1,000)")
    return round(median, 1)


def _record(requests: list[tuple[str, Any]], request: Any) -> None:
    requests.append((_operation(request), request.timing))


def _operation(request: Any) -> str:
    """A request's GraphQL operation name, else its path."""
    if request.method == "POST" and request.post_data:
        try:
            name = json.loads(request.post_data).get("operationName")
        except ValueError:
            name = None
        if name:
            return str(name)
    return str(request.url).split("?")[0].rsplit("/", 1)[-1] or "/"


def _slowest(requests: list[tuple[str, Any]], shown: int = 5) -> str:
    """The slowest requests of a load, each as name, start and duration in ms (Playwright's
    `Request.timing`: `startTime` since the epoch, `responseEnd` since that start)."""
    if not requests:
        return "no requests"
    first = min(timing["startTime"] for _, timing in requests)
    spans = sorted(
        ((timing["responseEnd"], timing["startTime"] - first, name) for name, timing in requests),
        reverse=True,
    )
    return ", ".join(f"{name} at {at:.0f} took {took:.0f}" for took, at, name in spans[:shown])


async def _wait(sessionmaker: Any, what: str, check: Any, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not await check(sessionmaker):
        if time.monotonic() > deadline:
            raise SystemExit(f"not {what} within {seconds:.0f} s")
        await asyncio.sleep(0.1)


async def _settled(sessionmaker: Any, comparison_id: str) -> None:
    """The verdict FINALIZED, then the hosted runs COMPLETED."""

    async def finalized(maker: Any) -> bool:
        async with maker() as session:
            state = await session.scalar(
                select(ComparisonVerdict.state).where(
                    ComparisonVerdict.comparison_id == comparison_id
                )
            )
        return bool(state == VerdictState.FINALIZED)

    await _wait(sessionmaker, "FINALIZED", finalized, 600)

    async def completed(maker: Any) -> bool:
        async with maker() as session:
            left = await session.scalar(
                select(func.count())
                .select_from(Run)
                .where(
                    Run.comparison_id == comparison_id,
                    Run.source == RunSource.HOSTED,
                    Run.status != RunStatus.COMPLETED,
                )
            )
        return bool(left == 0)

    await _wait(sessionmaker, "hosted runs COMPLETED", completed, 600)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    key = Fernet.generate_key().decode()
    queue_name = f"shipwise-scale-{secrets.token_hex(4)}"
    database_url, name = await create_migrated_database(ADMIN_URL)
    workdir = Path(tempfile.mkdtemp(prefix="shipwise-scale-"))
    env = _env(database_url, key, queue_name, workdir)
    fake, base_url = start_fake(0.0)
    processes: dict[str, subprocess.Popen[bytes]] = {}
    samplers: dict[str, PeakRss] = {}
    engine = create_engine(database_url)
    sessionmaker = create_sessionmaker(engine)
    queue = ArqQueue(REDIS_URL, queue_name=queue_name)
    events = RedisStreamEventBus(REDIS_URL)
    try:
        ws = await make_workspace(sessionmaker, max_calls_per_comparison=2_000_000)
        async with sessionmaker() as session, session.begin():  # 50 readers outrun 600 a minute
            await session.execute(
                update(Workspace)
                .where(Workspace.id == ws.id)
                .values(requests_per_minute_per_token=10**9)
            )
        started = time.perf_counter()
        setup = await make_comparison_setup(
            sessionmaker,
            ws,
            cases=args.cases,
            cohorts=args.cohorts,
            connection_kind="OPENAI_COMPATIBLE",
            base_url=base_url,
            secret_box=SecretBox(key),
            max_concurrency=CONCURRENCY,
            max_output_tokens=16,
        )
        comparison_id = await make_comparison(
            sessionmaker, setup, trials=args.trials, checks=CHECKS
        )
        calls = args.cases * args.cohorts * args.trials
        emit(
            f"{calls:,} calls ({args.cases:,} cases × {args.cohorts} cohorts × {args.trials} "
            f"trials); set up in {time.perf_counter() - started:.1f} s; load {_load()}"
        )
        port = free_port()
        for index in (1, 2):
            processes[f"worker {index}"] = _start(
                [sys.executable, "-m", "server.cli", *worker_command(smoke=args.smoke)],
                env,
                workdir / f"worker{index}.log",
            )
        processes["api"] = _start(shipwise("serve", "--port", str(port)), env, workdir / "api.log")
        for label, process in processes.items():
            samplers[label] = PeakRss(process.pid).__enter__()
        await _healthy(port)
        await wait_until_polling(queue_name, 0.0 if args.smoke else SETTLE_SECONDS)

        started = time.perf_counter()
        await lifecycle.start(
            sessionmaker=sessionmaker,
            events=events,
            queue=queue,
            actor=actor_for(ws, Role.MEMBER),
            comparison_id=comparison_id,
        )

        async def ended(maker: Any) -> bool:
            async with maker() as session:
                status = await session.scalar(
                    select(Comparison.status).where(Comparison.id == comparison_id)
                )
            return bool(status in TERMINAL_STATUSES)

        progress = asyncio.create_task(_progress(sessionmaker, comparison_id, started))
        try:
            await _wait(sessionmaker, "DONE", ended, args.timeout)
        finally:
            progress.cancel()
        dispatch_s = time.perf_counter() - started
        log = fake_log(base_url, comparison_id)

        await _settled(sessionmaker, comparison_id)
        async with sessionmaker() as session:
            row = await session.get(Comparison, comparison_id)
            verdict = await session.get(ComparisonVerdict, comparison_id)
            assert row is not None and verdict is not None
            assert row.ended_at is not None and verdict.finalized_at is not None
            finalize_s = (verdict.finalized_at - row.ended_at).total_seconds()
            hosted_s = await session.scalar(
                select(func.max(Run.completed_at)).where(Run.comparison_id == comparison_id)
            )
            size = await session.scalar(text("SELECT pg_database_size(current_database())"))
        if log["calls"] != row.done_calls + row.failed_calls:
            raise SystemExit(f"the fake's log and the comparison disagree: {log}")
        emit(
            f"dispatch: {dispatch_s:.1f} s → {row.done_calls / dispatch_s:,.0f} calls/s "
            f"(target ≥ {TARGETS['calls_per_s']:,}); status {row.status.value}, "
            f"{row.done_calls:,} calls, {row.failed_calls:,} failed; load {_load()}"
        )
        emit(
            f"finalization: {finalize_s:.2f} s from the run's end to the verdict (target ≤ "
            f"{TARGETS['finalize_s']:.0f}); hosted runs COMPLETED "
            f"{((hosted_s or verdict.finalized_at) - verdict.finalized_at).total_seconds():.2f} s "
            "after it"
        )
        base = f"http://127.0.0.1:{port}"
        async with httpx.AsyncClient(base_url=base, timeout=60) as client:
            decision = (
                await client.post(
                    "/graphql",
                    json={"query": DECISION, "variables": {"id": comparison_id}},
                    headers={"Authorization": f"Bearer {ws.owner}"},
                )
            ).json()
        scorecard = decision["data"]["comparison"]["scorecard"]
        emit(f"decision: {[v['summary'] for v in scorecard['verdicts']]}")
        pages = await asyncio.to_thread(
            _case_page, port, ws.owner, comparison_id, args.page_seconds, workdir, not args.smoke
        )
        for name, (rps, p50, p99_ms, errors, requests) in pages.items():
            what = "case list (All, 50 cases)" if name == "cases" else "page load's three reads"
            emit(
                f"{what} at {CLIENTS} clients: {rps:,.0f} req/s, p50 {p50:.0f} ms, p99 "
                f"{p99_ms:.0f} ms over {requests:,} requests, {errors} errors (target ≤ "
                f"{TARGETS['case_page_p99_ms']}); load {_load()}"
            )
        p99 = max(pages["cases"][2], pages["page"][2])
        visible = await asyncio.to_thread(
            _verdict_visible, base, comparison_id, ws.owner, args.loads
        )
        for sampler in samplers.values():
            sampler.__exit__()
        for label, sampler in samplers.items():
            emit(f"peak RSS {label}: {sampler.peak_mb:.0f} MB (target ≤ {TARGETS['max_rss_mb']})")
        emit(f"database size: {int(size or 0) / 2**20:,.0f} MB")
        return {
            "calls_per_s": round(row.done_calls / dispatch_s, 1),
            "finalize_s": round(finalize_s, 2),
            "max_rss_mb": round(max(s.peak_mb for s in samplers.values()), 1),
            "verdict_visible_ms": visible,
            "case_page_p99_ms": round(p99, 1) if math.isfinite(p99) else None,  # no answer
        }
    finally:
        for sampler in samplers.values():
            sampler.__exit__()
        await queue.close()
        await events.close()
        await engine.dispose()
        for process in processes.values():
            process.send_signal(signal.SIGTERM)
        for process in processes.values():
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
        fake.terminate()
        fake.wait(timeout=30)
        await drop_database(name, ADMIN_URL)


async def _progress(sessionmaker: Any, comparison_id: str, started: float) -> None:
    """A line a minute while it runs: calls so far, the last minute's rate, the load."""
    last, last_at = 0, started
    while True:
        await asyncio.sleep(60)
        async with sessionmaker() as session:
            done = int(
                await session.scalar(
                    select(Comparison.done_calls).where(Comparison.id == comparison_id)
                )
                or 0
            )
        now = time.perf_counter()
        emit(
            f"  {now - started:5.0f} s: {done:,} calls, {(done - last) / (now - last_at):,.0f} "
            f"calls/s over the last minute; load {_load()}"
        )
        last, last_at = done, now


def _load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=100_000)
    parser.add_argument("--cohorts", type=int, default=3)
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--page-seconds", type=int, default=10, help="wrk seconds per figure")
    parser.add_argument("--loads", type=int, default=3, help="cold portal loads (0: skip)")
    parser.add_argument("--timeout", type=float, default=3600, help="seconds to DONE")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help=SMOKE_HELP + " 200 cases × 2 cohorts × 1 trial, 1 s of wrk, one cold load.",
    )
    args = parser.parse_args()
    if args.smoke:
        args.cases, args.cohorts, args.trials, args.page_seconds, args.loads = 200, 2, 1, 1, 1
        args.timeout = min(args.timeout, 300)
    require_wrk()
    figures = asyncio.run(run(args))
    emit(json.dumps(figures | {"smoke": args.smoke}))


if __name__ == "__main__":
    main()
