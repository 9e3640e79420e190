"""Real processes for end-to-end tests: `shipwise serve` and `shipwise worker` on PostgreSQL
and Redis, started per test and always stopped."""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import pytest

from bench.kit.waiting import eventually

STARTUP_SECONDS = 90.0  # a bound for a loaded host: two uvicorn workers import the app


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def stop(process: subprocess.Popen[bytes], timeout: float = 20) -> None:
    """SIGTERM, then SIGKILL if it does not exit in time."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@dataclass
class Deployment:
    """One database, one Redis, one job queue; API and worker processes started on demand."""

    env: dict[str, str]
    logs: Path
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def _spawn(self, name: str, *args: str) -> subprocess.Popen[bytes]:
        with open(self.logs / f"{name}.log", "ab") as log:
            process = subprocess.Popen(
                [sys.executable, "-m", "server.cli", *args],
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=os.getcwd(),
            )
        self.processes.append(process)
        return process

    async def start_api(self, workers: int = 1) -> str:
        """`shipwise serve [--workers N]` on a free port; its base URL once `/healthz` answers."""
        port = free_port()
        name = f"api-{port}"
        args = ("serve", "--host", "127.0.0.1", "--port", str(port), "--workers", str(workers))
        process = self._spawn(name, *args)
        base_url = f"http://127.0.0.1:{port}"
        async with httpx.AsyncClient(base_url=base_url, timeout=1) as client:

            async def healthy() -> bool:
                if process.poll() is not None:
                    raise AssertionError(f"{name} exited {process.returncode}: {self.tail(name)}")
                try:
                    return (await client.get("/healthz")).status_code == 200
                except httpx.TransportError:
                    return False

            try:
                await eventually(healthy, timeout=STARTUP_SECONDS, what=f"{name} answers /healthz")
            except AssertionError as slow:
                raise AssertionError(f"{slow}: {self.tail(name)}") from None
        return base_url

    def start_worker(self) -> None:
        """`shipwise worker` on the same database, Redis and queue, at the suite's priority
        (as bench/kit/harness.py's `start_worker_process`)."""
        self._spawn("worker", "worker", "--nice", "0")

    def tail(self, name: str) -> str:
        path = self.logs / f"{name}.log"
        return path.read_text(errors="replace")[-2000:] if path.exists() else ""

    def stop_all(self) -> None:
        for process in self.processes:
            stop(process)


@pytest.fixture
def deployment(
    postgres_database: str, redis_test_url: str, fernet_key: str, tmp_path: Path
) -> Iterator[Deployment]:
    env = {
        **os.environ,
        "SHIPWISE_DATABASE_URL": postgres_database,
        "SHIPWISE_REDIS_URL": redis_test_url,
        "SHIPWISE_SECRET_KEY": fernet_key,
        "SHIPWISE_QUEUE_NAME": f"shipwise-e2e-{secrets.token_hex(4)}",
        "SHIPWISE_DATA_DIR": str(tmp_path / "data"),
    }
    found = Deployment(env=env, logs=tmp_path)
    try:
        yield found
    finally:
        found.stop_all()
