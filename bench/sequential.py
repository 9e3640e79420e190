"""Sequential stopping (docs/statistics.md): error rate, cases used, calls through the service.

    .venv/bin/python bench/sequential.py                 # (a), (b) and (c)
    .venv/bin/python bench/sequential.py --skip-service  # (a) and (b) only: pure numpy

(a) 2,000 simulated null comparisons of 2,000 paired one-trial cases (both cohorts pass
    with probability 0.8, independently): the share that ever decides REGRESSED or
    IMPROVED (target ≤ 0.05) and its Monte-Carlo SE.
(b) a regression of about 9 points — the candidate fails 12% of the baseline's passing
    cases and passes 2% of its failing ones (base rate 0.8, 2,000 cases, minCases 100):
    the median fraction of cases used before the stop (target ≤ 0.12), looking every 50
    cases and every case; the fixed-n power (McNemar mid-p, α 0.05) beside it.
(c) one comparison through the service (embedded runtime, SQLite, simulated connection)
    of 2,000 cases with that regression, lookEveryCases 50, case order seed 1: calls used ÷
    planned (target ≤ 0.20) and the verdict (bench/sequential_service.py); then the same
    with case order seeds 2… (`--more-orders`, default 4) for the spread.

Looks follow the service: at minCases, then every lookEveryCases; ε = 1 point, target
effect 5 points, one baseline so the level is α = 0.05. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
import numpy.typing as npt

from stats.mcnemar import mcnemar_from_counts
from stats.sequential import DECISION_TOLERANCE as TOL
from stats.sequential import betting_cs, look_points

ALPHA, EPSILON, TARGET = 0.05, 0.01, 0.05
CASES, COMPARISONS, BASE_RATE = 2000, 2000, 0.8
MIN_CASES, LOOK_EVERY = 100, 50
FAIL_PASSING, PASS_FAILING = 0.12, 0.02
SMOKE_COMPARISONS = 40


def emit(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def null_differences(rng: np.random.Generator, rows: int) -> npt.NDArray[np.float64]:
    baseline = rng.random((rows, CASES)) < BASE_RATE
    candidate = rng.random((rows, CASES)) < BASE_RATE
    return candidate.astype(np.float64) - baseline.astype(np.float64)


def regression_differences(rng: np.random.Generator, rows: int) -> npt.NDArray[np.float64]:
    baseline = rng.random((rows, CASES)) < BASE_RATE
    flip = rng.random((rows, CASES))
    candidate = np.where(baseline, flip >= FAIL_PASSING, flip < PASS_FAILING)
    return candidate.astype(np.float64) - baseline.astype(np.float64)


def stops(
    differences: npt.NDArray[np.float64], look_every: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.str_]]:
    """Per comparison: the cases used at the stop (CASES when never) and the outcome."""
    low, high = betting_cs(differences, ALPHA)
    looks = np.array(look_points(CASES, min_cases=MIN_CASES, look_every=look_every))
    lo, hi = low[:, looks - 1], high[:, looks - 1]
    regressed, improved = hi < -EPSILON - TOL, lo > EPSILON + TOL
    no_change = (lo >= -TARGET - TOL) & (hi <= TARGET + TOL)
    decided = regressed | improved | no_change
    first = np.where(decided.any(axis=1), decided.argmax(axis=1), -1)
    rows = np.arange(differences.shape[0])
    at = np.maximum(first, 0)
    outcome = np.where(
        regressed[rows, at], "REGRESSED", np.where(improved[rows, at], "IMPROVED", "NO_CHANGE")
    )
    outcome = np.where(first >= 0, outcome, "RAN_TO_END")
    used = np.where(first >= 0, looks[at], CASES)
    return used.astype(np.int64), outcome


def fixed_n_power(differences: npt.NDArray[np.float64], n: int) -> float:
    """Share of comparisons the fixed-n McNemar mid-p test (α 0.05) calls a regression
    beyond ε on the first n cases."""
    head = differences[:, :n]
    worse, better = (head < 0).sum(axis=1), (head > 0).sum(axis=1)
    hits = 0
    for w, b in zip(worse.tolist(), better.tolist(), strict=True):
        result = mcnemar_from_counts(b, w, n)
        hits += int(result.p_value < ALPHA and (b - w) / n < -EPSILON)
    return hits / int(differences.shape[0])


def part_a(rng: np.random.Generator, comparisons: int = COMPARISONS) -> float:
    started = time.perf_counter()
    used, outcome = stops(null_differences(rng, comparisons), LOOK_EVERY)
    wrong = np.isin(outcome, ["REGRESSED", "IMPROVED"])
    rate = float(wrong.mean())
    se = math.sqrt(rate * (1 - rate) / comparisons)
    emit(
        f"(a) null: wrong decisions {wrong.sum()} of {comparisons} = {rate:.4f} "
        f"(MC SE {se:.4f}; target ≤ 0.05); NO_CHANGE {np.mean(outcome == 'NO_CHANGE'):.3f}, "
        f"ran to the end {np.mean(outcome == 'RAN_TO_END'):.3f}, median cases used "
        f"{int(np.median(used))} ({time.perf_counter() - started:.1f} s)"
    )
    return rate


def part_b(rng: np.random.Generator, comparisons: int = COMPARISONS) -> float:
    started = time.perf_counter()
    differences = regression_differences(rng, comparisons)
    emit(f"(b) regression: mean Δ {differences.mean() * 100:.2f} points")
    median = 0.0
    for look_every in (LOOK_EVERY, 1):
        used, outcome = stops(differences, look_every)
        fraction = float(np.median(used / CASES))
        median = fraction if look_every == LOOK_EVERY else median
        emit(
            f"    lookEveryCases {look_every}: median fraction used {fraction:.4f} "
            f"(p90 {np.quantile(used / CASES, 0.9):.4f}; target ≤ 0.12); REGRESSED "
            f"{np.mean(outcome == 'REGRESSED'):.4f}, other decisions "
            f"{np.mean(np.isin(outcome, ['IMPROVED', 'NO_CHANGE'])):.4f}"
        )
    for n in (100, 150, 200, CASES):
        emit(
            f"    fixed-n power (McNemar mid-p, α 0.05) at n = {n}: "
            f"{fixed_n_power(differences[:500], n):.3f}"
        )
    emit(f"    ({time.perf_counter() - started:.1f} s)")
    return median


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--skip-service", action="store_true")
    parser.add_argument(
        "--more-orders", type=int, default=4, help="(c) again with these many other case orders"
    )
    parser.add_argument(
        "--smoke", action="store_true", help="A few seconds at toy sizes (40 comparisons, one "
        "case order), only to show the benchmark still runs: its figures measure nothing."
    )  # fmt: skip
    args = parser.parse_args()
    comparisons = SMOKE_COMPARISONS if args.smoke else COMPARISONS
    if args.smoke:
        args.more_orders = 0
    rng = np.random.default_rng(20261201)
    result: dict[str, float | str | bool | None] = {
        "null_error_rate": part_a(rng, comparisons),
        "median_fraction_used": part_b(rng, comparisons),
        "service_calls_fraction": None,
        "smoke": args.smoke,
    }
    if not args.skip_service:
        from bench.sequential_service import run_service_comparison

        fraction, verdict = asyncio.run(run_service_comparison(1))
        emit(f"(c) service: calls used ÷ planned {fraction:.4f} (target ≤ 0.20): {verdict}")
        result["service_calls_fraction"] = fraction
        for seed in range(2, 2 + args.more_orders):  # the spread over case orders
            more, detail = asyncio.run(run_service_comparison(seed))
            emit(f"    case order seed {seed}: {more:.4f}: {detail.split('; Chip')[0]}")
    emit(json.dumps(result))


if __name__ == "__main__":
    main()
