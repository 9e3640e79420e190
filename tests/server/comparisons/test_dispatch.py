"""Dispatch through the API: every trial runs once, counters come from rows, caps stop it."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import func, select

from server.comparisons.models import Trial, TrialState
from server.workspaces.roles import Role
from tests.factories import make_comparison_setup, make_workspace
from tests.harness import Backend

CREATE = """
mutation($input: CreateComparisonInput!) { createComparison(input: $input) { id status } }
"""
START = """
mutation($id: ID!, $bg: Boolean) { startComparison(id: $id, background: $bg) {
  id status stopReason errorCode
  progress { seq status doneCalls totalCalls failedCalls percent spentCentsSoFar
             cohorts { cohortIndex state } }
} }
"""
STATUS = """
query($id: ID!) { comparison(id: $id) { status stopReason errorCode
  progress { seq doneCalls totalCalls failedCalls percent etaSeconds spentCentsSoFar
             cohorts { cohortIndex state } } } }
"""


async def create(backend: Backend, token: str, setup_input: dict[str, Any]) -> str:
    data = (await backend.gql(CREATE, {"input": setup_input}, token=token)).ok()
    comparison_id: str = data["createComparison"]["id"]
    return comparison_id


async def wait_terminal(backend: Backend, token: str, comparison_id: str) -> dict[str, Any]:
    for _ in range(600):
        data = (await backend.gql(STATUS, {"id": comparison_id}, token=token)).ok()
        if data["comparison"]["status"] in ("DONE", "FAILED", "CANCELLED"):
            result: dict[str, Any] = data["comparison"]
            return result
        await asyncio.sleep(0.1)
    raise AssertionError("the comparison did not end")


async def trial_rows(backend: Backend, comparison_id: str) -> dict[str, int]:
    async with backend.sessionmaker() as session:
        rows = await session.execute(
            select(Trial.state, func.count())
            .where(Trial.comparison_id == comparison_id)
            .group_by(Trial.state)
        )
        return {state.value: int(count) for state, count in rows}


async def test_a_simulated_comparison_runs_every_trial_once(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await make_comparison_setup(backend.sessionmaker, ws, cases=24)
    member = ws.tokens[Role.MEMBER]
    comparison_id = await create(backend, member, setup.input(trialsPerCase=2))
    started = (await backend.gql(START, {"id": comparison_id, "bg": False}, token=member)).ok()[
        "startComparison"
    ]
    assert started["status"] == "DONE" and started["stopReason"] == "COMPLETED"
    progress = started["progress"]
    assert progress["totalCalls"] == progress["doneCalls"] == 24 * 2 * 2
    assert progress["percent"] == 100.0
    assert [c["state"] for c in progress["cohorts"]] == ["DONE", "DONE"]
    rows = await trial_rows(backend, comparison_id)
    assert sum(rows.values()) == 96 and rows.get("ADMITTED", 0) == 0
    assert progress["failedCalls"] == rows.get(TrialState.ERRORED.value, 0)
