"""Resolving a comparison's checked input against the database.

`resolve` turns the ids into the frozen dataset version, each cohort's bindings and label,
and the judges that checks and pairwise judging call; `resolve_judge` resolves one judge.
Both raise before anything is written.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy.ext.asyncio import AsyncSession

from server.assets import service as asset_service
from server.assets.models import AssetKind, AssetVersion, VersionState
from server.checks import CheckKind
from server.comparisons.inputs import (
    MAX_LABEL,
    CohortSpec,
    ComparisonSpec,
    Judge,
    ResolvedCohort,
    ResolvedInput,
    check,
)
from server.comparisons.models import CohortKind
from server.connections import service as connection_service
from server.connections.models import ModelConnection
from server.datasets import service as dataset_service
from server.decisions import policy as ship_policy_option
from server.errors import NotFound, ValidationFailed
from server.experiments import service as experiment_service
from server.money import optional_cents_to_micros
from server.releases import service as release_service
from server.releases.models import BindingRole, Release
from server.validation import clean_name
from server.workspaces.models import Workspace
from server.workspaces.roles import Actor
from server.workspaces.scoped import get_in_workspace


async def resolve(*, session: AsyncSession, actor: Actor, spec: ComparisonSpec) -> ResolvedInput:
    """Resolve every id of a checked input in the caller's workspace (or the built-ins)."""
    checks = check(spec)
    workspace_id = actor.workspace_id
    version = await _dataset_version(session, actor, spec)
    cohorts = [
        await _cohort(session, workspace_id, index, cohort)
        for index, cohort in enumerate(spec.cohorts)
    ]
    check_judges = [
        await _judge(
            session,
            workspace_id,
            check_spec["rubricVersionId"],
            check_spec["judgeModelConfigVersionId"],
            where=f"checks[{index}]",
        )
        for index, check_spec in enumerate(checks)
        if check_spec["kind"] == CheckKind.JUDGE_RUBRIC.value
    ]
    pairwise = None
    if spec.pairwise is not None:
        pairwise = await _judge(
            session,
            workspace_id,
            spec.pairwise.rubric_version_id,
            spec.pairwise.judge_model_config_version_id,
            where="pairwise",
        )
    experiment = None
    if spec.experiment_id is not None:
        try:
            experiment = await experiment_service.get(
                session=session, workspace_id=workspace_id, experiment_id=spec.experiment_id
            )
        except NotFound:
            raise NotFound("experiment not found", field="experimentId") from None
    variables = dict(spec.variables)
    _check_variables_used(variables, cohorts)
    connections = {c.connection.id: c.connection for c in cohorts}
    for judge in [*check_judges, *([pairwise] if pairwise else [])]:
        connections.setdefault(judge.connection.id, judge.connection)
    return ResolvedInput(
        dataset_version=version,
        cohorts=cohorts,
        split=spec.split,
        trials_per_case=spec.trials_per_case,
        checks=checks,
        check_judges=check_judges,
        pairwise=pairwise,
        sample=spec.sample,
        variables=variables,
        missing_field_policy=spec.missing_field_policy,
        budget_cap_micros=optional_cents_to_micros(spec.budget_cap_cents, field="budgetCapCents"),
        experiment=experiment,
        label=None if spec.label is None else clean_name(spec.label, field="label"),
        connections=connections,
        epsilon_points=float(spec.epsilon_points),
        target_effect_points=float(spec.target_effect_points),
        stopping=spec.stopping,
        ship_policy=await _ship_policy(session, workspace_id, spec),
    )


async def _ship_policy(
    session: AsyncSession, workspace_id: str, spec: ComparisonSpec
) -> ship_policy_option.ShipPolicySpec:
    """The input's policy, else the workspace's `defaultShipPolicy` (docs/decision.md)."""
    if spec.ship_policy is not None:
        return spec.ship_policy
    workspace = await session.get(Workspace, workspace_id)
    return ship_policy_option.from_document(workspace.default_ship_policy if workspace else None)


async def _dataset_version(
    session: AsyncSession, actor: Actor, spec: ComparisonSpec
) -> AssetVersion:
    """The given SEALED version, or the dataset's latest SEALED one."""
    if spec.dataset_id is not None:
        try:
            dataset = await dataset_service.get_dataset(
                session=session, actor=actor, dataset_id=spec.dataset_id
            )
        except NotFound:
            raise NotFound("dataset not found", field="datasetId") from None
        versions = await dataset_service.get_versions_by_dataset(
            session=session, dataset_ids=[dataset.id]
        )
        sealed = [v for v in versions[dataset.id] if v.state == VersionState.SEALED]
        if not sealed:
            raise ValidationFailed(
                "the dataset has no sealed version yet: seal one first", field="datasetId"
            )
        return sealed[0]
    assert spec.dataset_version_id is not None
    found = await asset_service.get_versions(
        session=session, workspace_id=actor.workspace_id, version_ids=[spec.dataset_version_id]
    )
    if not found or found[0].kind != AssetKind.EVALUATION_SUITE:
        raise NotFound("dataset version not found", field="datasetVersionId")
    if found[0].state != VersionState.SEALED:
        raise ValidationFailed(
            f"dataset version {found[0].number} is {found[0].state.value}, not SEALED",
            field="datasetVersionId",
        )
    return found[0]


