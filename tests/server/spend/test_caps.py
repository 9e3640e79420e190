"""Spend limits end a run DONE with their stop reason and factual counts, leaving whole cases.

Each call costs exactly 1.5 ¢: the fake answers "fake reply" (3 output tokens by its
usage) and the connection charges 500,000 ¢ per million output tokens.
"""

from __future__ import annotations

from typing import Any

import pytest

from bench.kit.factories import ComparisonSetup, WorkspaceFixture, make_experiment, make_workspace
from bench.kit.harness import Backend
from bench.kit.openai_server import Behaviour, FakeOpenAI
from server.comparisons.models import Trial, TrialState
from server.workspaces.roles import Role
from tests.server.dispatch.api import (
    create,
    deliveries_per_trial,
    openai_setup,
    partial_cases,
    start,
    trials_of,
    wait_terminal,
)

CENTS_PER_CALL = 1.5
MICROS_PER_CENT = 10_000
MICROS_PER_CALL = round(CENTS_PER_CALL * MICROS_PER_CENT)
CAP_CENTS = 10.0
CAP_MICROS = round(CAP_CENTS * MICROS_PER_CENT)
CASES, TRIALS, COHORTS = 30, 2, 2
PER_CASE = TRIALS * COHORTS
MAX_CONCURRENCY = 2


async def _setup(backend: Backend, fake: FakeOpenAI, **fields: Any) -> ComparisonSetup:
    ws = await make_workspace(backend.sessionmaker)
    setup = await openai_setup(
        backend,
        fake,
        ws,
        cases=CASES,
        max_concurrency=MAX_CONCURRENCY,
        output_cents_per_million_tokens=500_000.0,
        **fields,
    )
    fake.behaviour = Behaviour(delay_seconds=0.05, reply="fake reply")
    return setup


async def _run(backend: Backend, ws: WorkspaceFixture, spec: dict[str, Any]) -> tuple[str, Any]:
    member = ws.tokens[Role.MEMBER]
    comparison_id = await create(backend, member, spec)
    await start(backend, member, comparison_id)
    return comparison_id, await wait_terminal(backend, member, comparison_id)


def _assert_factual(ended: dict[str, Any], trials: list[Trial], stop_reason: str) -> None:
    """DONE with `stop_reason`, counters equal to the committed rows, whole cases but one."""
    progress = ended["progress"]
    assert (ended["status"], ended["stopReason"]) == ("DONE", stop_reason)
    assert all(t.state != TrialState.ADMITTED for t in trials)
    assert progress["doneCalls"] == len(trials) < progress["totalCalls"]
    assert progress["failedCalls"] == 0
    assert [c["state"] for c in progress["cohorts"]] == ["STOPPED"] * COHORTS, "capped unfinished"
    spent_micros = sum(t.cost_micros for t in trials)
    assert spent_micros == len(trials) * CENTS_PER_CALL * MICROS_PER_CENT
    assert ended["spentCentsSoFar"] == progress["spentCentsSoFar"] == spent_micros / 10_000
    # Case-major: a stop leaves a paired set; only the cases admitted last may be partial.
    cases_with_trials = sorted({t.case_ordinal for t in trials})
    window = MAX_CONCURRENCY
    assert set(partial_cases(trials, per_case=PER_CASE)) <= set(cases_with_trials[-window:])
    assert cases_with_trials == list(range(len(cases_with_trials)))


async def test_the_budget_cap_stops_calls_once_recorded_spend_reaches_it(
    backend: Backend, fake_openai: FakeOpenAI
) -> None:
    setup = await _setup(backend, fake_openai)
    comparison_id, ended = await _run(
        backend, setup.workspace, setup.input(trialsPerCase=TRIALS, budgetCapCents=CAP_CENTS)
    )
    trials = await trials_of(backend, comparison_id)
    _assert_factual(ended, trials, "BUDGET_CAP")
    assert ended["spentCentsSoFar"] >= CAP_CENTS
    # Post-hoc: every admission saw recorded spend under the cap, so the last one came while
    # at most `under_cap` calls were recorded, and left at most what the pipeline holds
    # admitted and unrecorded (server/dispatch/pipeline.py: `window` calls out, `window`
    # waiting, a flush of 2 × `window`, grown to a whole case). The trials' timestamps cannot
    # show it: each is read when its transaction starts, not when it commits, so an admission
    # that saw the spend before the crossing record committed may carry a later time.
    under_cap = -(-CAP_MICROS // MICROS_PER_CALL) - 1
    held = 4 * MAX_CONCURRENCY + PER_CASE - 1
    assert len(trials) <= under_cap + held < CASES * PER_CASE
    sent = deliveries_per_trial(fake_openai, comparison_id)
    assert len(sent) == len(trials)


async def _earlier_run_then_capped_run(
    backend: Backend, setup: ComparisonSetup, limit_cents: float, **fields: Any
) -> tuple[dict[str, Any], dict[str, Any], list[Trial]]:
    """An earlier run spending most of the limit, then a large one; (earlier, later, the
    later one's trials). The later one alone stays under the limit even though recording
    lags a flush interval and a window of calls behind admission (spend is post-hoc)."""
    _, earlier = await _run(
        backend,
        setup.workspace,
        setup.input(trialsPerCase=1, sample={"size": 8, "seed": 1}, **fields),
    )
    assert (earlier["status"], earlier["stopReason"]) == ("DONE", "COMPLETED")
    assert earlier["spentCentsSoFar"] == 8 * COHORTS * CENTS_PER_CALL < limit_cents
    comparison_id, later = await _run(
        backend, setup.workspace, setup.input(trialsPerCase=TRIALS, **fields)
    )
    return earlier, later, await trials_of(backend, comparison_id)


@pytest.mark.parametrize("limit", ["CONNECTION_CAP", "DAILY_BUDGET"])
async def test_a_monthly_cap_or_daily_budget_counts_earlier_runs(
    backend: Backend, fake_openai: FakeOpenAI, limit: str
) -> None:
    limit_cents = 30.0
    if limit == "CONNECTION_CAP":
        setup = await _setup(backend, fake_openai, monthly_cap_cents=limit_cents)
        fields: dict[str, Any] = {}
    else:
        setup = await _setup(backend, fake_openai)
        experiment = await make_experiment(
            backend.sessionmaker, setup.workspace, daily_budget_cents=limit_cents
        )
        fields = {"experimentId": experiment.id}
    earlier, later, trials = await _earlier_run_then_capped_run(
        backend, setup, limit_cents, **fields
    )
    _assert_factual(later, trials, limit)
    # The earlier run's spend counted: this run alone stayed under the limit.
    assert later["spentCentsSoFar"] < limit_cents
    assert earlier["spentCentsSoFar"] + later["spentCentsSoFar"] >= limit_cents
