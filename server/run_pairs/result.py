"""A pairwise result as stored and shown (`PairwiseJob.result`, `verdicts.pairwise`).

Every statistic covers the judged pairs only; with none judged they are null, never a
fabricated 0%. Failed pairs keep their diagnostics (seed 004); a pair that recovered on a
retry leaves no trace.
"""

from __future__ import annotations

from typing import Any

from server.offline_compare.pairing import Pair
from server.offline_compare.summary import NO_SIGNAL, PARTIAL, Summary

STAT_FIELDS = (
    "winRate",
    "tieRate",
    "lossRate",
    "meanScore",
    "low",
    "high",
    "pValue",
    "orderDisagreementRate",
)


def note(judged: int, total: int) -> str:
    """The banner: how many matched pairs the statistics cover."""
    if total == 0:
        return "No statistics available — no matched pairs"
    if judged == 0:
        return "No statistics available — every matched pair failed"
    return f"Judged {judged} of {total} matched pairs"


def result_json(summary: Summary, *, simulated: bool = False) -> dict[str, Any]:
    """The stored result of one candidate against one baseline."""
    pairwise = summary.pairwise
    stats_json: dict[str, Any] = dict.fromkeys(STAT_FIELDS)
    if pairwise is not None and summary.status != NO_SIGNAL:
        stats_json = {
            "winRate": pairwise.win_rate,
            "tieRate": pairwise.tie_rate,
            "lossRate": pairwise.loss_rate,
            "meanScore": pairwise.mean_score,
            "low": pairwise.low,
            "high": pairwise.high,
            "pValue": pairwise.p_value,
            "orderDisagreementRate": pairwise.disagreement_rate,
        }
    mcnemar = summary.mcnemar
    return {
        "status": summary.status,
        "partial": summary.status == PARTIAL,
        "note": note(summary.judged_pairs, summary.matched_pairs),
        **stats_json,
        "cases": None if pairwise is None else pairwise.n_cases,
        "judgedPairs": summary.judged_pairs,
        "totalPairs": summary.matched_pairs,
        "pairing": summary.matching.by,
        "judgeModel": summary.judge_model,
        "simulated": simulated,
        "failures": _failures(summary),
        "mcnemar": None
        if mcnemar is None
        else {
            "n": mcnemar.n,
            "improved": mcnemar.improved,
            "regressed": mcnemar.regressed,
            "pValue": mcnemar.p_value,
            "exactPValue": mcnemar.exact_p_value,
        },
        "metricDeltas": [
            {
                "name": name,
                "delta": delta.delta,
                "low": delta.low,
                "high": delta.high,
                "highVariance": delta.high_variance,
                "baselineMean": delta.baseline_mean,
                "candidateMean": delta.candidate_mean,
                "n": delta.n,
            }
            for name, delta in summary.metric_deltas
        ],
        "regression": summary.regression,
    }


def _failures(summary: Summary) -> list[dict[str, Any]]:
    if summary.judgments is None:
        return []
    return [
        {**_where(pair), **judgment.failure.as_json()}
        for pair, judgment in zip(summary.matching.pairs, summary.judgments, strict=True)
        if judgment.failure is not None
    ]


def _where(pair: Pair) -> dict[str, Any]:
    return {
        "datasetItemId": pair.dataset_item_id,
        "position": pair.position,
        "trialIndex": pair.trial_index,
    }
