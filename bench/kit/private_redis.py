"""A `redis-server` of our own on a free port, which a fault test or a bench may stop and
start again (the machine's shared Redis on 6379 serves other sessions and is never
restarted).

It keeps an append-only file, so a restart keeps the queue, as a production Redis does
(docs/domain.md, "Dispatch").
"""

from __future__ import annotations

import socket
import subprocess
from dataclasses import dataclass
from pathlib import Path

from bench.kit.waiting import eventually_blocking


def answers(port: int) -> bool:
    """Whether something accepts connections on 127.0.0.1:`port`."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2):
            return True
    except OSError:
        return False


@dataclass
class PrivateRedis:
    """`stop()` and `start()` again on the same port. `appendfsync` is `always` for tests (a
    restart loses nothing); a bench under load takes `everysec`."""

    directory: Path
    port: int
    appendfsync: str = "always"
    start_timeout: float = 10.0
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
                "--appendfsync", self.appendfsync,
                "--save", "",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        eventually_blocking(
            lambda: answers(self.port), timeout=self.start_timeout, what="redis-server"
        )

    def stop(self) -> None:
        """SIGTERM: Redis flushes its append-only file and exits; clients get refused."""
        if self.process is not None:
            self.process.terminate()
            self.process.wait(30)
            self.process = None
