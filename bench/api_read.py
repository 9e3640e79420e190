"""The GraphQL read path under load: one `shipwise serve` on PostgreSQL + Redis, 50 clients.

A fresh PostgreSQL database is migrated and seeded (`bench/read_seed.py`) with one workspace
(its rate limit raised), a finalized 3-cohort comparison of 500 cases × 3 trials (trial rows
written as dispatch leaves them, then `server.verdicts.service.finalize`) and 19 more DONE
ones; and (`bench/read_running.py`) a second workspace with 20 RUNNING comparisons of 500
cases × 3 cohorts × 3 trials, into which a writer records batches of 18 trials (one every
50 ms, comparison after comparison, through `store.admit` and `store.record` as a delivery
does) while (d) and (e) are measured. One API process (`shipwise serve`, SHIPWISE_REDIS_URL
set) answers; the load generator is `wrk` (Debian's package: `apt-get install wrk`) in its
own process, one thread, 50 keep-alive connections on one token, each figure 10 s after a
2 s warm-up:

    floor  { __typename }
    (a)    { me { __typename } }
    (b)    comparisons(first: 20) with cohorts, progress, experiment, datasetVersion
    (c)    comparison(id) { scorecard { every field } cases(first: 50) { cohorts, trials } }
    (d)    the portal's comparisons page (`ComparisonsList`, first 20): 20 RUNNING ones
    (e)    the portal's comparison page (`ComparisonPage`) of a RUNNING comparison
    (f)    the portal's comparison page of the FINALIZED one: its three queries in turn
           (`ComparisonPage`, `ComparisonScorecard`, `ComparisonCases` REGRESSED first 50)

(d)–(f) send the portal's own documents as the portal does, by their persisted hash
(`web/src/gql/persisted-documents.json`, `bench/kit/portal_documents.py`). They are
measured twice: with the response cache as served (`cached`) and on a second server with
`SHIPWISE_RESPONSE_CACHE_BYTES=0` (`uncached`, with the floor again). Each figure is printed
with its ratio to the floor of its server and the 1-minute load average (the machine is
shared), and the server's CPU time per request.
Targets on one API process: (a) ≥ 800 req/s; (b) ≥ 400 req/s with p99 ≤ 250 ms; (c) p99
≤ 150 ms; uncached (d) ≥ 400 req/s with p99 ≤ 250 ms, (e) p99 ≤ 100 ms, (f) p99 ≤ 250 ms.

    .venv/bin/python bench/api_read.py
    .venv/bin/python bench/api_read.py --only portal          # floor and (d)–(f) only
    .venv/bin/python bench/api_read.py --seconds 5 --profile /tmp/read   # + py-spy profiles

Ends with one JSON line: {"me_rps", "list_rps", "list_p99_ms", "scorecard_p99_ms",
"running_list_rps", "running_list_p99_ms", "running_page_p99_ms", "finalized_page_p99_ms",
"floor_rps", …} (the `running_*` and `finalized_*` figures uncached).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx
from cryptography.fernet import Fernet

from bench.harness import (
    ADMIN_URL,
    SMOKE_HELP,
    create_database,
    drop_database,
    emit,
    free_port,
)
from bench.kit.portal_documents import persisted_body
from bench.read_running import Run, Writer, seed_running
from bench.read_seed import CASES, COHORTS, COMPARISONS, TRIALS, seed_ended
from bench.wrk import cpu_seconds, profile_to, run_wrk, write_lua
from server.db import create_engine, create_sessionmaker
from server.migrate import upgrade

REDIS_URL = os.environ.get("SHIPWISE_BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")
TARGETS = {
    "me_rps": 800.0,
    "list_rps": 400.0,
    "list_p99_ms": 250.0,
    "scorecard_p99_ms": 150.0,
    "running_list_rps": 400.0,
    "running_list_p99_ms": 250.0,
    "running_page_p99_ms": 100.0,
    "finalized_page_p99_ms": 250.0,
}

FLOOR = "{ __typename }"
ME = "{ me { __typename } }"
LIST = """
{ comparisons(first: 20) {
  totalCount pageInfo { hasNextPage endCursor }
  edges { cursor node {
    id label status trialsPerCase caseCount createdAt endedAt verdictState
    cohorts { cohortIndex kind label isCandidate passRate }
    progress { seq status doneCalls totalCalls failedCalls percent etaSeconds
               spentCentsSoFar cohorts { cohortIndex state } }
    experiment { id name }
    datasetVersion { id number caseCount }
  } } } }
