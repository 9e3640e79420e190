"""Benchmark: import 100,000 cases through `shipwise dataset import` into PostgreSQL.

Creates a fresh database, migrates it, serves it with `shipwise serve` in a subprocess,
creates a workspace with `shipwise workspace create`, writes a JSONL file and times the
import command (a subprocess too) while sampling the resident memory of both processes
(and their children) every 50 ms. The database is dropped at the end. The last line printed
is one JSON object.

    .venv/bin/python bench/dataset_import.py [--cases 100000] [--chunk-size 5000] [--profile F]

`SHIPWISE_BENCH_DATABASE_URL` is the admin URL used to create and drop the database
(default postgresql+asyncpg://postgres@127.0.0.1:5432/test).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
import psutil
from cryptography.fernet import Fernet

from server.migrate import upgrade

DEFAULT_ADMIN_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
TARGET_CASES_PER_S = 20_000.0
TARGET_RSS_MB = 300.0
SAMPLE_SECONDS = 0.05


def emit(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def write_cases(path: Path, count: int) -> None:
    """`count` realistic cases: an object input, a string answer, 1 in 5 held out, two tags."""
    with path.open("w") as out:
        for i in range(count):
            case = {
                "datasetItemId": f"item-{i:07d}",
                "input": {
                    "question": f"What is {i} plus {i % 97}? Answer with the number only.",
                    "context": f"arithmetic drill {i % 13}",
                },
                "expected": str(i + i % 97),
                "split": "HOLDOUT" if i % 5 == 0 else "DEV",
                "tags": ["arithmetic", f"bucket-{i % 10}"],
            }
            out.write(json.dumps(case) + "\n")


async def create_database(admin_url: str) -> tuple[str, str]:
    import asyncpg  # type: ignore[import-untyped]

    name = f"shipwise_bench_{secrets.token_hex(4)}"
    conn = await asyncpg.connect(admin_url.replace("postgresql+asyncpg", "postgresql"))
    try:
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()
    return f"{admin_url.rpartition('/')[0]}/{name}", name


async def drop_database(admin_url: str, name: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(admin_url.replace("postgresql+asyncpg", "postgresql"))
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class PeakRss:
    """Samples the RSS of a process and its descendants in a thread; keeps the peak."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak_bytes = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> PeakRss:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _sample(self) -> int:
        try:
            root = psutil.Process(self.pid)
            total = int(root.memory_info().rss)
            for child in root.children(recursive=True):
                try:
                    total += int(child.memory_info().rss)
                except psutil.Error:
                    pass
            return total
        except psutil.Error:
            return 0

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak_bytes = max(self.peak_bytes, self._sample())
            self._stop.wait(SAMPLE_SECONDS)

    @property
    def peak_mb(self) -> float:
        return self.peak_bytes / (1024 * 1024)


def shipwise(*args: str) -> list[str]:
    return [sys.executable, "-m", "server.cli", *args]


def start_server(
    env: dict[str, str], port: int, log: Path, profile: str | None
) -> subprocess.Popen[bytes]:
    """`shipwise serve` on `port` (under `py-spy record` with a profile), once it answers."""
    command = shipwise("serve", "--port", str(port))
    if profile:
        spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
        fmt = {".svg": "flamegraph", ".json": "speedscope"}.get(Path(profile).suffix, "raw")
        command = [spy, "record", "--format", fmt, "-o", profile, "--", *command]
    with log.open("wb") as output:
        server = subprocess.Popen(command, env=env, stdout=output, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and server.poll() is None:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return server
        except httpx.HTTPError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit(f"the server did not start:\n{log.read_text()[-2000:]}")


def stop_server(server: subprocess.Popen[bytes]) -> None:
    server.send_signal(signal.SIGINT)
    try:
        server.wait(20)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def run_import(
    env: dict[str, str], path: Path, server_pid: int, chunk_size: int, in_flight: int
) -> dict[str, float]:
    command = shipwise(
        "dataset", "import", str(path), "--name", "bench",
        "--chunk-size", str(chunk_size), "--in-flight", str(in_flight),
    )  # fmt: skip
    with PeakRss(server_pid) as server_rss:
        started = time.perf_counter()
        client = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        with PeakRss(client.pid) as client_rss:
            out, err = client.communicate()
        seconds = time.perf_counter() - started
    if client.returncode != 0:
        raise SystemExit(f"the import failed ({client.returncode}): {err.decode()}")
    emit(out.decode().strip().splitlines()[0])
    return {
        "seconds": seconds,
        "client_mb": client_rss.peak_mb,
        "server_mb": server_rss.peak_mb,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=100_000)
    parser.add_argument("--chunk-size", type=int, default=5_000)
    parser.add_argument("--in-flight", type=int, default=3, help="Chunks sent at once.")
    parser.add_argument(
        "--profile", help="Profile the server with py-spy into this file (.txt, .svg or .json)."
    )
    args = parser.parse_args()
    admin_url = os.environ.get("SHIPWISE_BENCH_DATABASE_URL", DEFAULT_ADMIN_URL)

    database_url, name = asyncio.run(create_database(admin_url))
    workdir = Path(tempfile.mkdtemp(prefix="shipwise-bench-"))
    server: subprocess.Popen[bytes] | None = None
    try:
        upgrade(database_url)
        port = free_port()
        env = {k: v for k, v in os.environ.items() if not k.startswith("SHIPWISE_")}
        env |= {
            "SHIPWISE_DATABASE_URL": database_url,
            "SHIPWISE_SECRET_KEY": Fernet.generate_key().decode(),
            "SHIPWISE_DATA_DIR": str(workdir / "data"),
            "SHIPWISE_LOG_LEVEL": "WARNING",
        }
        created = subprocess.run(
            shipwise("workspace", "create", "bench"), env=env, capture_output=True, text=True
        )
        if created.returncode != 0:
            raise SystemExit(f"workspace create failed: {created.stderr}")
        env |= {
            "SHIPWISE_TOKEN": created.stdout.strip().splitlines()[-1],
            "SHIPWISE_URL": f"http://127.0.0.1:{port}",
        }
        path = workdir / "cases.jsonl"
        write_cases(path, args.cases)
        emit(f"{args.cases:,} cases, {path.stat().st_size / 1e6:.1f} MB of JSONL")
        server = start_server(env, port, workdir / "server.log", args.profile)
        figures = run_import(env, path, server.pid, args.chunk_size, args.in_flight)
    finally:
        if server is not None:
            stop_server(server)
        shutil.rmtree(workdir, ignore_errors=True)
        asyncio.run(drop_database(admin_url, name))

    rate = args.cases / figures["seconds"]
    peak = max(figures["client_mb"], figures["server_mb"])
    emit(f"wall time        {figures['seconds']:.2f} s (the whole `shipwise dataset import`)")
    ratio = rate / TARGET_CASES_PER_S
    emit(f"throughput       {rate:,.0f} cases/s  ({ratio:.2f}× the 20,000 target)")
    for who in ("client", "server"):
        mb = figures[f"{who}_mb"]
        emit(f"{who} peak RSS  {mb:.0f} MB  ({mb / TARGET_RSS_MB:.2f} of the 300 MB limit)")
    emit(
        json.dumps(
            {
                "cases_per_s": round(rate),
                "peak_rss_mb": round(peak, 1),
                "client_peak_rss_mb": round(figures["client_mb"], 1),
                "server_peak_rss_mb": round(figures["server_mb"], 1),
            }
        )
    )


if __name__ == "__main__":
    main()
