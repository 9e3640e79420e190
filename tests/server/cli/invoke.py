"""The `shipwise` command run in the test's own process, as `python -m server.cli` runs it.

A process per command would pay the interpreter's start and the CLI's imports (scipy's
among them: 1–2.5 s of CPU) on every call; the suite makes hundreds. Here the Typer app
runs in a worker thread, so the event loop serving the test's backend goes on answering
it; Typer's `CliRunner` gives the command its own stdin, stdout and stderr and the
environment a user would have: the test's `SHIPWISE_*` variables removed, `env` set.
What only a process shows (the console script, `python -m`, exit on a signal) is tested
in tests/server/cli/test_app.py with real processes.
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
import traceback
from dataclasses import dataclass

from typer.testing import CliRunner

from server.cli.app import app

PROCESS_SECONDS = 120.0
"""A command in its own process: the interpreter's start and imports on a loaded host."""
_ONE_AT_A_TIME = threading.Lock()
"""`CliRunner` swaps the process's streams and environment: one command at a time."""


@dataclass
class Done:
    code: int
    stdout: str
    stderr: str


def shipwise_blocking(*args: str, env: dict[str, str] | None = None, stdin: str = "") -> Done:
    """Run `shipwise *args` to its exit; an uncaught error ends it as Python would (exit 1,
    the traceback on stderr), so the tests' "no Traceback" checks still see it."""
    given = env or {}
    cleared: dict[str, str | None] = {k: None for k in os.environ if k.startswith("SHIPWISE_")}
    with _ONE_AT_A_TIME:
        result = CliRunner().invoke(app, list(args), input=stdin, env={**cleared, **given})
    stderr = result.stderr
    error = result.exception
    if error is not None and not isinstance(error, SystemExit):
        stderr += "Traceback (most recent call last):\n" + "".join(
            traceback.format_exception(error)
        )
    return Done(result.exit_code, result.stdout, stderr)


async def shipwise(*args: str, env: dict[str, str] | None = None, stdin: str = "") -> Done:
    """`shipwise_blocking` without blocking the event loop that serves the test's backend."""
    return await asyncio.to_thread(shipwise_blocking, *args, env=env, stdin=stdin)


async def shipwise_process(*args: str, env: dict[str, str] | None = None) -> Done:
    """`python -m server.cli *args` in a process of its own, as a user's shell runs it (its
    imports paid on every call: for the few tests that read what a user reads end to end)."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("SHIPWISE_")}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "server.cli", *args, env={**clean, **(env or {})},
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    stdout, stderr = await asyncio.wait_for(process.communicate(), timeout=PROCESS_SECONDS)
    assert process.returncode is not None
    return Done(process.returncode, stdout.decode(), stderr.decode())
