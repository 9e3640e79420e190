"""Dispatch at the physical limit: 20,000 calls (2 cohorts × 2,000 cases × 5 trials) on
PostgreSQL + Redis + `shipwise worker` processes against a fake OpenAI-compatible provider
(its own process) on 127.0.0.1, every outcome committed.

    .venv/bin/python bench/dispatch.py                 # full size
    .venv/bin/python bench/dispatch.py --cases 200     # quick
    .venv/bin/python bench/dispatch.py --profile /tmp/worker.txt   # py-spy on the 0 ms worker

In one invocation: the floor (a plain keep-alive aiohttp loop, concurrency 64, against the
0 ms fake), the provider client's CPU per call (ours and the plain loop's, in this process),
calls per second at 0 ms with one worker and with two sharing the one comparison (its
case ranges, `server/dispatch/ranges.py`), wall time ÷ ideal (calls × latency ÷
concurrency) at 50 ms, and the p99 delay from a snapshot's row update to its delivery to 200
websocket subscribers (on a `shipwise serve` process) during the 50 ms run. Ends with one
JSON line.

The 0 ms workers run at `--nice 0`, the floor's own priority: no API runs beside them, and a
niced worker yields to PostgreSQL and the fake at their every wake-up (about 15 % more CPU a
call: docs/benchmarks.md, "Dispatch at the physical limit"). The 50 ms worker runs niced as
deployed, beside the API it yields to. `--nice N` sets every phase's.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from cryptography.fernet import Fernet
from sqlalchemy import func, select

from bench.harness import (
    ADMIN_URL,
    SMOKE_HELP,
    create_migrated_database,
    drop_database,
    emit,
    free_port,
    spied,
    worker_command,
)
from bench.kit.factories import (
    actor_for,
    make_comparison,
    make_comparison_setup,
    make_workspace,
)
from server.comparisons import lifecycle
from server.comparisons.models import TERMINAL_STATUSES, Comparison, Trial
from server.db import create_engine, create_sessionmaker
from server.runtime.redis import ArqQueue, RedisStreamEventBus
from server.security import SecretBox
from server.workspaces.roles import Role

REDIS_URL = os.environ.get("SHIPWISE_BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")
CONCURRENCY = 64
TRIALS = 5
ROOT = Path(__file__).resolve().parents[1]
FLOOR_TARGET = 2.0
"""`ratio_to_floor` (the plain loop's calls/s ÷ one worker's, both at 0 ms): at most this."""


def child_env(env: dict[str, str]) -> dict[str, str]:
    """`env` with this checkout first on the path: the children run this worktree's code."""
    return {**env, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))}


def start_fake(delay: float) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "bench" / "fake_provider.py"), "--delay", str(delay)],
        stdout=subprocess.PIPE,
        text=True,
        env=child_env(dict(os.environ)),
        cwd=ROOT,
    )
    assert process.stdout is not None
    return process, process.stdout.readline().strip()


SUBSCRIPTION = "subscription($id: ID!) { comparisonProgress(id: $id) { seq status updatedAt } }"


