"""Start-up shared by the benchmarks: a throw-away PostgreSQL database, a served `shipwise`
on a free port (optionally under py-spy) once it answers `/healthz`, a workspace token,
peak-RSS sampling and line-by-line output.

`SHIPWISE_BENCH_DATABASE_URL` is the admin URL used to create and drop the database
(default postgresql+asyncpg://postgres@127.0.0.1:5432/test).

bench/dispatch.py and bench/api_read.py take the database, the free port and py-spy from
here; still their own: api_read's `_start_server`/`_stop` (`start_server`/`stop_server`
with `ready_seconds=60` would do), dispatch's `_start_api` (`free_port` + `start_server`)
and api_read's `emit`.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import psutil
from cryptography.fernet import Fernet

from bench.kit import databases as kit_databases
from bench.kit.databases import create_empty_database
from server.tls import client_tls

DEFAULT_ADMIN_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
ADMIN_URL = os.environ.get("SHIPWISE_BENCH_DATABASE_URL", DEFAULT_ADMIN_URL)
SAMPLE_SECONDS = 0.05
SMOKE_HELP = (
    "A few seconds at toy sizes, only to show the benchmark still runs "
    "(tests/test_benches_run.py): its figures measure nothing."
)
"""`--smoke`'s help, the same in every benchmark; a smoke run's JSON line says `"smoke": true`."""


def emit(line: str) -> None:
    """Print one line at once (figures show up while a long benchmark goes on)."""
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def create_database(admin_url: str = ADMIN_URL) -> tuple[str, str]:
    """(URL, name) of a new, empty database `shipwise_bench_<hex>`."""
    return await create_empty_database(admin_url, "shipwise_bench")


async def create_migrated_database(admin_url: str = ADMIN_URL) -> tuple[str, str]:
    """(URL, name) of a new database `shipwise_bench_<hex>` at the newest schema: a copy of
    the migrated template (bench/kit/databases.py), not a migration from nothing."""
    return await kit_databases.create_migrated_database(admin_url, "shipwise_bench")


async def drop_database(name: str, admin_url: str = ADMIN_URL) -> None:
    await kit_databases.drop_database(admin_url, name)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def shipwise(*args: str) -> list[str]:
    """The command line of `shipwise …` in this interpreter."""
    return [sys.executable, "-m", "server.cli", *args]


def worker_command(*, smoke: bool) -> tuple[str, ...]:
    """`shipwise worker`'s arguments in a benchmark: as deployed (niced by default, so the
    API answers first), or at `--nice 0` in a smoke run, which shares the cores with a test
    suite's processes rather than with the API alone, so a niced worker would wait them out
    (tests/test_benches_run.py)."""
    return ("worker", "--nice", "0") if smoke else ("worker",)


def py_spy() -> str:
    """py-spy's executable: on the PATH, else beside this interpreter (the dev extras')."""
    return shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")


def spied(command: list[str], profile: str | None) -> list[str]:
    """`command` under `py-spy record` into `profile` (.svg flamegraph, .json speedscope)."""
    if not profile:
        return command
    spy = py_spy()
    fmt = {".svg": "flamegraph", ".json": "speedscope"}.get(Path(profile).suffix, "raw")
    return [spy, "record", "--format", fmt, "-o", profile, "--", *command]


def server_env(database_url: str, workdir: Path) -> dict[str, str]:
    """This environment without any `SHIPWISE_*`, plus a served database of our own."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SHIPWISE_")}
    return env | {
        "SHIPWISE_DATABASE_URL": database_url,
        "SHIPWISE_SECRET_KEY": Fernet.generate_key().decode(),
        "SHIPWISE_DATA_DIR": str(workdir / "data"),
        "SHIPWISE_LOG_LEVEL": "WARNING",
    }


