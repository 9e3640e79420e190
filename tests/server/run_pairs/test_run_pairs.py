"""`pairwiseComparison` on two imported runs, judged by a fake judge on 127.0.0.1 (both
backends: the job runs embedded or in a real worker). Every statistic is recomputed here."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from scipy import stats as scipy_stats
from sqlalchemy import select

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.audit.models import AuditEvent
from server.workspaces.roles import Role
from tests.fakes.judge_server import FakeJudge
from tests.server.run_pairs.api import JOB, create, judge_versions, wait_done
from tests.server.runs.api import experiment, import_run

ITEMS = 12
TRIALS = 2
GAP = [0, 0, 0, 0, 2, 2, 2, 2, 1, 1, -1, -1]
"""Candidate quality minus baseline quality, per item."""
SCORES = {0: 0.0, 1: 0.4, 2: 1.0, -1: -0.4, -2: -1.0}
BASELINE_PASSES = {0, 1, 2, 3, 4, 5}
CANDIDATE_PASSES = {1, 2, 3, 4, 5, 6, 7, 8, 9}
SPEND = "{ modelConnections { edges { node { name monthToDateSpentCents } } } }"


def runs(markers: dict[int, tuple[str, str]] | None = None) -> tuple[list[Any], list[Any]]:
    """(candidate, baseline) items; `markers` adds failure markers to an item's outputs."""
    candidate: list[Any] = []
    baseline: list[Any] = []
    for n in range(ITEMS):
        mark_c, mark_b = (markers or {}).get(n, ("", ""))
        for side, quality, passes, tokens, wall, mark in (
            (candidate, 3 + GAP[n], CANDIDATE_PASSES, 80 + 4 * n, 10 + 30 * (n % 2), mark_c),
            (baseline, 3, BASELINE_PASSES, 100, 10, mark_b),
        ):
            trials = [
                {
                    "passed": n in passes,
                    "output": f"answer {n}/{t} quality={quality}{mark}",
                    "metrics": {"tokens": tokens, "wallMs": wall},
                }
                for t in range(TRIALS)
            ]
            side.append({"datasetItemId": f"i{n:02d}", "input": f"task {n}", "trials": trials})
    baseline.reverse()  # paired by id, not position
    return candidate, baseline


def judge_calls(judge: FakeJudge) -> list[Any]:
    return [r for r in judge.requests if r.path.endswith("/chat/completions")]


def t_interval(values: np.ndarray) -> tuple[float, float]:
    half = scipy_stats.t.ppf(0.975, len(values) - 1) * values.std(ddof=1) / np.sqrt(len(values))
    return max(-1.0, values.mean() - half), min(1.0, values.mean() + half)


def sign_flip_p(values: np.ndarray) -> float:
    observed = abs(values.mean())
    flips = np.array(list(itertools.product((1.0, -1.0), repeat=len(values))))
    return float(np.mean(np.abs((flips * values).mean(axis=1)) >= observed - 1e-12))


def mid_p(improved: int, regressed: int) -> float:
    m, k = improved + regressed, min(improved, regressed)
    return float(2 * (scipy_stats.binom.cdf(k, m, 0.5) - 0.5 * scipy_stats.binom.pmf(k, m, 0.5)))


async def two_runs(backend: Backend, markers: dict[int, tuple[str, str]] | None = None) -> Any:
    ws = await make_workspace(backend.sessionmaker)
    exp = await experiment(backend, ws.owner)
    candidate_items, baseline_items = runs(markers)
    baseline = await import_run(backend, ws.owner, exp, baseline_items, key="b")
    candidate = await import_run(backend, ws.owner, exp, candidate_items, key="c")
    return ws, exp, candidate, baseline


