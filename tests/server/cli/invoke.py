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

import typer.main
from typer.testing import CliRunner

from server.cli.app import app

PROCESS_SECONDS = 120.0
"""A command in its own process: the interpreter's start and imports on a loaded host."""
_ONE_AT_A_TIME = threading.Lock()
"""`CliRunner` swaps the process's streams and environment: one command at a time."""
_COMMAND = typer.main.get_command(app)
"""The Click command tree, built once: `CliRunner.invoke(app)` built it from the Typer app on
every call (~30 ms of CPU, 40 % of the in-process CLI tests' CPU), and `main()` parses each
call in a context of its own, as a new process would."""


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
    error: BaseException | None = None
    with _ONE_AT_A_TIME, CliRunner().isolation(stdin, {**cleared, **given}) as (out, err, _):
        try:
            _COMMAND.main(args=list(args), prog_name=_COMMAND.name or "root")
            code = 0
        except SystemExit as exit_:  # as `CliRunner.invoke` reads it
            code = 0 if exit_.code is None else exit_.code if isinstance(exit_.code, int) else 1
            if not isinstance(exit_.code, int | None):
                sys.stdout.write(f"{exit_.code}\n")
        except Exception as exc:  # what Python prints for an uncaught error, below
            code, error = 1, exc
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
        stdout, stderr = (
            s.getvalue().decode("utf-8", "replace").replace("\r\n", "\n") for s in (out, err)
        )
    if error is not None:
        stderr += "Traceback (most recent call last):\n" + "".join(
            traceback.format_exception(error)
        )
    return Done(code, stdout, stderr)


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
