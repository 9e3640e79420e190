"""A started comparison as the CLI reads it (`GET`), followed to its end and its decision
(`shipwise comparison start --wait`), and what Ctrl-C during that wait left behind."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import typer

from server.cli.client import ApiClient, ApiError
from server.cli.commands import decision_gate
from server.cli.commands.progress_watch import ProgressBar, follow
from server.money import dollars
from server.words import comparison_status

INTERRUPTED = 130
"""Ctrl-C, as a shell reports a command ended by SIGINT (128 + 2)."""
INTERRUPTED_READ_SECONDS = 5.0

FIELDS = """
    id label status stopReason errorCode split trialsPerCase caseCount budgetCapCents
    spentCentsSoFar createdAt startedAt endedAt verdictState
    experiment { id name }
    datasetVersion { id number }
    cohorts { cohortIndex kind label releaseId isCandidate passRate }
    progress { doneCalls totalCalls failedCalls percent etaSeconds }
    verdictErrorCode
    decision { outcome reason sentence casesNeeded }
"""
GET = "query($id: ID!) { comparison(id: $id) {" + FIELDS + "} }"


def wait_for_decision(
    client: ApiClient, *, url: str, token: str, comparison_id: str, timeout: float
) -> dict[str, Any]:
    """Follow the comparison to its end, then wait for its decision; the comparison."""
    bar = ProgressBar(sys.stderr)
    asyncio.run(follow(url=url, token=token, client=client, comparison_id=comparison_id, bar=bar))
    ended: dict[str, Any] = client.execute(GET, {"id": comparison_id})["comparison"]
    if ended["status"] == "DONE" and ended.get("decision") is None:
        typer.echo(f"comparison {comparison_id}: deciding…", err=True)
        decision_gate.wait_for_decision(client, comparison_id, timeout=timeout)
        ended = client.execute(GET, {"id": comparison_id})["comparison"]
    return ended


def interrupted(url: str, token: str, comparison_id: str) -> str:
    """What Ctrl-C during `start --wait` left behind: only the waiting stopped, the comparison
    goes on calling (and spending) on the server until it ends or is cancelled."""
    cancel = f"shipwise comparison cancel {comparison_id}"
    try:
        with ApiClient(url, token, timeout=INTERRUPTED_READ_SECONDS) as client:
            found = client.execute(GET, {"id": comparison_id})["comparison"]
    except (ApiError, OSError, KeyboardInterrupt):
        return (
            f"Stopped waiting. Comparison {comparison_id} may still be running on the server; "
            f"to stop it: {cancel}"
        )
    if found["status"] not in ("SETUP", "RUNNING"):
        status = comparison_status(found["status"], found.get("stopReason")).lower()
        return (
            f"Stopped waiting. Comparison {comparison_id} has ended ({status}); "
            f"see it with: shipwise comparison status {comparison_id}"
        )
    progress = found["progress"]
    return (
        f"Stopped waiting. Comparison {comparison_id} is still running on the server "
        f"({progress['doneCalls']:,} of {progress['totalCalls']:,} calls done, "
        f"{dollars(found['spentCentsSoFar'])} spent) and goes on spending until it ends.\n"
        f"To stop it: {cancel}\n"
        f"To see where it is: shipwise comparison status {comparison_id}"
    )
