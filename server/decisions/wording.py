"""The sentences a ship decision is read by (docs/decision.md; docs/decision.md): one per criterion
and one for the decision, e.g. "Ship capitals v2: at most 2 points worse than capitals v1
(Δ −0.4 points, 90% interval −1.6 to +0.9); 41% cheaper per case than capitals v1 (90%
interval −44% to −38%); p95 latency within +20% of capitals v1 (+3%)."

Criteria are the stored camelCase documents (`server.decisions.document`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

MIN_CASES: Final = 20
OUTCOME_WORDS: Final = {
    "SHIP": "Ship",
    "DONT_SHIP": "Don't ship",
    "MORE_DATA": "More data needed",
    "NO_DECISION": "No decision",
}
_RATIO_NAMES: Final = {
    "COST_PER_CASE": ("cost per case", "cheaper per case", "dearer per case"),
    "LATENCY_P50": ("p50 latency", "faster at p50", "slower at p50"),
    "LATENCY_P95": ("p95 latency", "faster at p95", "slower at p95"),
    "OUTPUT_TOKENS": ("output tokens", "fewer output tokens", "more output tokens"),
}


def points(value: float | None) -> str:
    """Signed points with one decimal and a true minus sign: "−11.7", "+3.3", "0.0"."""
    number = round(float(value or 0.0), 1)
    if number == 0:
        return "0.0"
    return f"{number:+.1f}".replace("-", "−")


def number(value: float) -> str:
    """A threshold without a needless decimal: 2 → "2", 2.5 → "2.5"."""
    return f"{value:g}"


def percent_change(ratio: float | None) -> str:
    """A ratio as a signed change: 0.59 → "−41%", 1.03 → "+3%", 1 → "0%"."""
    if ratio is None:
        return "unbounded"
    change = round((ratio - 1.0) * 100)
    if change == 0:
        return "0%"
    return f"{change:+d}%".replace("-", "−")


def _interval(criterion: Mapping[str, Any], level: str, *, ratio: bool) -> str:
    low, high = criterion.get("low"), criterion.get("high")
    if ratio:
        return f"{level} interval {percent_change(low)} to {percent_change(high)}"
    return f"{level} interval {points(low)} to {points(high)}"


def criterion_sentence(criterion: Mapping[str, Any], *, baseline: str, level: str) -> str:
    """What one criterion found, against the baseline labelled `baseline`."""
    kind, metric = criterion["kind"], criterion["metric"]
    if kind == "QUALITY" or (kind == "GAIN" and metric == "PASS_RATE"):
        return _quality(criterion, baseline=baseline, level=level)
    if metric == "FAILED_OR_MISSING":
        return _failed_or_missing(criterion, baseline=baseline, level=level)
    return _ratio(criterion, baseline=baseline, level=level)


def _quality(criterion: Mapping[str, Any], *, baseline: str, level: str) -> str:
    status, reason = criterion["status"], criterion.get("reason")
    if reason == "NOT_MEASURED":
        return f"quality against {baseline} not measured (no usable cases)"
    figures = (
        f"Δ {points(criterion.get('estimate'))} points, "
        f"{_interval(criterion, level, ratio=False)}"
        + (", corrected with human labels" if criterion.get("corrected") else "")
    )
    if criterion["kind"] == "GAIN":
        said = {
            "MET": f"better than {baseline}",
            "VIOLATED": f"not better than {baseline}",
            "UNCERTAIN": f"not shown better than {baseline}",
        }[status]
    else:
        margin = number(-float(criterion["threshold"]))
        said = {
            "MET": f"at most {margin} points worse than {baseline}",
            "VIOLATED": f"more than {margin} points worse than {baseline}",
            "UNCERTAIN": f"not shown within {margin} points of {baseline}",
        }[status]
    if reason == "JUDGE_UNCALIBRATED":
        said += " (the judge is not yet calibrated against human labels)"
    return f"{said} ({figures})"


def _failed_or_missing(criterion: Mapping[str, Any], *, baseline: str, level: str) -> str:
    allowed = number(float(criterion["threshold"]))
    figures = (
        f"{points(criterion.get('estimate'))} points, {_interval(criterion, level, ratio=False)}"
    )
    said = {
        "MET": f"failed-or-missing trials within +{allowed} points of {baseline}",
        "VIOLATED": f"failed-or-missing trials more than {allowed} points above {baseline}",
        "UNCERTAIN": f"failed-or-missing trials not shown within +{allowed} points of {baseline}",
    }[criterion["status"]]
    return f"{said} ({figures})"


def _ratio(criterion: Mapping[str, Any], *, baseline: str, level: str) -> str:
    name, less, more = _RATIO_NAMES[criterion["metric"]]
    status, reason = criterion["status"], criterion.get("reason")
    if reason == "NOT_MEASURED":
        return f"{name} against {baseline} not measured"
    if reason == "ZERO_BASELINE":
        tail = "and the candidate's too" if status == "MET" else "and the candidate's is not"
        if criterion["kind"] == "GAIN":
            return f"{name} of {baseline} is 0: nothing is {less.split(' ')[0]}"
        return f"{name} of {baseline} is 0, {tail}"
    estimate = float(criterion["estimate"])
    interval = _interval(criterion, level, ratio=True)
    if criterion["kind"] == "GAIN":
        change = round(abs(estimate - 1.0) * 100)
        moved = f"{change}% {less if estimate < 1 else more}"
        if status == "MET":
            return f"{moved} than {baseline} ({interval})"
        said = "not" if status == "VIOLATED" else "not shown"
        return f"{said} {less} than {baseline} ({moved}, {interval})"
    allowed = f"+{number(round((float(criterion['threshold']) - 1.0) * 100, 6))}%"
    shift = percent_change(estimate)
    if status == "MET":
        return f"{name} within {allowed} of {baseline} ({shift})"
    if status == "VIOLATED":
        return f"{name} over the {allowed} allowed against {baseline} ({shift}, {interval})"
    return f"{name} not shown within {allowed} of {baseline} ({shift}, {interval})"


def decision_sentence(
    decision: Mapping[str, Any],
    *,
    candidate: str,
    level: str,
    labels: Mapping[int, str],
) -> str:
    """The decision in one sentence, naming the criteria that decided it."""
    outcome, reason = decision["outcome"], decision.get("reason")
    criteria: Sequence[Mapping[str, Any]] = decision.get("criteria", [])
    if outcome == "NO_DECISION":
        if reason == "INSUFFICIENT_CASES":
            return (
                f"No decision for {candidate}: a decision needs at least {MIN_CASES} usable "
                f"cases, and this run has {decision.get('usableCases', 0)}."
            )
        if reason == "NO_BASELINE":
            return f"No decision for {candidate}: there is no baseline to compare with."
        return f"No decision for {candidate}: the run did not reach its end."
    shown = {
        "SHIP": criteria,
        "DONT_SHIP": [c for c in criteria if c["status"] == "VIOLATED"],
        "MORE_DATA": [c for c in criteria if c["status"] == "UNCERTAIN"],
    }[outcome]
    clauses = "; ".join(
        criterion_sentence(c, baseline=labels.get(int(c["baselineCohortIndex"]), "?"), level=level)
        for c in shown
    )
    head = {
        "SHIP": f"Ship {candidate}",
        "DONT_SHIP": f"Don't ship {candidate}",
        "MORE_DATA": f"More data needed before shipping {candidate}",
    }[outcome]
    text = f"{head}: {clauses}."
    if outcome == "MORE_DATA":
        needed = decision.get("casesNeeded")
        if needed is not None:
            text += f" About {int(needed):,} usable cases would decide it if the difference holds."
        elif reason == "UNLIKELY_TO_PASS":
            text += _past_the_margin(criteria, candidate=candidate, labels=labels)
        elif reason == "JUDGE_UNCALIBRATED":
            text += " Label trials so the judge can be calibrated."
    return text


def _past_the_margin(
    criteria: Sequence[Mapping[str, Any]], *, candidate: str, labels: Mapping[int, str]
) -> str:
    """What more cases would most likely do when the quality estimate is already at or past the
    margin but its interval still reaches back across it (reason `UNLIKELY_TO_PASS`): the
    decision stays "More data needed", and the words say which way the evidence leans."""
    beyond = [
        c
        for c in criteria
        if c["kind"] == "QUALITY"
        and c["status"] == "UNCERTAIN"
        and c.get("estimate") is not None
        and float(c["estimate"]) <= float(c["threshold"])
    ]
    if not beyond:
        return " More cases would most likely show it worse than the margin allows."
    worst = min(beyond, key=lambda c: float(c["estimate"]))
    margin = number(-float(worst["threshold"]))
    baseline = labels.get(int(worst["baselineCohortIndex"]), "?")
    if points(worst["estimate"]) == points(worst["threshold"]):
        return (
            f" The estimate sits on the {margin}-point margin: more cases are as likely to show "
            f"{candidate} more than {margin} points worse than {baseline} as within it."
        )
    return (
        f" The estimate is already past the {margin}-point margin: more cases would most likely "
        f"show {candidate} more than {margin} points worse than {baseline}, and the decision "
        "would then be Don't ship."
    )


def policy_sentence(policy: Mapping[str, Any]) -> str:
    """The registered policy in words, e.g. "Ship when at most 2 points worse than every
    baseline, failed-or-missing trials within +5 points; each criterion at α 0.05 (90%
    intervals); no gain required." """
    margin = number(float(policy["qualityMarginPoints"]))
    alpha = float(policy["alpha"])
    parts = [f"at most {margin} points worse than every baseline"]
    for guardrail in policy.get("guardrails", []):
        metric = guardrail["metric"]
        if metric == "FAILED_OR_MISSING":
            parts.append(
                f"failed-or-missing trials within +{number(guardrail['maxIncreasePoints'])} points"
            )
        else:
            name = _RATIO_NAMES[metric][0]
            parts.append(f"{name} within +{number(guardrail['maxIncreasePercent'])}%")
    gain = {
        "NONE": "no gain required",
        "QUALITY": "a quality gain required",
        "COST": "a cost gain required",
        "LATENCY": "a p50 latency gain required",
    }.get(str(policy.get("requireGain", "NONE")), "no gain required")
    return (
        f"Ship when {', '.join(parts)}; each criterion at α {alpha:g} "
        f"({level_of(alpha)} intervals); {gain}."
    )


def level_of(alpha: float) -> str:
    """The two-sided level the criteria read their intervals at: α 0.05 → "90%"."""
    return f"{(1.0 - 2.0 * alpha) * 100:g}%"
