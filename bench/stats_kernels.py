"""Benchmark: the exact paired test on 100,000 cases × 5 trials against scipy.

Ours: `stats.gate.paired_test` — the sign-flip permutation test on per-case pass
fraction differences, exact by tilted FFT convolution (differences lie on the grid
1/5). Baseline: `scipy.stats.permutation_test` on the same differences with 9,999
Monte Carlo sign flips, `batch=500`. The last line printed is one JSON object.

    .venv/bin/python bench/stats_kernels.py [--repeats 21] [--skip-scipy]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
from scipy.stats import permutation_test

from bench.harness import SMOKE_HELP, emit
from stats.gate import paired_test
from stats.trials import CohortTrials

CASES = 100_000
TRIALS = 5
SCIPY_RESAMPLES = 9_999
SCIPY_BATCH = 500
TARGET_MS = 100.0
TARGET_SPEEDUP = 50.0


def make_cohorts(seed: int = 20240601) -> tuple[CohortTrials, CohortTrials]:
    """Paired cohorts: per-case pass probability ~ Beta(2, 1); the candidate's 0.3% lower."""
    rng = np.random.default_rng(seed)
    difficulty = rng.beta(2.0, 1.0, size=CASES)
    baseline_rate = difficulty
    candidate_rate = difficulty * 0.997
    completed = np.full(CASES, TRIALS)
    candidate = CohortTrials.of(rng.binomial(TRIALS, candidate_rate), completed, TRIALS)
    baseline = CohortTrials.of(rng.binomial(TRIALS, baseline_rate), completed, TRIALS)
    return candidate, baseline


def time_ours(
    candidate: CohortTrials, baseline: CohortTrials, repeats: int
) -> tuple[list[float], float, str]:
    paired_test(candidate, baseline)  # warm-up: imports, caches
    timings = []
    result = None
    for _ in range(repeats):
        start = time.perf_counter()
        result = paired_test(candidate, baseline)
        timings.append((time.perf_counter() - start) * 1000.0)
    assert result is not None
    return timings, result.p_value, result.detail


def time_scipy(differences: np.ndarray) -> tuple[float, float]:
    start = time.perf_counter()
    result = permutation_test(
        (differences,),
        lambda x, axis: np.mean(x, axis=axis),
        permutation_type="samples",
        vectorized=True,
        n_resamples=SCIPY_RESAMPLES,
        batch=SCIPY_BATCH,
        alternative="two-sided",
        rng=np.random.default_rng(1),
    )
    return (time.perf_counter() - start) * 1000.0, float(result.pvalue)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=21)
    parser.add_argument("--skip-scipy", action="store_true")
    parser.add_argument("--smoke", action="store_true", help=SMOKE_HELP + " No scipy baseline.")
    args = parser.parse_args()
    if args.smoke:
        args.repeats, args.skip_scipy = 1, True

    candidate, baseline = make_cohorts()
    differences = (candidate.passed - baseline.passed) / TRIALS
    emit(f"cases={CASES} trials={TRIALS} mean difference={differences.mean():+.5f}")

    timings, p_exact, method = time_ours(candidate, baseline, args.repeats)
    median = statistics.median(timings)
    emit(
        f"ours   ({method}): median {median:.2f} ms, min {min(timings):.2f} ms, "
        f"max {max(timings):.2f} ms over {args.repeats} runs; p = {p_exact:.6g}"
    )
    speedup = float("nan")
    if not args.skip_scipy:
        scipy_ms, p_scipy = time_scipy(differences)
        speedup = scipy_ms / median
        resampling_sd = np.sqrt(max(p_scipy * (1 - p_scipy), 1e-12) / SCIPY_RESAMPLES)
        emit(
            f"scipy  (permutation_test, {SCIPY_RESAMPLES} resamples, batch={SCIPY_BATCH}): "
            f"{scipy_ms:.0f} ms; p = {p_scipy:.6g} (Monte Carlo SD ≈ {resampling_sd:.2g})"
        )
        emit(f"speedup vs scipy: {speedup:.0f}x")
    emit(
        f"targets: <= {TARGET_MS:.0f} ms {'met' if median <= TARGET_MS else 'MISSED'}, "
        f">= {TARGET_SPEEDUP:.0f}x "
        f"{'met' if speedup >= TARGET_SPEEDUP else 'MISSED or not measured'}"
    )
    emit(
        json.dumps(
            {
                "paired_exact_ms": round(median, 3),
                "speedup_vs_scipy": None if np.isnan(speedup) else round(speedup, 1),
                "scipy_baseline": "skipped" if args.skip_scipy else "measured",
                "smoke": args.smoke,
            }
        )
    )


if __name__ == "__main__":
    main()