async def workspace_token(database_url: str, name: str = "bench") -> str:
    """The owner token of a new workspace: what `shipwise workspace create` does, in this
    process (not an interpreter's start and the CLI's imports: 2–5 s on a loaded host)."""
    from server.db import create_engine, create_sessionmaker, transaction
    from server.workspaces import service

    engine = create_engine(database_url)
    try:
        async with transaction(create_sessionmaker(engine)) as session:
            _, issued = await service.create_workspace(session=session, name=name)
        return issued.secret
    finally:
        await engine.dispose()


def start_server(
    env: dict[str, str],
    port: int,
    log: Path,
    profile: str | None = None,
    *,
    ready_seconds: float = 180,  # a bound for a loaded host (its imports), not a delay
) -> subprocess.Popen[bytes]:
    """`shipwise serve` on `port` (under py-spy with a profile), once `/healthz` answers."""
    command = spied(shipwise("serve", "--port", str(port)), profile)
    with log.open("wb") as output:
        server = subprocess.Popen(command, env=env, stdout=output, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + ready_seconds
    with httpx.Client(timeout=1, verify=client_tls()) as client:  # not a TLS context a poll
        while time.monotonic() < deadline and server.poll() is None:
            try:
                if client.get(f"http://127.0.0.1:{port}/healthz").status_code == 200:
                    return server
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
    server.kill()
    raise SystemExit(f"the server did not start:\n{log.read_text()[-2000:]}")


def stop_server(server: subprocess.Popen[bytes]) -> None:
    """SIGINT (a clean shutdown, and py-spy writes its profile), then kill after 20 s."""
    server.send_signal(signal.SIGINT)
    try:
        server.wait(20)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


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


@dataclass(frozen=True)
class Timed:
    """A client command's output lines, wall time and peak RSS (its own and the server's)."""

    lines: list[str]
    seconds: float
    client_mb: float
    server_mb: float


def timed_command(command: list[str], env: dict[str, str], server_pid: int) -> Timed:
    """Run a client command to its end, sampling its RSS and the server's; exit on failure."""
    with PeakRss(server_pid) as server_rss:
        started = time.perf_counter()
        client = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        with PeakRss(client.pid) as client_rss:
            out, err = client.communicate()
        seconds = time.perf_counter() - started
    if client.returncode != 0:
        raise SystemExit(f"the import failed ({client.returncode}): {err.decode()}")
    lines = out.decode().strip().splitlines()
    return Timed(lines, seconds, client_rss.peak_mb, server_rss.peak_mb)


@dataclass
class Site:
    """A migrated bench database, a work directory, and the environment of a served
    `shipwise` on `port` with a workspace (`SHIPWISE_URL`, `SHIPWISE_TOKEN` set)."""

    database_url: str
    workdir: Path
    port: int
    env: dict[str, str]
    server: subprocess.Popen[bytes] | None = field(default=None, init=False)

    def serve(self, profile: str | None = None) -> subprocess.Popen[bytes]:
        """Start the server (its log in the work directory) once it answers."""
        self.server = start_server(self.env, self.port, self.workdir / "server.log", profile)
        return self.server


@contextmanager
def site(*, keep_database: bool = False) -> Iterator[Site]:
    """A Site for the benchmark's body; afterwards the server is stopped, the work directory
    removed and the database dropped (or kept, and named, with `keep_database`)."""
    database_url, name = asyncio.run(create_migrated_database())
    workdir = Path(tempfile.mkdtemp(prefix="shipwise-bench-"))
    bench: Site | None = None
    try:
        port = free_port()
        env = server_env(database_url, workdir)
        token = asyncio.run(workspace_token(database_url))
        env |= {"SHIPWISE_TOKEN": token, "SHIPWISE_URL": f"http://127.0.0.1:{port}"}
        bench = Site(database_url, workdir, port, env)
        yield bench
    finally:
        if bench is not None and bench.server is not None:
            stop_server(bench.server)
        shutil.rmtree(workdir, ignore_errors=True)
        if keep_database:
            emit(f"kept database {name}")
        else:
            asyncio.run(drop_database(name))
