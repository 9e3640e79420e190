"""GraphQL types of pairwise judging: a `PairwiseJob` and its result (`verdicts.pairwise`)."""

from __future__ import annotations

from datetime import datetime
from enum import Enum
from typing import Any

import strawberry

from server.money import micros_to_cents
from server.run_pairs.models import PairwiseJob as PairwiseJobRow

NULL_WHEN_UNJUDGED = "Over judged pairs only; null when no pair was judged."


@strawberry.enum
class PairwiseJobStatus(Enum):
    QUEUED = "QUEUED"
    RUNNING = "RUNNING"
    DONE = "DONE"
    FAILED = "FAILED"


@strawberry.type(description="A pair that could not be judged, after its attempts (seed 004).")
class PairwiseFailure:
    dataset_item_id: str | None
    position: int
    trial_index: int
    error_class: str
    retryable: bool = strawberry.field(description="Only when every failed order was retryable.")
    attempts: int
    message: str = strawberry.field(description="Bounded; our words, never the judge's.")
    model: str
    other_messages: list[str] = strawberry.field(
        description="The other order's message, where it differed."
    )


@strawberry.type(description="McNemar on case outcomes, where both sides carry grades.")
class PairwiseMcNemar:
    n: int
    improved: int
    regressed: int
    p_value: float
    exact_p_value: float


@strawberry.type(description="Candidate − baseline of the per-case means of one metric.")
class PairwiseMetricDelta:
    name: str
    delta: float
    low: float
    high: float
    high_variance: bool = strawberry.field(
        description="The SD of the per-case differences exceeds the baseline mean's magnitude."
    )
    baseline_mean: float
    candidate_mean: float
    n: int


@strawberry.type(description="Pairwise judging with position swap (docs/statistics.md).")
class PairwiseResult:
    note: str = strawberry.field(description='"Judged J of M matched pairs", or why none were.')
    partial: bool
    win_rate: float | None = strawberry.field(description=NULL_WHEN_UNJUDGED)
    tie_rate: float | None = strawberry.field(description=NULL_WHEN_UNJUDGED)
    loss_rate: float | None = strawberry.field(description=NULL_WHEN_UNJUDGED)
    mean_score: float | None = strawberry.field(
        description="Mean signed score in [−1, 1], + favours the candidate. " + NULL_WHEN_UNJUDGED
    )
    low: float | None
    high: float | None
    p_value: float | None = strawberry.field(description="Sign-flip test on case scores.")
    order_disagreement_rate: float | None
    judged_pairs: int
    total_pairs: int
    judge_model: str | None
    simulated: bool
    failures: list[PairwiseFailure]
    mcnemar: PairwiseMcNemar | None
    metric_deltas: list[PairwiseMetricDelta]
    regression: bool = strawberry.field(
        description="Mean score < 0 with its interval entirely below 0."
    )

    @classmethod
    def from_json(cls, doc: dict[str, Any] | None) -> PairwiseResult | None:
        if doc is None:
            return None
        mcnemar = doc.get("mcnemar")
        return cls(
            note=doc["note"],
            partial=bool(doc.get("partial")),
            win_rate=doc.get("winRate"),
            tie_rate=doc.get("tieRate"),
            loss_rate=doc.get("lossRate"),
            mean_score=doc.get("meanScore"),
            low=doc.get("low"),
            high=doc.get("high"),
            p_value=doc.get("pValue"),
            order_disagreement_rate=doc.get("orderDisagreementRate"),
            judged_pairs=int(doc["judgedPairs"]),
            total_pairs=int(doc["totalPairs"]),
            judge_model=doc.get("judgeModel"),
            simulated=bool(doc.get("simulated")),
            failures=[
                PairwiseFailure(
                    dataset_item_id=f.get("datasetItemId"),
                    position=int(f["position"]),
                    trial_index=int(f["trialIndex"]),
                    error_class=f["errorClass"],
                    retryable=bool(f["retryable"]),
                    attempts=int(f["attempts"]),
                    message=f["message"],
                    model=f["model"],
                    other_messages=list(f.get("otherMessages", [])),
                )
                for f in doc.get("failures", [])
            ],
            mcnemar=None
            if mcnemar is None
            else PairwiseMcNemar(
                n=mcnemar["n"],
                improved=mcnemar["improved"],
                regressed=mcnemar["regressed"],
                p_value=mcnemar["pValue"],
                exact_p_value=mcnemar["exactPValue"],
            ),
            metric_deltas=[
                PairwiseMetricDelta(
                    name=d["name"],
                    delta=d["delta"],
                    low=d["low"],
                    high=d["high"],
                    high_variance=d["highVariance"],
                    baseline_mean=d["baselineMean"],
                    candidate_mean=d["candidateMean"],
                    n=d["n"],
                )
                for d in doc.get("metricDeltas", [])
            ],
            regression=bool(doc.get("regression")),
        )


@strawberry.type(description="Pairwise judging of two COMPLETED runs, done by a job.")
class PairwiseJob:
    id: strawberry.ID
    status: PairwiseJobStatus
    candidate_run_id: strawberry.ID
    baseline_run_id: strawberry.ID
    judged_pairs: int
    total_pairs: int = strawberry.field(description="Matched pairs; known once judging starts.")
    result: PairwiseResult | None = strawberry.field(description="Once DONE.")
    error_code: str | None = strawberry.field(description="Once FAILED: a bounded code.")
    spent_cents: float = strawberry.field(description="The judge calls' estimated cost.")
    created_at: datetime
    completed_at: datetime | None

    @classmethod
    def from_row(cls, row: PairwiseJobRow) -> PairwiseJob:
        return cls(
            id=strawberry.ID(row.id),
            status=PairwiseJobStatus(row.status.value),
            candidate_run_id=strawberry.ID(row.candidate_run_id),
            baseline_run_id=strawberry.ID(row.baseline_run_id),
            judged_pairs=row.judged_pairs,
            total_pairs=row.total_pairs,
            result=PairwiseResult.from_json(row.result),
            error_code=row.error_code,
            spent_cents=micros_to_cents(row.cost_micros),
            created_at=row.created_at,
            completed_at=row.completed_at,
        )
