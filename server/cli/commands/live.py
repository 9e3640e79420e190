"""`shipwise live watch ID [--gate]`: follow a live comparison (docs/live.md) and, for a
deploy pipeline's promote or rollback step, exit by its decision: 0 on SHIP, 1 on DONT_SHIP
(or when it ended without one: cancelled or expired), waiting otherwise; 2 on an
operational error. It polls the API a second apart and prints the decision when it changes.
"""

from __future__ import annotations

import time
from typing import Annotated, Any, Final

import typer

from server.cli.client import DEFAULT_URL, ApiClient, ApiError, TokenOption, UrlOption
from server.cli.commands.client_setup import OPERATIONAL_ERROR, explain, fail
from server.cli.groups import command_group
from server.words import words

live_app = command_group("Live comparisons: canaries decided while they run.")

POLL_SECONDS: Final = 1.0
STATE: Final = """
query($id: ID!) { liveComparison(id: $id) {
  id status candidateRelease
  arms { release graded passRate }
  decision { outcome sentence }
} }
"""
EXIT_BY_OUTCOME: Final = {"SHIP": 0, "DONT_SHIP": 1}


def _line(live: dict[str, Any]) -> str:
    arms = ", ".join(
        f"{a['release']} {a['graded']:,} graded"
        + (f" ({a['passRate'] * 100:.1f}% pass)" if a["passRate"] is not None else "")
        for a in live["arms"]
    )
    decision = live.get("decision")
    said = decision["sentence"] if decision else "No trace graded yet."
    return f"[{words(live['status'])}] {arms}\ndecision: {said}"


def watch(client: ApiClient, live_id: str, *, gate: bool, timeout: float | None) -> int:
    """Print each change until the comparison ends; the exit code (the decision's under
    `gate`, else 0)."""
    deadline = None if timeout is None else time.monotonic() + timeout
    shown = None
    while True:
        live: dict[str, Any] = client.execute(STATE, {"id": live_id})["liveComparison"]
        line = _line(live)
        if line != shown:
            typer.echo(line)
            shown = line
        decision = live.get("decision") or {}
        if live["status"] != "RUNNING":
            if not gate:
                return 0
            return EXIT_BY_OUTCOME.get(str(decision.get("outcome")), 1)
        if deadline is not None and time.monotonic() >= deadline:
            fail(f"live comparison {live_id} has not decided after {timeout:g} s")
        time.sleep(POLL_SECONDS)


@live_app.command("watch")
def watch_command(
    live_id: Annotated[str, typer.Argument(metavar="ID")],
    token: TokenOption,
    gate: Annotated[
        bool,
        typer.Option(
            "--gate", help="Exit 0 on SHIP, 1 on DONT_SHIP (or an end without a decision)."
        ),
    ] = False,
    timeout: Annotated[
        float | None,
        typer.Option("--timeout", min=1, help="Give up (exit 2) after this many seconds."),
    ] = None,
    url: UrlOption = DEFAULT_URL,
) -> None:
    """Follow a live comparison's decision until it ends (docs/live.md)."""
    try:
        with ApiClient(url, token) as client:
            code = watch(client, live_id, gate=gate, timeout=timeout)
    except ApiError as exc:
        fail(explain(exc, url), OPERATIONAL_ERROR)
    raise typer.Exit(code)
