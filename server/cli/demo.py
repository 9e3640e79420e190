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
from server.assets.models import AssetKind
from server.connections import service as connection_service
from server.connections.models import ConnectionKind
from server.datasets import service as dataset_service
from server.datasets import versions as dataset_versions
from server.releases import service as release_service
from server.releases.models import BindingRole
from server.security import SecretBox
from server.workspaces import service as workspace_service
from server.workspaces.models import Member, Workspace
from server.workspaces.roles import Actor, Role

DEMO_WORKSPACE = "shipwise demo"

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
    row = (
        await session.execute(
            select(Workspace.id, Member.id)
            .join(Member, Member.workspace_id == Workspace.id)
            .where(Workspace.name == DEMO_WORKSPACE, Member.role == Role.OWNER)
            .limit(1)
        )
    ).first()
    return Actor(row[0], row[1], "cli", Role.OWNER, 600) if row else None


async def seed(*, session: AsyncSession, secret_box: SecretBox) -> Demo:
    """Seed the demo workspace once; later starts reuse it and print a fresh owner token."""
    actor = await _owner(session)
    if actor is not None:
        issued = await workspace_service.create_token(
            session=session, actor=actor, name="demo", member_id=actor.member_id
        )
        return await _existing(session, issued.secret)
    workspace, issued = await workspace_service.create_workspace(
        session=session, name=DEMO_WORKSPACE
    )
    actor = Actor(workspace.id, issued.token.member_id, issued.token.id, Role.OWNER, 600)
    connection = await connection_service.create(
        session=session,
        actor=actor,
        secret_box=secret_box,
        name="Simulated model",
        kind=ConnectionKind.SIMULATED,
        input_cents_per_million_tokens=INPUT_CENTS_PER_MILLION,
        output_cents_per_million_tokens=OUTPUT_CENTS_PER_MILLION,
        simulation=connection_service.Simulation(
            seed=7, accuracy=0.8, latency_ms=40, script=_script()
        ),
    )
    dataset = await dataset_service.create_dataset(
        session=session, actor=actor, name="Capital cities"
    )
    await dataset_versions.create_sealed_version(
        session=session, actor=actor, asset=dataset, cases=_cases()
    )
    releases = []
    for name, text in (("capitals v1", BASELINE_PROMPT), ("capitals v2", CANDIDATE_PROMPT)):
        config = await _version(
            session,
            actor,
            AssetKind.MODEL_CONFIG,
            f"{name} model config",
            {"connectionId": connection.id, "model": MODELS[name], "maxOutputTokens": 32},
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
        releases.append(release.id)
    return Demo(issued.secret, dataset.id, releases[1], releases[0])


async def _version(
    session: AsyncSession, actor: Actor, kind: AssetKind, name: str, content: dict[str, object]
) -> str:
    asset = await asset_service.create(session=session, actor=actor, kind=kind, name=name)
    version = await dataset_versions.add_asset_version(
        session=session, actor=actor, asset_id=asset.id, content=content
    )
    return version.id


async def _existing(session: AsyncSession, token: str) -> Demo:
    from server.assets.models import Asset
    from server.releases.models import Release

    workspace_id = (
        await session.execute(select(Workspace.id).where(Workspace.name == DEMO_WORKSPACE))
    ).scalar_one()
    dataset_id = (
        await session.execute(
            select(Asset.id).where(
                Asset.workspace_id == workspace_id, Asset.kind == AssetKind.EVALUATION_SUITE
            )
        )
    ).scalar_one()
    releases = dict(
        (
            await session.execute(
                select(Release.name, Release.id).where(Release.workspace_id == workspace_id)
            )
        )
        .tuples()
        .all()
    )
    return Demo(token, dataset_id, releases["capitals v2"], releases["capitals v1"])


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
