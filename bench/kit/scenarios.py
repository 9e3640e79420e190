"""Scripted comparisons whose pass/fail tensors are known, driven through GraphQL.

A tensor gives, per cohort, one string per case with one letter per trial: `P` the trial
passes (the SIMULATED connection answers the expected text, which CONTAINS finds), `F` it
fails (a wrong answer), `E` it errors (`simulated_error`: failed or missing). Every cohort
gets its own SIMULATED connection scripted trial by trial.
"""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from bench.kit.factories import (
    ComparisonSetup,
    WorkspaceFixture,
    comparison_cases,
    make_asset_version,
    make_comparison_dataset,
    make_connection,
    make_prompt_version,
    make_release,
)
from bench.kit.harness import Backend
from bench.kit.waiting import API_POLL_SECONDS, eventually
from server.assets.models import AssetKind
from server.connections.service import Simulation
from server.ids import new_id
from server.workspaces.roles import Role

WRONG = "I am not sure."

CREATE = """
mutation($input: CreateComparisonInput!) { createComparison(input: $input) { id } }
"""
START = """
mutation($id: ID!, $bg: Boolean) { startComparison(id: $id, background: $bg) {
  id status stopReason } }
"""
STATE = "query($id: ID!) { comparison(id: $id) { status verdictState verdictErrorCode } }"

SCORECARD = """
query($id: ID!) { comparison(id: $id) {
  status stopReason verdictState verdictErrorCode verdict
  cohorts { cohortIndex passRate }
  shipPolicy { qualityMarginPoints alpha requireGain registeredAt sentence
    guardrails { metric maxIncreasePercent maxIncreasePoints } }
  decision { outcome reason sentence casesNeeded usableCases level
    criteria { baselineCohortIndex kind metric status reason estimate low high threshold
               corrected sentence } }
  scorecard {
    usableCases casesNotRun finalizedAt stopping { stoppedAtCases }
    metrics { name direction values { cohortIndex value } winners }
    overallWinner { cohortIndex reason votes }
    staleness { days note }
    significance { baselineCohortIndex method pValue exactPValue adjustedPValue significant
                   decides reason }
    confidence { cohortIndex passRate low high n adequacy mde intervalMethod }
    trials { cohortIndex k passHatK passAtK flips failedOrMissingTrials }
    failureAnalysis { improved regressed bothWrong agree }
    verdicts { baselineCohortIndex outcome reason passRateDeltaPoints deltaLow deltaHigh
               outsideNoise mde worseCount betterCount sameCount sensitivityDeltaPoints
               pairwise { winRate } summary }
  } } }
"""


def script_of(
    outcomes: list[str], cases: list[dict[str, Any]], *, style: str = ""
) -> dict[str, Any]:
    """A SIMULATED script answering each case's trials as `outcomes` says; `style` ends every
    answer (a cohort's phrasing, which a judge may favour)."""
    script: dict[str, Any] = {}
    for case, letters in zip(cases, outcomes, strict=True):
        answers: list[Any] = []
        for letter in letters:
            if letter == "P":
                answers.append(case["expected"] + style)
            elif letter == "F":
                answers.append(WRONG + style)
            else:
                answers.append({"error": True})
        script[case["datasetItemId"]] = {"trials": answers}
    return script


async def scripted_setup(
    sessionmaker: async_sessionmaker[AsyncSession],
    ws: WorkspaceFixture,
    tensor: list[list[str]],
    *,
    input_cents_per_million_tokens: float | list[float] = 0.0,
    output_cents_per_million_tokens: float | list[float] = 0.0,
    latency_ms: list[int] | None = None,
    split: str = "DEV",
    styles: list[str] | None = None,
) -> ComparisonSetup:
    """A dataset of len(tensor[0]) cases (all in `split`) and one release per cohort on its
    own connection (prices: one for every connection, or one per cohort); `styles`: each
    cohort's answer ending (`script_of`)."""
    cases = [{**case, "split": split} for case in comparison_cases(len(tensor[0]))]
    version = await make_comparison_dataset(sessionmaker, ws, cases=cases)
    setup = ComparisonSetup(
        workspace=ws,
        dataset_id=version.asset_id,
        dataset_version_id=version.id,
        connection_id="",
        release_ids=[],
        prompt_version_ids=[],
        model_config_version_ids=[],
        dataset_item_ids=[c["datasetItemId"] for c in cases],
    )
    for index, outcomes in enumerate(tensor):
        connection = await make_connection(
            sessionmaker,
            ws,
            name=new_id("sim"),
            simulation=Simulation(
                script=script_of(outcomes, cases, style=(styles or [""] * len(tensor))[index]),
                latency_ms=(latency_ms or [0] * len(tensor))[index],
            ),
            input_cents_per_million_tokens=_each(input_cents_per_million_tokens, index),
            output_cents_per_million_tokens=_each(output_cents_per_million_tokens, index),
            max_concurrency=16,
        )
        setup.connection_id = setup.connection_id or connection.id
        prompt = await make_prompt_version(
            sessionmaker, ws, text=f"Answer briefly ({index}): {{{{ question }}}}"
        )
        config = await make_asset_version(
            sessionmaker,
            ws,
            kind=AssetKind.MODEL_CONFIG,
            content={"connectionId": connection.id, "model": f"sim-{index}", "maxOutputTokens": 64},
        )
        release = await make_release(
            sessionmaker, ws, prompt_version_id=prompt.id, model_config_version_id=config.id
        )
        setup.release_ids.append(release.id)
        setup.prompt_version_ids.append(prompt.id)
        setup.model_config_version_ids.append(config.id)
    return setup