"""
SCORECARD = """
query($id: ID!) { comparison(id: $id) {
  id status verdictState
  scorecard {
    usableCases casesNotRun finalizedAt
    metrics { name direction values { cohortIndex value } winners }
    overallWinner { cohortIndex reason votes }
    staleness { days note }
    significance { baselineCohortIndex method pValue exactPValue adjustedPValue significant
                   decides reason }
    confidence { cohortIndex passRate low high n adequacy mde intervalMethod }
    trials { cohortIndex k passHatK passAtK flips failedOrMissingTrials }
    failureAnalysis { improved regressed bothWrong agree }
    verdicts { baselineCohortIndex outcome reason passRateDeltaPoints deltaLow deltaHigh
               outsideNoise mde worseCount betterCount sameCount sensitivityDeltaPoints
               pairwise { winRate } summary }
  }
  cases(filter: ALL, first: 50) {
    totalCount pageInfo { hasNextPage endCursor }
    edges { node {
      ordinal datasetItemId input expected classification baselineCohortIndex
      latencyDeltaMs costDeltaCents
      cohorts { cohortIndex passed passFraction score
        trials { trialIndex passed output checks { kind passed score } latencyMs
                 inputTokens outputTokens costCents errorCode } }
    } }
  } } }
"""

# --- the database --------------------------------------------------------------------------


# --- the server and the load ---------------------------------------------------------------


def _start_server(env: dict[str, str], port: int, log: Path) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "server.cli", "serve", "--port", str(port)]
    with log.open("wb") as output:
        server = subprocess.Popen(command, env=env, stdout=output, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 180  # a loaded shared machine starts it slowly
    while time.monotonic() < deadline and server.poll() is None:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return server
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    server.kill()
    raise SystemExit(f"the server did not start:\n{log.read_text()[-2000:]}")


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGINT)
    try:
        process.wait(20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@dataclass(frozen=True, slots=True)
class Figure:
    name: str
    rps: float
    p50_ms: float
    p99_ms: float
    errors: int
    load: float
    response_bytes: int
    cpu_ms: float
    """The server process's CPU time per answered request (user + system): what a figure
    costs, much less moved by other processes on the machine than req/s."""


def measure(
    name: str,
    bodies: Sequence[dict[str, Any]],
    *,
    port: int,
    token: str,
    seconds: int,
    workdir: Path,
    profile: Path | None,
    server_pid: int,
    warm: bool = True,
) -> Figure:
    """One figure; several bodies are sent in turn (a page's queries), each connection
    cycling through them."""
    url = f"http://127.0.0.1:{port}/graphql"
    size = 0
    for body in bodies:
        headers = {"Authorization": f"Bearer {token}"}
        answer = httpx.post(url, json=body, headers=headers, timeout=30)
        assert answer.status_code == 200 and "errors" not in answer.json(), answer.text[:2000]
        size += len(answer.content)
    lua = write_lua(workdir / f"{name}.lua", bodies, token)
    if warm:
        run_wrk(url, lua, 2)  # warm-up
    spy = profile_to(server_pid, profile / f"{name}.txt", seconds) if profile else None
    cpu_before = cpu_seconds(server_pid)
    rps, p50, p99, errors, requests = run_wrk(url, lua, seconds)
    cpu_ms = 1000 * (cpu_seconds(server_pid) - cpu_before) / max(requests, 1)
    load = os.getloadavg()[0]
    if spy is not None:
        spy.wait()
    return Figure(name, rps, p50, p99, errors, load, size // len(bodies), cpu_ms)


@dataclass(frozen=True, slots=True)
class Seeded:
    url: str
    name: str
    token: str
    finalized_id: str
    running_token: str
    runs: list[Run]


SMOKE_CASES, SMOKE_COMPARISONS = 30, 2
"""`--smoke`'s database: two comparisons of 30 cases of each kind."""


async def _prepare(cases: int = CASES, comparisons: int = COMPARISONS) -> Seeded:
    url, name = await create_database(ADMIN_URL)
    await asyncio.to_thread(upgrade, url)
    engine = create_engine(url)
    try:
        started = time.perf_counter()
        sessionmaker = create_sessionmaker(engine)
        token, comparison_id = await seed_ended(sessionmaker, cases=cases, comparisons=comparisons)
        running_token, runs = await seed_running(
            sessionmaker, count=comparisons, cases=cases, cohorts=COHORTS
        )
        emit(
            f"seeded {comparisons} comparisons ({cases} cases × {COHORTS} cohorts × {TRIALS} "
            f"trials each, the first finalized) and {len(runs)} RUNNING ones in "
            f"{time.perf_counter() - started:.1f} s"
        )
    finally:
        await engine.dispose()
    return Seeded(url, name, token, comparison_id, running_token, runs)


def _portal_figures(
    seeded: Seeded, common: dict[str, Any], *, suffix: str, writer: Writer
) -> list[Figure]:
    """(d), (e) while the writer records, then (f): the portal's documents."""
    running = {**common, "token": seeded.running_token}
    page_of = persisted_body("ComparisonPage", {"id": seeded.runs[0].plan.comparison.id})
    writer.start()
    try:
        figures = [
            measure(
                f"d_list{suffix}",
                [persisted_body("ComparisonsList", {"first": 20})],
                **running,
            ),
            measure(f"e_running{suffix}", [page_of], **running),
        ]
    finally:
        writer.stop()
    finalized = {"id": seeded.finalized_id}
    cases = {**finalized, "filter": "REGRESSED", "baseline": 1, "first": 50, "after": None}
    figures.append(
        measure(
            f"f_finalized{suffix}",
            [
                persisted_body("ComparisonPage", finalized),
                persisted_body("ComparisonScorecard", finalized),
                persisted_body("ComparisonCases", cases),
            ],
            **common,
        )
    )
    return figures


def _serve(
    seeded: Seeded,
    env: dict[str, str],
    workdir: Path,
    args: argparse.Namespace,
    *,
    cached: bool,
    writer: Writer,
) -> list[Figure]:
    """One server's figures: cached, every figure asked for; uncached, the floor and (d)–(f)."""
    port = free_port()
    env = env if cached else {**env, "SHIPWISE_RESPONSE_CACHE_BYTES": "0"}
    suffix = "" if cached else "_uncached"
    server = _start_server(env, port, workdir / f"server{suffix}.log")
    try:
        common: dict[str, Any] = {
            "port": port, "token": seeded.token, "seconds": args.seconds, "workdir": workdir,
            "profile": args.profile, "server_pid": server.pid, "warm": not args.smoke,
        }  # fmt: skip
        figures = [measure(f"floor{suffix}", [{"query": FLOOR}], **common)]
        if cached and args.only == "all":
            scorecard = {"query": SCORECARD, "variables": {"id": seeded.finalized_id}}
            figures += [
                measure("me", [{"query": ME}], **common),
                measure("list", [{"query": LIST}], **common),
                measure("scorecard", [scorecard], **common),
            ]
        before = writer.batches
        figures += _portal_figures(seeded, common, suffix=suffix, writer=writer)
        emit(f"writer recorded {writer.batches - before} batches during (d) and (e){suffix}")
    finally:
        _stop(server)
    return figures


def _table(figures: list[Figure]) -> None:
    floors = {f.name.removeprefix("floor"): f.rps for f in figures if f.name.startswith("floor")}
    emit(f"{'query':<20} {'req/s':>8} {'× floor':>8} {'p50 ms':>8} {'p99 ms':>8} "
         f"{'cpu ms':>7} {'errors':>7} {'bytes':>8} {'load':>5}")  # fmt: skip
    for f in figures:
        floor = floors["_uncached" if f.name.endswith("_uncached") else ""]
        emit(
            f"{f.name:<20} {f.rps:>8.0f} {f.rps / floor:>8.2f} {f.p50_ms:>8.1f} {f.p99_ms:>8.1f} "
            f"{f.cpu_ms:>7.2f} {f.errors:>7} {f.response_bytes:>8} {f.load:>5.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=10, help="Seconds per figure.")
    parser.add_argument("--profile", type=Path, help="A directory for py-spy raw profiles.")
    parser.add_argument(
        "--only", choices=("all", "portal"), default="all", help="portal: floor and (d)–(f)."
    )
    parser.add_argument(
        "--smoke", action="store_true", help=SMOKE_HELP + " 1 s a figure, no warm-up."
    )
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("bench/api_read.py needs wrk: apt-get install wrk")
    if args.smoke:
        args.seconds = 1
    seeded = asyncio.run(_prepare(SMOKE_CASES, SMOKE_COMPARISONS) if args.smoke else _prepare())
    env = {
        **os.environ,
        "SHIPWISE_DATABASE_URL": seeded.url,
        "SHIPWISE_REDIS_URL": REDIS_URL,
        "SHIPWISE_LOG_LEVEL": "WARNING",
        "SHIPWISE_QUEUE_NAME": f"arq:bench:{secrets.token_hex(4)}",
        "SHIPWISE_SECRET_KEY": Fernet.generate_key().decode(),
    }
    if args.profile:
        args.profile.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        try:
            writer = Writer(seeded.url, seeded.runs)
            figures = _serve(seeded, env, Path(tmp), args, cached=True, writer=writer)
            figures += _serve(seeded, env, Path(tmp), args, cached=False, writer=writer)
        finally:
            asyncio.run(drop_database(seeded.name, ADMIN_URL))
    _table(figures)
    by_name = {f.name: f for f in figures}
    result: dict[str, float] = {}
    if "me" in by_name:
        result |= {
            "me_rps": round(by_name["me"].rps, 1),
            "list_rps": round(by_name["list"].rps, 1),
            "list_p99_ms": round(by_name["list"].p99_ms, 1),
            "scorecard_p99_ms": round(by_name["scorecard"].p99_ms, 1),
            "scorecard_rps": round(by_name["scorecard"].rps, 1),
        }
    result |= {
        "running_list_rps": round(by_name["d_list_uncached"].rps, 1),
        "running_list_p99_ms": round(by_name["d_list_uncached"].p99_ms, 1),
        "running_page_p99_ms": round(by_name["e_running_uncached"].p99_ms, 1),
        "finalized_page_p99_ms": round(by_name["f_finalized_uncached"].p99_ms, 1),
        "floor_rps": round(by_name["floor"].rps, 1),
        "floor_uncached_rps": round(by_name["floor_uncached"].rps, 1),
        **{f"{f.name}_cpu_ms": round(f.cpu_ms, 3) for f in figures},
        "load_average": round(max(f.load for f in figures), 2),
        "smoke": args.smoke,
    }
    for key, target in TARGETS.items():
        if key not in result:
            continue
        met = result[key] >= target if key.endswith("rps") else result[key] <= target
        emit(f"target {key} {'≥' if key.endswith('rps') else '≤'} {target:g}: "
             f"{result[key]:g} {'met' if met else 'NOT met'}")  # fmt: skip
    emit(json.dumps(result))


if __name__ == "__main__":
    main()
