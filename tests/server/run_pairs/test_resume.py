"""A pairwise job checkpoints each slice before its judge calls: it hands over and resumes
from recorded pairs, and a pair admitted without a recorded outcome is never re-sent."""

from __future__ import annotations

import numpy as np
import pytest
from sqlalchemy import insert

from bench.kit.factories import actor_for
from bench.kit.harness import Backend
from jobs.run_pairs import judge_run_pair
from server.run_pairs import execute, service
from server.run_pairs.models import PairState, PairwisePair
from server.security import SecretBox
from server.workspaces.roles import Role
from tests.fakes.judge_server import FakeJudge
from tests.server.run_pairs.api import judge_versions, wait_done
from tests.server.run_pairs.test_run_pairs import (
    GAP,
    ITEMS,
    SCORES,
    TRIALS,
    judge_calls,
    two_runs,
)


async def _job(backend: Backend, judge: FakeJudge) -> tuple[str, str]:
    """A QUEUED job made by the service (no job enqueued); its id and a member token."""
    ws, _, candidate, baseline = await two_runs(backend)
    rubric, config = await judge_versions(backend, ws, judge)
    async with backend.sessionmaker() as session, session.begin():
        job = await service.create(
            session=session,
            actor=actor_for(ws, Role.MEMBER),
            candidate_run_id=candidate,
            baseline_run_id=baseline,
            rubric_version_id=rubric,
            judge_model_config_version_id=config,
        )
    return job.id, ws.tokens[Role.MEMBER]


async def test_an_admitted_pair_without_an_outcome_is_never_re_sent(
    backend: Backend, judge: FakeJudge
) -> None:
    job_id, token = await _job(backend, judge)
    # What a crash leaves: pair 0 admitted (its calls maybe sent), pair 1 recorded as +1.
    async with backend.sessionmaker() as session, session.begin():
        await session.execute(
            insert(PairwisePair),
            [
                {"job_id": job_id, "pair_index": 0, "state": PairState.ADMITTED},
                {
                    "job_id": job_id,
                    "pair_index": 1,
                    "state": PairState.DONE,
                    "forward": 1.0,
                    "reverse": 1.0,
                },
            ],
        )
    ctx = {
        "sessionmaker": backend.sessionmaker,
        "queue": backend.state.queue,
        "settings": backend.settings,
    }
    assert await judge_run_pair(ctx, job_id) == "done"
    done = await wait_done(backend, token, job_id)
    pairs = ITEMS * TRIALS
    assert len(judge_calls(judge)) == 2 * (pairs - 2), "neither pair 0 nor pair 1 is re-sent"
    result = done["result"]
    assert result["judgedPairs"] == pairs - 1
    [ambiguous] = result["failures"]
    assert ambiguous["errorClass"] == "outcome_ambiguous" and ambiguous["retryable"] is False
    # Pairs 0 and 1 are the baseline's first item by position: i11 (the runs are reversed).
    assert (ambiguous["datasetItemId"], ambiguous["trialIndex"]) == ("i11", 0)
    scores = np.array([SCORES[g] for g in GAP])
    scores[ITEMS - 1] = 1.0  # only its recorded pair counts
    assert result["meanScore"] == pytest.approx(scores.mean())


async def test_a_job_hands_over_after_its_budget_and_resumes_without_re_sending(
    backend: Backend, judge: FakeJudge, monkeypatch: pytest.MonkeyPatch
) -> None:
    job_id, token = await _job(backend, judge)
    monkeypatch.setattr(execute, "SLICE", 4)
    outcome = await execute.judge_job(
        sessionmaker=backend.sessionmaker,
        queue=backend.state.queue,
        secrets=SecretBox(backend.settings.resolved_secret_key()),
        job_id=job_id,
        timeout_seconds=10,
        budget_seconds=0,
    )
    assert outcome == "handed over"
    done = await wait_done(backend, token, job_id)
    pairs = ITEMS * TRIALS
    assert done["status"] == "DONE" and done["result"]["judgedPairs"] == pairs
    assert len(judge_calls(judge)) == 2 * pairs, "every pair judged once in each order"
    scores = np.array([SCORES[g] for g in GAP])
    assert done["result"]["meanScore"] == pytest.approx(scores.mean())
