"""Live comparisons under load, as deployed (docs/live.md, docs/benchmarks.md): live
comparisons fed traces over OTLP at a steady rate while readers poll the portal's
`/live/:id` page. `shipwise serve` on SQLite (its embedded queue grades), or with
`--postgres` `shipwise serve` and `shipwise worker` as separate processes on a PostgreSQL
database of their own and a queue of their own on the shared Redis; the feed and the
readers each run in a process of their own (bench/kit/live_load.py).

Full size: 4 live comparisons, 2,000 traces/s for 5 minutes, 20 readers (each polling every
0.1 s). `--smoke`: 2 comparisons, 400 traces/s for 8 s, 4 readers; `--comparisons`,
`--rate`, `--seconds`, `--readers` override either. Comparison 0's candidate passes 30
points less than its baseline, so it decides (DONT_SHIP) while traffic flows; the others
are equal under a 0.1-point margin, so they stay RUNNING and every one of their traces is
graded for the whole run.

Last line, JSON: `read_p99_ms` (the readers' clients), `decision_visible_ms` (from the
ingest stamp of the last trace comparison 0's decision counted to a reader seeing DECIDED),
`graded_once` (no trace graded twice, and once the feed stopped every trace of each
comparison still RUNNING graded: `drain_s` says how long that took),
`rss_growth_mb` (the largest of the API's and the worker's growth after their first minute;
null under a minute), `traces_per_s` (stored), `export_p99_ms`, and the CPU the processes
used from the feed's start to the end of the drain: `api_cpu_us_per_trace` (a trace stored)
and `worker_cpu_us_per_graded` (a grade row; null without `--postgres`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx
import psutil
from cryptography.fernet import Fernet
from sqlalchemy import func, select, update

from bench.harness import (
    SMOKE_HELP,
    create_migrated_database,
    drop_database,
    emit,
    free_port,
    py_spy,
)
from bench.kit import services
from bench.kit.databases import create_migrated_sqlite
from bench.kit.factories import make_workspace
from bench.kit.harness import api_healthy
from bench.kit.waiting import eventually
from bench.soak import Processes
from bench.soak_checks import rss_growth
from server.db import create_engine, create_sessionmaker
from server.live.models import LiveComparison, LiveGrade, LiveStatus
from server.traces.models import Trace
from server.workspaces.models import Workspace
from server.workspaces.roles import Role

ROOT = Path(__file__).resolve().parents[1]
CREATE = """mutation($i: CreateLiveComparisonInput!) { createLiveComparison(input: $i) { id } }"""
DRAIN_SECONDS = 300
"""A bound on grading what the feed left, once it stopped (not a delay)."""


def _load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def _client(*args: str) -> subprocess.Popen[bytes]:
    """bench/kit/live_load.py in a process of its own."""
    command = [sys.executable, str(ROOT / "bench" / "kit" / "live_load.py"), *args]
    return subprocess.Popen(command, cwd=ROOT)


async def _visible_ms(maker: Any, live_id: str, seen: float | None) -> float | None:
    """From the moment the last trace the decision counted was stored (its ingest stamp,
    `trace.updated_at`, on this host's clock) to a reader seeing DECIDED."""
    if seen is None:
        return None
    async with maker() as session:
        stored = await session.scalar(
            select(func.max(Trace.updated_at))
            .join(LiveGrade, LiveGrade.trace_id == Trace.id)
            .where(LiveGrade.live_comparison_id == live_id)
        )
    return None if stored is None else (seen - stored.timestamp()) * 1000


def _p99(values: list[float]) -> float | None:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], 1) if ordered else None


async def _ungraded(maker: Any, ids: list[str]) -> int:
    """Watched traces of the RUNNING comparisons with no grade row."""
    missing = 0
    async with maker() as session:
        for row in await session.scalars(
            select(LiveComparison).where(
                LiveComparison.id.in_(ids), LiveComparison.status == LiveStatus.RUNNING.value
            )
        ):
            graded = select(LiveGrade.trace_id).where(LiveGrade.live_comparison_id == row.id)
            missing += int(
                await session.scalar(
                    select(func.count()).where(
                        Trace.workspace_id == row.workspace_id,
                        Trace.service == row.service,
                        Trace.release.in_([row.candidate_release, *row.baseline_releases]),
                        Trace.started_at >= row.started_at,
                        Trace.id.not_in(graded),
                    )
                )
                or 0
            )
    return missing