async def _start_api(
    env: dict[str, str], profile: str | None = None
) -> tuple[subprocess.Popen[bytes], str]:
    import httpx

    port = free_port()
    process = subprocess.Popen(
        spied([sys.executable, "-m", "server.cli", "serve", "--port", str(port)], profile),
        env=child_env(env),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=ROOT,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 300  # a bound for a loaded host's start, not a delay
    async with httpx.AsyncClient() as client:
        while True:
            try:
                if (await client.get(f"{base}/healthz")).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or process.poll() is not None:
                process.kill()
                raise SystemExit("the API serving the subscribers did not start")
            await asyncio.sleep(0.1)
    return process, base


async def _watch(
    url: str, token: str, comparison_id: str, delays_ms: list[float], ready: asyncio.Event
) -> None:
    """One graphql-transport-ws subscriber: the delay of every snapshot after the first."""
    from datetime import UTC, datetime

    import websockets

    for attempt in range(5):  # a loaded API may drop a handshake: connect again
        try:
            ws = await websockets.connect(url, subprotocols=["graphql-transport-ws"])  # type: ignore[list-item]
            await ws.send(json.dumps({"type": "connection_init", "payload": {"token": token}}))
            await ws.recv()
            break
        except (OSError, websockets.exceptions.WebSocketException):
            if attempt == 4:
                raise
            await asyncio.sleep(0.5 * 2**attempt)
    async with ws:
        payload = {"query": SUBSCRIPTION, "variables": {"id": comparison_id}}
        await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": payload}))
        first = True
        async for raw in ws:
            message = json.loads(raw)
            if message["type"] == "ping":  # the server's keep-alive
                await ws.send(json.dumps({"type": "pong"}))
                continue
            if message["type"] != "next":
                break
            received = datetime.now(UTC)
            if first:
                first = False
                ready.set()
                continue
            updated = message["payload"]["data"]["comparisonProgress"]["updatedAt"]
            if updated:
                delay = received - datetime.fromisoformat(updated)
                delays_ms.append(delay.total_seconds() * 1000)


async def _all_watching(watchers: list[asyncio.Task[None]], ready: list[asyncio.Event]) -> None:
    """Every subscriber has its first snapshot; a subscriber that fails ends the bench."""
    waiting = asyncio.ensure_future(asyncio.gather(*(event.wait() for event in ready)))
    pending: set[asyncio.Future[Any]] = {waiting, *watchers}
    deadline = time.monotonic() + 120
    while not waiting.done():
        done, pending = await asyncio.wait(
            pending, timeout=max(0.0, deadline - time.monotonic()), return_when="FIRST_COMPLETED"
        )
        if not done:
            waiting.cancel()
            raise SystemExit(f"{sum(not e.is_set() for e in ready)} subscribers never started")
        for task in done:
            if task is not waiting:  # a subscriber ended before the run began
                task.result()
                raise SystemExit("a subscriber ended before the run began")


SETTLE_SECONDS = 2.0
"""After the first worker polls: the others, and the start-up cron jobs (sweeps, heartbeat),
before a timed run. A smoke run times nothing and goes without (0)."""


async def wait_until_polling(queue_name: str, settle: float = SETTLE_SECONDS) -> None:
    """The workers poll their queue: arq's health-check key is written by a polling worker
    (a fixed pause measured a loaded host's worker start-up as the run's); then `settle`."""
    from redis.asyncio import Redis

    redis = Redis.from_url(REDIS_URL)
    try:
        deadline = time.monotonic() + 300  # a bound for a loaded host's start, not a delay
        while not await redis.exists(f"{queue_name}:health-check"):
            if time.monotonic() > deadline:
                raise SystemExit("the worker never polled its queue")
            await asyncio.sleep(0.05)
    finally:
        await redis.aclose()
    await asyncio.sleep(settle)


def _cpu_s(pid: int) -> float:
    """A process's user + system CPU seconds so far (Linux `/proc`; nan elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _start_worker(
    env: dict[str, str], profile: str | None = None, args: Sequence[str] = ("worker",)
) -> subprocess.Popen[bytes]:
    command = spied([sys.executable, "-m", "server.cli", *args], profile)
    return subprocess.Popen(
        command, env=child_env(env), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT
    )


BODY = {
    "model": "bench",
    "messages": [{"role": "user", "content": "What is 001 + 001?"}],
    "max_tokens": 16,
}


async def _floor(base_url: str, calls: int) -> dict[str, float]:
    """A plain keep-alive aiohttp loop at concurrency 64: calls/s and client CPU per call."""
    import aiohttp

    url = base_url.rstrip("/") + "/chat/completions"
    left = calls
    connector = aiohttp.TCPConnector(limit=CONCURRENCY)
    async with aiohttp.ClientSession(connector=connector) as session:

        async def loop() -> None:
            nonlocal left
            while left > 0:
                left -= 1
                async with session.post(url, json=BODY) as response:
                    await response.read()

        cpu, started = time.process_time(), time.perf_counter()
        await asyncio.gather(*(loop() for _ in range(CONCURRENCY)))
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    return {"calls_per_s": calls / wall, "cpu_ms_per_call": cpu * 1000 / calls}


async def _provider_cpu(base_url: str, calls: int) -> dict[str, float]:
    """Our OPENAI_COMPATIBLE provider, same load: calls/s and client CPU per call."""
    from server.providers.base import ModelCall
    from server.providers.openai_compatible import OpenAICompatibleProvider

    provider = OpenAICompatibleProvider(base_url, "sk-bench", max_connections=CONCURRENCY)
    call = ModelCall(
        messages=BODY["messages"],  # type: ignore[arg-type]
        model="bench",
        max_output_tokens=16,
        trial_header="cmp_bench/0/1/0",
        delivery_header="dlv_bench",
    )
    left = calls
    errors = 0

    async def loop() -> None:
        nonlocal left, errors
        while left > 0:
            left -= 1
            errors += (await provider.call(call)).error is not None

    try:
        cpu, started = time.process_time(), time.perf_counter()
        await asyncio.gather(*(loop() for _ in range(CONCURRENCY)))
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    finally:
        await provider.aclose()
    assert errors == 0, errors
    return {"calls_per_s": calls / wall, "cpu_ms_per_call": cpu * 1000 / calls}


async def _run_once(
    database_url: str,
    key: str,
    delay: float,
    cases: int,
    subscribers: int = 0,
    workers: int = 1,
    profile: str | None = None,
    api_profile: str | None = None,
    worker_args: Sequence[str] = ("worker",),
    settle: float = SETTLE_SECONDS,
) -> dict[str, Any]:
    """One comparison at `delay` seconds per call on `workers` worker processes; its wall time
    from start to DONE, and the delivery delays seen by `subscribers` websocket clients."""
    queue_name = f"shipwise-bench-{secrets.token_hex(4)}"
    env = {
        **os.environ,
        "SHIPWISE_DATABASE_URL": database_url,
        "SHIPWISE_REDIS_URL": REDIS_URL,
        "SHIPWISE_SECRET_KEY": key,
        "SHIPWISE_QUEUE_NAME": queue_name,
        "SHIPWISE_LOG_LEVEL": "WARNING",
    }
    fake, base_url = start_fake(delay)
    worker_processes = [
        _start_worker(env, profile if i == 0 else None, worker_args) for i in range(workers)
    ]
    api, api_url = await _start_api(env, api_profile) if subscribers else (None, "")
    delays_ms: list[float] = []
    watchers: list[asyncio.Task[None]] = []
    engine = create_engine(database_url)
    sessionmaker = create_sessionmaker(engine)
    queue = ArqQueue(REDIS_URL, queue_name=queue_name)
    events = RedisStreamEventBus(REDIS_URL)
    try:
        ws = await make_workspace(sessionmaker)
        setup = await make_comparison_setup(
            sessionmaker,
            ws,
            cases=cases,
            connection_kind="OPENAI_COMPATIBLE",
            base_url=base_url,
            secret_box=SecretBox(key),
            max_concurrency=CONCURRENCY,
            max_output_tokens=16,
        )
        comparison_id = await make_comparison(sessionmaker, setup, trials=TRIALS)
        ws_url = api_url.replace("http://", "ws://") + "/graphql"
        ready = [asyncio.Event() for _ in range(subscribers)]
        watchers = [
            asyncio.create_task(_watch(ws_url, ws.owner, comparison_id, delays_ms, event))
            for event in ready
        ]
        await _all_watching(watchers, ready)
        await wait_until_polling(queue_name, settle)
        cpu_before = sum(_cpu_s(w.pid) for w in worker_processes)
        # The API's own CPU (under --profile-api, py-spy's: not the figure then).
        api_cpu_before = _cpu_s(api.pid) if api is not None else 0.0
        started = time.perf_counter()
        await lifecycle.start(
            sessionmaker=sessionmaker,
            events=events,
            queue=queue,
            actor=actor_for(ws, Role.MEMBER),
            comparison_id=comparison_id,
        )
        while True:
            async with sessionmaker() as session:
                row = await session.get(Comparison, comparison_id)
                assert row is not None
                if row.status in TERMINAL_STATUSES:
                    break
            await asyncio.sleep(0.05)
        wall = time.perf_counter() - started
        worker_cpu = sum(_cpu_s(w.pid) for w in worker_processes) - cpu_before
        async with sessionmaker() as session:
            first, last = (
                await session.execute(
                    select(func.min(Trial.admitted_at), func.max(Trial.completed_at)).where(
                        Trial.comparison_id == comparison_id
                    )
                )
            ).one()
        async with sessionmaker() as session:
            deliveries = (
                await session.execute(
                    select(Trial.delivery_id).where(Trial.comparison_id == comparison_id).distinct()
                )
            ).scalars()
            # Delivery ids name their worker process (`dlv_<pid>_…`, server/dispatch/dispatcher.py).
            processes = len({d.split("_")[1] for d in deliveries})
            batches = await session.scalar(  # each record stamps its rows with one time
                select(func.count(func.distinct(Trial.completed_at))).where(
                    Trial.comparison_id == comparison_id
                )
            )
        assert row.started_at is not None and row.ended_at is not None
        assert first is not None and last is not None  # every trial was admitted and recorded
        steady = (last - first).total_seconds()
        ramp = (first - row.started_at).total_seconds(), (row.ended_at - last).total_seconds()
        await asyncio.wait_for(asyncio.gather(*watchers, return_exceptions=True), 30)
        api_cpu_s = _cpu_s(api.pid) - api_cpu_before if api is not None else 0.0
        return {
            "api_cpu_s": api_cpu_s,
            "status": row.status.value,
            "calls": row.done_calls,
            "wall_s": wall,
            "delays_ms": delays_ms,
            "steady_s": steady,
            "ramp_s": ramp,
            "processes": processes,
            "batches": int(batches or 0),
            "worker_cpu_ms_per_call": worker_cpu * 1000 / max(row.done_calls, 1),
        }
    finally:
        for watcher in watchers:
            watcher.cancel()
        if api is not None:
            api.send_signal(signal.SIGINT if api_profile else signal.SIGTERM)
            api.wait(timeout=30)
        await queue.close()
        await events.close()
        await engine.dispose()
        for worker in worker_processes:
            worker.send_signal(signal.SIGINT if profile else signal.SIGTERM)
        for worker in worker_processes:
            worker.wait(timeout=60)
        fake.terminate()
        fake.wait(timeout=30)


def _ramp_line(run: dict[str, Any], ideal: float | None = None) -> str:
    """A run's start-up and steady state: start → first admission → last outcome → DONE."""
    steady = f"first admission → last outcome {run['steady_s']:.2f} s"
    if ideal:
        steady += f" (ratio {run['steady_s'] / ideal:.3f})"
    return (
        f"  of which {steady}; start → first admission {run['ramp_s'][0]:.2f} s, "
        f"last outcome → DONE {run['ramp_s'][1]:.2f} s"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--latency", type=float, default=0.05)
    parser.add_argument("--subscribers", type=int, default=200)
    parser.add_argument("--profile", help="py-spy the 0 ms worker into this file")
    parser.add_argument("--profile-api", help="py-spy the API serving the subscribers")
    parser.add_argument(
        "--nice",
        type=int,
        help="every phase's workers at this `--nice` (default: 0 at 0 ms, where no API runs and "
        "the floor's loop runs at 0 too; as deployed at 50 ms, beside the API)",
    )
    parser.add_argument(
        "--phases", default="flat,two,paced", help="which runs (a partial run prints nan)"
    )
    parser.add_argument(
        "--smoke", action="store_true", help=SMOKE_HELP + " 40 cases, 5 subscribers, flat,paced."
    )
    args = parser.parse_args()
    if args.smoke:
        args.cases, args.subscribers, args.phases = 40, 5, "flat,paced"
    key = Fernet.generate_key().decode()
    settle = 0.0 if args.smoke else SETTLE_SECONDS
    worker = worker_command(smoke=args.smoke)
    beside_api = worker if args.nice is None else ("worker", "--nice", str(args.nice))
    alone = ("worker", "--nice", str(args.nice or 0))
    calls = args.cases * TRIALS * 2
    emit(f"calls: {calls} ({args.cases} cases × {TRIALS} trials × 2 cohorts); load {_load()}")
    fake, base_url = start_fake(0.0)
    try:
        await _floor(base_url, min(1_000, calls))  # warm the fake up
        floor = await _floor(base_url, calls)
        ours = await _provider_cpu(base_url, calls)
    finally:
        fake.terminate()
        fake.wait(timeout=30)
    emit(
        f"floor (plain aiohttp loop, concurrency {CONCURRENCY}, 0 ms fake): "
        f"{floor['calls_per_s']:.0f} calls/s, client CPU {floor['cpu_ms_per_call']:.3f} ms/call"
    )
    emit(
        f"our provider alone, same load: {ours['calls_per_s']:.0f} calls/s, "
        f"client CPU {ours['cpu_ms_per_call']:.3f} ms/call"
    )
    skipped: dict[str, Any] = {
        "status": "skipped",
        "calls": 0,
        "wall_s": float("nan"),
        "delays_ms": [],
        "processes": 0,
        "batches": 0,
        "worker_cpu_ms_per_call": float("nan"),
    }
    flat, two, paced = skipped, skipped, skipped
    phases = set(args.phases.split(","))
    ideal = calls * args.latency / CONCURRENCY
    database_url, name = await create_migrated_database(ADMIN_URL)
    try:
        if "flat" in phases:
            flat = await _run_once(
                database_url, key, 0.0, args.cases, profile=args.profile, worker_args=alone,
                settle=settle,
            )  # fmt: skip
            per_s = flat["calls"] / flat["wall_s"]
            emit(
                f"0 ms latency, one worker: {flat['wall_s']:.2f} s → {per_s:.0f} calls/s "
                f"(target ≥ 1,500; ratio_to_floor {floor['calls_per_s'] / per_s:.2f}, "
                f"target ≤ {FLOOR_TARGET}); status {flat['status']}, {flat['calls']} calls; "
                f"worker CPU {flat['worker_cpu_ms_per_call']:.3f} ms/call, "
                f"{flat['batches']} record batches; load {_load()}"
            )
            emit(_ramp_line(flat))
        if "two" in phases:
            two = await _run_once(
                database_url, key, 0.0, args.cases, workers=2, worker_args=alone, settle=settle
            )
            emit(
                f"0 ms latency, two workers on one comparison: {two['wall_s']:.2f} s → "
                f"{two['calls'] / two['wall_s']:.0f} calls/s; status {two['status']}, "
                f"{two['calls']} calls, sent by {two['processes']} worker processes; "
                f"worker CPU {two['worker_cpu_ms_per_call']:.3f} ms/call (both); load {_load()}"
            )
        if "paced" in phases:
            paced = await _run_once(
                database_url,
                key,
                args.latency,
                args.cases,
                subscribers=args.subscribers,
                profile=None if "flat" in phases else args.profile,
                api_profile=args.profile_api,
                worker_args=beside_api,
                settle=settle,
            )
            emit(
                f"{args.latency * 1000:.0f} ms latency, concurrency {CONCURRENCY}, "
                f"{args.subscribers} subscribers: {paced['wall_s']:.2f} s vs ideal {ideal:.2f} s "
                f"→ ratio {paced['wall_s'] / ideal:.3f} (target ≤ 1.05); "
                f"status {paced['status']}, {paced['calls']} calls; load {_load()}"
            )
            emit(_ramp_line(paced, ideal))
    finally:
        await drop_database(name, ADMIN_URL)
    ratio = paced["wall_s"] / ideal
    calls_per_s = (flat["calls"] or float("nan")) / flat["wall_s"]
    two_per_s = (two["calls"] or float("nan")) / two["wall_s"]
    delays = sorted(paced["delays_ms"])
    p99 = delays[min(len(delays) - 1, int(len(delays) * 0.99))] if delays else float("nan")
    emit(
        f"{args.subscribers} subscribers: {len(delays)} deliveries, p50 "
        f"{delays[len(delays) // 2] if delays else float('nan'):.0f} ms, p99 {p99:.0f} ms "
        "(target ≤ 250)"
    )
    if delays:
        emit(
            f"  API process CPU {paced['api_cpu_s']:.2f} s → "
            f"{paced['api_cpu_s'] * 1000 / len(delays):.3f} ms per delivered snapshot"
        )

    def figure(value: float, digits: int = 1) -> float | None:
        return round(value, digits) if value == value else None  # NaN (a skipped run): null

    emit(
        json.dumps(
            {
                "calls_per_s": figure(calls_per_s),
                "calls_per_s_two_workers": figure(two_per_s),
                "floor_calls_per_s": figure(floor["calls_per_s"]),
                "provider_cpu_ms_per_call": figure(ours["cpu_ms_per_call"], 3),
                "ratio_to_floor": figure(floor["calls_per_s"] / calls_per_s, 2),
                "ratio_to_ideal": figure(ratio, 3),
                "subscriber_p99_ms": figure(p99),
                "smoke": args.smoke,
            }
        )
    )


def _load() -> str:
    """The 1-minute load average (the machine is shared: figures follow it)."""
    return f"{os.getloadavg()[0]:.1f}"


if __name__ == "__main__":
    asyncio.run(main())
