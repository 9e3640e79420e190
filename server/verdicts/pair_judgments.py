"""A hosted comparison's pairwise result per baseline, at finalization (`verdicts.pairwise`).

The matched pairs of a baseline are its (case, trial) pairs whose two trials completed;
those the stage could not judge (a failure, or a run stopped before judging) count as
failed, so the statistics cover judged pairs only and say "Judged J of M".
"""

from __future__ import annotations

from typing import Any, Final

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from server.assets.models import AssetVersion
from server.comparisons.models import (
    FORWARD,
    Comparison,
    ComparisonCase,
    ComparisonPairJudgment,
    JudgmentState,
    Trial,
    TrialState,
)
from server.datasets.models import DatasetCase
from server.judges.pair import PairFailure, PairJudgment
from server.offline_compare.pairing import Matching, Pair
from server.offline_compare.results import Trial as PairTrial
from server.offline_compare.summary import summarize
from server.run_pairs.result import result_json

NOT_RUN: Final = "not_run"


async def add_pairwise(session: AsyncSession, comparison_id: str, document: dict[str, Any]) -> None:
    """Fill each baseline verdict's `pairwise` in `document` (a comparison with `pairwise`)."""
    comparison = await session.get(Comparison, comparison_id)
    if comparison is None or comparison.pairwise is None:
        return
    trials = await _trials(session, comparison_id)
    judged = await _judgments(session, comparison_id)
    item_ids = await _item_ids(session, comparison_id)
    model = await _model(session, comparison.pairwise["judgeModelConfigVersionId"])
    for verdict in document.get("verdicts", []):
        baseline = int(verdict["baselineCohortIndex"])
        pairs, judgments = [], []
        for (case, trial), sides in sorted(trials.items()):
            if 0 not in sides or baseline not in sides:
                continue
            pairs.append(
                Pair(
                    key=str(case),
                    dataset_item_id=item_ids.get(case),
                    position=case,
                    trial_index=trial,
                    case_input=None,
                    baseline=sides[baseline],
                    treatment=sides[0],
                )
            )
            judgments.append(judged.get((baseline, case, trial)) or _not_run(model))
        matching = Matching(tuple(pairs), "datasetItemId", len({p.key for p in pairs}), 0, 0, 0)
        summary = summarize(
            baseline=str(baseline),
            treatment="0",
            matching=matching,
            judgments=judgments,
            judge_model=model,
        )
        verdict["pairwise"] = result_json(summary)


def _not_run(model: str) -> PairJudgment:
    return PairJudgment(
        None,
        None,
        PairFailure(NOT_RUN, True, 0, "not judged: the run stopped before this pair", model),
    )


async def _trials(
    session: AsyncSession, comparison_id: str
) -> dict[tuple[int, int], dict[int, PairTrial]]:
    """(case, trial) → cohort → the completed trial, with the metrics the deltas compare."""
    found: dict[tuple[int, int], dict[int, PairTrial]] = {}
    rows = await session.execute(
        select(
            Trial.case_ordinal,
            Trial.trial_index,
            Trial.cohort_index,
            Trial.passed,
            Trial.input_tokens,
            Trial.output_tokens,
            Trial.latency_ms,
        ).where(Trial.comparison_id == comparison_id, Trial.state == TrialState.COMPLETED)
    )
    for case, trial, cohort, passed, tokens_in, tokens_out, latency in rows:
        metrics = {"tokens": float(tokens_in + tokens_out), "wallMs": float(latency)}
        found.setdefault((case, trial), {})[cohort] = PairTrial(passed, None, {}, metrics)
    return found


async def _judgments(
    session: AsyncSession, comparison_id: str
) -> dict[tuple[int, int, int], PairJudgment]:
    rows = (
        await session.scalars(
            select(ComparisonPairJudgment).where(
                ComparisonPairJudgment.comparison_id == comparison_id,
                ComparisonPairJudgment.state.in_((JudgmentState.DONE, JudgmentState.ERRORED)),
            )
        )
    ).all()
    orders: dict[tuple[int, int, int], dict[str, ComparisonPairJudgment]] = {}
    for row in rows:
        key = (row.baseline_cohort_index, row.case_ordinal, row.trial_index)
        orders.setdefault(key, {})[row.order] = row
    found = {}
    for key, both in orders.items():
        forward = both.get(FORWARD)
        failure = next((r.failure for r in both.values() if r.failure is not None), None)
        if failure is not None or len(both) < 2 or forward is None:
            found[key] = PairJudgment(None, None, _failure(failure))
            continue
        reverse = [r for r in both.values() if r is not forward][0]
        found[key] = PairJudgment(forward.score, reverse.score)
    return found


def _failure(failure: dict[str, Any] | None) -> PairFailure:
    if failure is None:
        return PairFailure(NOT_RUN, False, 0, "one order of this pair was never recorded", "")
    return PairFailure(
        error_class=failure["errorClass"],
        retryable=bool(failure["retryable"]),
        attempts=int(failure["attempts"]),
        message=failure["message"],
        model=failure["model"],
        other_messages=tuple(failure.get("otherMessages", ())),
    )


async def _item_ids(session: AsyncSession, comparison_id: str) -> dict[int, str]:
    rows = await session.execute(
        select(ComparisonCase.ordinal, DatasetCase.dataset_item_id)
        .join(DatasetCase, DatasetCase.id == ComparisonCase.dataset_case_id)
        .where(ComparisonCase.comparison_id == comparison_id)
    )
    return {int(ordinal): str(item_id) for ordinal, item_id in rows}


async def _model(session: AsyncSession, config_id: str) -> str:
    config = await session.get(AssetVersion, config_id)
    return "" if config is None else str(config.content.get("model") or "")
