"""How a case or a run moved, candidate against baseline: one vocabulary for comparisons,
run diffs, the offline compare and the gate (docs/domain.md "Movement").

A verdict over a whole run is one `Movement`; so is a case, and so is one evaluator on a
case. `CaseFilter` picks cases by their movement, with the same member names.
"""

from __future__ import annotations

from enum import StrEnum

import numpy as np
import numpy.typing as npt


class Movement(StrEnum):
    REGRESSED = "REGRESSED"
    IMPROVED = "IMPROVED"
    NO_CHANGE = "NO_CHANGE"
    NO_VERDICT = "NO_VERDICT"
    """Nothing to compare: a side has no grade (a case), or too little evidence (a run)."""


class CaseFilter(StrEnum):
    ALL = "ALL"
    REGRESSED = "REGRESSED"
    IMPROVED = "IMPROVED"
    CHANGED = "CHANGED"
    """REGRESSED or IMPROVED."""

    @property
    def movements(self) -> tuple[Movement, ...] | None:
        """The movements the filter keeps; None for every case."""
        return _KEPT[self]


_KEPT: dict[CaseFilter, tuple[Movement, ...] | None] = {
    CaseFilter.ALL: None,
    CaseFilter.REGRESSED: (Movement.REGRESSED,),
    CaseFilter.IMPROVED: (Movement.IMPROVED,),
    CaseFilter.CHANGED: (Movement.REGRESSED, Movement.IMPROVED),
}

TOLERANCE = 1e-9
"""Float slack on ε, so a difference of exactly ε (say 0.51 − 0.50) is not "beyond" it."""


def pass_movements(
    cand_passed: npt.ArrayLike,
    cand_graded: npt.ArrayLike,
    base_passed: npt.ArrayLike,
    base_graded: npt.ArrayLike,
    epsilon: float = 0.0,
) -> npt.NDArray[np.str_]:
    """Each case's movement by its passed ÷ graded trials on either side, the first rule that
    holds: a side without a grade → NO_VERDICT; the majority outcome flipped → by its
    direction; the pass fraction moved beyond ε → by its sign; else NO_CHANGE."""
    cp, cg = np.asarray(cand_passed, np.int64), np.asarray(cand_graded, np.int64)
    bp, bg = np.asarray(base_passed, np.int64), np.asarray(base_graded, np.int64)
    bar = epsilon + TOLERANCE
    graded = (cg > 0) & (bg > 0)
    cross = (cp * bg - bp * cg).astype(np.float64)
    scale = (cg * bg).astype(np.float64)
    candidate_passes = 2 * cp > cg
    baseline_passes = 2 * bp > bg
    rules = [
        ~graded,
        baseline_passes & ~candidate_passes,
        candidate_passes & ~baseline_passes,
        cross < -bar * scale,
        cross > bar * scale,
    ]
    labels = [
        Movement.NO_VERDICT.value,
        Movement.REGRESSED.value,
        Movement.IMPROVED.value,
        Movement.REGRESSED.value,
        Movement.IMPROVED.value,
    ]
    return np.select(rules, labels, default=Movement.NO_CHANGE.value)


def score_movement(delta: float | None, epsilon: float) -> Movement:
    """One score's movement (an evaluator on a case): beyond ±ε by its sign; none → NO_VERDICT."""
    if delta is None:
        return Movement.NO_VERDICT
    if delta < -(epsilon + TOLERANCE):
        return Movement.REGRESSED
    if delta > epsilon + TOLERANCE:
        return Movement.IMPROVED
    return Movement.NO_CHANGE
