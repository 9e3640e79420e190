"""The ship gate of docs/statistics.md: the paired analysis per baseline and its verdict.

Differences are candidate − baseline, in pass-rate units (0.01 = 1 point). Cases are
paired (a case counts when both cohorts completed a trial of it); trials are
clustered within cases.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from stats import reasons
from stats._arrays import as_bools
from stats.bootstrap import delta_interval
from stats.mcnemar import mcnemar_from_counts
from stats.multiplicity import holm
from stats.permutation import common_denominator, sign_flip_test, sign_flip_test_lattice
from stats.power import DEFAULT_TARGET_EFFECT, MIN_CASES, paired_mde
from stats.proportions import ZTestResult, two_proportion_ztest
from stats.trials import CohortTrials, case_outcomes

DEFAULT_EPSILON: Final = 0.01
DEFAULT_ALPHA: Final = 0.05
MISSING_DATA_THRESHOLD: Final = 0.05
POINTS: Final = 100.0


@dataclass(frozen=True, slots=True)
class PairedTest:
    """The deciding paired test: method, p-value, exact p where there is one, and how."""

    n: int
    delta: float
    method: str
    p_value: float
    exact_p_value: float | None
    detail: str
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class PairedComparison:
    """The paired analysis of one baseline against the candidate (rate units)."""

    n: int
    delta: float
    low: float
    high: float
    interval_method: str
    method: str
    p_value: float
    exact_p_value: float | None
    test_detail: str
    z_test: ZTestResult
    worse_count: int
    better_count: int
    same_count: int
    mde: float
    candidate_missing_rate: float
    baseline_missing_rate: float
    sensitivity_delta: float
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class SignificanceRow:
    """Scorecard.significance: one method's p-value for one baseline."""

    method: str
    p_value: float
    exact_p_value: float | None
    adjusted_p_value: float
    significant: bool
    decides: bool
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class Verdict:
    """Scorecard.verdicts for one baseline; deltas and MDE in points (1 point = 0.01)."""

    outcome: str
    reason: str
    pass_rate_delta_points: float
    delta_low_points: float
    delta_high_points: float
    outside_noise: bool
    mde_points: float
    worse_count: int
    better_count: int
    same_count: int
    sensitivity_delta_points: float
    n: int
    significance: tuple[SignificanceRow, ...]
    comparison: PairedComparison


def compare_pair(
    candidate: CohortTrials,
    baseline: CohortTrials,
    *,
    seed: int = 0,
    confidence: float = 0.95,
    cases: npt.ArrayLike | None = None,
) -> PairedComparison:
    """Paired analysis on the cases both cohorts completed a trial of (docs/statistics.md).

    `cases`, a boolean mask, limits the analysis to those cases (a comparison's usable
    cases: a completed trial in every cohort); the missing rates and the sensitivity Δ
    stay over all the cases given, since a case lost to errors is what they measure.

    Δ = mean over usable cases of (candidate − baseline) pass fraction; the deciding
    test is `paired_test`; the interval for Δ is `stats.bootstrap.delta_interval`
    clipped to [−1, 1]. The z-test (pooled, on case outcomes) is shown beside it.
    Missing rates are failed-or-missing trials over all scheduled trials; the
    sensitivity Δ counts missing trials as failures, over all cases.
    """
    if len(candidate) != len(baseline):
        raise ValueError(f"cohorts differ in cases: {len(candidate)} != {len(baseline)}")
    all_candidate, all_baseline = candidate, baseline
    if cases is not None:
        mask = as_bools(cases, "cases")
        if len(mask) != len(candidate):
            raise ValueError(f"cases mask has {len(mask)} entries for {len(candidate)} cases")
        candidate, baseline = subset(candidate, mask), subset(baseline, mask)
    usable = (candidate.completed > 0) & (baseline.completed > 0)
    cand_passed, cand_done = candidate.passed[usable], candidate.completed[usable]
    base_passed, base_done = baseline.passed[usable], baseline.completed[usable]
    n = int(usable.sum())
    differences = cand_passed / np.maximum(cand_done, 1) - base_passed / np.maximum(base_done, 1)
    cand_outcome = case_outcomes(cand_passed, cand_done)
    base_outcome = case_outcomes(base_passed, base_done)
    z_test = two_proportion_ztest(int(cand_outcome.sum()), n, int(base_outcome.sum()), n)
    test = paired_test(candidate, baseline, seed=seed)
    interval = delta_interval(differences, confidence=confidence, seed=seed, bounds=(-1.0, 1.0))
    return PairedComparison(
        n=n,
        delta=float(differences.mean()) if n else 0.0,
        low=interval.low,
        high=interval.high,
        interval_method=interval.method,
        method=test.method,
        p_value=test.p_value,
        exact_p_value=test.exact_p_value,
        test_detail=test.detail,
        z_test=z_test,
        worse_count=int(np.count_nonzero(differences < 0)),
        better_count=int(np.count_nonzero(differences > 0)),
        same_count=int(np.count_nonzero(differences == 0)),
        mde=paired_mde(differences).value,
        candidate_missing_rate=_missing_rate(all_candidate),
        baseline_missing_rate=_missing_rate(all_baseline),
        sensitivity_delta=_sensitivity_delta(all_candidate, all_baseline),
        reason=test.reason,
    )


