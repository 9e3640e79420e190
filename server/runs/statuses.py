"""A matched pair's descriptive status, written twice side by side: in SQL and in numpy.

The case list filters with the SQL expression; the summary counts with the numpy one,
over the vectors the database computed. Both read the same integers and doubles and
take the first rule that holds:

1. graded on both sides and the majority outcome flipped → REGRESSED / IMPROVED;
2. graded on both sides and the pass fraction moved beyond ε → by its sign;
3. an evaluator mean fell by more than ε → REGRESSED; else one rose → IMPROVED;
4. NO_CHANGE.

The names are `stats.movement`'s; the numpy rules 1–2 are `stats.movement.pass_movements`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from sqlalchemy import ColumnElement, Float, and_, case, cast, literal

from stats.movement import TOLERANCE, Movement, pass_movements, score_movement

REGRESSED = Movement.REGRESSED.value
IMPROVED = Movement.IMPROVED.value
NO_CHANGE = Movement.NO_CHANGE.value
ADDED = "ADDED"
REMOVED = "REMOVED"


def sql_status(
    cand_passed: Any,
    cand_graded: Any,
    base_passed: Any,
    base_graded: Any,
    low: Any,
    high: Any,
    epsilon: float,
) -> ColumnElement[str]:
    """The status of a pair; `low`/`high` are its smallest and largest evaluator deltas."""
    bar = epsilon + TOLERANCE
    graded = and_(cand_graded > 0, base_graded > 0)
    cross = cand_passed * base_graded - base_passed * cand_graded
    scale = cast(cand_graded * base_graded, Float)
    candidate_passes = 2 * cand_passed > cand_graded
    baseline_passes = 2 * base_passed > base_graded
    return case(
        (and_(graded, baseline_passes, ~candidate_passes), literal(REGRESSED)),
        (and_(graded, candidate_passes, ~baseline_passes), literal(IMPROVED)),
        (and_(graded, cross < -bar * scale), literal(REGRESSED)),
        (and_(graded, cross > bar * scale), literal(IMPROVED)),
        (low < -bar, literal(REGRESSED)),
        (high > bar, literal(IMPROVED)),
        else_=literal(NO_CHANGE),
    )


IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


def array_status(
    cand_passed: IntArray,
    cand_graded: IntArray,
    base_passed: IntArray,
    base_graded: IntArray,
    low: FloatArray,
    high: FloatArray,
    epsilon: float,
) -> npt.NDArray[np.str_]:
    """`sql_status` over arrays; a pair without evaluators has low = +inf, high = −inf."""
    bar = epsilon + TOLERANCE
    by_pass = pass_movements(cand_passed, cand_graded, base_passed, base_graded, epsilon)
    moved = (by_pass == REGRESSED) | (by_pass == IMPROVED)
    by_evaluator = np.select([low < -bar, high > bar], [REGRESSED, IMPROVED], default=NO_CHANGE)
    return np.where(moved, by_pass, by_evaluator)


def evaluator_status(delta: float | None, epsilon: float) -> str:
    """One evaluator's movement on one pair (NO_VERDICT when a side has no score)."""
    return score_movement(delta, epsilon).value
