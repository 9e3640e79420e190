"""Pairwise judging: both orders, ties on disagreement, five buckets, mean with interval.

A pair is (case, trial index); each pair is judged twice with the two outputs
swapped (position-swap debiasing; Zheng et al. 2023, "Judging LLM-as-a-judge", §3.4).
Scores are from the candidate's side on the five-bucket scale of seed 004:
much better +1, slightly better +0.4, tie 0, slightly worse −0.4, much worse −1.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from stats import reasons
from stats._arrays import FloatArray, as_floats, as_ints, same_length
from stats.bootstrap import delta_interval
from stats.permutation import common_denominator, sign_flip_test, sign_flip_test_lattice

MUCH_BETTER: Final = 1.0
SLIGHTLY_BETTER: Final = 0.4
TIE: Final = 0.0
SLIGHTLY_WORSE: Final = -0.4
MUCH_WORSE: Final = -1.0
BUCKETS: Final = (MUCH_WORSE, SLIGHTLY_WORSE, TIE, SLIGHTLY_BETTER, MUCH_BETTER)
_FIFTHS: Final = (-5, -2, 0, 2, 5)


@dataclass(frozen=True, slots=True)
class PairwiseResult:
    """Scorecard.verdicts.pairwise: mean signed score in [−1, 1] with its interval, and rates."""

    mean_score: float
    low: float
    high: float
    p_value: float
    p_method: str
    interval_method: str
    wins: int
    ties: int
    losses: int
    win_rate: float
    tie_rate: float
    loss_rate: float
    disagreement_rate: float
    judged_pairs: int
    matched_pairs: int
    n_cases: int
    regression: bool
    reason: str | None = None


def combine_orders(
    forward: npt.ArrayLike, reverse: npt.ArrayLike
) -> tuple[FloatArray, npt.NDArray[np.bool_]]:
    """One score per pair from its two orders, and whether the orders disagreed.

    Both orders must name the same winner (the same sign), else the pair is a tie;
    the same winner with different magnitudes gives the smaller magnitude (docs/statistics.md).
    """
    first, second = as_floats(forward, "forward"), as_floats(reverse, "reverse")
    same_length(first, second)
    agree = np.sign(first) == np.sign(second)
    smaller = np.sign(first) * np.minimum(np.abs(first), np.abs(second))
    return np.where(agree, smaller, 0.0), ~agree


def pairwise_summary(
    case_ids: npt.ArrayLike,
    forward: npt.ArrayLike,
    reverse: npt.ArrayLike,
    *,
    confidence: float = 0.95,
    seed: int = 0,
) -> PairwiseResult:
    """Aggregate pair judgments (NaN where a judge call failed) into the pairwise verdict.

    A pair counts as judged when both orders returned. Case score = mean of its judged
    pairs; mean signed score = mean of case scores, with `stats.bootstrap.delta_interval`
    (bootstrap over cases, t under 20 cases) clipped to [−1, 1] and the sign-flip p on
    the case scores (exact on their grid of 1/(5·lcm of pairs per case)). Win/tie/loss
    and disagreement rates are over judged pairs. Regression: mean < 0 with the whole
    interval below 0 (seed 004).
    """
    cases = as_ints(case_ids, "case_ids")
    first, second = as_floats(forward, "forward"), as_floats(reverse, "reverse")
    matched = same_length(cases, first, second)
    judged = np.isfinite(first) & np.isfinite(second)
    _to_fifths(first[judged])
    _to_fifths(second[judged])
    scores, disagree = combine_orders(first[judged], second[judged])
    count = len(scores)
    if count == 0:
        return _unjudged(matched)
    fifths = _to_fifths(scores)
    ids, inverse = np.unique(cases[judged], return_inverse=True)
    totals = np.bincount(inverse, weights=fifths).astype(np.int64)
    per_case = np.bincount(inverse).astype(np.int64)
    case_scores = totals / (5.0 * per_case)
    lcm = common_denominator(per_case)
    if lcm is None:
        test = sign_flip_test(case_scores, seed=seed)
    else:
        test = sign_flip_test_lattice(totals * (lcm // per_case), 5 * lcm, seed=seed)
    interval = delta_interval(case_scores, confidence=confidence, seed=seed, bounds=(-1.0, 1.0))
    wins, losses = int(np.count_nonzero(scores > 0)), int(np.count_nonzero(scores < 0))
    mean = float(case_scores.mean())
    return PairwiseResult(
        mean_score=mean,
        low=interval.low,
        high=interval.high,
        p_value=test.p_value,
        p_method=test.method,
        interval_method=interval.method,
        wins=wins,
        ties=count - wins - losses,
        losses=losses,
        win_rate=wins / count,
        tie_rate=(count - wins - losses) / count,
        loss_rate=losses / count,
        disagreement_rate=float(np.count_nonzero(disagree)) / count,
        judged_pairs=count,
        matched_pairs=matched,
        n_cases=len(ids),
        regression=mean < 0.0 and interval.high < 0.0,
        reason=reasons.PARTIALLY_JUDGED if count < matched else interval.reason or test.reason,
    )


def _to_fifths(scores: FloatArray) -> npt.NDArray[np.int64]:
    fifths = np.rint(scores * 5.0)
    if np.any(np.abs(scores * 5.0 - fifths) > 1e-9) or not np.all(np.isin(fifths, _FIFTHS)):
        raise ValueError(f"scores must be one of the five buckets {BUCKETS}")
    return fifths.astype(np.int64)


def _unjudged(matched: int) -> PairwiseResult:
    return PairwiseResult(
        mean_score=0.0,
        low=-1.0,
        high=1.0,
        p_value=1.0,
        p_method=reasons.NONE,
        interval_method=reasons.NONE,
        wins=0,
        ties=0,
        losses=0,
        win_rate=0.0,
        tie_rate=0.0,
        loss_rate=0.0,
        disagreement_rate=0.0,
        judged_pairs=0,
        matched_pairs=matched,
        n_cases=0,
        regression=False,
        reason=reasons.NO_JUDGED_PAIRS,
    )
