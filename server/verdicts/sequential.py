"""The scorecard of a sequential comparison (docs/statistics.md, "Sequential stopping").

A run decided early rests its verdict on the confidence sequence: each baseline's outcome
is the sequence's decision at the deciding look, `deltaLow`/`deltaHigh` are the sequence's
bounds there (points) and a `CONFIDENCE_SEQUENCE` significance row decides; the fixed-n
rows stay beside it with `decides: false` (a p-value recomputed after looking is not a
test). MISSING_DATA and too few cases still give NO_VERDICT. A run that reached its last
case undecided keeps the usual verdict and says it ran to the end; its sequence row (at
the last look) is shown, not deciding.
"""

from __future__ import annotations

from typing import Any, Final

from server.comparisons import look_state
from server.comparisons.models import Comparison, StopReason
from stats.movement import Movement

_MOVED: Final = (Movement.REGRESSED.value, Movement.IMPROVED.value)

METHOD: Final = "CONFIDENCE_SEQUENCE"
POINTS: Final = 100.0
_KEPT: Final = frozenset({"MISSING_DATA", "INSUFFICIENT_CASES"})


def describe(comparison: Comparison) -> dict[str, Any] | None:
    """What finalization needs of a sequential comparison's row (None: not sequential)."""
    if not comparison.stopping or comparison.case_order_seed is None:
        return None
    state = look_state.LookState.from_json(comparison.looks)
    decided = comparison.stop_reason == StopReason.DECIDED_EARLY
    stopping = look_state.stopping_document(
        comparison.stopping,
        seed=comparison.case_order_seed,
        state=state,
        case_count=comparison.case_count,
        decided=decided,
        ended=True,
    )
    stopping["callsSaved"] = (
        max(0, comparison.total_calls - comparison.done_calls) if decided else None
    )
    return {"stopping": stopping, "looks": state.to_json()}


def apply(document: dict[str, Any], sequential: dict[str, Any] | None) -> None:
    """Add the stop and the sequence's rows to a scorecard document (in place)."""
    if sequential is None:
        return
    stopping = sequential["stopping"]
    document["stopping"] = stopping
    state = look_state.LookState.from_json(sequential["looks"])
    by_baseline = {b.baseline_cohort_index: b for b in state.baselines}
    decided = bool(stopping["decidedEarly"])
    baselines = max(1, len(document.get("verdicts", [])))
    for row in document.get("significance", []):
        if decided and row["baselineCohortIndex"] in by_baseline:
            row["decides"] = False
    for verdict in document.get("verdicts", []):
        look = by_baseline.get(verdict["baselineCohortIndex"])
        if look is None:
            continue
        document["significance"].append(_row(look, baselines, decides=decided))
        if not decided:
            verdict["ranToEnd"] = True
            continue
        verdict["decidedEarlyAtCases"] = stopping["stoppedAtCases"]
        verdict["caseCount"] = stopping["caseCount"]
        verdict["sequenceCases"] = look.n
        if verdict["outcome"] == Movement.NO_VERDICT and verdict["reason"] in _KEPT:
            continue
        verdict["outcome"] = look.outcome or Movement.NO_VERDICT.value
        verdict["reason"] = METHOD
        verdict["deltaLow"] = look.low * POINTS
        verdict["deltaHigh"] = look.high * POINTS
        verdict["intervalMethod"] = METHOD
        verdict["outsideNoise"] = look.outcome in _MOVED
    document["significance"].sort(key=lambda r: r["baselineCohortIndex"])


def _row(look: look_state.BaselineLook, baselines: int, *, decides: bool) -> dict[str, Any]:
    return {
        "baselineCohortIndex": look.baseline_cohort_index,
        "method": METHOD,
        "pValue": look.p_value,
        "exactPValue": None,
        "adjustedPValue": min(1.0, look.p_value * baselines),
        "significant": look.outcome in _MOVED,
        "decides": decides,
        "reason": None,
    }
