"""Sign-flip permutation test on paired per-case differences (two-sided, statistic Σdᵢ).

Under H₀ (no difference between candidate and baseline) each case's difference dᵢ is
equally likely to have either sign, so the null distribution of T = Σ sᵢ|dᵢ|, sᵢ = ±1
independent and fair, is exact given |d| (Fisher 1935; Good 2005, "Permutation,
Parametric and Bootstrap Tests of Hypotheses", §3.2). p = P(|T| ≥ |t_obs|).

How p is computed, in order of preference (docs/statistics.md):

1. ≤ 20 cases — exact enumeration of all 2ⁿ sign patterns (meet in the middle).
2. Differences on a small grid (every dᵢ an integer multiple of a step, as trial
   fractions are) — exact convolution of the null law of Σ sᵢ|dᵢ|/step by a tilted
   FFT, with full relative precision down to 10⁻³⁰⁰ (`stats.convolution`).
3. Very large n with continuous differences (no grid, or a grid too fine to convolve
   within budget) — the paired t-test, when n ≥ PAIRED_T_MIN_CASES (10,000) and no
   case carries more than PAIRED_T_MAX_LEVERAGE (1%) of Σdᵢ². The sign-flip null is
   symmetric, so for non-lattice differences its normal approximation is correct to
   O(1/n) (no O(1/√n) skewness term of the Edgeworth expansion); at n = 10,000 that
   is far below the Monte Carlo error it replaces (SD 0.0022 at p = 0.05 with 9,999
   resamples).
4. Otherwise — 9,999 seeded Monte Carlo sign flips, p = (count + 1)/(R + 1)
   (Phipson & Smyth 2010, "Permutation p-values should never be zero"). The signs are
   seeded random bits shared by every test of one seed and width (`sign_bytes`), and
   each resampled sum is ⌈n/8⌉ look-ups in a table of byte-pattern partial sums, so
   n = 5,000 takes ≈ 40 ms instead of ≈ 0.35 s. Tests sharing the signs are dependent;
   each p is still a valid Monte Carlo p, and Holm holds under any dependence.

Swapping candidate and baseline negates every dᵢ and leaves |T| and p unchanged, also
for the seeded Monte Carlo path (the same sign draws are used).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

import numpy as np
import numpy.typing as npt
from scipy.special import stdtr

from stats import reasons
from stats._arrays import FloatArray, IntArray, all_finite, as_floats, as_ints
from stats.convolution import P_VALUE_FLOOR, convolution_feasible, convolution_p_value

ENUMERATION_MAX_CASES: Final = 20
MONTE_CARLO_RESAMPLES: Final = 9_999
PAIRED_T_MIN_CASES: Final = 10_000
PAIRED_T_MAX_LEVERAGE: Final = 0.01
# A grid's integers must match the data to this fraction of one step.
LATTICE_TOLERANCE: Final = 1e-6
# Largest common denominator, and largest |kᵢ|, handed to the integer path (far from 2⁶³).
MAX_DENOMINATOR: Final = 10**9
ENUMERATION_HARD_LIMIT: Final = 40
ByteArray = npt.NDArray[np.uint8]
SIGN_CACHE_BYTES: Final = 16 << 20
LOOKUPS_PER_STEP: Final = 1 << 16
# _BYTE_BITS[b, k] = bit k of b: the ±1 pattern (1 = +1) a random byte stands for.
_BYTE_BITS: Final = ((np.arange(256)[:, None] >> np.arange(8)[None, :]) & 1).astype(np.float64)


@dataclass(frozen=True, slots=True)
class PermutationResult:
    """Mean difference, two-sided p-value and how it was computed."""

    estimate: float
    p_value: float
    method: str
    n: int
    resamples: int = 0
    reason: str | None = None

    @property
    def exact(self) -> bool:
        """True when p is exact (enumerated, convolved, or 1 for all-zero differences)."""
        if self.reason == reasons.ALL_ZERO_DIFFERENCES:
            return True
        return self.method in (reasons.EXACT_ENUMERATION, reasons.EXACT_CONVOLUTION)


def sign_flip_test(
    differences: npt.ArrayLike,
    *,
    resamples: int = MONTE_CARLO_RESAMPLES,
    seed: int = 0,
) -> PermutationResult:
    """Two-sided sign-flip permutation test of mean(d) = 0; see the module docstring.

    A grid is detected whatever the scale of the dᵢ (`lattice_steps`). A NaN or
    infinite difference gives p = 1 with reason NON_FINITE_INPUT.
    """
    values = as_floats(differences, "differences")
    if not all_finite(values):
        return PermutationResult(0.0, 1.0, reasons.NONE, 0, 0, reasons.NON_FINITE_INPUT)
    return _dispatch(values, lattice_steps(values), resamples, seed)


def sign_flip_test_lattice(
    numerators: npt.ArrayLike,
    denominator: int,
    *,
    resamples: int = MONTE_CARLO_RESAMPLES,
    seed: int = 0,
) -> PermutationResult:
    """Sign-flip test on differences dᵢ = numeratorᵢ / denominator, exact integers.

    The caller knows the grid (e.g. trial fractions over the lcm of the trial counts),
    so no detection is needed and the observed statistic is exact.
    """
    steps = as_ints(numerators, "numerators")
    if denominator <= 0:
        raise ValueError(f"denominator must be positive, got {denominator}")
    return _dispatch(steps / denominator, steps, resamples, seed)


def common_denominator(counts: npt.ArrayLike) -> int | None:
    """lcm of positive counts (e.g. completed trials per case), or None above 10⁹.

    Fractions pᵢ/nᵢ all lie on the grid 1/L with L = lcm(nᵢ); an L this large would
    overflow integer numerators and is far too fine to convolve anyway.
    """
    denominator = 1
    for count in np.unique(as_ints(counts, "counts")).tolist():
        if count <= 0:
            raise ValueError(f"counts must be positive, got {count}")
        denominator = math.lcm(denominator, count)
        if denominator > MAX_DENOMINATOR:
            return None
    return denominator


def lattice_steps(differences: npt.ArrayLike) -> IntArray | None:
    """Integers kᵢ with dᵢ = kᵢ·step for one common step, or None when there is no grid.

    Scale-free: the ratios rᵢ = dᵢ/m to the smallest nonzero |dᵢ| are brought onto a
    common denominator L ≤ 10⁹ by continued fractions (each rᵢ·L within 10⁻⁶ of an
    integer), so multiplying every dᵢ by one constant gives the same kᵢ. Trial
    fractions with up to 10 trials and the pairwise buckets lie on such grids; only the
    kᵢ (reduced by their gcd) matter to the test.
    """
    values = as_floats(differences)
    magnitudes = np.abs(values)
    nonzero = magnitudes[magnitudes > 0.0]
    if len(nonzero) == 0:
        return np.zeros(len(values), dtype=np.int64)
    with np.errstate(over="ignore"):
        ratios = values / float(nonzero.min())
    denominator = 1
    while True:
        scaled = ratios * denominator
        if not np.all(np.abs(scaled) <= MAX_DENOMINATOR):
            return None
        steps = np.rint(scaled)
        residuals = np.abs(scaled - steps)
        worst = int(np.argmax(residuals))
        if float(residuals[worst]) <= LATTICE_TOLERANCE:
            break
        limit = MAX_DENOMINATOR // denominator
        factor = Fraction(float(scaled[worst])).limit_denominator(limit).denominator
        if factor == 1:
            return None
        denominator *= factor
    integers = steps.astype(np.int64)
    return integers // int(np.gcd.reduce(integers))


def enumeration_p_value(values: npt.ArrayLike) -> float:
    """Exact two-sided sign-flip p by enumerating all 2ⁿ sign patterns (n ≤ 40).

    Meet in the middle: all ±sums of each half, then a sorted search, so the work is
    O(2^(n/2)·n) instead of O(2ⁿ·n). Float ties count as extreme within a tolerance
    of 8·n·ε·Σ|dᵢ| (the rounding bound of the sums).
    """
    data = as_floats(values)
    n = len(data)
    if n > ENUMERATION_HARD_LIMIT:
        raise ValueError(f"enumeration is limited to {ENUMERATION_HARD_LIMIT} cases, got {n}")
    observed = abs(float(data.sum()))
    tolerance = 8.0 * max(n, 1) * float(np.finfo(np.float64).eps) * float(np.abs(data).sum())
    threshold = observed - tolerance
    if threshold <= 0.0:
        return 1.0
    half = n // 2
    left = _signed_sums(data[:half])
    right = np.sort(_signed_sums(data[half:]))
    upper = len(right) - np.searchsorted(right, threshold - left, side="left")
    lower = np.searchsorted(right, -threshold - left, side="right")
    extreme = int(upper.sum()) + int(lower.sum())
    return min(1.0, extreme / 2.0**n)


def monte_carlo_p_value(
    values: npt.ArrayLike, *, resamples: int = MONTE_CARLO_RESAMPLES, seed: int = 0
) -> float:
    """Seeded Monte Carlo sign-flip p = (#{|T*| ≥ |t|} + 1)/(R + 1) (Phipson & Smyth 2010).

    The signs are seeded random bits, 8 cases to a byte (bit k of byte j is case 8j + k,
    set = +1), shared by every test with the same seed, R and ⌈n/8⌉ (`sign_bytes`), so
    the metric rows and cohort pairs of one comparison reuse one matrix. Each resample's
    Σ sᵢdᵢ is a sum of ⌈n/8⌉ table look-ups: for each byte position the 256 partial sums
    of its 8 cases are tabulated once, so the work is R·n/8 additions, not R·n products.
    """
    data = as_floats(values)
    n = len(data)
    if resamples < 1:
        raise ValueError(f"resamples must be positive, got {resamples}")
    observed = abs(float(data.sum()))
    tolerance = 8.0 * max(n, 1) * float(np.finfo(np.float64).eps) * float(np.abs(data).sum())
    if n == 0 or observed - tolerance <= 0.0:
        return 1.0
    width = (n + 7) // 8
    padded = np.zeros(width * 8)
    padded[:n] = data
    # table[j, b] = Σ_k bit_k(b)·d_(8j+k): the positive part of byte j's cases under pattern b.
    table = (padded.reshape(width, 8) @ _BYTE_BITS.T).ravel()
    offsets = np.arange(width, dtype=np.int32) * 256
    total = float(data.sum())
    extreme = 0
    # Look-ups a few rows at a time: 12 bytes of indices and values per look-up, so the
    # working set stays under 1 MB whatever n is, in cache (faster than whole blocks).
    rows = max(1, LOOKUPS_PER_STEP // width)
    for block in sign_bytes(seed, resamples, width):
        for start in range(0, len(block), rows):
            picked = table[block[start : start + rows] + offsets]
            sums = 2.0 * picked.sum(axis=1) - total
            extreme += int(np.count_nonzero(np.abs(sums) >= observed - tolerance))
    return (extreme + 1) / (resamples + 1)


def sign_bytes(seed: int, resamples: int, width: int) -> Iterable[ByteArray]:
    """The seeded sign matrix, R rows of `width` random bytes, in row blocks.

    Blocks of ⌊2²⁰/width⌋ rows, each drawn in turn from one generator seeded with `seed`,
    so the matrix depends only on (seed, R, width). Matrices up to 16 MB (two at most)
    are cached and shared (read-only); larger ones are drawn again, block by block, on
    each call.
    """
    if resamples * width <= SIGN_CACHE_BYTES:
        return _cached_sign_bytes(seed, resamples, width)
    return _draw_sign_bytes(seed, resamples, width)


@functools.lru_cache(maxsize=2)
def _cached_sign_bytes(seed: int, resamples: int, width: int) -> tuple[ByteArray, ...]:
    return tuple(_draw_sign_bytes(seed, resamples, width))


def _draw_sign_bytes(seed: int, resamples: int, width: int) -> Iterator[ByteArray]:
    rng = np.random.default_rng(seed)
    rows = max(1, (1 << 20) // width)
    for start in range(0, resamples, rows):
        count = min(rows, resamples - start)
        block = np.frombuffer(rng.bytes(count * width), dtype=np.uint8).reshape(count, width)
        yield block


def paired_t_p_value(values: npt.ArrayLike) -> float:
    """Two-sided one-sample t-test of mean(d) = 0: t = d̄/(s/√n), n − 1 df (Student 1908)."""
    data = as_floats(values)
    n = len(data)
    if n < 2:
        return 1.0
    mean = float(data.mean())
    sd = float(data.std(ddof=1))
    if sd == 0.0:
        return 1.0 if mean == 0.0 else P_VALUE_FLOOR
    statistic = mean / (sd / math.sqrt(n))
    return max(min(1.0, 2.0 * float(stdtr(n - 1, -abs(statistic)))), P_VALUE_FLOOR)


def _dispatch(
    values: FloatArray, steps: IntArray | None, resamples: int, seed: int
) -> PermutationResult:
    """Pick the method in the module docstring's order; `steps` is the grid, if any."""
    n = len(values)
    if n == 0:
        return PermutationResult(0.0, 1.0, reasons.NONE, 0, 0, reasons.NO_CASES)
    estimate = float(values.mean())
    if not np.any(values):
        return PermutationResult(0.0, 1.0, reasons.NONE, n, 0, reasons.ALL_ZERO_DIFFERENCES)
    reason = reasons.ONE_CASE if n == 1 else None
    if n <= ENUMERATION_MAX_CASES:
        exact_values = steps if steps is not None else values
        p_value = enumeration_p_value(exact_values)
        return PermutationResult(estimate, p_value, reasons.EXACT_ENUMERATION, n, 0, reason)
    if steps is not None and convolution_feasible(steps):
        p_value = convolution_p_value(steps)
        return PermutationResult(estimate, p_value, reasons.EXACT_CONVOLUTION, n)
    squares = values * values
    if n >= PAIRED_T_MIN_CASES and float(squares.max()) <= PAIRED_T_MAX_LEVERAGE * float(
        squares.sum()
    ):
        return PermutationResult(estimate, paired_t_p_value(values), reasons.PAIRED_T, n)
    p_value = monte_carlo_p_value(values, resamples=resamples, seed=seed)
    return PermutationResult(estimate, p_value, reasons.MONTE_CARLO, n, resamples)


def _signed_sums(values: FloatArray) -> FloatArray:
    """Σ sᵢvᵢ for all 2ⁿ sign vectors s of one half of the data (n ≤ 20, ≤ 2²⁰ sums)."""
    sums = np.zeros(1)
    for value in values:
        sums = np.concatenate((sums + value, sums - value))
    return sums
