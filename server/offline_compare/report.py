"""What `shipwise compare` prints for a treatment, and its `--output` record (seed 004)."""

from __future__ import annotations

from collections import Counter
from typing import Any, Final

import stats
from server.judges.pair import PairJudgment
from server.offline_compare.pairing import Pair
from server.offline_compare.summary import COMPLETE, NO_SIGNAL, PARTIAL, Summary
from server.runs import pass_flips
from stats.movement import Movement

MAX_LISTED_FAILURES: Final = 10


def render(summary: Summary, *, verbose: bool = False) -> list[str]:
    """The lines printed for one treatment."""
    lines = [_heading(summary)]
    lines.extend(_unmatched(summary))
    if summary.status == NO_SIGNAL:
        lines.append(_no_signal(summary))
        lines.extend(_failures(summary, verbose))
        return lines
    if summary.status == PARTIAL:
        judged, matched = summary.judged_pairs, summary.matched_pairs
        lines += [
            f"⚠ Judged {judged} of {matched} matched pairs — {matched - judged} failed "
            "during judging.",
            "    All statistics below — score, CI, grader pass/fail, and metric deltas —",
            f"    cover only the {judged} judged pairs.",
        ]
    if summary.pairwise is not None:
        lines.extend(_pairwise_lines(summary.pairwise))
    lines.append(_mcnemar_line(summary.mcnemar))
    lines.append(_movement_line(summary))
    lines.extend(_metric_lines(summary.metric_deltas))
    lines.append(_verdict(summary))
    lines.extend(_failures(summary, verbose))
    if verbose:
        lines.extend(_pair_lines(summary))
    return lines


def record(summary: Summary) -> dict[str, Any]:
    """One `--output` JSONL record: the statistics and every pair, failures with diagnostics."""
    matching = summary.matching
    judged = summary.judgments is not None
    result: dict[str, Any] = {
        "baseline": summary.baseline,
        "treatment": summary.treatment,
        "status": summary.status,
        "pairedBy": matching.by,
        "items": matching.items,
        "baselineOnlyItems": matching.baseline_only_items,
        "treatmentOnlyItems": matching.treatment_only_items,
        "unmatchedTrials": matching.unmatched_trials,
        "matchedPairs": summary.matched_pairs,
        "judgedPairs": summary.judged_pairs if judged else None,
        "failedPairs": summary.matched_pairs - summary.judged_pairs if judged else None,
        "judgeModel": summary.judge_model,
        "pairwise": None if summary.pairwise is None else _pairwise_json(summary.pairwise),
        "mcnemar": None if summary.mcnemar is None else _mcnemar_json(summary.mcnemar),
        "metricDeltas": [_delta_json(name, d) for name, d in summary.metric_deltas],
        "regression": summary.regression,
        "itemsByMovement": dict(Counter(m.value for _, m in summary.movements)),
        "cases": [{"item": key, "movement": m.value} for key, m in summary.movements],
    }
    judgments = summary.judgments or (None,) * len(matching.pairs)
    result["pairs"] = [
        _pair_json(pair, judgment) for pair, judgment in zip(matching.pairs, judgments, strict=True)
    ]
    return result


def _movement_line(summary: Summary) -> str:
    """E.g. "  Items: 3 regressed · 2 improved · 14 no change · 1 no verdict"."""
    counts = Counter(m for _, m in summary.movements)
    words = " · ".join(f"{counts[m]} {m.value.lower().replace('_', ' ')}" for m in Movement)
    return f"  Items: {words} (pass fraction per item)"


def _heading(summary: Summary) -> str:
    matching = summary.matching
    judge = f"; judge {summary.judge_model}" if summary.judge_model else "; no judge"
    return (
        f'treatment "{summary.treatment}" vs baseline "{summary.baseline}": '
        f"{summary.matched_pairs} matched pairs in {matching.items} items "
        f"(paired by {matching.by}){judge}"
    )


