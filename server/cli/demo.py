"""`shipwise serve --demo`: a workspace with a 60-case dataset, two releases that differ in
their prompt template and model, and a SIMULATED connection whose deterministic script
makes the candidate regress on some cases and improve on others, so a newcomer runs a
comparison to a verdict ("Regressed vs capitals v1: −11.7 points, outside the noise")."""

from __future__ import annotations

import json
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from server.assets import service as asset_service
from server.assets.models import Asset, AssetKind, AssetVersion, VersionState
from server.cli import demo_agent
from server.connections import service as connection_service
from server.connections.models import ConnectionKind, ModelConnection
from server.datasets import service as dataset_service
from server.datasets import versions as dataset_versions
from server.releases import service as release_service
from server.releases.models import BindingRole, Release
from server.security import SecretBox
from server.workspaces import service as workspace_service
from server.workspaces.models import Member, Workspace
from server.workspaces.roles import Actor, Role

DEMO_WORKSPACE = "shipwise demo"
DEMO_OWNER = "Demo owner"
"""The demo owner's member name: a name the header shows, not the role ("owner · Owner")."""
DATASET_NAME = "Capital cities"
CONNECTION_NAME = "Simulated model"

CAPITALS = {
    "France": "Paris", "Germany": "Berlin", "Italy": "Rome", "Spain": "Madrid",
    "Portugal": "Lisbon", "Netherlands": "Amsterdam", "Belgium": "Brussels",
    "Austria": "Vienna", "Switzerland": "Bern", "Poland": "Warsaw", "Czechia": "Prague",
    "Hungary": "Budapest", "Greece": "Athens", "Sweden": "Stockholm", "Norway": "Oslo",
    "Denmark": "Copenhagen", "Finland": "Helsinki", "Ireland": "Dublin", "Iceland": "Reykjavik",
    "Estonia": "Tallinn", "Latvia": "Riga", "Lithuania": "Vilnius", "Romania": "Bucharest",
    "Bulgaria": "Sofia", "Croatia": "Zagreb", "Serbia": "Belgrade", "Slovenia": "Ljubljana",
    "Slovakia": "Bratislava", "Ukraine": "Kyiv", "Turkey": "Ankara", "Egypt": "Cairo",
    "Morocco": "Rabat", "Kenya": "Nairobi", "Nigeria": "Abuja", "Ghana": "Accra",
    "Ethiopia": "Addis Ababa", "South Africa": "Pretoria", "Japan": "Tokyo",
    "South Korea": "Seoul", "China": "Beijing", "India": "New Delhi", "Pakistan": "Islamabad",
    "Thailand": "Bangkok", "Vietnam": "Hanoi", "Indonesia": "Jakarta",
    "Philippines": "Manila", "Malaysia": "Kuala Lumpur", "Australia": "Canberra",
    "New Zealand": "Wellington", "Canada": "Ottawa", "United States": "Washington",
    "Mexico": "Mexico City", "Brazil": "Brasilia", "Argentina": "Buenos Aires",
    "Chile": "Santiago", "Peru": "Lima", "Colombia": "Bogota", "Cuba": "Havana",
    "Iran": "Tehran", "Saudi Arabia": "Riyadh",
}  # fmt: skip

BASELINE_PROMPT = "What is the capital of {{ country }}? Answer with the city only."
CANDIDATE_PROMPT = (
    "You are a careful geography tutor. Name the capital city of {{ country }}. "
    "Reply with just the city's name."
)


# Trials per case (the comparison default) of each release, by case: P passes, F fails.
# v1 (the baseline): 48 cases always right, 6 that flip (PPF), 6 always wrong. v2 (the
# candidate) loses 8 of v1's sure cases outright and flips 2 more, wins 1 of v1's wrong ones
# and steadies 2 of its flips: 45 of 60 against 52 of 60.
BASELINE_SCRIPT = ["PPP"] * 48 + ["PPF"] * 6 + ["FFF"] * 6
CANDIDATE_SCRIPT = (
    ["FFF"] * 8 + ["PPF"] * 2 + ["PPP"] * 38 + ["PPP"] * 2 + ["PPF"] * 4 + ["PPP"] + ["FFF"] * 5
)
MODELS = {"capitals v1": "sim-1", "capitals v2": "sim-2"}
INPUT_CENTS_PER_MILLION = 15.0
OUTPUT_CENTS_PER_MILLION = 60.0


