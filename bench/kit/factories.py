"""Test data made through the services (the same code the API runs)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cryptography.fernet import Fernet
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server.connections import service as connection_service
from server.connections.models import ConnectionKind, ModelConnection
from server.experiments import service as experiment_service
from server.experiments.models import Experiment
from server.security import SecretBox
from server.workspaces import service
from server.workspaces.roles import Actor, Role


@dataclass
class WorkspaceFixture:
    """A workspace with one member and token per role."""

    id: str
    tokens: dict[Role, str] = field(default_factory=dict)
    member_ids: dict[Role, str] = field(default_factory=dict)

    @property
    def owner(self) -> str:
        return self.tokens[Role.OWNER]


async def make_workspace(
    sessionmaker: async_sessionmaker[AsyncSession],
    *,
    name: str = "acme",
    max_calls_per_comparison: int | None = None,
) -> WorkspaceFixture:
    """A workspace with a token per role (`max_calls_per_comparison`: its call limit, when
    a bench needs more than a new workspace's)."""
    async with sessionmaker() as session, session.begin():
        workspace, issued = await service.create_workspace(session=session, name=name)
        if max_calls_per_comparison is not None:
            workspace.max_calls_per_comparison = max_calls_per_comparison
        fixture = WorkspaceFixture(id=workspace.id)
        fixture.tokens[Role.OWNER] = issued.secret
        fixture.member_ids[Role.OWNER] = issued.token.member_id
        owner = Actor(
            workspace_id=workspace.id,
            member_id=issued.token.member_id,
            token_id=issued.token.id,
            role=Role.OWNER,
            requests_per_minute=600,
        )
        for role in (Role.ADMIN, Role.MEMBER, Role.VIEWER):
            member = await service.add_member(
                session=session, actor=owner, name=role.value.lower(), email=None, role=role
            )
            token = await service.create_token(
                session=session,
                actor=owner,
                name=f"{role.value.lower()}-token",
                member_id=member.id,
            )
            fixture.tokens[role] = token.secret
            fixture.member_ids[role] = member.id
    return fixture


def actor_for(workspace: WorkspaceFixture, role: Role = Role.OWNER) -> Actor:
    """The workspace's member of `role` as a service-level caller."""
    return Actor(workspace.id, workspace.member_ids[role], f"tok_{role.value.lower()}", role, 600)


async def make_connection(
    sessionmaker: async_sessionmaker[AsyncSession],
    workspace: WorkspaceFixture,
    *,
    kind: str = "SIMULATED",
    name: str = "conn",
    secret_box: SecretBox | None = None,
    **fields: Any,
) -> ModelConnection:
    """A model connection made by the OWNER; pass the server's `secret_box` with an `api_key`
    the server must be able to decrypt."""
    box = secret_box or SecretBox(Fernet.generate_key().decode())
    async with sessionmaker() as session, session.begin():
        return await connection_service.create(
            session=session,
            actor=actor_for(workspace),
            secret_box=box,
            name=name,
            kind=ConnectionKind(kind),
            **fields,
        )


async def make_experiment(
    sessionmaker: async_sessionmaker[AsyncSession],
    workspace: WorkspaceFixture,
    *,
    name: str = "experiment",
    daily_budget_cents: float | None = None,
) -> Experiment:
    async with sessionmaker() as session, session.begin():
        return await experiment_service.create(
            session=session,
            actor=actor_for(workspace),
            name=name,
            daily_budget_cents=daily_budget_cents,
        )


# --- assets and releases -------------------------------------------------------------------

from typing import TYPE_CHECKING  # noqa: E402 - appended section of a shared module

if TYPE_CHECKING:
    from server.assets.models import AssetKind, AssetVersion
    from server.releases.models import Release


async def make_asset_version(
    sessionmaker: async_sessionmaker[AsyncSession],
    ws: WorkspaceFixture,
    *,
    kind: AssetKind,
    content: dict[str, Any],
    name: str | None = None,
) -> AssetVersion:
    """Version 1 of a new asset of `kind` (or version n+1 of the asset named `name`)."""
    from sqlalchemy import select

    from server.assets import service as asset_service
    from server.assets.models import Asset
    from server.datasets import versions as dataset_versions
    from server.ids import new_id

    async with sessionmaker() as session, session.begin():
        actor = actor_for(ws, Role.MEMBER)
        asset_id = None
        if name is not None:
            asset_id = await session.scalar(
                select(Asset.id).where(
                    Asset.workspace_id == ws.id, Asset.kind == kind, Asset.name == name
                )
            )
        if asset_id is None:
            asset = await asset_service.create(
                session=session, actor=actor, kind=kind, name=name or new_id(kind.value.lower())
            )
            asset_id = asset.id
        return await dataset_versions.add_asset_version(
            session=session, actor=actor, asset_id=asset_id, content=content
        )


@dataclass(frozen=True, slots=True)
class JudgeFixture:
    """A judge: a rubric and a MODEL_CONFIG on a connection."""

    connection: ModelConnection
    rubric_version_id: str
    config_version_id: str

    def check(self) -> dict[str, Any]:
        """The JUDGE_RUBRIC check that asks this judge."""
        return {
            "kind": "JUDGE_RUBRIC",
            "rubricVersionId": self.rubric_version_id,
            "judgeModelConfigVersionId": self.config_version_id,
        }


async def make_judge(
    sessionmaker: async_sessionmaker[AsyncSession],
    ws: WorkspaceFixture,
    *,
    rubric: str = "The answer is right.",
    scale: str = "PASS_FAIL",
    model: str = "judge-1",
    max_output_tokens: int = 20,
    connection: ModelConnection | None = None,
    **connection_fields: Any,
) -> JudgeFixture:
    """A rubric and a judge MODEL_CONFIG on `connection` (by default a new one named "judge",
    made with `connection_fields`: SIMULATED unless they say otherwise)."""
    from server.assets.models import AssetKind

    if connection is None:
        fields = {"name": "judge", **connection_fields}
        connection = await make_connection(sessionmaker, ws, **fields)
    rubric_version = await make_asset_version(
        sessionmaker, ws, kind=AssetKind.RUBRIC, content={"text": rubric, "scale": scale}
    )
    config = await make_asset_version(
        sessionmaker,
        ws,
        kind=AssetKind.MODEL_CONFIG,
        content={
            "connectionId": connection.id,
            "model": model,
            "maxOutputTokens": max_output_tokens,
        },
    )
    return JudgeFixture(connection, rubric_version.id, config.id)


async def make_prompt_version(
    sessionmaker: async_sessionmaker[AsyncSession],
    ws: WorkspaceFixture,
    *,
    text: str = "Answer briefly: {{ question }}",
    name: str | None = None,
) -> AssetVersion:
    """A PROMPT_TEMPLATE version with one system and one user message."""
    from server.assets.models import AssetKind

    content = {
        "messages": [
            {"role": "system", "content": "You are a careful assistant."},
            {"role": "user", "content": text},
        ]
    }
    return await make_asset_version(
        sessionmaker, ws, kind=AssetKind.PROMPT_TEMPLATE, content=content, name=name
    )


async def make_model_config_version(
    sessionmaker: async_sessionmaker[AsyncSession],
    ws: WorkspaceFixture,
    *,
    connection_id: str | None = None,
    model: str = "sim-1",
    name: str | None = None,
) -> AssetVersion:
    """A MODEL_CONFIG version on `connection_id` (a new SIMULATED connection by default)."""
    from server.assets.models import AssetKind

    if connection_id is None:
        connection_id = (await make_connection(sessionmaker, ws, name="simulated")).id
    content = {"connectionId": connection_id, "model": model, "maxOutputTokens": 256}
    return await make_asset_version(
        sessionmaker, ws, kind=AssetKind.MODEL_CONFIG, content=content, name=name
    )


async def make_release(
    sessionmaker: async_sessionmaker[AsyncSession],
    ws: WorkspaceFixture,
    *,
    name: str | None = None,
    prompt_version_id: str | None = None,
    model_config_version_id: str | None = None,
    rubric_version_id: str | None = None,
    tools_version_id: str | None = None,
) -> Release:
    """A release; the prompt template and model config are made fresh unless given."""
    from server.ids import new_id
    from server.releases import service as release_service
    from server.releases.models import BindingRole

    if prompt_version_id is None:
        prompt_version_id = (await make_prompt_version(sessionmaker, ws)).id
    if model_config_version_id is None:
        model_config_version_id = (await make_model_config_version(sessionmaker, ws)).id
    bindings = [
        (BindingRole.PROMPT_TEMPLATE, prompt_version_id),
        (BindingRole.MODEL_CONFIG, model_config_version_id),
    ]
    if rubric_version_id is not None:
        bindings.append((BindingRole.RUBRIC, rubric_version_id))
    if tools_version_id is not None:
        bindings.append((BindingRole.TOOLS, tools_version_id))
    async with sessionmaker() as session, session.begin():
        return await release_service.create(
            session=session,
            actor=actor_for(ws, Role.MEMBER),
            name=name or new_id("release"),
            bindings=bindings,
        )


# --- comparisons ---------------------------------------------------------------------------

if TYPE_CHECKING:
    from server.connections.service import Simulation
    from server.settings import Settings


def comparison_cases(
    count: int, *, holdout: int = 0, string_input: bool = False
) -> list[dict[str, Any]]:
    """`count` DEV cases then `holdout` HOLDOUT ones: `q-000`… asking "What is i + i?"."""
    cases = []
    for i in range(count + holdout):
        question = f"What is {i:03d} + {i:03d}?"
        cases.append(
            {
                "datasetItemId": f"q-{i:03d}",
                "input": question if string_input else {"question": question},
                "expected": str(2 * i),
                "split": "DEV" if i < count else "HOLDOUT",
            }
        )
    return cases


async def make_comparison_dataset(
    sessionmaker: async_sessionmaker[AsyncSession],
    ws: WorkspaceFixture,
    *,
    cases: list[dict[str, Any]],
    name: str | None = None,
) -> AssetVersion:
    """A dataset with one SEALED version holding `cases`; returns the version."""
    from server.datasets import service as dataset_service
    from server.datasets import versions as dataset_versions
    from server.ids import new_id

    async with sessionmaker() as session, session.begin():
        actor = actor_for(ws, Role.MEMBER)
        dataset = await dataset_service.create_dataset(
            session=session, actor=actor, name=name or new_id("dataset")
        )
        return await dataset_versions.create_sealed_version(
            session=session, actor=actor, asset=dataset, cases=cases
        )


@dataclass
class ComparisonSetup:
    """A dataset and one release per cohort on one connection, ready to compare."""

    workspace: WorkspaceFixture
    dataset_id: str
    dataset_version_id: str
    connection_id: str
    release_ids: list[str]
    prompt_version_ids: list[str]
    model_config_version_ids: list[str]
    dataset_item_ids: list[str]

    def input(self, **fields: Any) -> dict[str, Any]:
        """A `CreateComparisonInput` over every release (cohort 0 the candidate)."""
        return {
            "datasetVersionId": self.dataset_version_id,
            "cohorts": [{"kind": "RELEASE", "releaseId": rid} for rid in self.release_ids],
            **fields,
        }

    def labelled_cohorts(self, *labels: str) -> list[dict[str, Any]]:
        """The `cohorts` of a `CreateComparisonInput`: each release with its label, in order."""
        return [
            {"kind": "RELEASE", "releaseId": rid, "label": label}
            for rid, label in zip(self.release_ids, labels, strict=True)
        ]


async def make_comparison_setup(
    sessionmaker: async_sessionmaker[AsyncSession],
    ws: WorkspaceFixture,
    *,
    cases: int = 50,
    holdout_cases: int = 0,
    case_list: list[dict[str, Any]] | None = None,
    cohorts: int = 2,
    prompt_texts: list[str] | None = None,
    max_output_tokens: int = 256,
    connection_kind: str = "SIMULATED",
    base_url: str | None = None,
    api_key: str | None = None,
    secret_box: SecretBox | None = None,
    simulation: Simulation | None = None,
    input_cents_per_million_tokens: float = 0.0,
    output_cents_per_million_tokens: float = 0.0,
    monthly_cap_cents: float | None = None,
    max_concurrency: int = 8,
) -> ComparisonSetup:
    """Dataset (`cases` DEV + `holdout_cases` HOLDOUT, or `case_list`), one connection
    (SIMULATED by default; OPENAI_COMPATIBLE with `base_url`), and `cohorts` releases that
    differ in their prompt (`prompt_texts[i]`, default "Answer briefly (i): {{ question }}")."""
    from server.assets.models import AssetKind
    from server.ids import new_id

    all_cases = case_list or comparison_cases(cases, holdout=holdout_cases)
    version = await make_comparison_dataset(sessionmaker, ws, cases=all_cases)
    connection_fields: dict[str, Any] = {
        "input_cents_per_million_tokens": input_cents_per_million_tokens,
        "output_cents_per_million_tokens": output_cents_per_million_tokens,
        "monthly_cap_cents": monthly_cap_cents,
        "max_concurrency": max_concurrency,
    }
    if connection_kind == "SIMULATED":
        connection_fields["simulation"] = simulation
    else:
        connection_fields.update(base_url=base_url, api_key=api_key)
    connection = await make_connection(
        sessionmaker,
        ws,
        kind=connection_kind,
        name=new_id("conn"),
        secret_box=secret_box,
        **connection_fields,
    )
    texts = prompt_texts or [f"Answer briefly ({i}): {{{{ question }}}}" for i in range(cohorts)]
    setup = ComparisonSetup(
        workspace=ws,
        dataset_id=version.asset_id,
        dataset_version_id=version.id,
        connection_id=connection.id,
        release_ids=[],
        prompt_version_ids=[],
        model_config_version_ids=[],
        dataset_item_ids=[c["datasetItemId"] for c in all_cases],
    )
    for i in range(cohorts):
        prompt = await make_prompt_version(sessionmaker, ws, text=texts[i])
        config = await make_asset_version(
            sessionmaker,
            ws,
            kind=AssetKind.MODEL_CONFIG,
            content={
                "connectionId": connection.id,
                "model": f"model-{i}",
                "maxOutputTokens": max_output_tokens,
            },
        )
        release = await make_release(
            sessionmaker, ws, prompt_version_id=prompt.id, model_config_version_id=config.id
        )
        setup.release_ids.append(release.id)
        setup.prompt_version_ids.append(prompt.id)
        setup.model_config_version_ids.append(config.id)
    return setup


async def make_comparison(
    sessionmaker: async_sessionmaker[AsyncSession],
    setup: ComparisonSetup,
    *,
    trials: int = 3,
    budget_cap_cents: float | None = None,
    checks: list[dict[str, Any]] | None = None,
    settings: Settings | None = None,
    **fields: Any,
) -> str:
    """A SETUP comparison of every release of `setup`, created by a MEMBER; its id.

    `fields` are further `ComparisonSpec` fields (`split`, `sample`, `experiment_id`, …)."""
    from server.comparisons import service as comparison_service
    from server.comparisons.inputs import CohortSpec, ComparisonSpec
    from server.comparisons.models import CohortKind
    from server.settings import Settings

    spec = ComparisonSpec(
        cohorts=tuple(CohortSpec(CohortKind.RELEASE, release_id=r) for r in setup.release_ids),
        dataset_version_id=setup.dataset_version_id,
        trials_per_case=trials,
        budget_cap_cents=budget_cap_cents,
        checks=checks,
        **fields,
    )
    async with sessionmaker() as session, session.begin():
        row = await comparison_service.create(
            session=session,
            actor=actor_for(setup.workspace, Role.MEMBER),
            settings=settings or Settings.model_construct(),
            spec=spec,
        )
    return row.id


# --- datasets ------------------------------------------------------------------------------


def dataset_cases(count: int, *, holdout: int = 0, prefix: str = "case") -> list[dict[str, Any]]:
    """`count` DEV cases then `holdout` HOLDOUT ones (`case-0000`…), object inputs and tags."""
    return [
        {
            "datasetItemId": f"{prefix}-{i:04d}",
            "input": {"question": f"What is {i} + {i}?"},
            "expected": str(2 * i),
            "split": "DEV" if i < count else "HOLDOUT",
            "tags": ["arithmetic"],
        }
        for i in range(count + holdout)
    ]


async def make_dataset(
    sessionmaker: async_sessionmaker[AsyncSession],
    workspace: WorkspaceFixture,
    *,
    cases: int = 40,
    holdout: int = 0,
    name: str | None = None,
) -> AssetVersion:
    """A dataset with one SEALED version of `cases` DEV + `holdout` HOLDOUT cases; the version
    (its dataset is `version.asset_id`)."""
    from server.datasets import service as dataset_service
    from server.datasets import versions as dataset_versions
    from server.ids import new_id

    async with sessionmaker() as session, session.begin():
        actor = actor_for(workspace, Role.MEMBER)
        dataset = await dataset_service.create_dataset(
            session=session, actor=actor, name=name or new_id("dataset")
        )
        return await dataset_versions.create_sealed_version(
            session=session, actor=actor, asset=dataset, cases=dataset_cases(cases, holdout=holdout)
        )
