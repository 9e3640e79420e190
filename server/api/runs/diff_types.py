"""GraphQL types of run diffs: the summary, the cases and the signed link."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Annotated

import strawberry
from strawberry.scalars import JSON

from server.api.context import Context
from server.api.movement import (
    CaseFilter,
    DiffCaseFilter,
    DiffCaseStatus,
    EvaluatorStatus,
    Movement,
    diff_case_status,
    evaluator_status,
    kept_cases,
)
from server.api.relay import Connection
from server.api.ship_policy_types import ShipDecision
from server.decisions.policy import ShipPolicySpec
from server.pagination import check_page_size
from server.runs import cases as case_list
from server.runs import diff as diffs
from server.runs import diff_items


@strawberry.enum
class RunPairing(StrEnum):
    DATASET_ITEM_ID = "DATASET_ITEM_ID"
    POSITIONAL = "POSITIONAL"


@strawberry.type
class DiffEvaluatorSummary:
    name: str
    paired_count: int = strawberry.field(description="Pairs that both sides scored.")
    baseline_mean: float
    candidate_mean: float
    delta: float
    low: float = strawberry.field(description="95% interval for the delta (bootstrap).")
    high: float
    p_value: float = strawberry.field(description="Sign-flip permutation p.")
    adjusted_p_value: float = strawberry.field(description="Holm across the evaluators.")
    method: str
    significant: bool

    @classmethod
    def of(cls, row: diffs.EvaluatorSummary) -> DiffEvaluatorSummary:
        return cls(**{name: getattr(row, name) for name in row.__dataclass_fields__})


@strawberry.type
class RunDiffSummary:
    baseline_pass_rate: float | None = strawberry.field(
        description="Mean pass fraction over the pairs graded on both sides."
    )
    candidate_pass_rate: float | None
    pass_rate_delta: float | None = strawberry.field(description="Candidate − baseline.")
    delta_low: float | None = strawberry.field(description="95% interval for the delta.")
    delta_high: float | None
    interval_method: str | None
    method: str = strawberry.field(description="MCNEMAR_MID_P or SIGN_FLIP_PERMUTATION.")
    p_value: float
    exact_p_value: float | None
    significant: bool = strawberry.field(
        description="|Δ| > ε and p < 0.05 on the pass rate alone; false under 20 pairs."
    )
    significance_reason: str
    improved_count: int
    regressed_count: int
    unchanged_count: int = strawberry.field(description="Pairs that did not move (UNCHANGED).")
    no_change_count: int = strawberry.field(
        deprecation_reason="The published name is unchangedCount: use it (docs/graphql.md)."
    )
    added_count: int
    removed_count: int
    pass_flips_to_fail: int = strawberry.field(
        description="Pairs graded on both sides whose majority outcome went pass → fail "
        "(`passFlip` cases; McNemar's regressed pairs, as `shipwise compare` counts them)."
    )
    pass_flips_to_pass: int = strawberry.field(
        description="Pairs graded on both sides whose majority outcome went fail → pass."
    )
    paired_count: int
    graded_pair_count: int
    epsilon: float
    pairing: RunPairing
    evaluators: list[DiffEvaluatorSummary]

    @classmethod
    def of(cls, summary: diffs.DiffSummary) -> RunDiffSummary:
        skip = {
            "candidate_run_id", "baseline_run_id", "evaluators", "pairing",
            "regressed_positions", "improved_positions",
        }  # fmt: skip
        values = {
            name: getattr(summary, name)
            for name in summary.__dataclass_fields__
            if name not in skip
        }
        return cls(
            **values,
            unchanged_count=summary.no_change_count,
            pairing=RunPairing(summary.pairing),
            evaluators=[DiffEvaluatorSummary.of(e) for e in summary.evaluators],
        )


@strawberry.type
class DiffCaseEvaluator:
    name: str
    baseline_mean: float | None
    candidate_mean: float | None
    delta: float | None
    status: EvaluatorStatus
    movement: Movement = strawberry.field(
        description="The same reading as `status`, with NO_VERDICT where a side has no score."
    )
    significant: bool = strawberry.field(description="The evaluator's run-level significance.")


@strawberry.type
class RunDiffCase:
    dataset_item_id: str | None
    position: int = strawberry.field(description="The candidate's (the baseline's if REMOVED).")
    baseline_position: int | None
    status: DiffCaseStatus
    pass_flip: bool
    candidate_pass_fraction: float | None
    baseline_pass_fraction: float | None
    input: JSON
    evaluators: list[DiffCaseEvaluator]

    @classmethod
    def of(cls, case: case_list.DiffCase) -> RunDiffCase:
        return cls(
            dataset_item_id=case.dataset_item_id,
            position=case.position,
            baseline_position=case.baseline_position,
            status=diff_case_status(case.status),
            pass_flip=case.pass_flip,
            candidate_pass_fraction=case.candidate_pass_fraction,
            baseline_pass_fraction=case.baseline_pass_fraction,
            input=case.input,
            evaluators=[
                DiffCaseEvaluator(
                    name=e.name,
                    baseline_mean=e.baseline_mean,
                    candidate_mean=e.candidate_mean,
                    delta=e.delta,
                    status=evaluator_status(e.status),
                    movement=Movement(e.status),
                    significant=e.significant,
                )
                for e in case.evaluators
            ],
        )


@strawberry.type
class RunDiff:
    candidate_run_id: strawberry.ID
    baseline_run_id: strawberry.ID
    summary: RunDiffSummary
    _summary: strawberry.Private[diffs.DiffSummary]
    _policy: strawberry.Private[ShipPolicySpec | None] = None

    @strawberry.field(
        description="The ship decision over the paired items, under `runDiff`'s `policy` "
        "(docs/decision.md)."
    )
    async def decision(self, info: strawberry.Info[Context]) -> ShipDecision:
        actor = info.context.require()
        async with info.context.read() as session:
            document = await diff_items.decide(
                session=session,
                workspace_id=actor.workspace_id,
                candidate_run_id=self._summary.candidate_run_id,
                baseline_run_id=self._summary.baseline_run_id,
                policy=self._policy,
            )
        decided = ShipDecision.from_document(document)
        assert decided is not None
        return decided

    @strawberry.field(description="Candidate items in order, then REMOVED baseline items.")
    async def cases(
        self,
        info: strawberry.Info[Context],
        status: DiffCaseFilter = DiffCaseFilter.ALL,
        first: int | None = None,
        after: str | None = None,
        filter: Annotated[
            CaseFilter | None,
            strawberry.argument(
                deprecation_reason="The published argument is status: use it (docs/graphql.md)."
            ),
        ] = None,
    ) -> Connection[RunDiffCase]:
        info.context.require()
        size = check_page_size(first, info.context.settings.max_page_size)
        async with info.context.read() as session:
            page = await case_list.diff_cases(
                session=session,
                summary=self._summary,
                case_filter=kept_cases(filter if filter is not None else status),
                first=size,
                after=after,
            )
        return Connection.of(page, RunDiffCase.of)

    @classmethod
    def of(cls, summary: diffs.DiffSummary, *, policy: ShipPolicySpec | None = None) -> RunDiff:
        return cls(
            candidate_run_id=strawberry.ID(summary.candidate_run_id),
            baseline_run_id=strawberry.ID(summary.baseline_run_id),
            summary=RunDiffSummary.of(summary),
            _summary=summary,
            _policy=policy,
        )


@strawberry.type
class DiffLink:
    url: str = strawberry.field(description="The diff page's path with its signed token.")
    expires_at: datetime