def paired_test(candidate: CohortTrials, baseline: CohortTrials, *, seed: int = 0) -> PairedTest:
    """The paired test that decides, on the cases both cohorts completed a trial of.

    One completed trial per case on both sides → McNemar mid-p on the case outcomes,
    with the exact conditional p (`stats.mcnemar`). Otherwise the sign-flip permutation
    test on per-case pass-fraction differences, on the exact grid 1/L with L the lcm of
    the completed-trial counts (`stats.permutation.sign_flip_test_lattice`; above
    L = 10⁹ the float differences go to `stats.permutation.sign_flip_test`).
    """
    if len(candidate) != len(baseline):
        raise ValueError(f"cohorts differ in cases: {len(candidate)} != {len(baseline)}")
    usable = (candidate.completed > 0) & (baseline.completed > 0)
    cand_passed, cand_done = candidate.passed[usable], candidate.completed[usable]
    base_passed, base_done = baseline.passed[usable], baseline.completed[usable]
    n = int(usable.sum())
    if n == 0:
        return PairedTest(
            0, 0.0, reasons.SIGN_FLIP_PERMUTATION, 1.0, None, reasons.NONE, reasons.NO_CASES
        )
    if np.all(cand_done == 1) and np.all(base_done == 1):
        better = int(np.count_nonzero((cand_passed == 1) & (base_passed == 0)))
        worse = int(np.count_nonzero((cand_passed == 0) & (base_passed == 1)))
        mcnemar = mcnemar_from_counts(better, worse, n)
        return PairedTest(
            n,
            mcnemar.delta,
            reasons.MCNEMAR_MID_P,
            mcnemar.p_value,
            mcnemar.exact_p_value,
            reasons.MCNEMAR_MID_P,
            mcnemar.reason,
        )
    lcm = common_denominator(np.concatenate((cand_done, base_done)))
    if lcm is None:
        test = sign_flip_test(cand_passed / cand_done - base_passed / base_done, seed=seed)
    else:
        numerators = cand_passed * (lcm // cand_done) - base_passed * (lcm // base_done)
        test = sign_flip_test_lattice(numerators, lcm, seed=seed)
    return PairedTest(
        n,
        test.estimate,
        reasons.SIGN_FLIP_PERMUTATION,
        test.p_value,
        test.p_value if test.exact else None,
        test.method,
        test.reason,
    )


def decide(
    comparison: PairedComparison,
    *,
    adjusted_p_value: float,
    epsilon: float = DEFAULT_EPSILON,
    target_effect: float = DEFAULT_TARGET_EFFECT,
    alpha: float = DEFAULT_ALPHA,
) -> tuple[str, str, bool]:
    """(outcome, reason, outside_noise) for one baseline, in docs/statistics.md's order.

    1. under 20 usable cases → NO_VERDICT, INSUFFICIENT_CASES;
    2. failed-or-missing rates differ by more than 5 points → NO_VERDICT, MISSING_DATA;
    3. |Δ| > ε and Holm-adjusted paired p < α ("outside the noise") → REGRESSED or
       IMPROVED by the sign of Δ;
    4. the whole interval for Δ within ± the target effect → NO_CHANGE;
    5. otherwise NO_VERDICT, UNDERPOWERED.
    """
    outside_noise = abs(comparison.delta) > epsilon and adjusted_p_value < alpha
    if comparison.n < MIN_CASES:
        return reasons.NO_VERDICT, reasons.INSUFFICIENT_CASES, outside_noise
    missing_gap = abs(comparison.candidate_missing_rate - comparison.baseline_missing_rate)
    if missing_gap > MISSING_DATA_THRESHOLD:
        return reasons.NO_VERDICT, reasons.MISSING_DATA, outside_noise
    if outside_noise:
        if comparison.delta < 0:
            return reasons.REGRESSED, reasons.SIGNIFICANT_REGRESSION, True
        return reasons.IMPROVED, reasons.SIGNIFICANT_IMPROVEMENT, True
    if -target_effect <= comparison.low and comparison.high <= target_effect:
        return reasons.NO_CHANGE, reasons.WITHIN_TARGET_EFFECT, False
    return reasons.NO_VERDICT, reasons.UNDERPOWERED, False


def gate(
    candidate: CohortTrials,
    baselines: Sequence[CohortTrials],
    *,
    epsilon: float = DEFAULT_EPSILON,
    target_effect: float = DEFAULT_TARGET_EFFECT,
    alpha: float = DEFAULT_ALPHA,
    seed: int = 0,
    cases: npt.ArrayLike | None = None,
) -> tuple[Verdict, ...]:
    """One verdict per baseline (same order), with Holm adjustment across the baselines.

    Holm is applied per method: the deciding paired p-values together, the z-test
    p-values together (`stats.multiplicity.holm`). `cases` is `compare_pair`'s mask.
    """
    comparisons = [
        compare_pair(candidate, baseline, seed=seed, cases=cases) for baseline in baselines
    ]
    paired_adjusted = holm([c.p_value for c in comparisons])
    z_adjusted = holm([c.z_test.p_value for c in comparisons])
    verdicts = []
    for comparison, paired_p, z_p in zip(comparisons, paired_adjusted, z_adjusted, strict=True):
        outcome, reason, outside_noise = decide(
            comparison,
            adjusted_p_value=paired_p,
            epsilon=epsilon,
            target_effect=target_effect,
            alpha=alpha,
        )
        rows = (
            SignificanceRow(
                reasons.Z_TEST,
                comparison.z_test.p_value,
                None,
                z_p,
                z_p < alpha,
                False,
                comparison.z_test.reason,
            ),
            SignificanceRow(
                comparison.method,
                comparison.p_value,
                comparison.exact_p_value,
                paired_p,
                paired_p < alpha,
                True,
                comparison.reason,
            ),
        )
        verdicts.append(
            Verdict(
                outcome=outcome,
                reason=reason,
                pass_rate_delta_points=comparison.delta * POINTS,
                delta_low_points=comparison.low * POINTS,
                delta_high_points=comparison.high * POINTS,
                outside_noise=outside_noise,
                mde_points=comparison.mde * POINTS,
                worse_count=comparison.worse_count,
                better_count=comparison.better_count,
                same_count=comparison.same_count,
                sensitivity_delta_points=comparison.sensitivity_delta * POINTS,
                n=comparison.n,
                significance=rows,
                comparison=comparison,
            )
        )
    return tuple(verdicts)


def subset(trials: CohortTrials, mask: npt.ArrayLike) -> CohortTrials:
    """The cohort's counts on the cases `mask` selects (same `scheduled`)."""
    keep = as_bools(mask, "mask")
    return CohortTrials(trials.passed[keep], trials.completed[keep], trials.scheduled)


def _missing_rate(trials: CohortTrials) -> float:
    planned = trials.scheduled * len(trials)
    return trials.failed_or_missing / planned if planned else 0.0


def _sensitivity_delta(candidate: CohortTrials, baseline: CohortTrials) -> float:
    """Δ with every failed-or-missing trial counted as a failure, over all cases."""
    if len(candidate) == 0:
        return 0.0
    candidate_rate = float(np.mean(candidate.passed / candidate.scheduled))
    baseline_rate = float(np.mean(baseline.passed / baseline.scheduled))
    return candidate_rate - baseline_rate
