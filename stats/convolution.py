"""Exact sign-flip null law for integer differences, by exponentially tilted FFT convolution.

With vᵢ = |kᵢ| grouped into magnitudes v with counts c_v, T = Σ sᵢkᵢ = 2U − Σv·c_v where
U = Σ_v v·B_v, B_v ~ Binomial(c_v, ½). The law of U is computed through its characteristic
function and an inverse FFT on a window that holds all but 10⁻³⁰⁰ of its mass (Hoeffding
1963), after an exponential tilt (Esscher 1932) that centres the law on the observed
statistic, so tail probabilities keep full relative precision down to 10⁻³⁰⁰. Used by
`stats.permutation` for differences on a small grid (docs/statistics.md).
"""

from __future__ import annotations

import math
from typing import Final

import numpy as np
import numpy.typing as npt
from scipy.optimize import brentq
from scipy.special import expit

from stats._arrays import FloatArray, IntArray, as_ints

CONVOLUTION_MAX_WINDOW: Final = 1 << 22
CONVOLUTION_MAX_WORK: Final = 1 << 24
# Hoeffding: P(|U − EU| ≥ h) ≤ 2·exp(−2h²/Σv²) = 1e-300 at h² = Σv²·ln(2e300)/2.
_LOG_TWO_OVER_DELTA: Final = math.log(2.0) + 300.0 * math.log(10.0)
P_VALUE_FLOOR: Final = float(np.finfo(np.float64).tiny)
# ln of the |φ(f)| below which a frequency of the convolution is dropped (≈ 1.8e-35).
SPECTRUM_CUTOFF: Final = -80.0


def convolution_p_value(steps: npt.ArrayLike) -> float:
    """Exact two-sided sign-flip p for integer differences kᵢ, by tilted FFT convolution.

    P(|T| ≥ t) = 2·P(U ≥ u₀), u₀ = (t + C)/2, C = Σ|kᵢ|. With the tilt θ chosen so that
    E_θ U = u₀, each B_v becomes Binomial(c_v, q_v), q_v = logistic(2θv), and
    P(U = u) = P_θ(U = u)·exp(Σ_v c_v·(softplus(2θv) − ln 2) − 2θu). P_θ is the inverse
    DFT of Π_v (1 − q_v + q_v·e^(−2πi·kv/W))^c_v on a window of W points around u₀.
    """
    integers = as_ints(steps, "steps")
    magnitudes = np.abs(integers[integers != 0])
    nonzero = len(magnitudes)
    observed = abs(int(integers.sum()))
    total = int(magnitudes.sum())
    if nonzero == 0 or observed == 0:
        return 1.0
    if observed == total:
        # Only the observed pattern and its mirror image are as extreme.
        return max(min(1.0, math.ldexp(1.0, 1 - nonzero)), P_VALUE_FLOOR)
    values, counts = np.unique(magnitudes, return_counts=True)
    target = (observed + total) // 2
    theta = _tilt(values, counts, target)
    q = expit(2.0 * theta * values)
    mean = float(np.sum(values * counts * q))
    spread = _half_width(values, counts)
    low = max(0, min(target, math.floor(mean - spread)))
    high = min(total, math.ceil(mean + spread))
    width = high - low + 1
    pmf = _tilted_pmf(values, counts, theta, width)
    support = np.arange(target, high + 1, dtype=np.int64)
    probabilities = np.clip(pmf[support % width], 0.0, None)
    weighted = float(np.sum(probabilities * np.exp(-2.0 * theta * (support - target))))
    if weighted <= 0.0:
        return P_VALUE_FLOOR
    # ln K − 2θu₀ written as 2θ(C − u₀) + Σ c_v(softplus(−2θv) − ln 2): no cancellation.
    log_scale = 2.0 * theta * (total - target) + float(
        np.sum(counts * (np.logaddexp(0.0, -2.0 * theta * values) - math.log(2.0)))
    )
    log_tail = log_scale + math.log(weighted)
    p_value = 2.0 * math.exp(min(log_tail, 0.0))
    return max(min(1.0, p_value), P_VALUE_FLOOR)


