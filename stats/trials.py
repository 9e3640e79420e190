"""Per-case trial counts: pass fractions, case outcomes, pass^k, pass@k and flips."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from stats import reasons
from stats._arrays import BoolArray, FloatArray, IntArray, as_ints, same_length


@dataclass(frozen=True, slots=True, eq=False)
class CohortTrials:
    """One cohort's trial counts per case, in the comparison's case order.

    `passed[i]` of `completed[i]` trials passed; `scheduled` trials were planned per case
    (trials per case). A trial that errored is neither completed nor passed: it is
    failed-or-missing, never a quality fail (docs/domain.md, Dispatch).
    """

    passed: IntArray
    completed: IntArray
    scheduled: int

    def __post_init__(self) -> None:
        passed = as_ints(self.passed, "passed")
        completed = as_ints(self.completed, "completed")
        same_length(passed, completed)
        if self.scheduled < 1:
            raise ValueError(f"scheduled must be at least 1, got {self.scheduled}")
        if np.any(passed < 0) or np.any(passed > completed) or np.any(completed > self.scheduled):
            raise ValueError("need 0 <= passed <= completed <= scheduled for every case")
        object.__setattr__(self, "passed", passed)
        object.__setattr__(self, "completed", completed)

    @classmethod
    def of(
        cls, passed: npt.ArrayLike, completed: npt.ArrayLike, scheduled: int | None = None
    ) -> CohortTrials:
        """Build from array-likes; `scheduled` defaults to the largest completed count."""
        completed_ints = as_ints(completed, "completed")
        if scheduled is None:
            scheduled = max(1, int(completed_ints.max())) if len(completed_ints) else 1
        return cls(as_ints(passed, "passed"), completed_ints, scheduled)

    def __len__(self) -> int:
        return len(self.passed)

    @property
    def failed_or_missing(self) -> int:
        """Scheduled trials without a completed outcome, over all cases."""
        return int(self.scheduled * len(self.completed) - self.completed.sum())


@dataclass(frozen=True, slots=True)
class TrialSummary:
    """Scorecard.trials for one cohort: k, pass^k, pass@k, flips, failed-or-missing."""

    k: int
    pass_hat_k: float
    pass_at_k: float
    flips: int
    failed_or_missing_trials: int
    n: int
    reason: str | None = None


def pass_fractions(passed: npt.ArrayLike, completed: npt.ArrayLike) -> FloatArray:
    """passed ÷ completed per case, for the cases with at least one completed trial."""
    passes, trials = as_ints(passed, "passed"), as_ints(completed, "completed")
    same_length(passes, trials)
    used = trials > 0
    return np.asarray(passes[used] / trials[used], dtype=np.float64)


def case_outcomes(passed: npt.ArrayLike, completed: npt.ArrayLike) -> BoolArray:
    """A case passes when more than half of its completed trials pass (docs/statistics.md)."""
    passes, trials = as_ints(passed, "passed"), as_ints(completed, "completed")
    same_length(passes, trials)
    return np.asarray(2 * passes > trials, dtype=np.bool_)


def pass_hat_k(passed: npt.ArrayLike, completed: npt.ArrayLike, k: int) -> float:
    """pass^k = mean over cases of C(cᵢ, k)/C(nᵢ, k): all k draws pass (Yao et al. 2024, τ-bench).

    Cases with fewer than k completed trials are left out (their C(nᵢ, k) is 0); no
    case left gives 0.0. C(c, k)/C(n, k) = Π_{j<k} (c − j)/(n − j), computed as a product.
    """
    passes, trials = _eligible(passed, completed, k)
    if len(trials) == 0:
        return 0.0
    ratio = np.ones(len(trials))
    for j in range(k):
        ratio *= np.clip(passes - j, 0, None) / (trials - j)
    return float(ratio.mean())


def pass_at_k(passed: npt.ArrayLike, completed: npt.ArrayLike, k: int) -> float:
    """Unbiased pass@k = mean over cases of 1 − C(nᵢ − cᵢ, k)/C(nᵢ, k) (Chen et al. 2021, Eq. 1).

    Computed as 1 − Π_{j<k} (nᵢ − cᵢ − j)/(nᵢ − j), the numerically stable product form.
    Cases with fewer than k completed trials are left out; none left gives 0.0.
    """
    passes, trials = _eligible(passed, completed, k)
    if len(trials) == 0:
        return 0.0
    all_fail = np.ones(len(trials))
    for j in range(k):
        all_fail *= np.clip(trials - passes - j, 0, None) / (trials - j)
    return float((1.0 - all_fail).mean())


def flips(passed: npt.ArrayLike, completed: npt.ArrayLike) -> int:
    """Cases whose completed trials disagree: 0 < cᵢ < nᵢ (docs/statistics.md)."""
    passes, trials = as_ints(passed, "passed"), as_ints(completed, "completed")
    same_length(passes, trials)
    return int(np.count_nonzero((passes > 0) & (passes < trials)))


def relations(candidate: CohortTrials, baseline: CohortTrials) -> npt.NDArray[np.int8]:
    """Per case: −1 when the candidate's pass fraction is below the baseline's (*worse*),
    +1 above (*better*), 0 equal (*same*) or when either has no completed trial
    (docs/statistics.md).

    Compared exactly on integers: p꜀/n꜀ < p_b/n_b ⇔ p꜀·n_b < p_b·n꜀.
    """
    if len(candidate) != len(baseline):
        raise ValueError(f"cohorts differ in cases: {len(candidate)} != {len(baseline)}")
    usable = (candidate.completed > 0) & (baseline.completed > 0)
    left = candidate.passed * baseline.completed
    right = baseline.passed * candidate.completed
    return np.asarray(np.where(usable, np.sign(left - right), 0), dtype=np.int8)


def trial_summary(trials: CohortTrials, *, k: int | None = None) -> TrialSummary:
    """pass^k, pass@k (k = trials per case unless given), flips and failed-or-missing trials.

    Reason INCOMPLETE_CASES_EXCLUDED when some case with completed trials has fewer
    than k of them; NO_CASES when no case has k.
    """
    size = trials.scheduled if k is None else k
    if size < 1:
        raise ValueError(f"k must be at least 1, got {size}")
    eligible = int(np.count_nonzero(trials.completed >= size))
    started = int(np.count_nonzero(trials.completed > 0))
    reason = None
    if eligible == 0:
        reason = reasons.NO_CASES
    elif eligible < started:
        reason = reasons.INCOMPLETE_CASES_EXCLUDED
    return TrialSummary(
        k=size,
        pass_hat_k=pass_hat_k(trials.passed, trials.completed, size),
        pass_at_k=pass_at_k(trials.passed, trials.completed, size),
        flips=flips(trials.passed, trials.completed),
        failed_or_missing_trials=trials.failed_or_missing,
        n=eligible,
        reason=reason,
    )


def _eligible(
    passed: npt.ArrayLike, completed: npt.ArrayLike, k: int
) -> tuple[FloatArray, FloatArray]:
    passes, trials = as_ints(passed, "passed"), as_ints(completed, "completed")
    same_length(passes, trials)
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")
    if np.any(passes < 0) or np.any(passes > trials):
        raise ValueError("need 0 <= passed <= completed for every case")
    keep = trials >= k
    return passes[keep].astype(np.float64), trials[keep].astype(np.float64)