async def run(args: argparse.Namespace) -> dict[str, Any]:
    workdir = Path(tempfile.mkdtemp(prefix="shipwise-live-"))
    database_url, name = (await create_migrated_database()) if args.postgres else ("", "")
    database_url = database_url or f"sqlite+aiosqlite:///{workdir / 'data' / 'shipwise.db'}"
    (workdir / "data").mkdir()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("SHIPWISE_")},
        "SHIPWISE_DATABASE_URL": database_url, "SHIPWISE_DATA_DIR": str(workdir / "data"),
        "SHIPWISE_SECRET_KEY": Fernet.generate_key().decode(), "SHIPWISE_LOG_LEVEL": "WARNING",
    }  # fmt: skip
    if args.postgres:
        env["SHIPWISE_REDIS_URL"] = services.redis_url()
        env["SHIPWISE_QUEUE_NAME"] = f"shipwise-live-{secrets.token_hex(4)}"
    processes = Processes(env, workdir)
    engine = create_engine(database_url)
    maker = create_sessionmaker(engine)
    try:
        if not args.postgres:  # a PostgreSQL database of its own is made migrated
            await asyncio.to_thread(create_migrated_sqlite, database_url)
        ws = await make_workspace(maker)
        async with maker() as session, session.begin():  # 20 readers outrun 600 a minute
            await session.execute(
                update(Workspace).where(Workspace.id == ws.id)
                .values(requests_per_minute_per_token=10**9)
            )  # fmt: skip
        port = free_port()
        api = f"http://127.0.0.1:{port}"
        processes.start("api", "serve", "--port", str(port))
        if args.postgres:
            # At the API's priority: here it shares the cores with the feed, the readers and
            # the host's other work, not with the API alone (bench/harness.py worker_command).
            processes.start("worker", "worker", "--nice", "0")
        await eventually(lambda: api_healthy(api), timeout=300, what="the API")  # a loaded start
        member = ws.tokens[Role.MEMBER]
        ids = []
        async with httpx.AsyncClient(base_url=api, timeout=60) as client:
            for n in range(args.comparisons):
                spec: dict[str, Any] = {
                    "service": f"svc{n}", "candidateRelease": "v2", "baselineReleases": ["v1"],
                }  # fmt: skip
                if n:  # equal arms: undecided for the whole run under a tiny margin
                    spec["shipPolicy"] = {"qualityMarginPoints": 0.1}
                answer = await client.post(
                    "/graphql", json={"query": CREATE, "variables": {"i": spec}},
                    headers={"Authorization": f"Bearer {member}"},
                )  # fmt: skip
                ids.append(answer.json()["data"]["createLiveComparison"]["id"])
        start = time.time()
        until = start + args.seconds
        emit(
            f"live for {args.seconds:g} s: {args.comparisons} comparisons, {args.rate:,} traces/s "
            f"asked, {args.readers} readers; {'PostgreSQL' if args.postgres else 'SQLite'}; "
            f"load {_load()}"
        )
        feed_out, reads_out = workdir / "feed.json", workdir / "reads.json"
        spies = _spies(processes, args.profile, args.seconds)
        cpu_before = _cpu_seconds(processes)
        clients = [
            _client("feed", api, member, str(args.comparisons), str(args.rate), str(until),
                    str(feed_out)),
            _client("readers", api, ws.tokens[Role.VIEWER], ",".join(ids), str(args.readers),
                    str(until), str(reads_out), "--pause", str(args.pause)),
        ]  # fmt: skip
        while any(c.poll() is None for c in clients):
            await asyncio.sleep(min(30.0, max(1.0, until - time.time())))
            if time.time() < until:
                emit(f"  {time.time() - start:5.0f} s: RSS {processes.latest_mb()}; load {_load()}")
        fed = time.time()
        for spy in spies:
            await asyncio.to_thread(spy.wait, 60)
        feed, reads = json.loads(feed_out.read_text()), json.loads(reads_out.read_text())
        await eventually(
            lambda: _ungraded(maker, ids), until=lambda n: n == 0, timeout=DRAIN_SECONDS,
            interval=0.2, what="every trace graded",
        )  # fmt: skip
        drain = time.time() - fed
        cpu = {k: v - cpu_before.get(k, 0.0) for k, v in _cpu_seconds(processes).items()}
        async with maker() as session:
            rows = int(await session.scalar(select(func.count()).select_from(LiveGrade)) or 0)
            distinct = int(
                await session.scalar(
                    select(func.count()).select_from(
                        select(LiveGrade.live_comparison_id, LiveGrade.trace_id)
                        .distinct()
                        .subquery()
                    )
                )
                or 0
            )
            traces = int(await session.scalar(select(func.count()).select_from(Trace)) or 0)
        growth, _ = rss_growth(processes.rss, processes.started)
        for label, mb in growth.items():
            emit(f"RSS growth after the first minute, {label}: {mb:+.1f} MB (target ≤ 50)")
        if feed["failed"] or reads["failed"]:
            emit(f"failed: exports {feed['failed'][:5]}, reads {reads['failed'][:5]}")
        return {
            "read_p99_ms": _p99([ms for _, ms in reads["reads"]]),
            "decision_visible_ms": _rounded(
                await _visible_ms(maker, ids[0], reads["decided"].get(ids[0]))
            ),
            "graded_once": rows > 0 and rows == distinct,
            "rss_growth_mb": round(max(growth.values()), 1) if growth else None,
            "traces_per_s": round(traces / args.seconds, 1),
            "export_p99_ms": _p99([ms for _, ms in feed["exports"]]),
            "graded": rows,
            "traces": traces,
            "drain_s": round(drain, 1),
            "reads": len(reads["reads"]),
            "failed_exports": len(feed["failed"]),
            "failed_reads": len(reads["failed"]),
            "api_cpu_us_per_trace": _per(cpu.get("api"), traces),
            "worker_cpu_us_per_graded": _per(cpu.get("worker"), rows),
            "load": _load(),
        }
    finally:
        processes.stop()
        await engine.dispose()
        if name:
            await drop_database(name)


