"""The scorecard of docs/graphql.md from the count matrices; every number comes from `stats/`.

Runs in an executor (CPU-bound). The document is camelCase, as GraphQL shows it; rates
are in rate units (0.01 = 1 point) except the verdicts' `*Points` and `mde`, in points.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from typing import Any, Final

import numpy as np
import numpy.typing as npt

import stats
from server.verdicts import sequential
from server.verdicts.inputs import FinalizeInput
from server.verdicts.tensors import Tensors
from stats import reasons

HIGHER: Final = "HIGHER_IS_BETTER"
LOWER: Final = "LOWER_IS_BETTER"
MICROS_PER_CENT: Final = 10_000
DOCUMENT_VERSION: Final = 1


def seed_of(identifier: str) -> int:
    """The bootstrap and permutation seed of a comparison: reproducible from its id."""
    return int.from_bytes(hashlib.sha256(identifier.encode()).digest()[:4], "big")


def _num(value: float | None) -> float | None:
    """A JSON-safe number (stats never returns NaN; this only guards the document)."""
    if value is None or not math.isfinite(value):
        return None
    return float(value)


@dataclass(frozen=True, slots=True)
class Scored:
    document: dict[str, Any]
    classifications: tuple[str, ...]
    """Failure-analysis class of every case that ran, in `ran` order."""
    relations: npt.NDArray[np.int8]
    """Baselines × ran cases: −1 worse, +1 better, 0 same (vs that baseline)."""
    ran: npt.NDArray[np.bool_]


def _metric(
    name: str,
    direction: str,
    winners: stats.MetricWinners,
    values: list[float | None] | None = None,
) -> dict[str, Any]:
    shown = values if values is not None else list(winners.values)
    return {
        "name": name,
        "direction": direction,
        "values": [{"cohortIndex": i, "value": _num(v)} for i, v in enumerate(shown)],
        "winners": list(winners.winners),
    }


def _matrix(sums: npt.NDArray[np.float64], counts: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """Cases × cohorts per-case means (NaN where a cohort has nothing)."""
    return np.asarray(stats.case_means(sums, counts).T, dtype=np.float64)


def _metrics(
    data: FinalizeInput,
    t: Tensors,
    usable: npt.NDArray[np.bool_],
    trials: list[stats.CohortTrials],
    seed: int,
) -> tuple[list[dict[str, Any]], list[tuple[int, ...]]]:
    """Metric rows and the winners of the quality rows (the only rows that vote)."""
    rows: list[dict[str, Any]] = []
    quality: list[tuple[int, ...]] = []
    pass_rate = stats.pass_rate_winners(trials, seed=seed)
    rows.append(_metric("pass_rate", HIGHER, pass_rate))
    quality.append(pass_rate.winners)
    if len(data.checks) >= 2:
        for kind, counts in sorted(t.kind_passed.items()):
            per_kind = [
                stats.CohortTrials(counts[c][usable], t.completed[c][usable], t.scheduled)
                for c in range(t.cohorts)
            ]
            kind_winners = stats.pass_rate_winners(per_kind, seed=seed)
            rows.append(_metric(f"pass_rate.{kind}", HIGHER, kind_winners))
            quality.append(kind_winners.winners)
    for rubric in sorted(t.judge_sum):
        matrix = _matrix(t.judge_sum[rubric][:, usable], t.judge_count[rubric][:, usable])
        judged = stats.metric_winners(matrix, higher_is_better=True, seed=seed)
        rows.append(_metric(f"judge_score.{rubric}", HIGHER, judged))
        quality.append(judged.winners)
    completed = t.completed[:, usable]
    cost = _matrix(t.cost_micros[:, usable] / MICROS_PER_CENT, t.rows[:, usable])
    rows.append(
        _metric(
            "cost_per_case_cents",
            LOWER,
            stats.metric_winners(cost, higher_is_better=False, seed=seed),
        )
    )
    latency = stats.metric_winners(
        _matrix(t.latency_ms[:, usable], completed), higher_is_better=False, seed=seed
    )
    in_usable = usable[t.trial_case]
    for name, q in (("latency_p50_ms", 50.0), ("latency_p95_ms", 95.0)):
        values = [
            stats.percentile(t.trial_latency[in_usable & (t.trial_cohort == c)], q)
            for c in range(t.cohorts)
        ]
        rows.append(_metric(name, LOWER, latency, values))
    tokens = _matrix(t.output_tokens[:, usable], completed)
    rows.append(
        _metric(
            "output_tokens_mean",
            LOWER,
            stats.metric_winners(tokens, higher_is_better=False, seed=seed),
        )
    )
    missing = _matrix((t.rows - t.completed)[:, usable].astype(np.float64), t.rows[:, usable])
    rows.append(
        _metric(
            "failed_or_missing_rate",
            LOWER,
            stats.metric_winners(missing, higher_is_better=False, seed=seed),
        )
    )
    return rows, quality


def _method(row: stats.SignificanceRow, verdict: stats.Verdict) -> str:
    if row.decides and verdict.comparison.test_detail == reasons.PAIRED_T:
        return reasons.PAIRED_T
    return row.method


def _verdicts(
    data: FinalizeInput, verdicts: tuple[stats.Verdict, ...]
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    significance: list[dict[str, Any]] = []
    rows: list[dict[str, Any]] = []
    for offset, verdict in enumerate(verdicts):
        baseline = offset + 1
        for row in verdict.significance:
            significance.append(
                {
                    "baselineCohortIndex": baseline,
                    "method": _method(row, verdict),
                    "pValue": _num(row.p_value),
                    "exactPValue": _num(row.exact_p_value),
                    "adjustedPValue": _num(row.adjusted_p_value),
                    "significant": row.significant,
                    "decides": row.decides,
                    "reason": row.reason,
                }
            )
        pair = verdict.comparison
        rows.append(
            {
                "baselineCohortIndex": baseline,
                "baselineLabel": data.cohorts[baseline].label,
                "outcome": verdict.outcome,
                "reason": verdict.reason,
                "n": verdict.n,
                "passRateDeltaPoints": _num(verdict.pass_rate_delta_points),
                "deltaLow": _num(verdict.delta_low_points),
                "deltaHigh": _num(verdict.delta_high_points),
                "intervalMethod": pair.interval_method,
                "outsideNoise": verdict.outside_noise,
                "mde": _num(verdict.mde_points),
                "worseCount": verdict.worse_count,
                "betterCount": verdict.better_count,
                "sameCount": verdict.same_count,
                "sensitivityDeltaPoints": _num(verdict.sensitivity_delta_points),
                "candidateMissingRate": _num(pair.candidate_missing_rate),
                "baselineMissingRate": _num(pair.baseline_missing_rate),
                "pairwise": None,
            }
        )
    return significance, rows


def score(data: FinalizeInput, t: Tensors) -> Scored:
    """Every field of the stored scorecard, over the usable cases (docs/statistics.md)."""
    seed = seed_of(data.comparison_id)
    ran = t.ran
    usable_all = t.usable
    run_trials = [
        stats.CohortTrials(t.passed[c][ran], t.completed[c][ran], t.scheduled)
        for c in range(t.cohorts)
    ]
    usable = usable_all[ran]
    usable_trials = [stats.subset(trials, usable) for trials in run_trials]
    epsilon = data.epsilon_points / 100.0
    target = data.target_effect_points / 100.0
    verdicts = stats.gate(
        run_trials[0],
        run_trials[1:],
        epsilon=epsilon,
        target_effect=target,
        seed=seed,
        cases=usable,
    )
    significance, verdict_rows = _verdicts(data, verdicts)
    metrics, quality = _metrics(data, t, usable_all, usable_trials, seed)
    overall = stats.overall_winner(quality, t.cohorts)
    analysis = stats.failure_analysis(run_trials[0], run_trials[1:])
    confidence = []
    trial_rows = []
    for c in range(t.cohorts):
        conf = stats.cohort_confidence(usable_trials[c], target_effect=target)
        confidence.append(
            {
                "cohortIndex": c,
                "passRate": _num(conf.pass_rate),
                "low": _num(conf.low),
                "high": _num(conf.high),
                "n": conf.n,
                "adequacy": conf.adequacy,
                "mde": _num(conf.mde),
                "intervalMethod": conf.interval_method,
            }
        )
        summary = stats.trial_summary(usable_trials[c])
        trial_rows.append(
            {
                "cohortIndex": c,
                "k": summary.k,
                "passHatK": _num(summary.pass_hat_k),
                "passAtK": _num(summary.pass_at_k),
                "flips": summary.flips,
                "failedOrMissingTrials": run_trials[c].failed_or_missing,
                "n": summary.n,
            }
        )
    relations = (
        np.stack(
            [
                stats.relations(
                    usable_trials_for(run_trials[0], usable), usable_trials_for(b, usable)
                )
                for b in run_trials[1:]
            ]
        )
        if t.cohorts > 1
        else np.zeros((0, int(ran.sum())), dtype=np.int8)
    )
    document = {
        "version": DOCUMENT_VERSION,
        "usableCases": int(usable.sum()),
        "ranCases": int(ran.sum()),
        "casesNotRun": int(t.cases - ran.sum()),
        "trialsPerCase": t.scheduled,
        "epsilonPoints": data.epsilon_points,
        "targetEffectPoints": data.target_effect_points,
        "metrics": metrics,
        "overallWinner": {
            "cohortIndex": overall.cohort,
            "reason": overall.reason,
            "votes": list(overall.votes),
        },
        "significance": significance,
        "confidence": confidence,
        "trials": trial_rows,
        "failureAnalysis": {
            "improved": analysis.improved,
            "regressed": analysis.regressed,
            "bothWrong": analysis.both_wrong,
            "agree": analysis.agree,
            "incomplete": analysis.incomplete,
        },
        "verdicts": verdict_rows,
    }
    sequential.apply(document, data.sequential)  # a run decided early rests on its sequence
    return Scored(document, analysis.classifications, relations, ran)


def usable_trials_for(
    trials: stats.CohortTrials, usable: npt.NDArray[np.bool_]
) -> stats.CohortTrials:
    """The cohort's counts with the unusable cases' completed trials zeroed (same length), so
    `stats.relations` calls them *same* and keeps the ran-case order."""
    return stats.CohortTrials(
        np.where(usable, trials.passed, 0), np.where(usable, trials.completed, 0), trials.scheduled
    )
