"""The sentences a verdict is read by: the chip per baseline and the staleness note."""

from __future__ import annotations

from typing import Any, Final

from server.decisions.wording import points as points
from stats.movement import Movement

STALE_AFTER_DAYS: Final = 7
MIN_CASES: Final = 20


def staleness_note(days: int) -> str:
    return f"This verdict is {days} days old. The provider may have changed the model since then."


def chip(verdict: dict[str, Any]) -> str:
    """E.g. "Regressed vs capitals v1: −11.7 points, outside the noise"; a sequential run
    adds ", decided early at 150 of 2,000 cases" or "; ran to the end"."""
    text = _chip(verdict)
    at = verdict.get("decidedEarlyAtCases")
    if at is not None:
        return (
            f"{text}, decided early at {int(at):,} of {int(verdict.get('caseCount') or 0):,} cases"
        )
    if verdict.get("ranToEnd"):
        return f"{text}; ran to the end without an early decision"
    return text


def _chip(verdict: dict[str, Any]) -> str:
    label = verdict.get("baselineLabel") or f"cohort {verdict['baselineCohortIndex']}"
    delta = points(verdict.get("passRateDeltaPoints"))
    outcome, reason = verdict["outcome"], verdict["reason"]
    if outcome == Movement.REGRESSED:
        return f"Regressed vs {label}: {delta} points, outside the noise"
    if outcome == Movement.IMPROVED:
        return f"Improved vs {label}: {delta} points, outside the noise"
    if outcome == Movement.NO_CHANGE:
        return f"No change vs {label}: {delta} points, inside the noise"
    if reason == "CONFIDENCE_SEQUENCE":
        return f"No verdict vs {label}: {delta} points"
    if reason == "INSUFFICIENT_CASES":
        return (
            f"No verdict vs {label}: a verdict needs at least {MIN_CASES} usable cases, "
            f"and this run has {verdict.get('n', 0)}"
        )
    if reason == "MISSING_DATA":
        gap = (
            abs(
                float(verdict.get("candidateMissingRate") or 0.0)
                - float(verdict.get("baselineMissingRate") or 0.0)
            )
            * 100
        )
        return (
            f"No verdict vs {label}: failed or missing trials differ by {gap:.1f} points; "
            f"counting them as failures, the pass rate moves "
            f"{points(verdict.get('sensitivityDeltaPoints'))} points"
        )
    low, high = points(verdict.get("deltaLow")), points(verdict.get("deltaHigh"))
    return (
        f"No verdict vs {label}: {delta} points, inside the noise, and the interval "
        f"[{low}, {high}] is too wide to call it no change"
    )
