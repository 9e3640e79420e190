"""Benchmark: import two runs of 100,000 items through `shipwise run import`, then diff them.

Creates a fresh PostgreSQL database, migrates it, serves it with `shipwise serve` in a
subprocess, creates a workspace with `shipwise workspace create`, writes two results
JSONL files (a baseline and a candidate that regresses 5% of the items and improves 3%)
and times each import command (a subprocess) while sampling the resident memory of the
client and the server every 50 ms. Then times `runDiff(status: REGRESSED, first: 50)` with
its summary over HTTP: the first call computes the summary (uncached: the summary that
the RUN_REGRESSED job queued by `completeRun` cached is dropped first), later calls read
it from the cache (median of 15). The database is dropped at the end (`--keep-database`
keeps it, for EXPLAIN). The last line printed is one JSON object.

    .venv/bin/python bench/diff.py [--items 100000] [--trials 1] [--evaluators 2]

`SHIPWISE_BENCH_DATABASE_URL` is the admin URL used to create and drop the database
(default postgresql+asyncpg://postgres@127.0.0.1:5432/test).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx

from bench.harness import SMOKE_HELP, PeakRss, emit, shipwise, site, timed_command

TARGET_ITEMS_PER_S = 25_000.0
TARGET_FIRST_PAGE_MS = 200.0
TARGET_CACHED_PAGE_MS = 30.0
TARGET_RSS_MB = 300.0
CACHED_REPEATS = 15

QUERY = """query($c: ID!, $b: ID!) {
  runDiff(candidateRunId: $c, baselineRunId: $b) {
    summary {
      baselinePassRate candidatePassRate passRateDelta deltaLow deltaHigh method pValue
      significant regressedCount improvedCount noChangeCount addedCount removedCount pairing
      evaluators { name delta pValue adjustedPValue significant }
    }
    cases(filter: REGRESSED, first: 50) {
      totalCount pageInfo { hasNextPage endCursor }
      edges { node { datasetItemId position status passFlip input
                     evaluators { name baselineMean candidateMean delta status } } }
    }
  }
}"""


def write_runs(workdir: Path, items: int, trials: int, evaluators: int) -> tuple[Path, Path]:
    """The candidate moves 8% of the items (5% worse, 3% better); the rest score the same."""
    rng = random.Random(7)
    base_path, cand_path = workdir / "baseline.jsonl", workdir / "candidate.jsonl"
    with base_path.open("w") as base_out, cand_path.open("w") as cand_out:
        for i in range(items):
            quality = rng.random()
            roll = rng.random()
            shift = -0.5 if roll < 0.05 else 0.5 if roll < 0.08 else 0.0
            draws = [rng.random() for _ in range(trials)]  # the same luck on both sides
            for out, q in ((base_out, quality), (cand_out, min(max(quality + shift, 0), 1))):
                item = {
                    "datasetItemId": f"item-{i:07d}",
                    "input": {"question": f"What is {i} plus {i % 97}?", "topic": "arith"},
                    "trials": [_trial(draw, q, evaluators) for draw in draws],
                }
                out.write(json.dumps(item) + "\n")
    return base_path, cand_path


def _trial(draw: float, quality: float, evaluators: int) -> dict[str, Any]:
    passed = draw < 0.2 + 0.75 * quality
    return {
        "passed": passed,
        "evaluators": {f"eval_{n}": round(quality ** (n + 1), 3) for n in range(evaluators)},
        "output": "The answer is 42." if passed else "I am not sure.",
        "metrics": {"tokens": 20 + int(380 * draw), "wallMs": 100 + int(2900 * quality)},
    }


def run_import(env: dict[str, str], path: Path, server_pid: int) -> dict[str, Any]:
    command = shipwise("run", "import", str(path), "--experiment", "bench")
    timed = timed_command(command, env, server_pid)
    emit(timed.lines[0])
    return {
        "run_id": timed.lines[-1],
        "seconds": timed.seconds,
        "client_mb": timed.client_mb,
        "server_mb": timed.server_mb,
    }


async def clear_cached_summaries(database_url: str) -> int:
    """Wait for the embedded RUN_REGRESSED job's diff (completeRun queues it; it caches the
    very summary timed here), then drop every cached summary, so the first call computes."""
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    engine = create_async_engine(database_url)
    try:
        for _ in range(600):
            async with engine.begin() as connection:
                found = await connection.scalar(text("SELECT count(*) FROM run_diff_summary"))
            if found:
                break
            await asyncio.sleep(0.05)
        async with engine.begin() as connection:
            deleted = await connection.execute(text("DELETE FROM run_diff_summary"))
        return int(deleted.rowcount)
    finally:
        await engine.dispose()


def time_diff(env: dict[str, str], candidate: str, baseline: str) -> tuple[float, list[float]]:
    headers = {"Authorization": f"Bearer {env['SHIPWISE_TOKEN']}"}
    body = {"query": QUERY, "variables": {"c": candidate, "b": baseline}}
    with httpx.Client(base_url=env["SHIPWISE_URL"], headers=headers, timeout=120) as http:
        http.post("/graphql", json={"query": "{ me { __typename } }"})  # warm the connection
        timings = []
        for _ in range(CACHED_REPEATS + 1):
            started = time.perf_counter()
            answer = http.post("/graphql", json=body).json()
            timings.append((time.perf_counter() - started) * 1000)
            if answer.get("errors"):
                raise SystemExit(f"runDiff failed: {answer['errors']}")
    summary = answer["data"]["runDiff"]["summary"]
    emit(
        f"diff: pass rate {summary['baselinePassRate']:.4f} → {summary['candidatePassRate']:.4f}"
        f" (Δ {summary['passRateDelta']:+.4f}, p {summary['pValue']:.3g}, {summary['method']}),"
        f" {summary['regressedCount']:,} regressed, {summary['improvedCount']:,} improved"
    )
    return timings[0], timings[1:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=100_000)
    parser.add_argument("--trials", type=int, default=1)
    parser.add_argument("--evaluators", type=int, default=2)
    parser.add_argument("--profile", help="Profile the server with py-spy into this file.")
    parser.add_argument(
        "--keep-database", action="store_true", help="Keep the database (for EXPLAIN) and name it."
    )
    parser.add_argument("--smoke", action="store_true", help=SMOKE_HELP)
    args = parser.parse_args()
    if args.smoke:
        args.items = 1_000

    with site(keep_database=args.keep_database) as bench:
        env = bench.env
        base_path, cand_path = write_runs(bench.workdir, args.items, args.trials, args.evaluators)
        size = (base_path.stat().st_size + cand_path.stat().st_size) / 1e6
        emit(f"2 × {args.items:,} items ({args.trials} trial(s), {args.evaluators} evaluators),"
             f" {size:.1f} MB of JSONL")  # fmt: skip
        server = bench.serve(args.profile)
        baseline = run_import(env, base_path, server.pid)
        candidate = run_import(env, cand_path, server.pid)
        cleared = asyncio.run(clear_cached_summaries(bench.database_url))
        emit(f"dropped {cleared} cached summary(ies) of the RUN_REGRESSED job")
        with PeakRss(server.pid) as diff_rss:
            first_ms, cached = time_diff(env, candidate["run_id"], baseline["run_id"])

    seconds = baseline["seconds"] + candidate["seconds"]
    rate = 2 * args.items / seconds
    cached_ms = statistics.median(cached)
    client_mb = max(baseline["client_mb"], candidate["client_mb"])
    server_mb = max(baseline["server_mb"], candidate["server_mb"], diff_rss.peak_mb)
    emit(f"import           {rate:,.0f} items/s over both runs ({seconds:.2f} s; "
         f"{rate / TARGET_ITEMS_PER_S:.2f}× the 25,000 target)")  # fmt: skip
    emit(f"first page       {first_ms:.0f} ms uncached (target ≤ {TARGET_FIRST_PAGE_MS:.0f} ms)")
    spread = f"{min(cached):.1f}–{max(cached):.1f}"
    emit(f"cached page      {cached_ms:.1f} ms median of {len(cached)} "
         f"({spread}; target ≤ {TARGET_CACHED_PAGE_MS:.0f} ms)")  # fmt: skip
    emit(f"peak RSS         client {client_mb:.0f} MB, server {server_mb:.0f} MB "
         f"(limit {TARGET_RSS_MB:.0f} MB)")  # fmt: skip
    emit(
        json.dumps(
            {
                "import_items_per_s": round(rate),
                "first_page_ms": round(first_ms, 1),
                "cached_page_ms": round(cached_ms, 1),
                "peak_rss_mb": round(max(client_mb, server_mb), 1),
                "client_peak_rss_mb": round(client_mb, 1),
                "server_peak_rss_mb": round(server_mb, 1),
                "smoke": args.smoke,
            }
        )
    )


if __name__ == "__main__":
    main()
