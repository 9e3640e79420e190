"""GraphQL types of a prompt's gate settings (`setPromptGateSettings`, `Asset.gateSettings`)."""

from __future__ import annotations

from typing import Any, cast

import strawberry
from strawberry.scalars import JSON

from server.api.datasets.types import Split
from server.api.ship_policy_types import ShipPolicy, ShipPolicyInput
from server.datasets.models import Split as SplitEnum
from server.playground.gate_settings import GateSettingsSpec


@strawberry.type(description="What a prompt's comparisons start from (seed 002).")
class PromptGateSettings:
    dataset_id: strawberry.ID | None = strawberry.field(
        description="The dataset (an EVALUATION_SUITE asset); null: the first dataset."
    )
    split: Split
    trials_per_case: int
    checks: JSON = strawberry.field(description="Check specs, as a comparison's `checks`.")
    ship_policy: ShipPolicy | None

    @classmethod
    def from_document(cls, doc: dict[str, Any]) -> PromptGateSettings:
        dataset = doc.get("datasetId")
        policy = doc.get("shipPolicy")
        return cls(
            dataset_id=strawberry.ID(dataset) if dataset else None,
            split=SplitEnum(doc.get("split", SplitEnum.DEV.value)),
            trials_per_case=int(doc.get("trialsPerCase", 3)),
            checks=cast(JSON, doc.get("checks") or []),
            ship_policy=ShipPolicy.from_document(policy) if policy else None,
        )


@strawberry.input(description="A prompt's gate settings; checks default to CONTAINS.")
class PromptGateSettingsInput:
    dataset_id: strawberry.ID | None = None
    split: Split = SplitEnum.DEV
    trials_per_case: int = 3
    checks: JSON | None = strawberry.field(
        default=None, description='Check specs; default `[{"kind": "CONTAINS"}]`.'
    )
    ship_policy: ShipPolicyInput | None = None

    def to_spec(self) -> GateSettingsSpec:
        return GateSettingsSpec(
            dataset_id=None if self.dataset_id is None else str(self.dataset_id),
            split=SplitEnum(self.split),
            trials_per_case=self.trials_per_case,
            checks=self.checks,
            ship_policy=self.ship_policy.to_spec() if self.ship_policy else None,
        )
