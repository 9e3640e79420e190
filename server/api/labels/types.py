"""Labels, review items and a judge's agreement as the schema shows them (docs/labels.md)."""

from __future__ import annotations

from datetime import datetime

import strawberry
from strawberry.scalars import JSON

from server.labels.agreement import CheckAgreement, agreement_document
from server.labels.models import LabelTarget
from server.labels.models import TrialLabel as LabelRow
from server.labels.queue import QueueProgress
from server.labels.queue import ReviewItem as ReviewRow
from server.labels.service import TrialRef as TrialRefValue


@strawberry.input(description="A trial: of a comparison (cohortIndex) or of a run (cohortIndex 0).")
class TrialRefInput:
    comparison_id: strawberry.ID | None = None
    run_id: strawberry.ID | None = None
    cohort_index: int
    dataset_item_id: str
    trial_index: int

    def to_value(self) -> TrialRefValue:
        return TrialRefValue(
            comparison_id=None if self.comparison_id is None else str(self.comparison_id),
            run_id=None if self.run_id is None else str(self.run_id),
            cohort_index=self.cohort_index,
            dataset_item_id=self.dataset_item_id,
            trial_index=self.trial_index,
        )


@strawberry.type
class TrialRef:
    comparison_id: strawberry.ID | None
    run_id: strawberry.ID | None
    cohort_index: int
    dataset_item_id: str
    trial_index: int


@strawberry.type
class Labeller:
    id: strawberry.ID
    name: str


@strawberry.type(description="A member's label on a trial; one per trial and labeller.")
class TrialLabel:
    trial: TrialRef
    passed: bool
    note: str | None
    labeller: Labeller
    created_at: datetime = strawberry.field(description="When the labeller last labelled it.")
    judge_passed: bool | None = strawberry.field(
        description="The judge's grade of the trial (every judge check passed; an imported "
        "run's judge evaluator at 0.5 or above), hidden from the review queue; null "
        "without a judge."
    )

    @classmethod
    def from_row(cls, row: LabelRow, labeller_name: str, judge_passed: bool | None) -> TrialLabel:
        comparison = row.target == LabelTarget.COMPARISON
        return cls(
            trial=TrialRef(
                comparison_id=strawberry.ID(row.target_id) if comparison else None,
                run_id=None if comparison else strawberry.ID(row.target_id),
                cohort_index=row.cohort_index,
                dataset_item_id=row.dataset_item_id,
                trial_index=row.trial_index,
            ),
            passed=row.passed,
            note=row.note,
            labeller=Labeller(id=strawberry.ID(row.labeller_member_id), name=labeller_name),
            created_at=row.created_at,
            judge_passed=judge_passed,
        )


@strawberry.type(description="A trial to label: never the judge's grade, so it cannot anchor.")
class ReviewItem:
    trial: TrialRef
    input: JSON
    expected: JSON | None
    output: str | None

    @classmethod
    def from_row(cls, row: ReviewRow) -> ReviewItem:
        return cls(
            trial=TrialRef(
                comparison_id=strawberry.ID(row.comparison_id),
                run_id=None,
                cohort_index=row.cohort_index,
                dataset_item_id=row.dataset_item_id,
                trial_index=row.trial_index,
            ),
            input=row.input,
            expected=row.expected,
            output=row.output,
        )


@strawberry.type(description="How far the review is: trials with a label of the graded ones.")
class ReviewProgress:
    labelled: int
    graded: int

    @classmethod
    def from_value(cls, value: QueueProgress) -> ReviewProgress:
        return cls(labelled=value.labelled, graded=value.graded)


@strawberry.type(
    description="A judge against human labels over the labelled trials it graded (a human "
    "pass is the positive class). κ: Cohen's, 95% large-sample interval (Fleiss, Cohen & "
    "Everitt 1969); sensitivity and specificity: Wilson 95%. Null where undefined."
)
class JudgeAgreement:
    check_key: str = strawberry.field(
        description="`rubricVersionId/judgeModelConfigVersionId`, or an imported run's "
        "judge evaluator"
    )
    labels: int
    agreement: float | None = strawberry.field(description="Share of labels the judge matched.")
    kappa: float | None
    kappa_low: float | None
    kappa_high: float | None
    sensitivity: float | None = strawberry.field(description="Judge passes of human passes.")
    sensitivity_low: float | None
    sensitivity_high: float | None
    specificity: float | None = strawberry.field(description="Judge fails of human fails.")
    specificity_low: float | None
    specificity_high: float | None

    @classmethod
    def from_value(cls, value: CheckAgreement) -> JudgeAgreement:
        doc = agreement_document(value)
        return cls(
            check_key=doc["checkKey"],
            labels=doc["labels"],
            agreement=doc["agreement"],
            kappa=doc["kappa"],
            kappa_low=doc["kappaLow"],
            kappa_high=doc["kappaHigh"],
            sensitivity=doc["sensitivity"],
            sensitivity_low=doc["sensitivityLow"],
            sensitivity_high=doc["sensitivityHigh"],
            specificity=doc["specificity"],
            specificity_low=doc["specificityLow"],
            specificity_high=doc["specificityHigh"],
        )
