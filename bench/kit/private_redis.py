"""A `redis-server` of the bench's own on a free port, which it may stop and start again (the
machine's shared Redis on 6379 serves other sessions and is never restarted).

It keeps an append-only file, so a restart keeps the queue, as a production Redis does
(docs/domain.md, "Dispatch").
"""

from __future__ import annotations

import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


@dataclass
class PrivateRedis:
    directory: Path
    port: int
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        assert self.process is None
        self.directory.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port", str(self.port),
                "--bind", "127.0.0.1",
                "--dir", str(self.directory),
                "--appendonly", "yes",
                "--appendfsync", "everysec",
                "--save", "",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        deadline = time.monotonic() + 30
        while not _answers(self.port):
            if time.monotonic() > deadline:
                raise SystemExit("the private redis-server did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        """SIGTERM: Redis writes its append-only file and exits; clients get refused."""
        if self.process is not None:
            self.process.terminate()
            self.process.wait(30)
            self.process = None
