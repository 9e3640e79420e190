"""Expected scorecard figures computed independently of `stats/`: numpy for counting, scipy
and statsmodels for every statistic, from a letter tensor (`P`, `F`, `E` per trial)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy.optimize import brentq
from scipy.special import comb
from scipy.stats import binom, norm
from scipy.stats import t as student_t
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import (
    power_proportions_2indep,
    proportion_confint,
    proportions_ztest,
)

Z = float(norm.ppf(0.975))
Floats = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Cohort:
    passed: npt.NDArray[np.int64]
    completed: npt.NDArray[np.int64]
    scheduled: int

    @property
    def fractions(self) -> Floats:
        return np.asarray(self.passed / self.completed, dtype=np.float64)

    @property
    def outcomes(self) -> npt.NDArray[np.bool_]:
        return np.asarray(2 * self.passed > self.completed)


def cohorts(tensor: list[list[str]]) -> list[Cohort]:
    """Counts per cohort; every case here is usable (the scenarios complete a trial of each)."""
    found = []
    for outcomes in tensor:
        passed = np.array([case.count("P") for case in outcomes], dtype=np.int64)
        completed = np.array([len(case) - case.count("E") for case in outcomes], dtype=np.int64)
        found.append(Cohort(passed, completed, len(outcomes[0])))
    return found


def cr1_interval(fractions: Floats) -> tuple[float, float]:
    """Mean of per-case fractions ± z·sd/√n (the CR1 cluster-robust SE), clipped to [0, 1]."""
    n = len(fractions)
    mean = float(fractions.mean())
    half = Z * float(fractions.std(ddof=1)) / math.sqrt(n)
    return max(0.0, mean - half), min(1.0, mean + half)


def wilson(successes: int, n: int) -> tuple[float, float]:
    low, high = proportion_confint(successes, n, alpha=0.05, method="wilson")
    return float(low), float(high)


def mcnemar_mid_p(improved: int, regressed: int) -> tuple[float, float]:
    """(mid-p, exact conditional p) from the discordant counts."""
    m, k = improved + regressed, min(improved, regressed)
    tail, point = float(binom.cdf(k, m, 0.5)), float(binom.pmf(k, m, 0.5))
    return min(1.0, 2 * (tail - 0.5 * point)), min(1.0, 2 * tail)


def sign_flip_exact(steps: npt.NDArray[np.int64]) -> float:
    """Exact two-sided sign-flip p for integer differences: the law of Σ±vᵢ by convolution."""
    magnitudes = np.abs(steps)
    total = int(magnitudes.sum())
    law = np.zeros(2 * total + 1)
    law[total] = 1.0
    for v in magnitudes:
        if v == 0:
            continue
        law = 0.5 * (np.roll(law, int(v)) + np.roll(law, -int(v)))
    observed = abs(int(steps.sum()))
    values = np.arange(-total, total + 1)
    return float(law[np.abs(values) >= observed].sum())


def z_test_p(candidate: Cohort, baseline: Cohort) -> float:
    x = [int(candidate.outcomes.sum()), int(baseline.outcomes.sum())]
    n = [len(candidate.passed), len(baseline.passed)]
    if sum(x) in (0, sum(n)):
        return 1.0
    _, p = proportions_ztest(x, n)
    return float(p)


def holm(p_values: list[float]) -> list[float]:
    return [float(p) for p in multipletests(p_values, method="holm")[1]]


def paired_mde(differences: Floats) -> float:
    multiplier = float(norm.ppf(0.975) + norm.ppf(0.8))
    return multiplier * float(differences.std(ddof=1)) / math.sqrt(len(differences))


def unpaired_mde(rate: float, n: int) -> float:
    """Solve statsmodels' two-proportion power = 0.8 for the shift towards ½."""
    direction = 1.0 if rate < 0.5 else -1.0
    room = 1.0 - rate if direction > 0 else rate

    def shortfall(delta: float) -> float:
        result = power_proportions_2indep(
            direction * delta, rate, n, ratio=1, alpha=0.05, return_results=True
        )
        return float(result.power) - 0.8

    edge = room - 1e-12  # both variances vanish at the far bound itself
    if shortfall(edge) < 0:
        return room
    return float(brentq(shortfall, 1e-9, edge, xtol=1e-12))


def t_interval(values: Floats) -> tuple[float, float]:
    n = len(values)
    half = float(student_t.ppf(0.975, n - 1)) * float(values.std(ddof=1)) / math.sqrt(n)
    return float(values.mean()) - half, float(values.mean()) + half


def pass_hat_k(cohort: Cohort, k: int) -> float:
    keep = cohort.completed >= k
    return float(np.mean(comb(cohort.passed[keep], k) / comb(cohort.completed[keep], k)))


def pass_at_k(cohort: Cohort, k: int) -> float:
    keep = cohort.completed >= k
    failed = cohort.completed[keep] - cohort.passed[keep]
    return float(np.mean(1 - comb(failed, k) / comb(cohort.completed[keep], k)))