async def test_position_bias_gives_ties_and_better_outputs_win_in_both_orders(
    backend: Backend, judge: FakeJudge
) -> None:
    ws, _, candidate, baseline = await two_runs(backend)
    rubric, config = await judge_versions(backend, ws, judge)
    token = ws.tokens[Role.MEMBER]
    created = (await create(backend, token, candidate, baseline, rubric, config)).ok()
    job = created["pairwiseComparison"]
    assert job["status"] in ("QUEUED", "RUNNING", "DONE")
    done = await wait_done(backend, ws.tokens[Role.VIEWER], job["id"])
    assert done["status"] == "DONE", done
    result = done["result"]
    pairs = ITEMS * TRIALS
    assert done["judgedPairs"] == done["totalPairs"] == pairs
    assert result["judgedPairs"] == result["totalPairs"] == pairs
    assert result["note"] == f"Judged {pairs} of {pairs} matched pairs"
    assert result["partial"] is False and result["failures"] == []
    assert len(judge_calls(judge)) == 2 * pairs, "each pair judged once in each order"

    # Equal outputs: the bias makes the orders disagree, so they are ties; better ones win.
    scores = np.array([SCORES[g] for g in GAP])
    per_pair = np.repeat(scores, TRIALS)
    assert result["winRate"] == pytest.approx(np.mean(per_pair > 0))
    assert result["tieRate"] == pytest.approx(np.mean(per_pair == 0))
    assert result["lossRate"] == pytest.approx(np.mean(per_pair < 0))
    equal = np.repeat(np.array(GAP) == 0, TRIALS)
    assert result["orderDisagreementRate"] == pytest.approx(equal.mean())
    assert result["meanScore"] == pytest.approx(scores.mean())
    low, high = t_interval(scores)
    assert result["low"] == pytest.approx(low) and result["high"] == pytest.approx(high)
    assert result["pValue"] == pytest.approx(sign_flip_p(scores))
    assert result["regression"] is False

    improved = len(CANDIDATE_PASSES - BASELINE_PASSES)
    regressed = len(BASELINE_PASSES - CANDIDATE_PASSES)
    mcnemar = result["mcnemar"]
    assert (mcnemar["improved"], mcnemar["regressed"], mcnemar["n"]) == (
        improved,
        regressed,
        ITEMS,
    )
    assert mcnemar["pValue"] == pytest.approx(mid_p(improved, regressed))
    assert mcnemar["exactPValue"] == pytest.approx(
        scipy_stats.binomtest(min(improved, regressed), improved + regressed).pvalue
    )

    deltas = {d["name"]: d for d in result["metricDeltas"]}
    assert set(deltas) == {"tokens", "wallMs"}
    for name, differences, base in (
        ("tokens", np.array([80 + 4 * n - 100 for n in range(ITEMS)], float), 100.0),
        ("wallMs", np.array([30.0 * (n % 2) for n in range(ITEMS)]), 10.0),
    ):
        half = scipy_stats.t.ppf(0.975, ITEMS - 1) * differences.std(ddof=1) / np.sqrt(ITEMS)
        assert deltas[name]["delta"] == pytest.approx(differences.mean())
        assert deltas[name]["low"] == pytest.approx(differences.mean() - half)
        assert deltas[name]["high"] == pytest.approx(differences.mean() + half)
        assert deltas[name]["baselineMean"] == pytest.approx(base)
        assert deltas[name]["highVariance"] is bool(differences.std(ddof=1) > base)
    assert deltas["wallMs"]["highVariance"] is True and deltas["tokens"]["highVariance"] is False
    assert done["spentCents"] > 0, "the judge's calls are priced"
    spend = await backend.gql(SPEND, token=ws.owner)
    [connection] = [
        e["node"] for e in spend.ok()["modelConnections"]["edges"] if e["node"]["name"] == "judge"
    ]
    assert connection["monthToDateSpentCents"] == pytest.approx(done["spentCents"])

    # Neutral names: neither run's id nor its role reaches the judge.
    for request in judge_calls(judge):
        text = str(request.body)
        assert candidate not in text and baseline not in text
        assert "candidate" not in text.lower() and "baseline" not in text.lower()


async def test_failed_pairs_keep_diagnostics_and_statistics_cover_judged_pairs_only(
    backend: Backend, judge: FakeJudge
) -> None:
    markers = {
        0: ("[judge:429-once]", ""),  # recovers on its retry: no trace
        4: ("[judge:404]", ""),  # terminal, both orders
        8: ("[judge:429-as-A]", "[judge:404-as-A]"),  # each order fails differently
    }
    ws, _, candidate, baseline = await two_runs(backend, markers)
    rubric, config = await judge_versions(backend, ws, judge)
    token = ws.tokens[Role.MEMBER]
    job = (await create(backend, token, candidate, baseline, rubric, config)).ok()
    done = await wait_done(backend, token, job["pairwiseComparison"]["id"])
    result = done["result"]
    pairs = ITEMS * TRIALS
    failed_items = {4, 8}
    judged = pairs - TRIALS * len(failed_items)
    assert done["judgedPairs"] == result["judgedPairs"] == judged
    assert result["totalPairs"] == pairs and result["partial"] is True
    assert result["note"] == f"Judged {judged} of {pairs} matched pairs"

    failures = {(f["datasetItemId"], f["trialIndex"]): f for f in result["failures"]}
    assert set(failures) == {(f"i{n:02d}", t) for n in failed_items for t in range(TRIALS)}
    terminal = failures[("i04", 0)]
    assert terminal["errorClass"] == "http_error" and terminal["retryable"] is False
    assert terminal["attempts"] == 1 and terminal["model"] == "judge-1"
    assert "404" in terminal["message"] and terminal["otherMessages"] == []
    mixed = failures[("i08", 1)]
    # Forward (the baseline as A) is the representative order: 404, terminal at once.
    assert mixed["errorClass"] == "http_error" and mixed["attempts"] == 1
    assert mixed["retryable"] is False, "retryable only when every failed order was"
    assert mixed["otherMessages"] == ["HTTP 429 from the judge (rate limited)"]
    assert len(judge.prompts_with("[judge:429-as-A]")) == 2 * (1 + 3), "3 attempts of 429s"

    # Statistics over the judged pairs only: items 4 and 8 are left out.
    kept = [n for n in range(ITEMS) if n not in failed_items]
    scores = np.array([SCORES[GAP[n]] for n in kept])
    assert result["meanScore"] == pytest.approx(scores.mean())
    low, high = t_interval(scores)
    assert result["low"] == pytest.approx(low) and result["high"] == pytest.approx(high)
    assert result["winRate"] == pytest.approx(np.mean(scores > 0))
    assert result["mcnemar"]["n"] == len(kept)
    tokens = {d["name"]: d for d in result["metricDeltas"]}["tokens"]
    assert tokens["n"] == len(kept)
    assert tokens["delta"] == pytest.approx(np.mean([4 * n - 20 for n in kept]))


