"""The portal's read documents one client at a time: the server's CPU ms per request, and
each answer's body, on a kept copy of `bench/api_read.py`'s database.

On a shared machine req/s moves with everything else running; the server process's CPU
time per answered request (from `/proc`) moves much less, so code before and after a change
is compared by it, interleaved on the same database, each checkout served from its own
directory (a `git archive` of the earlier commit will do). The bodies are written out, so
two runs can be compared byte for byte (`etaSeconds` of a running comparison moves with
the clock and is masked).

    export SHIPWISE_BENCH_REDIS_URL=redis://127.0.0.1:6379/12
    .venv/bin/python bench/read_cpu.py seed /tmp/read.json          # the kept database
    .venv/bin/python bench/read_cpu.py measure /tmp/read.json --code /tmp/before --out /tmp/b
    .venv/bin/python bench/read_cpu.py measure /tmp/read.json --out /tmp/a   # this checkout
    .venv/bin/python bench/read_cpu.py compare /tmp/b /tmp/a
    .venv/bin/python bench/read_cpu.py drop /tmp/read.json

`measure --profile` also writes a py-spy raw profile of each document (`<name>.prof`).

When the host's speed drifts more than the change being measured (a floor moving 1.2–1.7 ms
between runs minutes apart), `ab` serves both checkouts at once and alternates short rounds
between them, so both see the same host; it prints each document's mean CPU ms per
request over the rounds, for each, and their ratio:

    .venv/bin/python bench/read_cpu.py ab /tmp/read.json --code /tmp/before --rounds 15

`--smoke` (no command) seeds a toy database, measures this checkout with a few requests a
document and drops it: a few seconds, only to show the benchmark still runs.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
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
    py_spy,
)
from bench.kit.portal_documents import document, persisted_body
from bench.read_running import Writer, seed_running
from bench.read_seed import CASES, COHORTS, COMPARISONS, seed_ended
from bench.wrk import cpu_seconds
from server.db import create_engine, create_sessionmaker
from server.migrate import upgrade

REDIS_URL = os.environ.get("SHIPWISE_BENCH_REDIS_URL", "redis://127.0.0.1:6379/0")
ROOT = Path(__file__).resolve().parents[1]
WARM_UP = 20
SMOKE_CASES, SMOKE_COMPARISONS, SMOKE_REQUESTS = 30, 2, 5
ETA = re.compile(rb'"etaSeconds":[0-9.]+')


async def _seed(
    state: Path, *, cases: int = CASES, comparisons: int = COMPARISONS, writing: float = 4
) -> None:
    url, name = await create_database(ADMIN_URL)
    await asyncio.to_thread(upgrade, url)
    engine = create_engine(url)
    try:
        sessionmaker = create_sessionmaker(engine)
        token, finalized = await seed_ended(sessionmaker, cases=cases, comparisons=comparisons)
        running_token, runs = await seed_running(
            sessionmaker, count=comparisons, cases=cases, cohorts=COHORTS
        )
    finally:
        await engine.dispose()
    writer = Writer(url, runs)  # a few batches, so counters, spend and etaSeconds show
    writer.start()
    await asyncio.sleep(writing)
    writer.stop()
    state.write_text(
        json.dumps(
            {
                "url": url,
                "name": name,
                "token": token,
                "finalized": finalized,
                "running_token": running_token,
                "running": runs[0].plan.comparison.id,
            }
        )
    )
    emit(f"seeded {url} ({writer.batches} batches recorded); state in {state}")


def documents(
    state: dict[str, Any], *, as_text: bool = False
) -> dict[str, tuple[str, dict[str, Any]]]:
    """(token, body) of the floor and of (d), (e) and each of (f)'s three queries, sent as
    the portal sends them, by their persisted hash (`as_text`: their text, which the schema
    answers)."""
    finalized = {"id": state["finalized"]}
    cases = {**finalized, "filter": "REGRESSED", "baseline": 1, "first": 50, "after": None}
    running, token = state["running_token"], state["token"]

    def body(name: str, variables: dict[str, Any]) -> dict[str, Any]:
        if as_text:
            return {"query": document(name), "variables": variables}
        return persisted_body(name, variables)

    return {
        "floor": (token, {"query": "{ __typename }"}),
        "d_list": (running, body("ComparisonsList", {"first": 20})),
        "e_running": (running, body("ComparisonPage", {"id": state["running"]})),
        "f_page": (token, body("ComparisonPage", finalized)),
        "f_scorecard": (token, body("ComparisonScorecard", finalized)),
        "f_cases": (token, body("ComparisonCases", cases)),
    }


def _serve(state: dict[str, Any], code: Path, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {
        **os.environ,
        "SHIPWISE_DATABASE_URL": state["url"],
        "SHIPWISE_REDIS_URL": REDIS_URL,
        "SHIPWISE_LOG_LEVEL": "WARNING",
        "SHIPWISE_QUEUE_NAME": f"arq:bench:{secrets.token_hex(4)}",
        "SHIPWISE_SECRET_KEY": Fernet.generate_key().decode(),
        "SHIPWISE_RESPONSE_CACHE_BYTES": "0",
    }
    command = [sys.executable, "-m", "server.cli", "serve", "--port", str(port)]
    with log.open("wb") as output:  # cwd: `-m` imports that checkout's `server`
        server = subprocess.Popen(command, cwd=code, env=env, stdout=output, stderr=output)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180  # a bound for a loaded host (its imports), not a delay
    while time.monotonic() < deadline and server.poll() is None:
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return server, url
        except httpx.HTTPError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit(f"the server did not start:\n{log.read_text()[-2000:]}")


def _spy(pid: int, path: Path) -> subprocess.Popen[bytes]:
    spy = py_spy()
    command = [spy, "record", "--pid", str(pid), "--rate", "250", "--format", "raw",
               "--output", str(path), "--nonblocking"]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.0)  # attached
    return process


def _timed(
    client: httpx.Client, url: str, pid: int, token: str, body: Any, n: int
) -> tuple[float, float]:
    """(server CPU ms, wall ms) per request over `n` requests of `body`."""
    headers = {"Authorization": f"Bearer {token}"}
    cpu, started = cpu_seconds(pid), time.perf_counter()
    for _ in range(n):
        client.post(f"{url}/graphql", json=body, headers=headers)
    return 1000 * (cpu_seconds(pid) - cpu) / n, 1000 * (time.perf_counter() - started) / n


def measure(
    state: dict[str, Any],
    code: Path,
    out: Path,
    requests: int,
    profile: bool,
    as_text: bool,
    *,
    warm_up: int = WARM_UP,
) -> dict[str, float]:
    """Each document's server CPU ms and wall ms per request (`<name>_cpu_ms`,
    `<name>_wall_ms`), printed as a line and as the last line's JSON."""
    out.mkdir(parents=True, exist_ok=True)
    server, url = _serve(state, code, out / "server.log")
    figures = []
    result: dict[str, float] = {}
    try:
        with httpx.Client(timeout=30) as client:
            for name, (token, body) in documents(state, as_text=as_text).items():
                headers = {"Authorization": f"Bearer {token}"}
                for _ in range(max(1, warm_up)):
                    answer = client.post(f"{url}/graphql", json=body, headers=headers)
                assert "errors" not in answer.json(), answer.text[:2000]
                (out / f"{name}.json").write_bytes(answer.content)
                spy = _spy(server.pid, out / f"{name}.prof") if profile else None
                cpu_ms, wall_ms = _timed(client, url, server.pid, token, body, requests)
                if spy is not None:
                    spy.send_signal(signal.SIGINT)
                    spy.wait()
                figures.append(f"{name}={cpu_ms:.2f}({wall_ms:.1f})")
                result |= {f"{name}_cpu_ms": round(cpu_ms, 3), f"{name}_wall_ms": round(wall_ms, 1)}
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(20)
    emit(f"{code}: cpu ms (wall ms) per request: {' '.join(figures)} "
         f"load={os.getloadavg()[0]:.1f}")  # fmt: skip
    return result | {"load_average": round(os.getloadavg()[0], 2)}