def _each(price: float | list[float], index: int) -> float:
    return price[index] if isinstance(price, list) else price


async def run_comparison(
    backend: Backend, token: str, spec: dict[str, Any], *, background: bool = False
) -> str:
    """Create and run a comparison, in the foreground unless `background` (a long run: the
    request would outlast the client's 30 s on a loaded host); its id."""
    created = (await backend.gql(CREATE, {"input": spec}, token=token)).ok()
    comparison_id: str = created["createComparison"]["id"]
    (await backend.gql(START, {"id": comparison_id, "bg": background}, token=token)).ok()
    return comparison_id


async def wait_finalized(
    backend: Backend, token: str, comparison_id: str, *, timeout: float = 60
) -> dict[str, Any]:
    """The comparison once dispatch ended and finalization settled (finalized or failed)."""

    async def state() -> dict[str, Any]:
        found = await backend.gql(STATE, {"id": comparison_id}, token=token)
        return cast(dict[str, Any], found.ok()["comparison"])

    return await eventually(
        state,
        until=lambda s: s["verdictState"] == "FINALIZED" or s["verdictErrorCode"],
        timeout=timeout,
        what="finalized",
        interval=API_POLL_SECONDS,
    )


HOSTED_RUNS = """query($id: ID!) { comparison(id: $id) { experiment { id } } }"""
RUNS = """query($e: ID!) { runs(experimentId: $e, first: 100) {
  edges { node { id source status itemCount comparisonId cohortIndex completedAt } } } }"""


async def hosted_runs_of(backend: Backend, token: str, comparison_id: str) -> list[dict[str, Any]]:
    """The comparison's hosted runs as `runs(experimentId)` lists them, by cohort."""
    found = (await backend.gql(HOSTED_RUNS, {"id": comparison_id}, token=token)).ok()
    listing = await backend.gql(RUNS, {"e": found["comparison"]["experiment"]["id"]}, token=token)
    runs = [e["node"] for e in listing.ok()["runs"]["edges"]]
    mine = [r for r in runs if r["comparisonId"] == comparison_id]
    return sorted(mine, key=lambda r: int(r["cohortIndex"]))


async def wait_hosted_runs(
    backend: Backend, token: str, comparison_id: str, *, timeout: float = 60
) -> list[dict[str, Any]]:
    """The comparison's hosted runs once all are COMPLETED (their items follow the verdict)."""
    return await eventually(
        lambda: hosted_runs_of(backend, token, comparison_id),
        until=lambda runs: bool(runs) and {r["status"] for r in runs} == {"COMPLETED"},
        timeout=timeout,
        what="hosted runs completed",
    )


async def scorecard_of(backend: Backend, token: str, comparison_id: str) -> dict[str, Any]:
    data = (await backend.gql(SCORECARD, {"id": comparison_id}, token=token)).ok()
    comparison: dict[str, Any] = data["comparison"]
    return comparison


async def finalized(
    backend: Backend, setup: ComparisonSetup, **fields: Any
) -> tuple[str, dict[str, Any]]:
    """Run a comparison of every release of `setup` (as a MEMBER) to its finalized scorecard
    and completed hosted runs: (its id, the comparison with its scorecard)."""
    member = setup.workspace.tokens[Role.MEMBER]
    comparison_id = await run_comparison(backend, member, setup.input(**fields))
    state = await wait_finalized(backend, member, comparison_id)
    assert state["verdictState"] == "FINALIZED", state
    await wait_hosted_runs(backend, member, comparison_id)
    return comparison_id, await scorecard_of(backend, member, comparison_id)
