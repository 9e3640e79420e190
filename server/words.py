"""Enum values and metric names in words, for the pages the server renders (the report and
the run diff) and the CLI: "Cluster-robust interval (CR1)", not `CLUSTERED_CR1`; "Cost per
case", not `cost_per_case_cents`. The portal's words for the same names are in
web/src/pages/comparison/metrics.ts (a test checks the metric names agree).
"""

from __future__ import annotations

from typing import Final

from server.money import dollars

WORDS: Final = {
    # Intervals and tests (stats.reasons).
    "WILSON": "Wilson score interval",
    "WILSON_EFFECTIVE_N": "Wilson interval on the effective number of cases",
    "CLUSTERED_CR1": "Cluster-robust interval over cases (CR1)",
    "T_INTERVAL": "t interval",
    "Z_TEST": "z-test",
    "MCNEMAR_MID_P": "McNemar mid-p",
    "SIGN_FLIP_PERMUTATION": "Sign-flip permutation test",
    "EXACT_ENUMERATION": "exact enumeration",
    "EXACT_CONVOLUTION": "exact convolution",
    "MONTE_CARLO": "Monte Carlo",
    "PAIRED_T": "paired t-test",
    "NONE": "none",
    # Follow-ups, sign-off decisions and verdicts.
    "OPEN": "Open",
    "RESOLVED": "Resolved",
    "APPROVE": "Approve",
    "HOLD": "Hold",
    "REQUEST_CHANGES": "Request changes",
    "PROMOTE": "Promote",
    "INCONCLUSIVE": "Inconclusive",
    # Run diff statuses and tabs.
    "ALL": "All",
    "REGRESSED": "Regressed",
    "IMPROVED": "Improved",
    "NO_CHANGE": "No change",
    "NO_VERDICT": "No verdict",
    "CHANGED": "Changed",
    "ADDED": "Added",
    "REMOVED": "Removed",
    # How a run diff pairs items.
    "DATASET_ITEM_ID": "datasetItemId",
    "POSITION": "position",
}

METRIC_NAMES: Final = {
    "pass_rate": "Pass rate",
    "cost_per_case_cents": "Cost per case",
    "latency_p50_ms": "Latency p50",
    "latency_p95_ms": "Latency p95",
    "output_tokens_mean": "Output tokens (mean)",
    "failed_or_missing_rate": "Failed or missing",
}


STATUS_WORDS: Final = {
    "SETUP": "Setup",
    "RUNNING": "Running",
    "DONE": "Done",
    "FAILED": "Failed",
    "CANCELLED": "Cancelled",
}
STOPPED_WORDS: Final = {
    "BUDGET_CAP": "Stopped at the budget cap",
    "CONNECTION_CAP": "Stopped at a connection's monthly cap",
    "DAILY_BUDGET": "Stopped at the experiment's daily budget",
    "DECIDED_EARLY": "Decided early",
}


def comparison_status(status: str, stop_reason: str | None = None) -> str:
    """A comparison's status as the portal's `statusWord` says it ("Done", "Stopped at the budget
    cap"; both checked against web/src/lib/status.examples.json)."""
    if status == "DONE" and stop_reason in STOPPED_WORDS:
        return STOPPED_WORDS[stop_reason]
    return STATUS_WORDS.get(status) or words(status)


CRITERION_METRICS: Final = {
    "PASS_RATE": "pass rate",
    "COST_PER_CASE": "cost per case",
    "LATENCY_P50": "p50 latency",
    "LATENCY_P95": "p95 latency",
    "OUTPUT_TOKENS": "output tokens",
    "FAILED_OR_MISSING": "failed-or-missing trials",
}


def criterion_name(kind: str, metric: str) -> str:
    """What a ship-decision criterion tests, as the portal's `criterionName` names it, in a line's
    middle: "quality (pass rate)", "guardrail (p95 latency)", "gain (cost per case)"."""
    return f"{words(kind).lower()} ({CRITERION_METRICS.get(metric) or words(metric).lower()})"


def criterion_title(kind: str, metric: str) -> str:
    """What a criterion tests, as the portal's `criterionName` heads it: "Quality (pass rate)",
    "Guardrail: p95 latency", "Gain: cost per case"."""
    if kind == "QUALITY":
        return "Quality (pass rate)"
    name = CRITERION_METRICS.get(metric) or words(metric).lower()
    return f"{'Gain' if kind == 'GAIN' else 'Guardrail'}: {name}"


def words(value: object) -> str:
    """An enum value in words; one not listed reads as a sentence ("NO_DISCORDANT_PAIRS" →
    "No discordant pairs")."""
    text = str(getattr(value, "value", value))
    return WORDS.get(text) or text.replace("_", " ").capitalize()


def metric_name(name: str) -> str:
    """ "Pass rate", "Pass rate (CONTAINS)", "Judge score (<rubric version>)"."""
    known = METRIC_NAMES.get(name)
    if known:
        return known
    head, _, rest = name.partition(".")
    if head == "pass_rate":
        return f"Pass rate ({rest})"
    if head == "judge_score":
        return f"Judge score ({rest})"
    return name


def metric_value(name: str, value: float | None) -> str:
    """A metric's value in its row's unit, as the portal's `metricValue` shows it."""
    if value is None:
        return "—"
    if name.startswith("pass_rate") or name == "failed_or_missing_rate":
        return f"{value * 100:.1f}%"
    if name == "cost_per_case_cents":
        return dollars(value)
    if name.endswith("_ms"):
        return f"{round(value):,} ms"
    if name.startswith("judge_score"):
        return f"{value:.2f}"
    return f"{value:.1f}"