def _script() -> dict[str, object]:
    """Each case's answers per model and trial: the city, or a wrong one."""
    script: dict[str, object] = {}
    for index, city in enumerate(CAPITALS.values()):
        models = {}
        for model, letters in (
            ("sim-1", BASELINE_SCRIPT[index]),
            ("sim-2", CANDIDATE_SCRIPT[index]),
        ):
            models[model] = {"trials": [city if ch == "P" else "I am not sure." for ch in letters]}
        script[f"capital-{index:02d}"] = {"models": models}
    return script


@dataclass(frozen=True)
class Demo:
    token: str
    dataset_id: str
    candidate_release_id: str
    baseline_release_id: str
    live_comparison_id: str = ""


def _cases() -> list[dict[str, object]]:
    return [
        {
            "datasetItemId": f"capital-{index:02d}",
            "input": {"country": country},
            "expected": city,
            "split": "DEV",
            "tags": ["geography"],
        }
        for index, (country, city) in enumerate(CAPITALS.items())
    ]


async def _owner(session: AsyncSession) -> Actor | None:
    """An owner of the oldest demo workspace that still has one (members can be removed, other
    workspaces can take the name)."""
    row = (
        await session.execute(
            select(Workspace.id, Member.id)
            .join(Member, Member.workspace_id == Workspace.id)
            .where(
                Workspace.name == DEMO_WORKSPACE,
                Member.role == Role.OWNER,
                Member.removed_at.is_(None),
            )
            .order_by(Workspace.created_at, Workspace.id, Member.created_at, Member.id)
            .limit(1)
        )
    ).first()
    return Actor(row[0], row[1], "cli", Role.OWNER, 600) if row else None


async def seed(*, session: AsyncSession, secret_box: SecretBox) -> Demo:
    """The demo workspace, made on the first start; later starts print a fresh owner token.

    Every start looks each demo piece up by its unique name and makes again only what is
    missing (renamed or gone), so whatever a user did with the printed token — more
    datasets, prompts, releases, comparisons, members — the next start finds its own.
    """
    actor = await _owner(session)
    if actor is None:
        workspace, issued = await workspace_service.create_workspace(
            session=session, name=DEMO_WORKSPACE, owner_name=DEMO_OWNER
        )
        actor = Actor(workspace.id, issued.token.member_id, issued.token.id, Role.OWNER, 600)
        token = issued.secret
    else:
        token = (
            await workspace_service.create_token(
                session=session, actor=actor, name="demo", member_id=actor.member_id
            )
        ).secret
    connection_id = await _connection(session, actor, secret_box)
    dataset_id = await _dataset(session, actor)
    releases = [
        await _release(session, actor, connection_id, name, text)
        for name, text in (("capitals v1", BASELINE_PROMPT), ("capitals v2", CANDIDATE_PROMPT))
    ]
    live_id = await demo_agent.seed_live(session=session, actor=actor)
    return Demo(token, dataset_id, releases[1], releases[0], live_id)


async def _connection(session: AsyncSession, actor: Actor, secret_box: SecretBox) -> str:
    found = await session.scalar(
        select(ModelConnection.id)
        .where(
            ModelConnection.workspace_id == actor.workspace_id,
            ModelConnection.name == CONNECTION_NAME,
            ModelConnection.kind == ConnectionKind.SIMULATED,
        )
        .order_by(ModelConnection.created_at, ModelConnection.id)
        .limit(1)
    )
    if found is not None:
        return found
    connection = await connection_service.create(
        session=session,
        actor=actor,
        secret_box=secret_box,
        name=CONNECTION_NAME,
        kind=ConnectionKind.SIMULATED,
        input_cents_per_million_tokens=INPUT_CENTS_PER_MILLION,
        output_cents_per_million_tokens=OUTPUT_CENTS_PER_MILLION,
        simulation=connection_service.Simulation(
            seed=7, accuracy=0.8, latency_ms=40, script=_script()
        ),
    )
    return connection.id


async def _dataset(session: AsyncSession, actor: Actor) -> str:
    """The dataset named DATASET_NAME, with a sealed version (sealed again if it has none)."""
    dataset = await _asset(session, actor, AssetKind.EVALUATION_SUITE, DATASET_NAME)
    if dataset is None:
        dataset = await dataset_service.create_dataset(
            session=session, actor=actor, name=DATASET_NAME
        )
    sealed = await session.scalar(
        select(AssetVersion.id)
        .where(AssetVersion.asset_id == dataset.id, AssetVersion.state == VersionState.SEALED)
        .limit(1)
    )
    if sealed is None:
        await dataset_versions.create_sealed_version(
            session=session, actor=actor, asset=dataset, cases=_cases()
        )
    return dataset.id


