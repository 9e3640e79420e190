"""GraphQL input types of comparisons: what `createComparison` and the preview take."""

from __future__ import annotations

from typing import TypeAlias

import strawberry
from strawberry.scalars import JSON

from server.api.datasets.types import Split
from server.api.releases.types import BindingRole
from server.api.ship_policy_types import ShipPolicyInput
from server.api.stopping_types import StoppingInput
from server.comparisons.inputs import CohortSpec, ComparisonSpec, PairwiseSpec, SampleSpec
from server.comparisons.models import CohortKind as CohortKindEnum
from server.datasets.models import Split as SplitEnum
from server.prompting.variables import MissingFieldPolicy as MissingFieldPolicyEnum

strawberry.enum(CohortKindEnum, name="CohortKind")
CohortKind: TypeAlias = CohortKindEnum
strawberry.enum(
    MissingFieldPolicyEnum,
    name="MissingFieldPolicy",
    description="LEAVE_OUT runs only cases having every mapped field; REFUSE refuses any gap.",
)
MissingFieldPolicy: TypeAlias = MissingFieldPolicyEnum


@strawberry.input
class CohortOverrideInput:
    role: BindingRole
    asset_version_id: strawberry.ID


@strawberry.input(description="RELEASE takes `releaseId`; VARIANT `baseReleaseId` + overrides.")
class ComparisonCohortInput:
    kind: CohortKind
    release_id: strawberry.ID | None = None
    base_release_id: strawberry.ID | None = None
    overrides: list[CohortOverrideInput] | None = None
    label: str | None = None


@strawberry.input
class ComparisonSampleInput:
    size: int
    seed: int = 0


@strawberry.input
class VariableMappingInput:
    variable: str
    path: str = strawberry.field(description="`input`, `input.<field>…` or `expected…`.")


@strawberry.input
class PairwiseInput:
    rubric_version_id: strawberry.ID
    judge_model_config_version_id: strawberry.ID


@strawberry.input(description="Cohort 0 is the candidate; every other cohort is a baseline.")
class CreateComparisonInput:
    cohorts: list[ComparisonCohortInput]
    experiment_id: strawberry.ID | None = None
    dataset_id: strawberry.ID | None = None
    dataset_version_id: strawberry.ID | None = None
    split: Split = SplitEnum.DEV
    trials_per_case: int = 3
    checks: JSON | None = strawberry.field(
        default=None, description='Check specs; default `[{"kind": "CONTAINS"}]`.'
    )
    sample: ComparisonSampleInput | None = None
    variables: list[VariableMappingInput] | None = None
    missing_field_policy: MissingFieldPolicy = MissingFieldPolicyEnum.LEAVE_OUT
    budget_cap_cents: float | None = None
    pairwise: PairwiseInput | None = None
    label: str | None = None
    epsilon_points: float = strawberry.field(
        default=1.0, description="The gate's ε: a change must exceed it (points)."
    )
    target_effect_points: float = strawberry.field(
        default=5.0, description="NO_CHANGE needs the interval for Δ within ± this (points)."
    )
    stopping: StoppingInput | None = strawberry.field(
        default=None, description="Sequential stopping; NONE (every case) by default."
    )
    ship_policy: ShipPolicyInput | None = strawberry.field(
        default=None,
        description="The ship policy, frozen at creation; default the workspace's "
        "`defaultShipPolicy` (docs/decision.md).",
    )

    def to_spec(self) -> ComparisonSpec:
        """The service's view of this input."""
        return ComparisonSpec(
            cohorts=tuple(
                CohortSpec(
                    kind=CohortKindEnum(c.kind),
                    release_id=_str(c.release_id),
                    base_release_id=_str(c.base_release_id),
                    overrides=tuple((o.role, str(o.asset_version_id)) for o in c.overrides or ()),
                    label=c.label,
                )
                for c in self.cohorts
            ),
            experiment_id=_str(self.experiment_id),
            dataset_id=_str(self.dataset_id),
            dataset_version_id=_str(self.dataset_version_id),
            split=SplitEnum(self.split),
            trials_per_case=self.trials_per_case,
            checks=self.checks,
            sample=SampleSpec(self.sample.size, self.sample.seed) if self.sample else None,
            variables=tuple((v.variable, v.path) for v in self.variables or ()),
            missing_field_policy=MissingFieldPolicyEnum(self.missing_field_policy),
            budget_cap_cents=self.budget_cap_cents,
            pairwise=(
                PairwiseSpec(
                    str(self.pairwise.rubric_version_id),
                    str(self.pairwise.judge_model_config_version_id),
                )
                if self.pairwise
                else None
            ),
            label=self.label,
            epsilon_points=self.epsilon_points,
            target_effect_points=self.target_effect_points,
            stopping=self.stopping.to_spec() if self.stopping else None,
            ship_policy=self.ship_policy.to_spec() if self.ship_policy else None,
        )


def _str(value: strawberry.ID | None) -> str | None:
    return None if value is None else str(value)
