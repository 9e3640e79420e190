"""A CLI call starts without the numerical libraries: `stats` brings numpy and scipy (about a
third of a second, and thread pools that would start before `shipwise worker` lowers its
priority); the commands that need them import them when they run."""

from __future__ import annotations

import os
import subprocess
import sys


def test_importing_the_cli_loads_neither_numpy_nor_scipy() -> None:
    probe = (
        "import sys, server.cli.app; "
        "print(','.join(m for m in ('numpy', 'scipy', 'stats') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "", done.stdout


def test_the_worker_command_loads_no_graphql_schema() -> None:
    """`shipwise worker` runs `jobs.main`: the API's schema, routes and pages are not imported
    (~2 s of CPU at each worker's start). What the jobs use is imported before the worker polls,
    not in a job's event loop. The job runner is stubbed; what the command imported is read."""
    probe = (
        "import sys, jobs.main\n"
        "jobs.main.run = lambda settings: print(','.join(m for m in ("
        "'server.app', 'server.api.schema', 'strawberry') if m in sys.modules), "
        "'scipy.optimize' in sys.modules)\n"
        "from server.cli.app import app\n"
        "app(['worker', '--nice', '0'])\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("SHIPWISE_")}
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        timeout=100,  # 3 s of CPU, 52 s of wall at load 23
        env={**env, "SHIPWISE_REDIS_URL": "redis://127.0.0.1:1/0"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "True", done.stdout  # none of the API; scipy.optimize, yes