async def _release(
    session: AsyncSession, workspace_id: str, release_id: str, where: str
) -> Release:
    return await get_in_workspace(
        session, Release, release_id, workspace_id, "release", field=where
    )


async def _cohort(
    session: AsyncSession, workspace_id: str, index: int, spec: CohortSpec
) -> ResolvedCohort:
    where = f"cohorts[{index}]"
    release_id = spec.release_id or spec.base_release_id
    assert release_id is not None
    key = "releaseId" if spec.kind == CohortKind.RELEASE else "baseReleaseId"
    release = await _release(session, workspace_id, release_id, f"{where}.{key}")
    rows = await release_service.get_bindings(
        session=session, workspace_id=workspace_id, release_ids=[release.id]
    )
    versions = {binding.role.value: version for binding, version, _ in rows}
    overridden: list[tuple[BindingRole, AssetVersion]] = []
    for role, version_id in spec.overrides:
        try:
            version = await release_service.resolve_binding(
                session=session, workspace_id=workspace_id, role=role, asset_version_id=version_id
            )
        except ValidationFailed as exc:
            raise ValidationFailed(
                f"{where}: {exc.message}", field=f"{where}.overrides", role=role.name
            ) from None
        versions[role.value] = version
        overridden.append((role, version))
    label = spec.label or _default_label(release.name, overridden)
    config = versions[BindingRole.MODEL_CONFIG.value]
    return ResolvedCohort(
        index=index,
        kind=spec.kind,
        release_id=release.id,
        overrides={role.value: version.id for role, version in overridden},
        bindings={role: version.id for role, version in sorted(versions.items())},
        label=clean_name(label, field=f"{where}.label", max_length=MAX_LABEL),
        prompt=versions[BindingRole.PROMPT_TEMPLATE.value],
        config=config,
        connection=await _connection(session, workspace_id, config, f"{where}.model_config"),
    )


def _default_label(base: str, overridden: Sequence[tuple[BindingRole, AssetVersion]]) -> str:
    """The release's name; a variant's is "<base> + <role> v<n>" for each override, the role in
    words ("capitals v1 + prompt template v2", not `prompt_template`)."""
    parts = [
        base,
        *(f"{role.value.replace('_', ' ')} v{version.number}" for role, version in overridden),
    ]
    label = " + ".join(parts)
    return label if len(label) <= MAX_LABEL else label[: MAX_LABEL - 1] + "…"


async def _connection(
    session: AsyncSession, workspace_id: str, config: AssetVersion, where: str
) -> ModelConnection:
    try:
        return await connection_service.get(
            session=session,
            workspace_id=workspace_id,
            connection_id=str(config.content.get("connectionId")),
        )
    except NotFound:
        raise ValidationFailed(
            f"`{where}` names no model connection of this workspace", field=where
        ) from None


async def resolve_judge(
    *, session: AsyncSession, workspace_id: str, rubric_id: str, config_id: str, where: str
) -> Judge:
    """A judge (rubric, model config and its connection) as `pairwise` and checks resolve it."""
    return await _judge(session, workspace_id, rubric_id, config_id, where=where)


async def _judge(
    session: AsyncSession, workspace_id: str, rubric_id: str, config_id: str, *, where: str
) -> Judge:
    """A RUBRIC and a MODEL_CONFIG version, each visible here and of its kind.

    `where` prefixes the field names (`pairwise.`, `checks[0].`); empty when the ids are
    arguments of their own, so an error names exactly what the caller sent.
    """
    prefix = f"{where}." if where else ""
    rubric = await _version_of_kind(
        session, workspace_id, rubric_id, AssetKind.RUBRIC, f"{prefix}rubricVersionId"
    )
    config_field = f"{prefix}judgeModelConfigVersionId"
    config = await _version_of_kind(
        session, workspace_id, config_id, AssetKind.MODEL_CONFIG, config_field
    )
    connection = await _connection(session, workspace_id, config, config_field)
    return Judge(rubric=rubric, config=config, connection=connection)


async def _version_of_kind(
    session: AsyncSession, workspace_id: str, version_id: str, kind: AssetKind, where: str
) -> AssetVersion:
    """NOT_FOUND for a missing or another workspace's version; VALIDATION_FAILED otherwise."""
    try:
        version = await asset_service.resolve_bindable_version(
            session=session, workspace_id=workspace_id, asset_version_id=version_id
        )
    except NotFound as exc:
        raise NotFound(f"`{where}`: {exc.message}", field=where) from None
    except ValidationFailed as exc:
        raise ValidationFailed(f"`{where}`: {exc.message}", field=where) from None
    if version.kind != kind:
        raise ValidationFailed(
            f"`{where}`: asset version {version_id} is a {version.kind.value}, not a {kind.value}",
            field=where,
        )
    return version


def _check_variables_used(variables: dict[str, str], cohorts: Sequence[ResolvedCohort]) -> None:
    """A mapping for a variable no prompt uses is a typo: say so instead of ignoring it."""
    used = {v for cohort in cohorts for v in cohort.prompt.variables}
    for variable in sorted(variables):
        if variable not in used:
            raise ValidationFailed(
                f"`variables.{variable}`: no cohort's prompt template uses `{variable}`",
                field=f"variables.{variable}",
            )