def smoke() -> None:
    """A toy database seeded, this checkout measured on it, the database dropped."""
    with tempfile.TemporaryDirectory(prefix="shipwise-read-cpu-") as scratch:
        out = Path(scratch)
        asyncio.run(
            _seed(out / "state.json", cases=SMOKE_CASES, comparisons=SMOKE_COMPARISONS, writing=1)
        )
        state = json.loads((out / "state.json").read_text())
        try:
            figures = measure(state, ROOT, out, SMOKE_REQUESTS, False, False, warm_up=2)
        finally:
            asyncio.run(drop_database(state["name"], ADMIN_URL))
    emit(json.dumps(figures | {"smoke": True}))


def ab(
    state: dict[str, Any], before: Path, out: Path, rounds: int, requests: int, as_text: bool
) -> None:
    """`before` and this checkout served at once, in alternating rounds of `requests` per
    document; the mean CPU ms per request over the rounds and their ratio."""
    out.mkdir(parents=True, exist_ok=True)
    served = [_serve(state, code, out / f"server-{i}.log") for i, code in enumerate((before, ROOT))]
    docs = documents(state, as_text=as_text)
    rounds_ms: dict[str, tuple[list[float], list[float]]] = {name: ([], []) for name in docs}
    try:
        with httpx.Client(timeout=30) as client:
            for server, url in served:
                for token, body in docs.values():
                    _timed(client, url, server.pid, token, body, WARM_UP)
            for round_ in range(rounds):
                order = (0, 1) if round_ % 2 == 0 else (1, 0)
                for name, (token, body) in docs.items():
                    for i in order:
                        server, url = served[i]
                        ms = _timed(client, url, server.pid, token, body, requests)[0]
                        rounds_ms[name][i].append(ms)
    finally:
        for server, _ in served:
            server.send_signal(signal.SIGINT)
            server.wait(20)
    figures = {}
    for name, (b, a) in rounds_ms.items():
        # /proc counts CPU in 10 ms ticks: the mean over all rounds is finer than a median.
        mb, ma = statistics.fmean(b), statistics.fmean(a)
        ratios = sorted(y / x for x, y in zip(b, a, strict=True) if x)
        spread = f"{ratios[0]:.2f}–{ratios[-1]:.2f}" if ratios else "n/a"
        figures[name] = {"before_ms": round(mb, 3), "after_ms": round(ma, 3),
                         "ratio": round(ma / mb, 3)}  # fmt: skip
        emit(f"{name}: before {mb:.2f} ms, after {ma:.2f} ms, after/before {ma / mb:.3f} "
             f"(rounds {spread})")  # fmt: skip
    emit(f"load={os.getloadavg()[0]:.1f}")
    emit(json.dumps(figures))


