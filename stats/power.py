"""Minimum detectable effect at 80% power, two-sided α = 0.05, and sample adequacy."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt
from scipy.optimize import brentq
from scipy.special import ndtr, ndtri

from stats import reasons
from stats._arrays import all_finite, as_floats

DEFAULT_TARGET_EFFECT: Final = 0.05
MIN_CASES: Final = 20


@dataclass(frozen=True, slots=True)
class Mde:
    """A minimum detectable effect in the units of its input (pass-rate units for rates)."""

    value: float
    reason: str | None = None


def two_proportion_power(
    baseline_rate: float, difference: float, n: int, *, alpha: float = 0.05
) -> float:
    """Power of the two-sided pooled z-test for p₂ = `baseline_rate`, p₁ = p₂ + diff, n each.

    power = Φ̄(z₍₁₋α/2₎·σ₀/σ₁ − diff·√n/σ₁) + Φ(−z₍₁₋α/2₎·σ₀/σ₁ − diff·√n/σ₁), with
    σ₀ = √(2p̄(1 − p̄)) (pooled, under H₀) and σ₁ = √(p₁(1 − p₁) + p₂(1 − p₂)) (under H₁)
    (Fleiss, Levin & Paik 2003, §4.2; statsmodels `power_proportions_2indep`).
    """
    rate1 = baseline_rate + difference
    if not (0.0 <= baseline_rate <= 1.0 and 0.0 <= rate1 <= 1.0) or n <= 0:
        raise ValueError("need rates in [0, 1] and n > 0")
    pooled = (rate1 + baseline_rate) / 2.0
    std_null = math.sqrt(2.0 * pooled * (1.0 - pooled))
    std_alt = math.sqrt(rate1 * (1.0 - rate1) + baseline_rate * (1.0 - baseline_rate))
    if std_alt == 0.0:
        return 1.0 if difference != 0.0 else alpha
    critical = float(ndtri(1.0 - alpha / 2.0)) * std_null / std_alt
    shift = difference * math.sqrt(n) / std_alt
    return float(ndtr(-(critical - shift)) + ndtr(-critical - shift))


def unpaired_mde(pass_rate: float, n: int, *, alpha: float = 0.05, power: float = 0.8) -> Mde:
    """MDE of one cohort of n cases against an equal cohort (seed 000), solved for power.

    Solves two_proportion_power(p, ±δ, n) = power for δ by Brent's method (the plain
    normal formula (z₍₁₋α/2₎ + z_power)·√(2p(1−p)/n) understates δ near 0 and 1, where
    the variance under the alternative is larger). The shift is taken towards ½, the
    direction of larger variance, so the MDE holds for either direction of change.
    When even a shift to the far bound lacks the power, that bound is returned with
    reason POWER_NOT_REACHABLE; n = 0 returns 1.0 with reason NO_CASES, and a NaN or
    infinite rate or n returns 1.0 with reason NON_FINITE_INPUT.
    """
    if not all_finite(pass_rate, n):
        return Mde(1.0, reasons.NON_FINITE_INPUT)
    if not 0.0 <= pass_rate <= 1.0:
        raise ValueError(f"pass_rate must lie in [0, 1], got {pass_rate}")
    if n <= 0:
        return Mde(1.0, reasons.NO_CASES)
    direction = 1.0 if pass_rate < 0.5 else -1.0
    room = 1.0 - pass_rate if direction > 0 else pass_rate

    def shortfall(delta: float) -> float:
        return two_proportion_power(pass_rate, direction * delta, n, alpha=alpha) - power

    if shortfall(room) < 0.0:
        return Mde(float(room), reasons.POWER_NOT_REACHABLE)
    return Mde(float(brentq(shortfall, 1e-12, room, xtol=1e-12, rtol=1e-12)))


def paired_mde(differences: npt.ArrayLike, *, alpha: float = 0.05, power: float = 0.8) -> Mde:
    """Paired MDE = (z₍₁₋α/2₎ + z_power)·√(Var(dᵢ)/n) = 2.8016·√(Var(dᵢ)/n) (docs/statistics.md).

    Var is the sample variance (n − 1) of the per-case differences (e.g. Chow, Shao &
    Wang 2008, §3.1, one-sample normal design). Fewer than two cases give 1.0 with a
    reason; zero variance gives 0.0 with reason ZERO_VARIANCE; a NaN or infinite
    difference gives 1.0 with reason NON_FINITE_INPUT.
    """
    data = as_floats(differences, "differences")
    n = len(data)
    if not all_finite(data):
        return Mde(1.0, reasons.NON_FINITE_INPUT)
    if n < 2:
        return Mde(1.0, reasons.NO_CASES if n == 0 else reasons.ONE_CASE)
    if float(np.ptp(data)) == 0.0:
        return Mde(0.0, reasons.ZERO_VARIANCE)
    multiplier = float(ndtri(1.0 - alpha / 2.0) + ndtri(power))
    return Mde(multiplier * math.sqrt(float(data.var(ddof=1)) / n))


def adequacy(n: int, mde: float, *, target_effect: float = DEFAULT_TARGET_EFFECT) -> str:
    """`INSUFFICIENT` under 20 cases, `UNDERPOWERED` when MDE > target effect, else `ADEQUATE`."""
    if n < MIN_CASES:
        return reasons.INSUFFICIENT
    if mde > target_effect:
        return reasons.UNDERPOWERED
    return reasons.ADEQUATE
