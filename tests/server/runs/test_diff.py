"""`runDiff` through GraphQL on both backends; statistics checked against scipy/statsmodels."""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np
import pytest
from scipy import stats as scipy_stats
from sqlalchemy import func, select
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.db import utcnow
from server.ids import new_id
from server.runs import diff as run_diff
from server.runs import item_store
from server.runs import service as run_service
from server.runs.items import check_chunk
from server.runs.models import Run, RunDiffSummary, RunSource, RunStatus, RunVector
from server.workspaces.roles import Role
from tests.server.runs.api import FAIL, diff, experiment, import_run, item

N = 40
REGRESSED_IDS = (1, 2, 3, 5, 6, 7, 9, 10)
IMPROVED_IDS = (0,)


def single_trial_runs() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Baseline passes 30 of 40; the candidate loses 8 of them and gains one."""
    baseline: list[dict[str, Any]] = []
    candidate: list[dict[str, Any]] = []
    for n in range(N):
        before = n % 4 != 0
        after = (before and n not in REGRESSED_IDS) or n in IMPROVED_IDS
        for side, grade in ((baseline, before), (candidate, after)):
            side.append(
                item(grade, item_id=f"i{n:02d}", scores={"judge": float(grade), "style": 0.5})
            )
    baseline.reverse()  # paired by id, not by position
    return candidate, baseline


def mid_p(improved: int, regressed: int) -> float:
    m, k = improved + regressed, min(improved, regressed)
    return float(2 * (scipy_stats.binom.cdf(k, m, 0.5) - 0.5 * scipy_stats.binom.pmf(k, m, 0.5)))


async def test_single_trial_pass_fail_uses_mcnemar_mid_p_and_holm_per_evaluator(
    backend: Backend,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    exp = await experiment(backend, ws.owner)
    candidate_items, baseline_items = single_trial_runs()
    baseline = await import_run(backend, ws.owner, exp, baseline_items, key="b", chunk=15)
    candidate = await import_run(backend, ws.owner, exp, candidate_items, key="c")
    result = await diff(backend, ws.tokens[Role.VIEWER], candidate, baseline)
    summary = result.ok()["runDiff"]["summary"]
    assert summary["pairing"] == "DATASET_ITEM_ID" and summary["pairedCount"] == N
    assert summary["baselinePassRate"] == pytest.approx(30 / 40)
    assert summary["candidatePassRate"] == pytest.approx(23 / 40)
    assert summary["passRateDelta"] == pytest.approx(-7 / 40)
    assert summary["method"] == "MCNEMAR_MID_P"
    assert summary["pValue"] == pytest.approx(mid_p(1, 8))
    table = [[22, 1], [8, 9]]  # rows: baseline pass/fail; columns: candidate pass/fail
    assert summary["exactPValue"] == pytest.approx(mcnemar(table, exact=True).pvalue)
    assert summary["significant"] is True
    assert summary["significanceReason"] == "SIGNIFICANT_REGRESSION"
    counts = ("regressedCount", "improvedCount", "unchangedCount", "addedCount", "removedCount")
    assert [summary[k] for k in counts] == [8, 1, 31, 0, 0]

    differences = np.array([-1.0] * 8 + [1.0] + [0.0] * 31)
    reference = scipy_stats.bootstrap(
        (differences,), np.mean, method="BCa", n_resamples=9999, random_state=1
    ).confidence_interval
    assert summary["intervalMethod"] in ("BOOTSTRAP_BCA", "BOOTSTRAP_PERCENTILE")
    assert summary["deltaLow"] == pytest.approx(reference.low, abs=0.03)
    assert summary["deltaHigh"] == pytest.approx(reference.high, abs=0.03)

    judge, style = summary["evaluators"]
    assert (judge["name"], style["name"]) == ("judge", "style")
    # Sign flips of nine ±1 differences summing to −7: |T| ≥ 7 in 20 of 512 patterns.
    assert judge["pValue"] == pytest.approx(20 / 512)
    assert style["pValue"] == 1.0 and style["delta"] == 0.0
    holm = multipletests([judge["pValue"], style["pValue"]], method="holm")[1]
    assert [judge["adjustedPValue"], style["adjustedPValue"]] == pytest.approx(list(holm))
    assert judge["delta"] == pytest.approx(-7 / 40) and judge["significant"] is False
    assert judge["baselineMean"] == pytest.approx(0.75) and judge["pairedCount"] == N


async def test_regressed_cases_page_with_their_evaluator_deltas(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    exp = await experiment(backend, ws.owner)
    candidate_items, baseline_items = single_trial_runs()
    baseline = await import_run(backend, ws.owner, exp, baseline_items, key="b")
    candidate = await import_run(backend, ws.owner, exp, candidate_items, key="c")
    first = (
        await diff(backend, ws.owner, candidate, baseline, case_filter="REGRESSED", first=5)
    ).ok()
    cases = first["runDiff"]["cases"]
    assert cases["totalCount"] == 8 and cases["pageInfo"]["hasNextPage"]
    after = cases["pageInfo"]["endCursor"]
    rest = await diff(backend, ws.owner, candidate, baseline, case_filter="REGRESSED", after=after)
    nodes = [e["node"] for e in cases["edges"] + rest.ok()["runDiff"]["cases"]["edges"]]
    assert [n["datasetItemId"] for n in nodes] == [f"i{n:02d}" for n in REGRESSED_IDS]
    assert {n["status"] for n in nodes} == {"REGRESSED"} and all(n["passFlip"] for n in nodes)
    node = nodes[0]
    assert node["position"] == 1 and node["baselinePosition"] == N - 2
    assert (node["candidatePassFraction"], node["baselinePassFraction"]) == (0.0, 1.0)
    assert node["input"] == "q-i01"
    assert node["evaluators"] == [
        {"name": "judge", "baselineMean": 1.0, "candidateMean": 0.0, "delta": -1.0,
         "status": "REGRESSED", "significant": False},
        {"name": "style", "baselineMean": 0.5, "candidateMean": 0.5, "delta": 0.0,
         "status": "UNCHANGED", "significant": False},
    ]  # fmt: skip
    improved = await diff(backend, ws.owner, candidate, baseline, case_filter="IMPROVED")
    assert [e["node"]["datasetItemId"] for e in improved.ok()["runDiff"]["cases"]["edges"]] == [
        "i00"
    ]
    changed = await diff(backend, ws.owner, candidate, baseline, case_filter="CHANGED")
    assert changed.ok()["runDiff"]["cases"]["totalCount"] == 9


def exact_sign_flip(differences: list[float]) -> float:
    """Two-sided sign-flip p by enumerating every sign pattern."""
    observed = abs(sum(differences))
    extreme = sum(
        abs(sum(s * d for s, d in zip(signs, differences, strict=True))) >= observed - 1e-12
        for signs in itertools.product((1, -1), repeat=len(differences))
    )
    return float(extreme / 2 ** len(differences))


async def test_multi_trial_items_use_the_exact_sign_flip_and_stay_unsignificant_under_20(
    backend: Backend,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    exp = await experiment(backend, ws.owner)
    before = [3, 3, 2, 3, 1, 3, 2, 3, 3, 0, 2, 3]
    after = [1, 0, 2, 1, 1, 0, 0, 3, 1, 0, 1, 2]

    def trials(passes: int) -> list[bool | None]:
        return [*([True] * passes), *([False] * (3 - passes))]

    baseline = await import_run(backend, ws.owner, exp, [item(trials(p)) for p in before], key="b")
    candidate = await import_run(backend, ws.owner, exp, [item(trials(p)) for p in after], key="c")
    summary = (await diff(backend, ws.owner, candidate, baseline)).ok()["runDiff"]["summary"]
    assert summary["pairing"] == "POSITIONAL"
    differences = [(a - b) / 3 for a, b in zip(after, before, strict=True)]
    assert summary["method"] == "SIGN_FLIP_PERMUTATION"
    assert summary["pValue"] == pytest.approx(exact_sign_flip(differences))
    assert summary["exactPValue"] == pytest.approx(summary["pValue"])
    assert summary["pValue"] < 0.05 and summary["significant"] is False
    assert summary["significanceReason"] == "INSUFFICIENT_CASES"
    mean, sd, n = np.mean(differences), np.std(differences, ddof=1), len(differences)
    half = scipy_stats.t.ppf(0.975, n - 1) * sd / math.sqrt(n)
    assert summary["intervalMethod"] == "T_INTERVAL"
    assert (summary["deltaLow"], summary["deltaHigh"]) == pytest.approx((mean - half, mean + half))
    # 2/3 → 1/3 flips the majority; 3/3 → 2/3 moves beyond ε without flipping.
    cases = (await diff(backend, ws.owner, candidate, baseline)).ok()["runDiff"]["cases"]
    by_position = {e["node"]["position"]: e["node"] for e in cases["edges"]}
    assert by_position[10]["status"] == "REGRESSED" and by_position[10]["passFlip"] is True
    assert by_position[11]["status"] == "REGRESSED" and by_position[11]["passFlip"] is False
    assert by_position[4]["status"] == "UNCHANGED"


async def test_positional_pairing_with_added_and_removed_items_pages_through_both(
    backend: Backend,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    exp = await experiment(backend, ws.owner)
    long = [item(True, item_id=f"x{n}", scores={"s": 0.5}) for n in range(8)]
    short = [item(True, scores={"s": 0.5}) for _ in range(6)]
    short[1] = item(True, scores={"s": 0.56})  # beyond ε: improved
    short[2] = item(True, scores={"s": 0.51})  # exactly ε: no change
    short[3] = item(False, scores={"s": 0.9})  # the flip decides: regressed
    baseline = await import_run(backend, ws.owner, exp, long, key="long")
    candidate = await import_run(backend, ws.owner, exp, short, key="short")
    result = (await diff(backend, ws.owner, candidate, baseline, first=3)).ok()["runDiff"]
    summary = result["summary"]
    assert summary["pairing"] == "POSITIONAL"
    assert (summary["addedCount"], summary["removedCount"], summary["pairedCount"]) == (0, 2, 6)
    assert (summary["improvedCount"], summary["regressedCount"]) == (1, 1)
    seen: list[tuple[int, str]] = []
    page = result["cases"]
    while True:
        seen += [(e["node"]["position"], e["node"]["status"]) for e in page["edges"]]
        assert page["totalCount"] == 8
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
        page = (await diff(backend, ws.owner, candidate, baseline, first=3, after=after)).ok()[
            "runDiff"
        ]["cases"]
    assert seen == [
        (0, "UNCHANGED"), (1, "IMPROVED"), (2, "UNCHANGED"), (3, "REGRESSED"),
        (4, "UNCHANGED"), (5, "UNCHANGED"), (6, "REMOVED"), (7, "REMOVED"),
    ]  # fmt: skip
    reverse = (await diff(backend, ws.owner, baseline, candidate)).ok()["runDiff"]
    assert (reverse["summary"]["addedCount"], reverse["summary"]["removedCount"]) == (2, 0)
    added = [e["node"] for e in reverse["cases"]["edges"] if e["node"]["status"] == "ADDED"]
    assert [(n["position"], n["datasetItemId"]) for n in added] == [(6, "x6"), (7, "x7")]
    wide = (await diff(backend, ws.owner, candidate, baseline, epsilon=0.1)).ok()["runDiff"]
    assert (wide["summary"]["improvedCount"], wide["summary"]["epsilon"]) == (0, 0.1)


async def test_only_completed_runs_of_the_workspace_are_diffed(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    other = await make_workspace(backend.sessionmaker, name="other")
    exp = await experiment(backend, ws.owner)
    done = await import_run(backend, ws.owner, exp, [item(True)], key="done")
    running = await import_run(backend, ws.owner, exp, [item(True)], key="run", complete=False)
    failed = await import_run(backend, ws.owner, exp, [item(True)], key="fail", complete=False)
    (await backend.gql(FAIL, {"id": failed}, token=ws.owner)).ok()
    for candidate, baseline in ((running, done), (done, failed)):
        refused = await diff(backend, ws.owner, candidate, baseline)
        assert refused.codes == ["CONFLICT"]
        assert refused.errors[0]["extensions"]["reason"] == "RUN_NOT_COMPLETED"
    assert (await diff(backend, other.owner, done, done)).codes == ["NOT_FOUND"]
    assert (await diff(backend, ws.owner, done, done, epsilon=-1)).codes == ["VALIDATION_FAILED"]
    bad_cursor = await diff(backend, ws.owner, done, done, after="bm90LWEtY3Vyc29y")
    assert bad_cursor.codes == ["VALIDATION_FAILED"]


async def test_summaries_are_cached_per_pair_and_epsilon(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    exp = await experiment(backend, ws.owner)
    candidate_items, baseline_items = single_trial_runs()
    baseline = await import_run(backend, ws.owner, exp, baseline_items, key="b")
    candidate = await import_run(backend, ws.owner, exp, candidate_items, key="c")
    first = (await diff(backend, ws.owner, candidate, baseline)).ok()["runDiff"]["summary"]
    again = (await diff(backend, ws.owner, candidate, baseline)).ok()["runDiff"]["summary"]
    assert again == first
    (await diff(backend, ws.owner, candidate, baseline, epsilon=0.2)).ok()
    async with backend.sessionmaker() as session:
        keys = (
            await session.execute(
                select(RunDiffSummary.epsilon, func.count())
                .where(RunDiffSummary.candidate_run_id == candidate)
                .group_by(RunDiffSummary.epsilon)
                .order_by(RunDiffSummary.epsilon)
            )
        ).all()
        assert [tuple(row) for row in keys] == [("0.01", 1), ("0.2", 1)]
        summary = await run_diff.diff_summary(
            session=session,
            workspace_id=ws.id,
            candidate_run_id=candidate,
            baseline_run_id=baseline,
            epsilon=0.01,
        )
    assert summary.regression and summary.p_value == pytest.approx(first["pValue"])


async def test_the_previous_completed_imported_run_of_the_experiment(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    exp = await experiment(backend, ws.owner)
    elsewhere = await experiment(backend, ws.owner, "elsewhere")
    first = await import_run(backend, ws.owner, exp, [item(True)], key="1")
    await import_run(backend, ws.owner, elsewhere, [item(True)], key="x")
    second = await import_run(backend, ws.owner, exp, [item(True)], key="2")
    failed = await import_run(backend, ws.owner, exp, [item(True)], key="f", complete=False)
    (await backend.gql(FAIL, {"id": failed}, token=ws.owner)).ok()
    third = await import_run(backend, ws.owner, exp, [item(False)], key="3")
    async with backend.sessionmaker() as session:

        async def previous(run_id: str) -> str | None:
            found = await run_service.previous_completed_imported_run(
                session=session, workspace_id=ws.id, run_id=run_id
            )
            return None if found is None else found.id

        assert await previous(third) == second
        assert await previous(second) == first
        assert await previous(first) is None
        assert await previous(failed) is None
        against = await run_diff.diff_against_previous(
            session=session, workspace_id=ws.id, run_id=third
        )
        assert against is not None and against.baseline_run_id == second
        assert against.pass_rate_delta == -1.0 and not against.regression  # one item: no gate
        assert (
            await run_diff.diff_against_previous(session=session, workspace_id=ws.id, run_id=first)
            is None
        )


async def test_a_hosted_run_diffs_like_an_imported_one(backend: Backend) -> None:
    """Finalization writes hosted runs into the same tables; here rows stand in for it."""
    ws = await make_workspace(backend.sessionmaker)
    exp = await experiment(backend, ws.owner)
    candidate_items, baseline_items = single_trial_runs()
    baseline = await import_run(backend, ws.owner, exp, baseline_items, key="b")
    hosted = new_id("run")
    async with backend.sessionmaker() as session, session.begin():
        session.add(
            Run(
                id=hosted, workspace_id=ws.id, experiment_id=exp, source=RunSource.HOSTED,
                status=RunStatus.COMPLETED, item_count=N, metadata_={}, completed_at=utcnow(),
            )
        )  # fmt: skip
        await session.flush()
        rows = check_chunk(candidate_items, start=0)
        await item_store.insert(session, hosted, rows)
    summary = (await diff(backend, ws.owner, hosted, baseline)).ok()["runDiff"]["summary"]
    assert summary["pairing"] == "DATASET_ITEM_ID"
    assert (summary["regressedCount"], summary["improvedCount"]) == (8, 1)
    assert summary["pValue"] == pytest.approx(mid_p(1, 8)) and summary["significant"]
    refused = await backend.gql(
        'mutation($id: ID!) { appendRunItems(runId: $id, items: [{input: "q", trials: []}]) '
        "{ appendedCount } }",
        {"id": hosted},
        token=ws.owner,
    )
    assert refused.errors[0]["extensions"]["reason"] == "RUN_HOSTED"
    async with backend.sessionmaker() as session:
        assert (
            await run_diff.diff_against_previous(session=session, workspace_id=ws.id, run_id=hosted)
            is None
        )


async def test_same_items_in_another_order_with_sparse_and_one_sided_evaluators(
    backend: Backend,
) -> None:
    """On PostgreSQL the runs' vectors (sorted by id) are zipped: the numbers must not move."""
    ws = await make_workspace(backend.sessionmaker)
    exp = await experiment(backend, ws.owner)
    baseline_items, candidate_items = [], []
    for n in range(30):
        base = {"judge": 0.5} | ({"sparse": 0.2} if n % 3 else {})
        cand = {"judge": 0.5 + 0.1 * (n % 2), "extra": 1.0} | ({"sparse": 0.4} if n % 2 else {})
        baseline_items.append(item(True, item_id=f"k{n:02d}", scores=base))
        candidate_items.append(item(n not in (4, 8), item_id=f"k{n:02d}", scores=cand))
    candidate_items = [candidate_items[(7 * i) % 30] for i in range(30)]
    baseline = await import_run(backend, ws.owner, exp, baseline_items, key="b", chunk=7)
    candidate = await import_run(backend, ws.owner, exp, candidate_items, key="c", chunk=11)
    async with backend.sessionmaker() as session:
        laid_out = await session.scalar(
            select(func.count()).where(RunVector.run_id.in_([candidate, baseline]))
        )
    assert laid_out == (2 if backend.name == "postgres" else 0)  # built by completeRun
    result = (await diff(backend, ws.owner, candidate, baseline, case_filter="REGRESSED")).ok()
    summary = result["runDiff"]["summary"]
    assert summary["pairing"] == "DATASET_ITEM_ID" and summary["pairedCount"] == 30
    counts = ("regressedCount", "improvedCount", "unchangedCount", "addedCount", "removedCount")
    assert [summary[k] for k in counts] == [2, 15, 13, 0, 0]
    assert summary["passRateDelta"] == pytest.approx(-2 / 30)
    judge, sparse = summary["evaluators"]  # "extra" has no baseline side
    assert (judge["name"], judge["pairedCount"]) == ("judge", 30)
    assert (judge["baselineMean"], judge["candidateMean"]) == pytest.approx((0.5, 0.55))
    assert judge["delta"] == pytest.approx(0.05)
    assert judge["pValue"] == pytest.approx(2 / 2**15)  # 15 equal +0.1s: two of 2¹⁵ flips
    paired = [n for n in range(30) if n % 3 and n % 2]
    assert (sparse["name"], sparse["pairedCount"]) == ("sparse", len(paired))
    assert (sparse["baselineMean"], sparse["candidateMean"]) == pytest.approx((0.2, 0.4))
    assert sparse["delta"] == pytest.approx(0.2)
    cases = result["runDiff"]["cases"]
    nodes = [e["node"] for e in cases["edges"]]
    # k08 sits at candidate position 14, k04 at 22 (7 · 13 ≡ 1 mod 30).
    assert [(n["datasetItemId"], n["position"], n["baselinePosition"]) for n in nodes] == [
        ("k08", 14, 8),
        ("k04", 22, 4),
    ]
    assert cases["totalCount"] == 2 and not cases["pageInfo"]["hasNextPage"]
    improved = (await diff(backend, ws.owner, candidate, baseline, case_filter="IMPROVED")).ok()
    ids = [e["node"]["datasetItemId"] for e in improved["runDiff"]["cases"]["edges"]]
    assert sorted(ids) == [f"k{n:02d}" for n in range(1, 30, 2)]
