"""Arize Phoenix as bench/trace_ingest.py's peer: `phoenix serve` (from `PHOENIX_BIN`, else
the PATH) on a free port with a PostgreSQL database of its own, and how many traces it has
stored (its GraphQL `projects { traceCount }`). Install it outside the repo, e.g.
`python3 -m venv ~/phoenix-venv && ~/phoenix-venv/bin/pip install arize-phoenix asyncpg`
(Phoenix reaches PostgreSQL with asyncpg, which it does not install itself)."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import httpx

from bench.harness import free_port

COUNT = "{ projects { edges { node { name traceCount } } } }"


def phoenix_bin() -> str | None:
    """`PHOENIX_BIN` when set, else `phoenix` on the PATH; None without either."""
    given = os.environ.get("PHOENIX_BIN")
    if given:
        return given if Path(given).exists() else None
    return shutil.which("phoenix")


class Phoenix:
    """A served Phoenix; `url` takes OTLP/HTTP at `/v1/traces`."""

    def __init__(self, binary: str, database_url: str, workdir: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = dict(os.environ) | {
            "PHOENIX_PORT": str(self.port),
            "PHOENIX_HOST": "127.0.0.1",
            "PHOENIX_GRPC_PORT": str(free_port()),
            "PHOENIX_WORKING_DIR": str(workdir),
            "PHOENIX_SQL_DATABASE_URL": database_url.replace("postgresql+asyncpg", "postgresql"),
            "PHOENIX_TELEMETRY_ENABLED": "false",
        }
        self.workdir = workdir
        self.log = (workdir / "phoenix.log").open("wb")
        self.process = subprocess.Popen(
            [binary, "serve"], env=env, stdout=self.log, stderr=subprocess.STDOUT
        )

    def wait_ready(self, seconds: float = 180) -> None:
        deadline = time.monotonic() + seconds  # a bound for its start-up, not a delay
        while time.monotonic() < deadline and self.process.poll() is None:
            try:
                if httpx.post(f"{self.url}/graphql", json={"query": COUNT}, timeout=2).is_success:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.5)
        tail = (self.workdir / "phoenix.log").read_text(errors="replace")[-2000:]
        raise RuntimeError(f"phoenix serve did not answer:\n{tail}")

    def traces_stored(self) -> int:
        answer = httpx.post(f"{self.url}/graphql", json={"query": COUNT}, timeout=30).json()
        edges = answer["data"]["projects"]["edges"]
        return sum(int(edge["node"]["traceCount"]) for edge in edges)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.log.close()
