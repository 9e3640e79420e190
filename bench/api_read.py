"""The GraphQL read path under load: one `shipwise serve` on PostgreSQL + Redis, 50 clients.

A fresh PostgreSQL database is migrated and seeded with one workspace (its rate limit
raised), a finalized 3-cohort comparison of 500 cases × 3 trials (trial rows written as
dispatch leaves them, then `server.verdicts.service.finalize`) and 19 more DONE ones, so 20
comparisons exist. One API process (`shipwise serve`, SHIPWISE_REDIS_URL set) answers;
the load generator is `wrk` (Debian's package: `apt-get install wrk`) in its own process,
one thread, 50 keep-alive connections on one token, each figure 10 s after a 2 s warm-up:

    floor  { __typename }
    (a)    { me { __typename } }
    (b)    comparisons(first: 20) with cohorts, progress, experiment, datasetVersion
    (c)    comparison(id) { scorecard { every field } cases(first: 50) { cohorts, trials } }

Each figure is printed with its ratio to the floor, and the 1-minute load average (the
machine is shared). Targets on one API process: (a) ≥ 800 req/s; (b) ≥ 400 req/s with
p99 ≤ 250 ms; (c) p99 ≤ 150 ms.

    .venv/bin/python bench/api_read.py
    .venv/bin/python bench/api_read.py --seconds 5 --profile /tmp/read   # + py-spy profiles

Ends with one JSON line: {"me_rps", "list_rps", "list_p99_ms", "scorecard_p99_ms",
"floor_rps", …}.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import httpx
import numpy as np
from cryptography.fernet import Fernet
from sqlalchemy import insert, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bench.harness import ADMIN_URL, create_database, drop_database, free_port
from server.comparisons import cohort_rates
from server.comparisons.models import Comparison, ComparisonStatus, StopReason, Trial, TrialState
from server.db import create_engine, create_sessionmaker, utcnow
from server.migrate import upgrade
from server.settings import Settings
from server.verdicts import hosted_runs
from server.verdicts import service as verdict_service
from server.workspaces.models import Workspace
from server.workspaces.roles import Role
from tests.factories import make_comparison, make_comparison_setup, make_workspace

REDIS_URL = os.environ.get("SHIPWISE_BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")
CASES, COHORTS, TRIALS, COMPARISONS, CLIENTS = 500, 3, 3, 20, 50
RATES = (0.78, 0.82, 0.80)
TARGETS = {"me_rps": 800.0, "list_rps": 400.0, "list_p99_ms": 250.0, "scorecard_p99_ms": 150.0}

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

LUA = """
wrk.method = "POST"
wrk.body = {body}
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer {token}"
"""


def emit(line: str) -> None:
    print(line, flush=True)  # noqa: T201


# --- the database --------------------------------------------------------------------------






def _trial_rows(comparison_id: str, connection_id: str, seed: int) -> list[dict[str, Any]]:
    """What dispatch leaves: outcomes drawn per cohort, 1% errors, varied latency and tokens."""
    rng = np.random.default_rng(seed)
    now = utcnow()
    rows = []
    for case in range(CASES):
        for cohort in range(COHORTS):
            for trial in range(TRIALS):
                errored = bool(rng.random() < 0.01)
                passed = bool(rng.random() < RATES[cohort])
                tokens = int(rng.integers(1, 40))
                rows.append(
                    {
                        "comparison_id": comparison_id,
                        "case_ordinal": case,
                        "cohort_index": cohort,
                        "trial_index": trial,
                        "connection_id": connection_id,
                        "state": TrialState.ERRORED if errored else TrialState.COMPLETED,
                        "delivery_id": "dlv_bench",
                        "lease_token": 1,
                        "attempts": 1,
                        "output": None if errored else f"The answer is {case}. " * 3,
                        "input_tokens": 20,
                        "output_tokens": 0 if errored else tokens,
                        "cost_micros": 0 if errored else 3 + tokens * 6,
                        "latency_ms": int(rng.gamma(4.0, 60.0)),
                        "error_code": "provider_timeout" if errored else None,
                        "passed": None if errored else passed,
                        "score": None if errored else float(passed),
                        "check_results": None
                        if errored
                        else [{"kind": "CONTAINS", "passed": passed, "score": float(passed)}],
                        "admitted_at": now,
                        "completed_at": now,
                    }
                )
    return rows


async def _seed(sessionmaker: async_sessionmaker[AsyncSession]) -> tuple[str, str]:
    """(the owner's token, the finalized comparison's id)."""
    ws = await make_workspace(sessionmaker, name="bench")
    async with sessionmaker() as session, session.begin():
        await session.execute(
            update(Workspace)
            .where(Workspace.id == ws.id)
            .values(requests_per_minute_per_token=10**9)
        )
    setup = await make_comparison_setup(sessionmaker, ws, cases=CASES, cohorts=COHORTS)
    settings = Settings.model_construct(max_calls_per_comparison=10**6)
    ids = []
    for index in range(COMPARISONS):
        comparison_id = await make_comparison(
            sessionmaker, setup, trials=TRIALS, settings=settings
        )
        rows = _trial_rows(comparison_id, setup.connection_id, seed=index)
        async with sessionmaker() as session, session.begin():
            await session.execute(insert(Trial), rows)
            await session.execute(
                update(Comparison)
                .where(Comparison.id == comparison_id)
                .values(
                    status=ComparisonStatus.DONE,
                    stop_reason=StopReason.COMPLETED,
                    started_at=utcnow(),
                    ended_at=utcnow(),
                    done_calls=len(rows),
                )
            )
            await cohort_rates.settle(session, comparison_id=comparison_id)  # as dispatch ends
        ids.append(comparison_id)
    finalized = await verdict_service.finalize(sessionmaker=sessionmaker, comparison_id=ids[0])
    assert finalized.status == "finalized", finalized
    await hosted_runs.complete(sessionmaker=sessionmaker, comparison_id=ids[0])
    return ws.tokens[Role.OWNER], ids[0]


# --- the server and the load ---------------------------------------------------------------




def _start_server(env: dict[str, str], port: int, log: Path) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "server.cli", "serve", "--port", str(port)]
    with log.open("wb") as output:
        server = subprocess.Popen(command, env=env, stdout=output, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
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


_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60_000.0}


def _ms(text: str) -> float:
    found = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text)
    if found is None:
        raise SystemExit(f"wrk printed a latency this script cannot read: {text!r}")
    return float(found.group(1)) * _UNITS[found.group(2)]


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _wrk(url: str, lua: Path, seconds: int) -> tuple[float, float, float, int, int]:
    """(req/s, p50 ms, p99 ms, non-2xx + socket errors, requests) of one wrk run."""
    out = subprocess.run(
        ["wrk", "-t1", f"-c{CLIENTS}", f"-d{seconds}s", "--timeout", "10s", "--latency",
         "-s", str(lua), url],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    if "Requests/sec" not in out:
        raise SystemExit(f"wrk printed no figures:\n{out}")
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    p50 = _ms(re.search(r"^\s*50%\s+(\S+)", out, re.M).group(1))  # type: ignore[union-attr]
    p99 = _ms(re.search(r"^\s*99%\s+(\S+)", out, re.M).group(1))  # type: ignore[union-attr]
    requests = int(re.search(r"(\d+) requests in", out).group(1))  # type: ignore[union-attr]
    if requests == 0:
        return 0.0, float("inf"), float("inf"), 0, 0
    errors = sum(int(n) for n in re.findall(r"Non-2xx or 3xx responses: (\d+)", out))
    socket_errors = re.search(r"Socket errors: (.*)", out)
    if socket_errors:
        errors += sum(int(n) for n in re.findall(r"\d+", socket_errors.group(1)))
    return rps, p50, p99, errors, requests


def _profile(pid: int, path: Path, seconds: int) -> subprocess.Popen[bytes]:
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    command = [spy, "record", "--pid", str(pid), "--duration", str(seconds), "--rate", "200",
               "--format", "raw", "--output", str(path), "--nonblocking"]  # fmt: skip
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def measure(
    name: str,
    body: dict[str, Any],
    *,
    port: int,
    token: str,
    seconds: int,
    workdir: Path,
    profile: Path | None,
    server_pid: int,
) -> Figure:
    url = f"http://127.0.0.1:{port}/graphql"
    answer = httpx.post(url, json=body, headers={"Authorization": f"Bearer {token}"}, timeout=30)
    parsed = answer.json()
    assert answer.status_code == 200 and "errors" not in parsed, answer.text[:2000]
    lua = workdir / f"{name}.lua"
    lua.write_text(LUA.format(body=json.dumps(json.dumps(body)), token=token))
    _wrk(url, lua, 2)  # warm-up
    spy = _profile(server_pid, profile / f"{name}.txt", seconds) if profile else None
    cpu_before = _cpu_seconds(server_pid)
    rps, p50, p99, errors, requests = _wrk(url, lua, seconds)
    cpu_ms = 1000 * (_cpu_seconds(server_pid) - cpu_before) / max(requests, 1)
    load = os.getloadavg()[0]
    if spy is not None:
        spy.wait()
    return Figure(name, rps, p50, p99, errors, load, len(answer.content), cpu_ms)


async def _prepare() -> tuple[str, str, str, str]:
    url, name = await create_database(ADMIN_URL)
    await asyncio.to_thread(upgrade, url)
    engine = create_engine(url)
    try:
        started = time.perf_counter()
        token, comparison_id = await _seed(create_sessionmaker(engine))
        emit(
            f"seeded {COMPARISONS} comparisons ({CASES} cases × {COHORTS} cohorts × {TRIALS} "
            f"trials each, the first finalized) in {time.perf_counter() - started:.1f} s"
        )
    finally:
        await engine.dispose()
    return url, name, token, comparison_id


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=10, help="Seconds per figure.")
    parser.add_argument("--profile", type=Path, help="A directory for py-spy raw profiles.")
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        raise SystemExit("bench/api_read.py needs wrk: apt-get install wrk")
    url, name, token, comparison_id = asyncio.run(_prepare())
    env = {
        **os.environ,
        "SHIPWISE_DATABASE_URL": url,
        "SHIPWISE_REDIS_URL": REDIS_URL,
        "SHIPWISE_LOG_LEVEL": "WARNING",
        "SHIPWISE_QUEUE_NAME": f"arq:bench:{secrets.token_hex(4)}",
        "SHIPWISE_SECRET_KEY": Fernet.generate_key().decode(),
    }
    port = free_port()
    if args.profile:
        args.profile.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        server = _start_server(env, port, workdir / "server.log")
        try:
            common: dict[str, Any] = {
                "port": port, "token": token, "seconds": args.seconds, "workdir": workdir,
                "profile": args.profile, "server_pid": server.pid,
            }  # fmt: skip
            figures = [
                measure("floor", {"query": FLOOR}, **common),
                measure("me", {"query": ME}, **common),
                measure("list", {"query": LIST}, **common),
                measure(
                    "scorecard",
                    {"query": SCORECARD, "variables": {"id": comparison_id}},
                    **common,
                ),
            ]
        finally:
            _stop(server)
            asyncio.run(drop_database(name, ADMIN_URL))
    by_name = {f.name: f for f in figures}
    floor = by_name["floor"].rps
    emit(f"{'query':<10} {'req/s':>8} {'× floor':>8} {'p50 ms':>8} {'p99 ms':>8} "
         f"{'cpu ms':>7} {'errors':>7} {'bytes':>8} {'load':>5}")  # fmt: skip
    for f in figures:
        emit(
            f"{f.name:<10} {f.rps:>8.0f} {f.rps / floor:>8.2f} {f.p50_ms:>8.1f} {f.p99_ms:>8.1f} "
            f"{f.cpu_ms:>7.2f} {f.errors:>7} {f.response_bytes:>8} {f.load:>5.2f}"
        )
    result = {
        "me_rps": round(by_name["me"].rps, 1),
        "list_rps": round(by_name["list"].rps, 1),
        "list_p99_ms": round(by_name["list"].p99_ms, 1),
        "scorecard_p99_ms": round(by_name["scorecard"].p99_ms, 1),
        "floor_rps": round(floor, 1),
        "scorecard_rps": round(by_name["scorecard"].rps, 1),
        **{f"{f.name}_cpu_ms": round(f.cpu_ms, 3) for f in figures},
        "load_average": round(max(f.load for f in figures), 2),
    }
    for key, target in TARGETS.items():
        met = result[key] >= target if key.endswith("rps") else result[key] <= target
        emit(f"target {key} {'≥' if key.endswith('rps') else '≤'} {target:g}: "
             f"{result[key]:g} {'met' if met else 'NOT met'}")  # fmt: skip
    emit(json.dumps(result))


if __name__ == "__main__":
    main()
