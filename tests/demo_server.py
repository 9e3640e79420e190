"""`shipwise serve --demo` in a process of its own, on a free port, for tests that drive it."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from bench.kit.waiting import eventually_blocking


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Printed:
    """Everything `serve --demo` wrote to stdout and stderr, in order."""

    lines: list[str]

    @property
    def banner(self) -> str:
        return "\n".join(line for line in self.lines if not line.startswith('{"time"'))

    @property
    def logs(self) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.lines if line.startswith('{"time"')]


@contextmanager
def demo_server(data_dir: Path) -> Iterator[tuple[str, Printed]]:
    """Start `serve --demo`; yield (base URL, what it printed until it served and said so)."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("SHIPWISE_")}
    env["SHIPWISE_DATA_DIR"] = str(data_dir)
    out_path = data_dir.parent / f"demo-{port}.out"
    with open(out_path, "wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "server.cli", "serve", "--demo", "--port", str(port)],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    base = f"http://127.0.0.1:{port}"
    try:
        # One client for every poll: each new httpx client builds a TLS context (~20 ms of CPU).
        with httpx.Client(timeout=1) as client:

            def ready() -> bool:
                try:
                    up = client.get(f"{base}/healthz").status_code == 200
                except httpx.HTTPError:
                    up = False
                return up and "failedCalls" in out_path.read_text()  # the banner's last lines

            eventually_blocking(ready, timeout=120, interval=0.1, what="the demo server and banner")
        yield base, Printed(out_path.read_text().splitlines())
    finally:
        process.terminate()
        process.wait(timeout=30)
