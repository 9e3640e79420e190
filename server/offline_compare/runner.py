"""One baseline against N treatments: match, judge (when a judge is given), summarize, gate."""

from __future__ import annotations

from collections.abc import Sequence

from server.judges.pair import DEFAULT_CONCURRENCY, PairJudge
from server.offline_compare.judge_input import pair_input
from server.offline_compare.pairing import match
from server.offline_compare.results import Run
from server.offline_compare.summary import COMPLETE, NO_SIGNAL, PARTIAL, Summary, summarize


async def compare_runs(
    *,
    baseline: Run,
    treatments: Sequence[Run],
    judge: PairJudge | None = None,
    concurrency: int = DEFAULT_CONCURRENCY,
) -> list[Summary]:
    """A summary per treatment, in order; treatments are judged one after another."""
    summaries = []
    for treatment in treatments:
        matching = match(baseline, treatment)
        judgments = None
        if judge is not None:
            inputs = [pair_input(p) for p in matching.pairs]
            judgments = await judge.judge_all(inputs, concurrency=concurrency)
        summaries.append(
            summarize(
                baseline=baseline.name,
                treatment=treatment.name,
                matching=matching,
                judgments=judgments,
                judge_model=None if judge is None else judge.model,
            )
        )
    return summaries


def gate(summaries: Sequence[Summary], *, fail_on_regression: bool) -> tuple[int, list[str]]:
    """Exit code (seed 004) and why it is 1: no signal or partial always; regressions on request.

    Without a judge, `--fail-on-regression` gates on the grade test, so runs without grades
    cannot pass that gate.
    """
    reasons = []
    for summary in summaries:
        name = f'treatment "{summary.treatment}"'
        if summary.status == NO_SIGNAL:
            reasons.append(f"{name}: no statistics (nothing could be compared or judged)")
        elif summary.status == PARTIAL:
            reasons.append(
                f"{name}: judged {summary.judged_pairs} of {summary.matched_pairs} matched pairs"
            )
        elif fail_on_regression and summary.regression:
            reasons.append(f"{name}: significant regression")
        elif (
            fail_on_regression
            and summary.judgments is None
            and summary.mcnemar is None
            and summary.status == COMPLETE
        ):
            reasons.append(f"{name}: no grades to gate on (--fail-on-regression needs `passed`)")
    return (1 if reasons else 0), reasons
