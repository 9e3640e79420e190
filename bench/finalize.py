"""Finalization at full size on PostgreSQL: 3 cohorts × 5,000 cases × 3 trials, 2 checks.

The comparison's 45,000 trial rows are written directly (as dispatch would leave them: varied
outcomes, outputs, latencies, tokens and costs); then what the user waits for is timed:
`server.verdicts.service.finalize` from its start to the committed verdict — reading the
rows, every statistic, and writing the scorecard, 5,000 case rows and 3 hosted runs
(RUNNING). The follow-up that the finalize job queues after it, `hosted_runs.complete`
(15,000 items, 30,000 evaluator scores, the runs COMPLETED), is timed on its own.

    .venv/bin/python bench/finalize.py                  # full size, 3 repetitions
    .venv/bin/python bench/finalize.py --cases 500      # quick
    .venv/bin/python bench/finalize.py --profile        # cProfile of one run, top 25 each

Ends with one JSON line: {"finalize_s": <median seconds>, "hosted_runs_s": <median>, ...}.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import json
import os
import pstats
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bench.harness import SMOKE_HELP, create_migrated_database, drop_database
from bench.kit.done_comparison import CHECKS, COHORTS, TRIALS, seed_done_comparison
from server.comparisons.models import Comparison
from server.db import create_engine, create_sessionmaker
from server.runs.models import Run, RunItem, RunItemScore, RunStatus
from server.verdicts import hosted_runs, service
from server.verdicts.models import ComparisonVerdict, VerdictCase


async def _reset(sessionmaker: async_sessionmaker[AsyncSession], comparison_id: str) -> None:
    """Undo a finalization so the next repetition does all the work again."""
    async with sessionmaker() as session, session.begin():
        runs = select(Run.id).where(Run.comparison_id == comparison_id).scalar_subquery()
        await session.execute(delete(RunItemScore).where(RunItemScore.run_id.in_(runs)))
        await session.execute(delete(RunItem).where(RunItem.run_id.in_(runs)))
        await session.execute(delete(Run).where(Run.comparison_id == comparison_id))
        await session.execute(delete(VerdictCase).where(VerdictCase.comparison_id == comparison_id))
        await session.execute(
            delete(ComparisonVerdict).where(ComparisonVerdict.comparison_id == comparison_id)
        )
        await session.execute(
            update(Comparison).where(Comparison.id == comparison_id).values(finalized_at=None)
        )
    async with sessionmaker() as session:
        await session.execute(select(1))


async def _finalize_once(
    sessionmaker: async_sessionmaker[AsyncSession],
    comparison_id: str,
    cpu: list[float],
    profiler: cProfile.Profile | None = None,
) -> float:
    """Wall seconds to the committed verdict; its CPU seconds in this process go to `cpu`."""
    started, started_cpu = time.perf_counter(), time.process_time()
    if profiler is not None:
        profiler.enable()
    done = await service.finalize(sessionmaker=sessionmaker, comparison_id=comparison_id)
    if profiler is not None:
        profiler.disable()
    elapsed = time.perf_counter() - started
    cpu.append(time.process_time() - started_cpu)
    assert done.status == "finalized", done
    return elapsed


async def _hosted_runs_once(
    sessionmaker: async_sessionmaker[AsyncSession],
    comparison_id: str,
    profiler: cProfile.Profile | None = None,
) -> float:
    """Wall seconds of the follow-up: the hosted runs' items written, the runs COMPLETED."""
    started = time.perf_counter()
    if profiler is not None:
        profiler.enable()
    outcome = await hosted_runs.complete(sessionmaker=sessionmaker, comparison_id=comparison_id)
    if profiler is not None:
        profiler.disable()
    elapsed = time.perf_counter() - started
    assert outcome == hosted_runs.COMPLETED, outcome
    async with sessionmaker() as session:
        items = await session.scalar(
            select(func.count())
            .select_from(RunItem)
            .join(Run, Run.id == RunItem.run_id)
            .where(Run.comparison_id == comparison_id, Run.status == RunStatus.COMPLETED)
        )
    assert items == COHORTS * await _ran_cases(sessionmaker, comparison_id), items
    return elapsed


async def _ran_cases(sessionmaker: async_sessionmaker[AsyncSession], comparison_id: str) -> int:
    async with sessionmaker() as session:
        count = await session.scalar(
            select(func.count())
            .select_from(VerdictCase)
            .where(VerdictCase.comparison_id == comparison_id)
        )
    return int(count or 0)


def _print_profile(title: str, profiler: cProfile.Profile) -> None:
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("cumulative").print_stats(25)
    print(f"--- {title} ---\n{out.getvalue()}")  # noqa: T201


async def main(cases: int, repetitions: int, profile: bool) -> dict[str, Any]:
    url, name = await create_migrated_database()
    try:
        engine = create_engine(url)
        sessionmaker = create_sessionmaker(engine)
        seeding = time.perf_counter()
        comparison_id, _ = await seed_done_comparison(sessionmaker, cases)
        seeded = time.perf_counter() - seeding
        print(f"seeded {cases * COHORTS * TRIALS:,} trials in {seeded:.1f} s")  # noqa: T201
        cpu: list[float] = []
        await _finalize_once(sessionmaker, comparison_id, [])  # warm-up: imports, plans
        await _hosted_runs_once(sessionmaker, comparison_id)
        await _reset(sessionmaker, comparison_id)
        times, follow_ups = [], []
        for _ in range(repetitions):
            verdict_profile = cProfile.Profile() if profile else None
            runs_profile = cProfile.Profile() if profile else None
            times.append(await _finalize_once(sessionmaker, comparison_id, cpu, verdict_profile))
            follow_ups.append(await _hosted_runs_once(sessionmaker, comparison_id, runs_profile))
            if verdict_profile is not None and runs_profile is not None:
                _print_profile("finalize: start to the committed verdict", verdict_profile)
                _print_profile("hosted runs: the follow-up job", runs_profile)
            await _reset(sessionmaker, comparison_id)
        await engine.dispose()
    finally:
        await drop_database(name)
    for index, (seconds, follow_up) in enumerate(zip(times, follow_ups, strict=True)):
        print(f"finalize #{index + 1}: {seconds:.3f} s, hosted runs {follow_up:.3f} s")  # noqa: T201
    return {
        "finalize_s": round(statistics.median(times), 3),
        "hosted_runs_s": round(statistics.median(follow_ups), 3),
        "runs_s": [round(t, 3) for t in times],
        "hosted_runs_runs_s": [round(t, 3) for t in follow_ups],
        "worker_cpu_s": round(statistics.median(cpu), 3),
        "load_average": round(os.getloadavg()[0], 2),
        "cohorts": COHORTS,
        "cases": cases,
        "trials": TRIALS,
        "checks": len(CHECKS),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=5000)
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--smoke", action="store_true", help=SMOKE_HELP)
    args = parser.parse_args()
    if args.smoke:
        args.cases, args.repetitions = 100, 1
    result = asyncio.run(main(args.cases, 1 if args.profile else args.repetitions, args.profile))
    result["smoke"] = args.smoke
    print(json.dumps(result))  # noqa: T201
