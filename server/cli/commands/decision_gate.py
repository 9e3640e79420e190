"""A comparison's ship decision from the command line (docs/decision.md): waiting for it, printing
its sentence, and the gate's exit code (0 SHIP, 1 any other decision, 2 operational); what
passes is `server/decisions/approval.py`'s rule.

A comparison decides once it is finalized; one that ended CANCELLED or FAILED answers
NO_DECISION at once. `wait_for_decision` polls the API (a second apart) until then.
"""

from __future__ import annotations

import time
from typing import Any, Final

import typer

from server.cli.client import ApiClient
from server.decisions import approval
from server.words import comparison_status, criterion_name, words

GATE_PASSED: Final = 0
GATE_FAILED: Final = 1
POLL_SECONDS: Final = 1.0
DEFAULT_WAIT_SECONDS: Final = 600.0

DECISION_FIELDS: Final = """
    decision { outcome reason sentence casesNeeded
      criteria { baselineCohortIndex kind metric status reason estimate low high threshold
                 corrected sentence } }
"""
STATE = (
    "query($id: ID!) { comparison(id: $id) { id status stopReason verdictState verdictErrorCode"
    + " cohorts { cohortIndex label }"
    + DECISION_FIELDS
    + "} }"
)


class NoDecision(Exception):
    """The comparison cannot decide yet (not started, not finalized in time, or failed to)."""


def wait_for_decision(
    client: ApiClient, comparison_id: str, *, timeout: float = DEFAULT_WAIT_SECONDS
) -> dict[str, Any]:
    """The comparison with its decision, once there is one; NoDecision when none comes."""
    deadline = time.monotonic() + timeout
    while True:
        comparison: dict[str, Any] = client.execute(STATE, {"id": comparison_id})["comparison"]
        if comparison.get("decision") is not None:
            return comparison
        if comparison["status"] == "SETUP":
            raise NoDecision(f"comparison {comparison_id} has not started: nothing to decide")
        if comparison.get("verdictErrorCode"):
            raise NoDecision(
                f"comparison {comparison_id} could not be finalized "
                f"({comparison['verdictErrorCode']}): retry `finalizeComparison`"
            )
        if time.monotonic() >= deadline:
            raise NoDecision(
                f"comparison {comparison_id} has no decision after {timeout:g} s "
                f"({comparison_status(comparison['status'], comparison.get('stopReason'))}, "
                f"verdict {words(comparison['verdictState']).lower()})"
            )
        time.sleep(POLL_SECONDS)


def describe(decision: dict[str, Any], labels: dict[int, str] | None = None) -> str:
    """The decision's sentence (it opens with the outcome in words: "Ship …", "Don't ship …"),
    then each criterion's status and sentence, in words as the portal says them; with the
    cohorts' `labels`, each baseline by its label as the portal names it."""
    lines = [f"decision: {decision['sentence']}"]
    for c in decision.get("criteria", []):
        index = int(c["baselineCohortIndex"])
        name = criterion_name(c["kind"], c["metric"])
        label = (labels or {}).get(index)
        head = f"{name} vs {label}" if label else f"baseline {index}, {name}"
        lines.append(f"  [{words(c['status'])}] {head}: {c['sentence']}")
    return "\n".join(lines)


def gate_exit(decision: dict[str, Any]) -> None:
    """Exit 0 on SHIP, 1 on any other decision (`server/decisions/approval.py`)."""
    if not approval.passes(decision):
        raise typer.Exit(GATE_FAILED)


def gate(client: ApiClient, comparison_id: str, *, timeout: float) -> dict[str, Any]:
    """Wait for the decision and print it; the decision (the caller exits by it)."""
    comparison = wait_for_decision(client, comparison_id, timeout=timeout)
    decision: dict[str, Any] = comparison["decision"]
    labels = {int(c["cohortIndex"]): str(c["label"]) for c in comparison.get("cohorts") or []}
    typer.echo(describe(decision, labels))
    return decision
