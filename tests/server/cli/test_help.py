"""What `shipwise … --help` and a bad flag say to someone new to the command."""

from __future__ import annotations

from typing import Any

import typer

from server.cli.app import app
from tests.server.cli.invoke import shipwise, shipwise_process


def _command_paths(command: Any, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command and group under `command` (Typer's own click: groups have `commands`)."""
    paths = [path]
    if isinstance(command, typer.core.TyperGroup):
        for name, sub in command.commands.items():
            paths += _command_paths(sub, (*path, name))
    return paths


async def test_no_help_shows_a_flag_as_taking_a_value() -> None:
    """A flag is shown bare (`--wait`), never `--wait <bool>` as if it took true or false."""
    paths = _command_paths(typer.main.get_command(app))
    assert ("comparison", "start") in paths and len(paths) > 20
    for path in paths:
        done = await shipwise(*path, "--help")
        assert done.code == 0, (path, done.stderr)
        assert "--help" in done.stdout, path
        assert "<bool>" not in done.stdout and "BOOLEAN" not in done.stdout, (path, done.stdout)

    own = await shipwise_process("comparison", "start", "--help", env={"COLUMNS": "100"})
    assert own.code == 0, own.stderr
    wait = next(line for line in own.stdout.splitlines() if line.strip().startswith("--wait "))
    assert wait.split()[:2] == ["--wait", "Follow"], wait


async def test_trials_out_of_range_say_the_range() -> None:
    """`--trials -3` (or 11) names the range, 1 to 10, and sends nothing."""
    for given in ("-3", "0", "11"):
        done = await shipwise(
            "comparison", "create", "--cohort-json", "{}", "--trials", given,
            "--url", "http://127.0.0.1:9", "--token", "sw_unused",
        )  # fmt: skip
        assert done.code == 2, done.stdout
        assert f"trials per case are 1 to 10, not {given}" in done.stderr, done.stderr
        assert "whole number" not in done.stderr and "cannot reach" not in done.stderr