async def test_no_pair_judged_gives_no_statistics(backend: Backend, judge: FakeJudge) -> None:
    markers = dict.fromkeys(range(ITEMS), ("[judge:404]", ""))
    ws, _, candidate, baseline = await two_runs(backend, markers)
    rubric, config = await judge_versions(backend, ws, judge)
    token = ws.tokens[Role.MEMBER]
    job = (await create(backend, token, candidate, baseline, rubric, config)).ok()
    done = await wait_done(backend, token, job["pairwiseComparison"]["id"])
    result = done["result"]
    assert done["status"] == "DONE" and result["judgedPairs"] == 0
    assert result["note"] == "No statistics available — every matched pair failed"
    for field in ("winRate", "tieRate", "lossRate", "meanScore", "low", "high", "pValue"):
        assert result[field] is None, field
    assert result["orderDisagreementRate"] is None
    assert result["mcnemar"] is None and result["metricDeltas"] == []
    assert len(result["failures"]) == ITEMS * TRIALS and result["regression"] is False


async def test_a_multi_turn_item_gives_the_judge_the_whole_conversation(
    backend: Backend, judge: FakeJudge
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    exp = await experiment(backend, ws.owner)
    turns = [
        {"role": "user", "content": "my name is Ada"},
        {"role": "assistant", "content": "hello Ada"},
        {"role": "user", "content": "what is my name?"},
    ]

    def item(quality: int) -> dict[str, Any]:
        return {"input": turns, "trials": [{"output": f"Ada quality={quality}"}]}

    baseline = await import_run(backend, ws.owner, exp, [item(3)], key="b")
    candidate = await import_run(backend, ws.owner, exp, [item(5)], key="c")
    rubric, config = await judge_versions(backend, ws, judge)
    token = ws.tokens[Role.MEMBER]
    job = (await create(backend, token, candidate, baseline, rubric, config)).ok()
    done = await wait_done(backend, token, job["pairwiseComparison"]["id"])
    assert done["result"]["winRate"] == 1.0 and done["result"]["meanScore"] == 1.0
    prompts = judge.prompts_with("what is my name?")
    assert len(prompts) == 2
    assert all("my name is Ada" in str(p.body) and "hello Ada" in str(p.body) for p in prompts)


async def test_refusals_scoping_and_audit(backend: Backend, judge: FakeJudge) -> None:
    ws, exp, candidate, baseline = await two_runs(backend)
    rubric, config = await judge_versions(backend, ws, judge)
    viewer = await create(backend, ws.tokens[Role.VIEWER], candidate, baseline, rubric, config)
    assert viewer.codes == ["FORBIDDEN"]
    running = await import_run(backend, ws.owner, exp, runs()[0], key="r", complete=False)
    refused = await create(backend, ws.tokens[Role.MEMBER], running, baseline, rubric, config)
    assert refused.codes == ["CONFLICT"]
    assert refused.errors[0]["extensions"]["reason"] == "RUN_NOT_COMPLETED"
    wrong = await create(backend, ws.tokens[Role.MEMBER], candidate, baseline, config, rubric)
    assert wrong.codes == ["VALIDATION_FAILED"]

    other = await make_workspace(backend.sessionmaker)
    elsewhere = await create(backend, other.owner, candidate, baseline, rubric, config)
    assert elsewhere.codes == ["NOT_FOUND"]

    job = (await create(backend, ws.tokens[Role.MEMBER], candidate, baseline, rubric, config)).ok()
    job_id = job["pairwiseComparison"]["id"]
    hidden = await backend.gql(JOB, {"id": job_id}, token=other.owner)
    assert hidden.codes == ["NOT_FOUND"]
    await wait_done(backend, ws.owner, job_id)
    async with backend.sessionmaker() as session:
        actions = list(
            await session.scalars(select(AuditEvent.action).where(AuditEvent.workspace_id == ws.id))
        )
    assert actions.count("pairwise.create") == 1, "only the accepted request is audited"


async def test_a_simulated_judge_is_deterministic_and_shown_as_simulated(
    backend: Backend, judge: FakeJudge
) -> None:
    ws, _, candidate, baseline = await two_runs(backend)
    rubric, config = await judge_versions(backend, ws, judge, simulated=True)
    token = ws.tokens[Role.MEMBER]
    results = []
    for _ in range(2):
        job = (await create(backend, token, candidate, baseline, rubric, config)).ok()
        results.append((await wait_done(backend, token, job["pairwiseComparison"]["id"]))["result"])
    assert results[0] == results[1]
    assert results[0]["simulated"] is True and results[0]["judgedPairs"] == ITEMS * TRIALS
    assert judge_calls(judge) == [], "a simulated judge calls nothing"
