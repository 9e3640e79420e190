"""The create (and preview) input of a comparison, and its checking without I/O.

The spec dataclasses say what a caller asks for, the resolved ones what a comparison
freezes; `check` refuses what no database could make valid, before anything is written.
(`server.comparisons.resolution` turns a checked spec into a `ResolvedInput`.)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from server.assets.models import AssetVersion
from server.checks import DEFAULT_CHECKS, validate_check_specs
from server.comparisons import stopping as stopping_option
from server.comparisons.models import CohortKind
from server.comparisons.stopping import StoppingSpec
from server.connections.models import ModelConnection
from server.datasets.models import Split
from server.decisions import policy as ship_policy_option
from server.decisions.policy import ShipPolicySpec
from server.errors import ValidationFailed
from server.experiments.models import Experiment
from server.money import optional_cents_to_micros
from server.prompting.variables import MissingFieldPolicy, check_path
from server.releases.models import BindingRole
from server.validation import check_range, clean_name

MIN_COHORTS = 2
MAX_COHORTS = 8
MAX_TRIALS = 10
MAX_SAMPLE = 100_000
MAX_LABEL = 200


@dataclass(frozen=True, slots=True)
class CohortSpec:
    kind: CohortKind
    release_id: str | None = None
    base_release_id: str | None = None
    overrides: tuple[tuple[BindingRole, str], ...] = ()
    label: str | None = None


@dataclass(frozen=True, slots=True)
class SampleSpec:
    size: int
    seed: int = 0


@dataclass(frozen=True, slots=True)
class PairwiseSpec:
    rubric_version_id: str
    judge_model_config_version_id: str


@dataclass(frozen=True, slots=True)
class ComparisonSpec:
    """`createComparison`'s input in service terms; defaults are docs/domain.md's."""

    cohorts: tuple[CohortSpec, ...]
    experiment_id: str | None = None
    dataset_id: str | None = None
    dataset_version_id: str | None = None
    split: Split = Split.DEV
    trials_per_case: int = 3
    checks: Any = None
    sample: SampleSpec | None = None
    variables: tuple[tuple[str, str], ...] = ()
    missing_field_policy: MissingFieldPolicy = MissingFieldPolicy.LEAVE_OUT
    budget_cap_cents: float | None = None
    pairwise: PairwiseSpec | None = None
    label: str | None = None
    epsilon_points: float = 1.0
    target_effect_points: float = 5.0
    stopping: StoppingSpec | None = None
    ship_policy: ShipPolicySpec | None = None
    """None: the workspace's `defaultShipPolicy` (or docs/decision.md's defaults)."""


@dataclass(frozen=True, slots=True)
class Judge:
    """Who grades: a rubric and the model config (and its connection) of the judge."""

    rubric: AssetVersion
    config: AssetVersion
    connection: ModelConnection


@dataclass(frozen=True, slots=True)
class ResolvedCohort:
    index: int
    kind: CohortKind
    release_id: str
    overrides: dict[str, str]
    bindings: dict[str, str]
    label: str
    prompt: AssetVersion
    config: AssetVersion
    connection: ModelConnection

    @property
    def max_output_tokens(self) -> int:
        return int(self.config.content["maxOutputTokens"])


@dataclass(frozen=True, slots=True)
class ResolvedInput:
    """Everything a comparison freezes, resolved in the caller's workspace."""

    dataset_version: AssetVersion
    cohorts: list[ResolvedCohort]
    split: Split
    trials_per_case: int
    checks: list[dict[str, Any]]
    check_judges: list[Judge]
    pairwise: Judge | None
    sample: SampleSpec | None
    variables: dict[str, str]
    missing_field_policy: MissingFieldPolicy
    budget_cap_micros: int | None
    experiment: Experiment | None
    label: str | None
    connections: dict[str, ModelConnection] = field(default_factory=dict)
    """Every connection called (cohorts' and judges'), by id."""
    epsilon_points: float = 1.0
    target_effect_points: float = 5.0
    stopping: StoppingSpec | None = None
    ship_policy: ShipPolicySpec = field(default_factory=ShipPolicySpec)
    """The policy the comparison will freeze: the input's or the workspace's default."""


