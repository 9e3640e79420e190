"""Sequential stopping with pairwise judging: a run decided early still judges every case it
dispatched before it ends (a stop never leaves a pairwise stage pending)."""

from __future__ import annotations

import random
from typing import Any

from sqlalchemy import select

from bench.kit.factories import make_comparison_setup, make_workspace
from bench.kit.harness import Backend
from bench.kit.scenarios import WRONG
from server.comparisons.models import Trial, TrialState
from server.connections.service import Simulation
from server.workspaces.roles import Role
from tests.fakes.judge_server import FakeJudge
from tests.server.run_pairs.api import judge_versions
from tests.server.run_pairs.test_run_pairs import judge_calls

CASES = 200
CREATE = "mutation($i: CreateComparisonInput!) { createComparison(input: $i) { id } }"
START = """mutation($id: ID!) { startComparison(id: $id, background: false) {
  status stopReason progress { doneCalls totalCalls } } }"""


def script() -> dict[str, Any]:
    """A 15-point regression: the candidate misses a sixth of the cases the baseline gets."""
    rng = random.Random(5)
    found: dict[str, Any] = {}
    for i in range(CASES):
        base = rng.random() < 0.9
        cand = base and rng.random() >= 1 / 6
        found[f"q-{i:03d}"] = {
            "models": {
                "model-0": f"{2 * i if cand else WRONG} quality=3",
                "model-1": f"{2 * i if base else WRONG} quality=3",
            }
        }
    return found


async def test_a_run_decided_early_judges_every_case_it_dispatched(
    backend: Backend, judge: FakeJudge
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await make_comparison_setup(
        backend.sessionmaker, ws, cases=CASES, simulation=Simulation(script=script())
    )
    rubric, config = await judge_versions(backend, ws, judge)
    token = ws.tokens[Role.MEMBER]
    spec = setup.input(
        trialsPerCase=1,
        pairwise={"rubricVersionId": rubric, "judgeModelConfigVersionId": config},
        stopping={"rule": "ANYTIME_VALID", "minCases": 50, "lookEveryCases": 25},
    )
    created = (await backend.gql(CREATE, {"i": spec}, token=token)).ok()
    comparison_id = created["createComparison"]["id"]
    ended = (await backend.gql(START, {"id": comparison_id}, token=token)).ok()["startComparison"]
    assert (ended["status"], ended["stopReason"]) == ("DONE", "DECIDED_EARLY")
    async with backend.sessionmaker() as session:
        rows = (
            await session.execute(
                select(Trial.case_ordinal, Trial.cohort_index).where(
                    Trial.comparison_id == comparison_id, Trial.state == TrialState.COMPLETED
                )
            )
        ).all()
    cohorts_of: dict[int, set[int]] = {}
    for ordinal, cohort in rows:
        cohorts_of.setdefault(int(ordinal), set()).add(int(cohort))
    dispatched = [o for o, cohorts in cohorts_of.items() if cohorts == {0, 1}]
    assert 0 < len(dispatched) < CASES
    assert len(judge_calls(judge)) == 2 * len(dispatched), "each dispatched pair, both orders"