def _unmatched(summary: Summary) -> list[str]:
    matching = summary.matching
    parts = []
    if matching.baseline_only_items:
        parts.append(f"{matching.baseline_only_items} items only in the baseline")
    if matching.treatment_only_items:
        parts.append(f"{matching.treatment_only_items} items only in the treatment")
    if matching.unmatched_trials:
        parts.append(f"{matching.unmatched_trials} trials without a counterpart")
    return [f"  not compared: {', '.join(parts)}"] if parts else []


def _no_signal(summary: Summary) -> str:
    if summary.matched_pairs == 0:
        return "No statistics available — no matched pairs"
    return "No statistics available — every matched pair failed"


def _pairwise_lines(result: stats.PairwiseResult) -> list[str]:
    return [
        f"  Win rate            {_percent(result.win_rate)} wins · {_percent(result.tie_rate)} "
        f"ties · {_percent(result.loss_rate)} losses ({result.wins} / {result.ties} / "
        f"{result.losses} of {result.judged_pairs} judged pairs)",
        f"  Mean score          {result.mean_score:+.3f}  95% CI [{result.low:+.3f}, "
        f"{result.high:+.3f}]  sign-flip p = {_p(result.p_value)}  ({result.n_cases} cases)",
        f"  Order disagreement  {_percent(result.disagreement_rate)} of judged pairs",
    ]


def _mcnemar_line(result: stats.McNemarResult | None) -> str:
    if result is None:
        return "  McNemar             not available: the runs carry no grades (`passed`)"
    return (
        f"  McNemar             {result.improved} improved · {result.regressed} regressed of "
        f"{result.n} cases  mid-p = {_p(result.p_value)} (exact {_p(result.exact_p_value)})\n"
        f"  {pass_flips.line(result.regressed, result.improved)}"
    )


def _metric_lines(deltas: tuple[tuple[str, stats.MetricDelta], ...]) -> list[str]:
    if not deltas:
        return ["  Metric deltas       none (no metric on both sides)"]
    lines = ["  Metric deltas (treatment − baseline, per-case means)"]
    for name, delta in deltas:
        flag = "  high variance" if delta.high_variance else ""
        lines.append(
            f"    {name:<10} {delta.delta:+.4g}  95% CI [{delta.low:+.4g}, {delta.high:+.4g}]  "
            f"p = {_p(delta.p_value)}  (baseline {delta.baseline_mean:.4g}, n = {delta.n}){flag}"
        )
    return lines


def _verdict(summary: Summary) -> str:
    if summary.judgments is None:
        result = summary.mcnemar
        if result is None:
            return "  Grade test: none (no grades)"
        if summary.regression:
            return "  Grade test: significant regression (McNemar mid-p < 0.05)"
        if result.p_value < 0.05 and result.delta > 0:
            return "  Grade test: significant improvement (McNemar mid-p < 0.05)"
        return "  Grade test: no significant difference"
    if summary.status == PARTIAL:
        return "  Verdict: none — judging was partial"
    pairwise = summary.pairwise
    if summary.regression:
        return "  Verdict: significant regression (mean score < 0, its 95% CI below 0)"
    if pairwise is not None and pairwise.mean_score > 0 and pairwise.low > 0:
        return "  Verdict: significant improvement (mean score > 0, its 95% CI above 0)"
    return "  Verdict: no significant difference"


def _failures(summary: Summary, verbose: bool) -> list[str]:
    if summary.judgments is None or summary.status == COMPLETE:
        return []
    failed = [
        (pair, j.failure)
        for pair, j in zip(summary.matching.pairs, summary.judgments, strict=True)
        if j.failure is not None
    ]
    if not failed:
        return []
    classes = Counter(failure.error_class for _, failure in failed)
    lines = ["  Failed pairs: " + ", ".join(f"{n} {c}" for c, n in sorted(classes.items()))]
    shown = failed if verbose else failed[:MAX_LISTED_FAILURES]
    for pair, failure in shown:
        retry = "retryable" if failure.retryable else "terminal"
        attempts = f"{failure.attempts} attempt{'s' if failure.attempts != 1 else ''}"
        lines.append(
            f"    {_label(pair)}: {failure.error_class} ({retry}, {attempts}): {failure.message}"
        )
        lines.extend(f"      other direction: {message}" for message in failure.other_messages)
    if len(shown) < len(failed):
        lines.append(f"    … and {len(failed) - len(shown)} more (--verbose lists them all)")
    return lines


