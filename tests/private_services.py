"""Services a fault test owns and may stop: a `redis-server` and a PostgreSQL cluster, each on
a free port in a temporary directory, never the shared ones other sessions use."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from bench.kit.private_redis import PrivateRedis
from bench.kit.waiting import eventually_blocking


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_until(predicate: Callable[[], bool], *, timeout: float, what: str) -> None:
    eventually_blocking(predicate, timeout=timeout, what=what)


def private_redis(tmp_path: Path) -> PrivateRedis:
    if shutil.which("redis-server") is None:
        pytest.skip("needs redis-server (Debian's redis-server package)")
    directory = tmp_path / "redis"
    directory.mkdir()
    server = PrivateRedis(directory, free_port())
    server.start()
    return server


def _pg_bin(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


def _as_postgres() -> list[str]:
    """PostgreSQL refuses to run as root: as root, run its tools as the `postgres` user."""
    if os.geteuid() != 0:
        return []
    runuser = shutil.which("runuser")
    if runuser is None:
        pytest.skip("running as root without runuser: PostgreSQL's tools refuse root")
    return [runuser, "-u", "postgres", "--"]


@dataclass
class PrivatePostgres:
    """A PostgreSQL cluster of the test's own (`initdb` + `pg_ctl`), trusting local users."""

    directory: Path
    port: int

    @property
    def admin_url(self) -> str:
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/postgres"

    def _ctl(self, *args: str) -> None:
        pg_ctl = _pg_bin("pg_ctl")
        assert pg_ctl is not None
        options = f"-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1 -c fsync=off"
        subprocess.run(
            [*_as_postgres(), pg_ctl, "-D", str(self.directory / "data"),
             "-l", str(self.directory / "log"), "-w", "-t", "30", "-o", options, *args],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip

    def start(self) -> None:
        self._ctl("start")

    def restart(self) -> None:
        """`pg_ctl restart -m fast`: every connection is cut, the server is back in a moment."""
        self._ctl("-m", "fast", "restart")

    def stop(self) -> None:
        """Stop the cluster and remove its directory."""
        try:
            self._ctl("-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.directory, ignore_errors=True)


def private_postgres() -> PrivatePostgres:
    """A new cluster on a free port in a directory of its own (readable by `postgres`)."""
    initdb = _pg_bin("initdb")
    if initdb is None or _pg_bin("pg_ctl") is None:
        pytest.skip("needs PostgreSQL's initdb and pg_ctl")
    prefix = _as_postgres()
    directory = Path(tempfile.mkdtemp(prefix="shipwise-pg-"))
    if prefix:
        shutil.chown(directory, "postgres", "postgres")
    subprocess.run(
        [*prefix, initdb, "-D", str(directory / "data"), "-U", "postgres", "--auth=trust",
         "-E", "UTF8", "--no-sync"],
        check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    cluster = PrivatePostgres(directory, free_port())
    cluster.start()
    return cluster
