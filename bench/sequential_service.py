"""bench/sequential.py (c): one sequential comparison through the service — the embedded
runtime (SQLite, in-process jobs) served by uvicorn, driven over GraphQL — of 2,000 cases
with the 9-point regression on SIMULATED connections scripted case by case."""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
from pathlib import Path

from cryptography.fernet import Fernet

from bench.kit.databases import create_migrated_sqlite
from bench.kit.factories import make_workspace
from bench.kit.harness import start_backend
from bench.kit.scenarios import run_comparison, scripted_setup, wait_finalized
from server.settings import Settings
from server.workspaces.roles import Role

CASES, BASE_RATE, FAIL_PASSING, PASS_FAILING = 2000, 0.8, 0.12, 0.02
QUERY = """
query($id: ID!) { comparison(id: $id) { status stopReason progress { doneCalls totalCalls }
  stopping { looks stoppedAtCases callsSaved caseOrderSeed note }
  scorecard { casesNotRun verdicts { outcome deltaLow deltaHigh summary } } } }
"""


def regression_tensor(seed: int = 3) -> list[list[str]]:
    rng = random.Random(seed)
    candidate, baseline = [], []
    for _ in range(CASES):
        base = rng.random() < BASE_RATE
        cand = rng.random() >= FAIL_PASSING if base else rng.random() < PASS_FAILING
        baseline.append("P" if base else "F")
        candidate.append("P" if cand else "F")
    return [candidate, baseline]


async def run_service_comparison(case_order_seed: int = 1) -> tuple[float, str]:
    """(calls used ÷ planned, what it did and the verdict's chip) of one comparison whose
    cases run in the order `case_order_seed` draws."""
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(data_dir=Path(tmp), secret_key=Fernet.generate_key().decode())
        await asyncio.to_thread(create_migrated_sqlite, settings.database_url)
        async with start_backend("sqlite", settings) as backend:
            ws = await make_workspace(backend.sessionmaker)
            setup = await scripted_setup(backend.sessionmaker, ws, regression_tensor())
            member = ws.tokens[Role.MEMBER]
            stopping = {
                "rule": "ANYTIME_VALID",
                "minCases": 100,
                "lookEveryCases": 50,
                "caseOrderSeed": case_order_seed,
            }
            started = time.perf_counter()
            comparison_id = await run_comparison(
                backend, member, setup.input(trialsPerCase=1, stopping=stopping)
            )
            await wait_finalized(backend, member, comparison_id, timeout=600)
            elapsed = time.perf_counter() - started
            shown = (await backend.gql(QUERY, {"id": comparison_id}, token=member)).ok()
    comparison = shown["comparison"]
    progress, stop = comparison["progress"], comparison["stopping"]
    [verdict] = comparison["scorecard"]["verdicts"]
    fraction = progress["doneCalls"] / progress["totalCalls"]
    detail = (
        f"{comparison['stopReason']}, {verdict['outcome']} "
        f"[{verdict['deltaLow']:.2f}, {verdict['deltaHigh']:.2f}] points; "
        f"{progress['doneCalls']} of {progress['totalCalls']} calls, stopped at "
        f"{stop['stoppedAtCases']} cases after {stop['looks']} looks, casesNotRun "
        f"{comparison['scorecard']['casesNotRun']}; {elapsed:.1f} s to the verdict. "
        f"Chip: {verdict['summary']}"
    )
    return fraction, detail
