"""A prompt's gate settings: the dataset, split, trials, checks and ship policy its
comparisons start from (seed 002: "The form starts from the gate settings of the prompt").

Stored on the prompt template's asset row (`Asset.gate_settings`), set by a MEMBER, audited
as `prompt.set_gate_settings`. The Playground's "Run on 5 cases" grades its outputs with the
checks named here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from server.assets import service as assets
from server.assets.models import Asset, AssetKind
from server.audit import service as audit
from server.checks.spec import validate_check_specs
from server.datasets import service as datasets
from server.datasets.models import Split
from server.decisions import policy
from server.decisions.policy import ShipPolicySpec
from server.errors import NotFound, ValidationFailed
from server.workspaces.roles import Actor, Role

MAX_TRIALS = 10
DEFAULT_CHECKS: list[dict[str, Any]] = [{"kind": "CONTAINS"}]
"""Seed 002's default check: "Contains the expected output"."""


@dataclass(frozen=True, slots=True)
class GateSettingsSpec:
    """What `setPromptGateSettings` takes, as the service reads it."""

    dataset_id: str | None
    split: Split
    trials_per_case: int
    checks: Any
    ship_policy: ShipPolicySpec | None


async def prompt_asset(session: AsyncSession, actor: Actor, asset_id: str) -> Asset:
    """The caller's own PROMPT_TEMPLATE asset (a MEMBER's, never a built-in)."""
    asset = await assets.get_changeable(session=session, actor=actor, asset_id=asset_id)
    if asset.kind != AssetKind.PROMPT_TEMPLATE:
        raise ValidationFailed("gate settings belong to a prompt template", field="assetId")
    return asset


async def set_gate_settings(
    *, session: AsyncSession, actor: Actor, asset_id: str, spec: GateSettingsSpec
) -> Asset:
    """Check and store the prompt's gate settings; audited without the checks' texts."""
    actor.require(Role.MEMBER)
    asset = await prompt_asset(session, actor, asset_id)
    if not 1 <= spec.trials_per_case <= MAX_TRIALS:
        raise ValidationFailed(
            f"Trials per case must be from 1 to {MAX_TRIALS}.", field="settings.trialsPerCase"
        )
    checks = validate_check_specs(
        DEFAULT_CHECKS if spec.checks is None else spec.checks, field="settings.checks"
    )
    if spec.dataset_id is not None:
        try:
            await datasets.get_dataset(session=session, actor=actor, dataset_id=spec.dataset_id)
        except NotFound as exc:  # said at the field, in words
            raise ValidationFailed(
                "That dataset is not one of this workspace's datasets.",
                field="settings.datasetId",
            ) from exc
    shipped: dict[str, Any] | None = None
    if spec.ship_policy is not None:
        policy.check(spec.ship_policy, where="settings.shipPolicy")
        shipped = policy.document(spec.ship_policy)
    asset.gate_settings = {
        "datasetId": spec.dataset_id,
        "split": spec.split.value,
        "trialsPerCase": spec.trials_per_case,
        "checks": checks,
        "shipPolicy": shipped,
    }
    await session.flush()
    await audit.record(
        session=session,
        actor=actor,
        action="prompt.set_gate_settings",
        target_type="asset",
        target_id=asset.id,
        details={
            "datasetId": spec.dataset_id,
            "split": spec.split.value,
            "trialsPerCase": spec.trials_per_case,
            "checkKinds": [c["kind"] for c in checks],
            "shipPolicy": shipped is not None,
        },
    )
    return asset


def gate_checks(asset: Asset | None) -> list[dict[str, Any]]:
    """The checks a prompt's gate settings name; seed 002's default without settings."""
    settings = asset.gate_settings if asset is not None else None
    if settings and isinstance(settings.get("checks"), list) and settings["checks"]:
        return list(settings["checks"])
    return list(DEFAULT_CHECKS)
