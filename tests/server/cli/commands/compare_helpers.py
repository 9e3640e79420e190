"""Helpers for the `shipwise compare` tests: results files, the CLI, and expected statistics.

Expected values are computed here with numpy and scipy from the fake judge's rule and
docs/statistics.md, never with `stats/`.
"""

from __future__ import annotations

import itertools
import json
import socket
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
from scipy import stats as scipy_stats

from tests.server.cli.invoke import Done, shipwise_blocking

METRIC_NAMES = ("tokens", "turns", "toolCalls", "wallMs", "errors")


def shipwise_compare(*args: str, env: dict[str, str] | None = None) -> Done:
    """`shipwise compare …` as a user runs it."""
    return shipwise_blocking("compare", *args, env=env)


def trial(
    quality: int, passed: bool | None = None, *, note: str = "", **metrics: float
) -> dict[str, Any]:
    """A trial whose output the fake judge scores by `quality`."""
    entry: dict[str, Any] = {"output": f"answer quality={quality}{' ' + note if note else ''}"}
    if passed is not None:
        entry["passed"] = passed
    if metrics:
        entry["metrics"] = metrics
    return entry


def item(
    key: str | None, position: int, trials: list[dict[str, Any]], task: Any = None
) -> dict[str, Any]:
    entry: dict[str, Any] = {"position": position, "input": task or f"task {position}"}
    if key is not None:
        entry["datasetItemId"] = key
    entry["trials"] = trials
    return entry


def write_results(path: Path, items: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(i) + "\n" for i in items))
    return path


def read_records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


# -- expected statistics --------------------------------------------------------------------


def bucket_for_a(quality_a: int, quality_b: int, *, prefer_a: bool) -> float:
    """Response A's score under the fake judge's rule."""
    difference = quality_a - quality_b
    if difference == 0:
        return 0.4 if prefer_a else 0.0
    magnitude = 1.0 if abs(difference) >= 2 else 0.4
    return magnitude if difference > 0 else -magnitude


def orders(base_quality: int, treat_quality: int, *, prefer_a: bool) -> tuple[float, float]:
    """The treatment's score with the baseline as A (forward) and as B (reverse)."""
    forward = -bucket_for_a(base_quality, treat_quality, prefer_a=prefer_a)
    reverse = bucket_for_a(treat_quality, base_quality, prefer_a=prefer_a)
    return forward + 0.0, reverse


def combined(forward: float, reverse: float) -> float:
    """Both orders must name the same winner, else a tie; the smaller magnitude wins."""
    if np.sign(forward) != np.sign(reverse):
        return 0.0
    return float(np.sign(forward) * min(abs(forward), abs(reverse)))


def t_interval(
    values: np.ndarray, bounds: tuple[float, float] | None = None
) -> tuple[float, float]:
    mean = float(values.mean())
    if np.ptp(values) == 0:
        return mean, mean
    low, high = scipy_stats.t.interval(
        0.95, len(values) - 1, loc=mean, scale=scipy_stats.sem(values)
    )
    if bounds is not None:
        low, high = max(low, bounds[0]), min(high, bounds[1])
    return float(low), float(high)


def exact_sign_flip_p(values: list[Fraction]) -> float:
    """P(|Σ sᵢ|dᵢ|| ≥ |Σ dᵢ|) over all 2ⁿ sign patterns, in exact integers."""
    denominator = int(np.lcm.reduce([v.denominator for v in values]))
    steps = np.array([int(v * denominator) for v in values], dtype=np.int64)
    observed = abs(int(steps.sum()))
    if observed == 0:
        return 1.0
    signs = np.array(list(itertools.product((1, -1), repeat=len(steps))), dtype=np.int64)
    totals = np.abs(signs @ np.abs(steps))
    return float(np.mean(totals >= observed))


def mcnemar_mid_p(improved: int, regressed: int) -> tuple[float, float]:
    """(mid-p, exact conditional p) from the discordant counts."""
    discordant = improved + regressed
    if discordant == 0:
        return 1.0, 1.0
    k = min(improved, regressed)
    tail = scipy_stats.binom.cdf(k, discordant, 0.5)
    point = scipy_stats.binom.pmf(k, discordant, 0.5)
    return float(min(1.0, 2 * (tail - 0.5 * point))), float(min(1.0, 2 * tail))


def case_outcomes(pairs: list[tuple[str, bool, bool]]) -> dict[str, tuple[bool, bool]]:
    """(baseline, treatment) majority outcome per case from (case, base passed, treat passed)."""
    grouped: dict[str, list[tuple[bool, bool]]] = {}
    for case, base, treat in pairs:
        grouped.setdefault(case, []).append((base, treat))
    return {
        case: (
            sum(b for b, _ in rows) / len(rows) > 0.5,
            sum(t for _, t in rows) / len(rows) > 0.5,
        )
        for case, rows in grouped.items()
    }


def expected_metric(rows: list[tuple[str, float, float]], *, name: str) -> dict[str, Any]:
    """The metric delta record for (case, baseline value, treatment value) rows, < 20 cases."""
    cases: dict[str, list[tuple[float, float]]] = {}
    for case, base_value, treat_value in rows:
        cases.setdefault(case, []).append((base_value, treat_value))
    base = np.array([np.mean([b for b, _ in v]) for v in cases.values()])
    treat = np.array([np.mean([t for _, t in v]) for v in cases.values()])
    differences = treat - base
    low, high = t_interval(differences)
    fractions = [Fraction(float(d)).limit_denominator(1000) for d in differences]
    return {
        "name": name,
        "baselineMean": float(base.mean()),
        "treatmentMean": float(treat.mean()),
        "delta": float(differences.mean()),
        "low": low,
        "high": high,
        "pValue": exact_sign_flip_p(fractions),
        "highVariance": bool(differences.std(ddof=1) > abs(base.mean())),
        "n": len(differences),
    }