def _pair_lines(summary: Summary) -> list[str]:
    lines = ["  Pairs:"]
    judgments = summary.judgments or (None,) * summary.matched_pairs
    for pair, judgment in zip(summary.matching.pairs, judgments, strict=True):
        grades = f"grade {_grade(pair.baseline.passed)} → {_grade(pair.treatment.passed)}"
        if judgment is None:
            lines.append(f"    {_label(pair)}: {grades}")
        elif judgment.failure is None:
            forward, reverse = judgment.forward or 0.0, judgment.reverse or 0.0
            score, _ = stats.combine_orders([forward], [reverse])
            lines.append(
                f"    {_label(pair)}: {float(score[0]):+.1f} (orders {forward:+.1f} / "
                f"{reverse:+.1f}); {grades}"
            )
        else:
            lines.append(f"    {_label(pair)}: not judged; {grades}")
    return lines


def _pair_json(pair: Pair, judgment: PairJudgment | None) -> dict[str, Any]:
    entry: dict[str, Any] = {"trialIndex": pair.trial_index}
    if pair.dataset_item_id is not None:
        entry["datasetItemId"] = pair.dataset_item_id
    entry["position"] = pair.position
    entry["baselinePassed"] = pair.baseline.passed
    entry["treatmentPassed"] = pair.treatment.passed
    if judgment is None:
        return entry
    entry["errored"] = judgment.failure is not None
    if judgment.failure is not None:
        entry["failure"] = judgment.failure.as_json()
        return entry
    forward, reverse = judgment.forward or 0.0, judgment.reverse or 0.0
    score, disagreed = stats.combine_orders([forward], [reverse])
    entry["score"] = float(score[0])
    entry["forward"] = judgment.forward
    entry["reverse"] = judgment.reverse
    entry["orderDisagreement"] = bool(disagreed[0])
    return entry


def _pairwise_json(result: stats.PairwiseResult) -> dict[str, Any]:
    return {
        "winRate": result.win_rate,
        "tieRate": result.tie_rate,
        "lossRate": result.loss_rate,
        "wins": result.wins,
        "ties": result.ties,
        "losses": result.losses,
        "meanScore": result.mean_score,
        "low": result.low,
        "high": result.high,
        "pValue": result.p_value,
        "orderDisagreementRate": result.disagreement_rate,
        "judgedPairs": result.judged_pairs,
        "totalPairs": result.matched_pairs,
        "cases": result.n_cases,
        "intervalMethod": result.interval_method,
        "pMethod": result.p_method,
        "regression": result.regression,
    }


def _mcnemar_json(result: stats.McNemarResult) -> dict[str, Any]:
    return {
        "n": result.n,
        "improved": result.improved,
        "regressed": result.regressed,
        "delta": result.delta,
        "pValue": result.p_value,
        "exactPValue": result.exact_p_value,
    }


def _delta_json(name: str, delta: stats.MetricDelta) -> dict[str, Any]:
    return {
        "name": name,
        "baselineMean": delta.baseline_mean,
        "treatmentMean": delta.candidate_mean,
        "delta": delta.delta,
        "low": delta.low,
        "high": delta.high,
        "pValue": delta.p_value,
        "highVariance": delta.high_variance,
        "n": delta.n,
    }


def _label(pair: Pair) -> str:
    item = pair.dataset_item_id if pair.dataset_item_id is not None else f"#{pair.position}"
    return f"item {item} trial {pair.trial_index}"


def _grade(passed: bool | None) -> str:
    return "-" if passed is None else "pass" if passed else "fail"


def _percent(rate: float) -> str:
    return f"{100.0 * rate:.1f}%"


def _p(value: float) -> str:
    return f"{value:.4f}" if value >= 1e-4 else f"{value:.2e}"
