"""Exports stream in constant memory: a comparison's cases as CSV and JSONL from one
`shipwise serve` on PostgreSQL, with the server's peak RSS growth measured.

A fresh database is seeded with one DONE comparison of `--cases` cases × 2 cohorts × 3
trials (trial rows as dispatch leaves them; outputs that hold commas, quotes, line breaks
and formula-leading characters). The server is started, asked once for a small export (so
its code and pools are warm), then its RSS is sampled every 50 ms while a client streams
`GET /comparisons/{id}/cases.csv` and `.jsonl` to the end, counting bytes and rows. Target
(docs/domain.md, Exports): the server's peak RSS grows by at most 100 MB over its warm RSS.

    .venv/bin/python bench/export.py                  # a smoke run: 2,000 cases
    .venv/bin/python bench/export.py --cases 100000   # the target's size

Ends with one JSON line: {"cases", "rows", "csv_mb", "csv_seconds", "jsonl_mb",
"jsonl_seconds", "base_rss_mb", "peak_rss_mb", "rss_growth_mb"}.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx
import psutil
from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bench.harness import SMOKE_HELP, PeakRss, emit, site
from bench.kit.done_comparison import mark_done
from bench.kit.factories import make_comparison, make_comparison_setup, make_workspace
from server.comparisons.models import Trial, TrialState
from server.db import create_engine, create_sessionmaker, utcnow
from server.settings import Settings
from server.workspaces.roles import Role

COHORTS, TRIALS = 2, 3
INSERT_BATCH = 5_000
OUTPUTS = (
    '=HYPERLINK("http://example.com","x") and, "a quote"',
    "+1, then a line break\nand more",
    "-2 @mention, plain enough",
)
TARGET_GROWTH_MB = 100.0


def _trials(comparison_id: str, connection_id: str, case: int) -> list[dict[str, Any]]:
    now = utcnow()
    return [
        {
            "comparison_id": comparison_id,
            "case_ordinal": case,
            "cohort_index": cohort,
            "trial_index": trial,
            "connection_id": connection_id,
            "state": TrialState.COMPLETED,
            "delivery_id": "dlv_bench",
            "lease_token": 1,
            "attempts": 1,
            "output": f"{OUTPUTS[(case + trial) % len(OUTPUTS)]} ({case})",
            "input_tokens": 20,
            "output_tokens": 12,
            "cost_micros": 75,
            "latency_ms": 100 + trial,
            "passed": (case + cohort + trial) % 4 != 0,
            "score": 1.0,
            "check_results": [{"kind": "CONTAINS", "passed": True, "score": 1.0}],
            "admitted_at": now,
            "completed_at": now,
        }
        for cohort in range(COHORTS)
        for trial in range(TRIALS)
    ]


async def seed(database_url: str, cases: int) -> tuple[str, str]:
    """(the owner's token, the DONE comparison's id)."""
    engine = create_engine(database_url)
    try:
        return await seed_comparison(create_sessionmaker(engine), cases)
    finally:
        await engine.dispose()


async def seed_comparison(
    sessionmaker: async_sessionmaker[AsyncSession], cases: int
) -> tuple[str, str]:
    """A new workspace's DONE comparison of `cases` × COHORTS × TRIALS: (the owner's token,
    its id). The workspace's own call limit (20,000 unless set) is raised to the calls the
    comparison stands for, as an ADMIN would; the settings' limit alone does not lift it."""
    calls = cases * COHORTS * TRIALS
    ws = await make_workspace(sessionmaker, name="bench", max_calls_per_comparison=calls)
    setup = await make_comparison_setup(sessionmaker, ws, cases=cases, cohorts=COHORTS)
    settings = Settings.model_construct(max_calls_per_comparison=10**7)
    comparison_id = await make_comparison(sessionmaker, setup, trials=TRIALS, settings=settings)
    rows: list[dict[str, Any]] = []
    for case in range(cases):
        rows += _trials(comparison_id, setup.connection_id, case)
        if len(rows) >= INSERT_BATCH or case == cases - 1:
            async with sessionmaker() as session, session.begin():
                await session.execute(insert(Trial), rows)
            rows = []
    async with sessionmaker() as session, session.begin():
        await mark_done(session, comparison_id, done_calls=calls)
    return ws.tokens[Role.OWNER], comparison_id


def download(url: str, token: str) -> tuple[int, int, float]:
    """(bytes, lines, seconds) of one streamed export, read to its end."""
    started = time.perf_counter()
    size = lines = 0
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.stream("GET", url, headers=headers, timeout=600) as response:
        if response.status_code != 200:
            raise SystemExit(f"{url} answered {response.status_code}: {response.read()[:500]!r}")
        for chunk in response.iter_bytes():
            size += len(chunk)
            lines += chunk.count(b"\n")
    return size, lines, time.perf_counter() - started


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--cases", type=int, default=2_000)
    parser.add_argument("--smoke", action="store_true", help=SMOKE_HELP)
    args = parser.parse_args(argv)
    if args.smoke:
        args.cases = 50
    with site() as bench:
        emit(f"seeding {args.cases} cases × {COHORTS} cohorts × {TRIALS} trials")
        token, comparison_id = asyncio.run(seed(bench.database_url, args.cases))
        server = bench.serve()
        base = f"http://127.0.0.1:{bench.port}/comparisons/{comparison_id}/cases"
        asked = httpx.post(
            f"http://127.0.0.1:{bench.port}/graphql",
            json={"query": "{ me { __typename } }"},
            headers={"Authorization": f"Bearer {token}"},
            timeout=60,
        )
        assert asked.status_code == 200, asked.text[:500]
        warm_mb = psutil.Process(server.pid).memory_info().rss / (1024 * 1024)
        figures: dict[str, Any] = {
            "cases": args.cases, "rows": args.cases * COHORTS * TRIALS, "smoke": args.smoke,
        }  # fmt: skip
        with PeakRss(server.pid) as peak:
            for fmt in ("csv", "jsonl"):
                size, _lines, seconds = download(f"{base}.{fmt}", token)
                figures[f"{fmt}_mb"] = round(size / (1024 * 1024), 1)
                figures[f"{fmt}_seconds"] = round(seconds, 2)
                emit(f"{fmt}: {figures[f'{fmt}_mb']} MB in {seconds:.1f} s")
        growth = peak.peak_mb - warm_mb
        figures |= {
            "base_rss_mb": round(warm_mb, 1),
            "peak_rss_mb": round(peak.peak_mb, 1),
            "rss_growth_mb": round(growth, 1),
        }
        emit(
            f"server RSS: base {warm_mb:.0f} MB, peak {peak.peak_mb:.0f} MB, "
            f"growth {growth:.1f} MB (target ≤ {TARGET_GROWTH_MB:.0f} MB)"
        )
        emit(json.dumps(figures))


if __name__ == "__main__":
    main()