def convolution_feasible(steps: npt.ArrayLike) -> bool:
    """Whether `convolution_p_value` fits its budget: window ≤ 2²² points, work ≤ 2²⁴."""
    integers = as_ints(steps, "steps")
    magnitudes = np.abs(integers[integers != 0])
    if len(magnitudes) == 0:
        return True
    values, counts = np.unique(magnitudes, return_counts=True)
    window = min(int(magnitudes.sum()) + 1, 2 * math.ceil(_half_width(values, counts)) + 3)
    work = len(values) * (window // 2 + 1)
    return window <= CONVOLUTION_MAX_WINDOW and work <= CONVOLUTION_MAX_WORK


def _half_width(values: IntArray, counts: IntArray) -> float:
    """Hoeffding half-width h with P(|U − E U| ≥ h) ≤ 1e-300 for U = Σ_v v·B_v, any tilt."""
    squares = float(np.sum(values.astype(np.float64) ** 2 * counts))
    return math.sqrt(squares * 0.5 * _LOG_TWO_OVER_DELTA)


def _tilt(values: IntArray, counts: IntArray, target: int) -> float:
    """θ ≥ 0 with Σ_v v·c_v·logistic(2θv) = target (the tilted mean at the observed U)."""
    weights = (values * counts).astype(np.float64)

    def excess(theta: float) -> float:
        return float(np.sum(weights * expit(2.0 * theta * values))) - target

    if excess(0.0) >= 0.0:
        return 0.0
    upper = 1.0 / float(values.max())
    while excess(upper) < 0.0:
        upper *= 2.0
    return float(brentq(excess, 0.0, upper, xtol=1e-12, rtol=1e-10))


def _tilted_pmf(values: IntArray, counts: IntArray, theta: float, width: int) -> FloatArray:
    """P_θ(U ≡ j mod width) for j < width: inverse real FFT of the characteristic function.

    |φ(f)| = Π_v |1 − q_v + q_v·e^(−2πi·fv/W)|^c_v, every factor at most 1, so the partial
    product over the values taken so far bounds |φ(f)| from above. The values are taken
    most damping first (largest c_v·q_v·(1 − q_v)) and a frequency is dropped, its φ set
    to 0, once the bound is below e^SPECTRUM_CUTOFF (≈ 10⁻³⁵): each pmf point then moves
    by less than 10⁻³⁵, far below the FFT's own rounding (≈ 10⁻¹⁶). Only the few frequencies
    near the peaks of φ survive the first values, so the work is ≈ W + V·(survivors)
    instead of V·W.
    """
    alive = np.arange(width // 2 + 1, dtype=np.int64)
    log_magnitude = np.zeros(len(alive))
    phase = np.zeros(len(alive))
    q_all = expit(2.0 * theta * values)
    damping = counts * q_all * expit(-2.0 * theta * values)
    for index in np.argsort(-damping, kind="stable").tolist():
        value, count = int(values[index]), int(counts[index])
        q = float(q_all[index])
        q_bar = float(expit(-2.0 * theta * value))
        angle = ((alive * value) % width) * (2.0 * math.pi / width)
        factor = q_bar + q * np.exp(-1j * angle)
        log_magnitude += count * np.log(np.maximum(np.abs(factor), 1e-300))
        phase += count * np.angle(factor)
        keep = log_magnitude > SPECTRUM_CUTOFF
        if not keep.all():
            alive, log_magnitude, phase = alive[keep], log_magnitude[keep], phase[keep]
    spectrum = np.zeros(width // 2 + 1, dtype=np.complex128)
    spectrum[alive] = np.exp(log_magnitude) * np.exp(1j * np.mod(phase, 2.0 * math.pi))
    return np.fft.irfft(spectrum, n=width)