async def _release(
    session: AsyncSession, actor: Actor, connection_id: str, name: str, text: str
) -> str:
    found = await session.scalar(
        select(Release.id).where(Release.workspace_id == actor.workspace_id, Release.name == name)
    )
    if found is not None:
        return found
    config = await _version(
        session,
        actor,
        AssetKind.MODEL_CONFIG,
        f"{name} model config",
        {"connectionId": connection_id, "model": MODELS[name], "maxOutputTokens": 32},
    )
    prompt = await _version(
        session,
        actor,
        AssetKind.PROMPT_TEMPLATE,
        f"{name} prompt",
        {"messages": [{"role": "user", "content": text}]},
    )
    release = await release_service.create(
        session=session,
        actor=actor,
        name=name,
        bindings=[(BindingRole.PROMPT_TEMPLATE, prompt), (BindingRole.MODEL_CONFIG, config)],
    )
    return release.id


async def _asset(session: AsyncSession, actor: Actor, kind: AssetKind, name: str) -> Asset | None:
    found: Asset | None = await session.scalar(
        select(Asset).where(
            Asset.workspace_id == actor.workspace_id, Asset.kind == kind, Asset.name == name
        )
    )
    return found


async def _version(
    session: AsyncSession, actor: Actor, kind: AssetKind, name: str, content: dict[str, object]
) -> str:
    """A new version of the asset named `name` (made if missing) holding `content`."""
    asset = await _asset(session, actor, kind, name)
    if asset is None:
        asset = await asset_service.create(session=session, actor=actor, kind=kind, name=name)
    version = await dataset_versions.add_asset_version(
        session=session, actor=actor, asset_id=asset.id, content=content
    )
    return version.id


def instructions(demo: Demo, url: str) -> str:
    """What `serve --demo` prints: the portal's sign-in link first, then the token, GraphiQL's
    address and the steps to a decision."""
    headers = json.dumps({"Authorization": f"Bearer {demo.token}"})
    return f"""
shipwise demo is ready. Open the portal (this link signs you in):

  {url}/sign-in#token={demo.token}

  GraphiQL:  {url}/graphql
  Token:     {demo.token}
  Headers:   {headers}    (paste into GraphiQL's Headers pane)
  Clients:   export SHIPWISE_URL={url} SHIPWISE_TOKEN={demo.token}
             (what shipwise's client commands read; or --url and --token)
  Canary:    {url}/live/{demo.live_comparison_id}
             (a traced demo agent sends both releases' traffic: watch it decide)

The dataset "Capital cities" (60 cases) and two releases, "capitals v1" (the baseline) and
"capitals v2" (the candidate: a new prompt and model), run on a SIMULATED connection: no
provider is called and its answers follow a fixed script, but it is priced like a real one
({INPUT_CENTS_PER_MILLION:g} ¢ / {OUTPUT_CENTS_PER_MILLION:g} ¢ per million input / output
tokens), so the comparison shows a small, realistic cost. Paste and run, in order:

mutation Compare {{
  createComparison(input: {{
    datasetId: "{demo.dataset_id}"
    cohorts: [
      {{kind: RELEASE, releaseId: "{demo.candidate_release_id}"}}
      {{kind: RELEASE, releaseId: "{demo.baseline_release_id}"}}
    ]
  }}) {{ id status progress {{ totalCalls }} }}
}}

then, with the id it returns:

mutation Run {{
  startComparison(id: "<the id>", background: false) {{
    status stopReason spentCentsSoFar
    cohorts {{ label isCandidate passRate }}
    progress {{ doneCalls totalCalls failedCalls }}
  }}
}}

and once it is DONE (the decision and the verdict are made a moment later, verdictState
FINALIZED; the decision answers "should I ship capitals v2?" under the default policy):

query Verdict {{
  comparison(id: "<the id>") {{
    verdictState
    decision {{ outcome sentence criteria {{ kind metric status estimate low high threshold }} }}
    scorecard {{
      verdicts {{ summary outcome passRateDeltaPoints deltaLow deltaHigh
                 worseCount betterCount sameCount }}
      metrics {{ name values {{ cohortIndex value }} winners }}
      trials {{ cohortIndex passHatK flips failedOrMissingTrials }}
    }}
    cases(baselineCohortIndex: 1, first: 3) {{
      totalCount
      edges {{ node {{ datasetItemId input expected
        cohorts {{ cohortIndex passFraction trials {{ output passed }} }} }} }}
    }}
  }}
}}
"""