def compare(before: Path, after: Path) -> None:
    """Byte-compares each body of two `measure` runs (`etaSeconds` masked)."""
    differ = False
    for path in sorted(before.glob("*.json")):
        other = after / path.name
        same = other.is_file() and ETA.sub(b"X", path.read_bytes()) == ETA.sub(
            b"X", other.read_bytes()
        )
        differ |= not same
        emit(f"{'same' if same else 'DIFFERENT'} {path.name} ({path.stat().st_size} bytes)")
    if differ:
        raise SystemExit(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", nargs="?", choices=("seed", "measure", "ab", "compare", "drop"))
    parser.add_argument("paths", nargs="*", type=Path, help="The state file; compare: 2 dirs.")
    parser.add_argument("--code", type=Path, default=ROOT, help="The checkout to serve.")
    parser.add_argument("--out", type=Path, default=Path("read_cpu"), help="Bodies, profiles.")
    parser.add_argument("--requests", type=int, default=150, help="Per document.")
    parser.add_argument("--profile", action="store_true", help="py-spy raw profiles.")
    parser.add_argument("--rounds", type=int, default=15, help="ab: alternating rounds.")
    parser.add_argument("--as-text", action="store_true", help="Documents as text: the schema.")
    parser.add_argument("--smoke", action="store_true", help=SMOKE_HELP + " No command.")
    args = parser.parse_args()
    if args.smoke:
        if args.command is not None:
            parser.error("--smoke takes no command: it seeds, measures and drops on its own")
        smoke()
        return
    if args.command is None or not args.paths:
        parser.error("a command and its state file (compare: two directories) are needed")
    if args.command == "compare":
        compare(*args.paths[:2])
    elif args.command == "seed":
        asyncio.run(_seed(args.paths[0]))
    else:
        state = json.loads(args.paths[0].read_text())
        if args.command == "drop":
            asyncio.run(drop_database(state["name"], ADMIN_URL))
        elif args.command == "ab":
            ab(state, args.code, args.out, args.rounds, args.requests, args.as_text)
        else:
            figures = measure(state, args.code, args.out, args.requests, args.profile, args.as_text)
            emit(json.dumps(figures))


if __name__ == "__main__":
    main()