def _spies(processes: Processes, profile: str | None, seconds: float) -> list[Any]:
    """`py-spy record` of the API and the worker for the run, collapsed stacks into
    `<profile>-api.txt` and `<profile>-worker.txt`."""
    if not profile:
        return []
    return [
        subprocess.Popen(
            [
                py_spy(),
                "record",
                "--format",
                "raw",
                "--duration",
                str(int(seconds)),
                "--pid",
                str(process.pid),
                "-o",
                f"{profile}-{label}.txt",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        for label, process in processes.running.items()
    ]


def _cpu_seconds(processes: Processes) -> dict[str, float]:
    """CPU seconds (user + system, with their children) each process used so far."""
    found = {}
    for label, process in processes.running.items():
        try:
            one = psutil.Process(process.pid)
            times = [one.cpu_times(), *(c.cpu_times() for c in one.children(recursive=True))]
        except psutil.Error:
            continue
        found[label] = sum(t.user + t.system for t in times)
    return found


def _per(seconds: float | None, count: int) -> float | None:
    """Microseconds of CPU a unit: CPU is what a shared host does not blur."""
    return None if seconds is None or not count else round(seconds * 1e6 / count, 1)


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--smoke", action="store_true",
        help=SMOKE_HELP + " 2 comparisons, 400 traces/s, 8 s, 4 readers.",
    )  # fmt: skip
    parser.add_argument(
        "--postgres", action="store_true",
        help="PostgreSQL (a database of its own) and a `shipwise worker`, not SQLite",
    )  # fmt: skip
    parser.add_argument("--comparisons", type=int, help="override the size's comparisons")
    parser.add_argument("--rate", type=int, help="override the traces a second asked")
    parser.add_argument("--seconds", type=float, help="override the duration")
    parser.add_argument("--readers", type=int, help="override the readers")
    parser.add_argument("--pause", type=float, default=0.1, help="a reader's pause, seconds")
    parser.add_argument(
        "--profile", metavar="PREFIX",
        help="py-spy the API and the worker: PREFIX-api.txt, PREFIX-worker.txt (collapsed)",
    )  # fmt: skip
    args = parser.parse_args()
    size = (2, 400, 8.0, 4) if args.smoke else (4, 2000, 300.0, 20)
    for key, default in zip(("comparisons", "rate", "seconds", "readers"), size, strict=True):
        if getattr(args, key) is None:
            setattr(args, key, default)
    figures = asyncio.run(run(args))
    figures |= {
        "smoke": args.smoke,
        "backend": "postgresql" if args.postgres else "sqlite",
        "size": {key: getattr(args, key) for key in ("comparisons", "rate", "seconds", "readers")},
    }
    emit(json.dumps(figures))


if __name__ == "__main__":
    main()
