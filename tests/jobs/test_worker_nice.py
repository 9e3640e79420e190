"""`shipwise worker` runs at a lower CPU priority than `shipwise serve` (`--nice`, default
10): on a box both share, the API's reads get a core first. Read from the kernel
(/proc/<pid>/task/<tid>/stat) of real processes, every thread of each."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

from bench.kit.harness import stop_worker_process
from server.cli.app import WORKER_NICE
from tests.jobs.crash_stack import WORKER_PROCESS_TESTS, workers_polling
from tests.server.cli.invoke import shipwise

pytestmark = WORKER_PROCESS_TESTS


def thread_niceness(pid: int) -> dict[int, int]:
    """Each thread's niceness: field 19 of its stat line (after the parenthesised name)."""
    found = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        fields = (task / "stat").read_text().rpartition(")")[2].split()
        found[int(task.name)] = int(fields[16])  # fields 3… here; niceness is field 19
    return found


def start(args: list[str], env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as output:
        return subprocess.Popen(
            [sys.executable, "-m", "server.cli", *args],
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )


async def test_the_worker_runs_niced_by_default_and_not_with_nice_0(
    postgres_database: str, redis_test_url: str, fernet_key: str, tmp_path: Path
) -> None:
    env = {
        **os.environ,
        "SHIPWISE_DATABASE_URL": postgres_database,
        "SHIPWISE_REDIS_URL": redis_test_url,
        "SHIPWISE_SECRET_KEY": fernet_key,
        "SHIPWISE_DATA_DIR": str(tmp_path / "data"),
        "SHIPWISE_QUEUE_NAME": f"shipwise-nice-{secrets.token_hex(4)}",  # no one's jobs
    }
    ours = os.nice(0)  # what a `shipwise serve` started here runs at: it never changes it
    logs = {name: tmp_path / f"{name}.log" for name in ("default", "off", "three")}
    workers = {
        "default": start(["worker"], env, logs["default"]),
        "off": start(["worker", "--nice", "0"], env, logs["off"]),
        "three": start(["worker", "--nice", "3"], env, logs["three"]),
    }
    try:
        await workers_polling(*logs.values())
        for name, process in workers.items():
            assert process.poll() is None, f"{name} exited: {logs[name].read_text()[-2000:]}"
        seen = {name: thread_niceness(p.pid) for name, p in workers.items()}
    finally:
        for process in workers.values():
            stop_worker_process(process)
    expected = {"default": ours + WORKER_NICE, "off": ours, "three": ours + 3}
    for name, threads in seen.items():
        assert set(threads.values()) == {expected[name]}, (name, threads, expected[name])
    assert WORKER_NICE == 10


@pytest.mark.parametrize("given", ["-1", "20"])
async def test_a_nice_outside_0_to_19_is_refused_before_the_worker_starts(given: str) -> None:
    before = os.nice(0)
    done = await shipwise("worker", "--nice", given, env={"SHIPWISE_REDIS_URL": "redis://x:1/0"})
    assert done.code == 2, done
    assert "--nice" in done.stderr and "Traceback" not in done.stderr, done.stderr
    assert os.nice(0) == before  # refused before os.nice: this (the CLI's) process untouched