def check(spec: ComparisonSpec) -> list[dict[str, Any]]:
    """Refuse a malformed input (VALIDATION_FAILED naming the field); the checks to store."""
    if (spec.dataset_id is None) == (spec.dataset_version_id is None):
        raise ValidationFailed(
            "give exactly one of `datasetId` and `datasetVersionId`", field="datasetId"
        )
    if not MIN_COHORTS <= len(spec.cohorts) <= MAX_COHORTS:
        raise ValidationFailed(
            f"`cohorts` must hold {MIN_COHORTS} to {MAX_COHORTS} cohorts", field="cohorts"
        )
    for index, cohort in enumerate(spec.cohorts):
        _check_cohort(index, cohort)
    check_range(spec.trials_per_case, field="trialsPerCase", low=1, high=MAX_TRIALS)
    if spec.sample is not None:
        check_range(spec.sample.size, field="sample.size", low=1, high=MAX_SAMPLE)
    seen: set[str] = set()
    for variable, path in spec.variables:
        where = f"variables.{variable[:64]}"
        if not variable.isidentifier():
            raise ValidationFailed(f"`{where}` is not a template variable name", field="variables")
        if variable in seen:
            raise ValidationFailed(f"`{where}` is mapped more than once", field=where)
        seen.add(variable)
        check_path(path, field=where)
    if spec.label is not None:
        clean_name(spec.label, field="label", max_length=MAX_LABEL)
    optional_cents_to_micros(spec.budget_cap_cents, field="budgetCapCents")
    _check_points(spec.epsilon_points, field="epsilonPoints", allow_zero=True)
    _check_points(spec.target_effect_points, field="targetEffectPoints", allow_zero=False)
    stopping_option.check(spec.stopping)
    if spec.ship_policy is not None:
        ship_policy_option.check(spec.ship_policy)
    checks = list(DEFAULT_CHECKS) if spec.checks is None else spec.checks
    return [dict(c) for c in validate_check_specs(checks)]


def _check_points(value: float, *, field: str, allow_zero: bool) -> None:
    """A gate threshold in pass-rate points: (0 or more than 0) to 100."""
    low_ok = value >= 0 if allow_zero else value > 0
    if not math.isfinite(value) or not low_ok or value > 100:
        bound = "0" if allow_zero else "more than 0"
        raise ValidationFailed(f"`{field}` must be {bound} and at most 100 points", field=field)


def _check_cohort(index: int, cohort: CohortSpec) -> None:
    where = f"cohorts[{index}]"
    if cohort.kind == CohortKind.RELEASE:
        if cohort.release_id is None or cohort.base_release_id is not None:
            raise ValidationFailed(
                f"`{where}` is a RELEASE cohort: give `releaseId` (not `baseReleaseId`)",
                field=f"{where}.releaseId",
            )
        if cohort.overrides:
            raise ValidationFailed(
                f"`{where}.overrides` are only for a VARIANT cohort", field=f"{where}.overrides"
            )
    else:
        if cohort.base_release_id is None or cohort.release_id is not None:
            raise ValidationFailed(
                f"`{where}` is a VARIANT cohort: give `baseReleaseId` (not `releaseId`)",
                field=f"{where}.baseReleaseId",
            )
        if not cohort.overrides:
            raise ValidationFailed(
                f"`{where}` is a VARIANT cohort: give at least one override",
                field=f"{where}.overrides",
            )
        roles = [role for role, _ in cohort.overrides]
        for role in roles:
            if roles.count(role) > 1:
                raise ValidationFailed(
                    f"`{where}.overrides` bind {role.value} more than once",
                    field=f"{where}.overrides",
                    role=role.name,
                )
    if cohort.label is not None:
        clean_name(cohort.label, field=f"{where}.label", max_length=MAX_LABEL)
