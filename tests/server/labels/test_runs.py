"""Imported runs: labels on their trials, and the agreement of the evaluator named as the
judge at import (`shipwise run import --judge-evaluator NAME`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from statsmodels.stats.inter_rater import cohens_kappa
from statsmodels.stats.proportion import proportion_confint

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.server.cli.commands.test_dataset_import import write_lines
from tests.server.cli.commands.test_runs_cli import import_file
from tests.server.labels.api import LABEL, label

RUN = """
query($id: ID!) { run(id: $id) {
  judgeEvaluator
  judgeAgreement { checkKey labels agreement kappa kappaLow kappaHigh sensitivity
    sensitivityLow sensitivityHigh specificity specificityLow specificityHigh }
  items(first: 100) { edges { node { datasetItemId trials {
    passed labels { passed judgePassed labeller { name } trial { runId cohortIndex
      datasetItemId trialIndex } } } } } } } }
"""

ITEMS = 40
# The truth of item i, and the judge's grade of it: wrong on items 0-5 (passes fails) and on
# items 36-39 (fails passes).
TRUTH = [i % 3 != 0 for i in range(ITEMS)]
JUDGE = [(not t) if i < 6 or i >= 36 else t for i, t in enumerate(TRUTH)]


def _items() -> list[dict[str, Any]]:
    return [
        {
            "datasetItemId": f"i{i:02d}",
            "input": f"question {i}",
            "trials": [
                {
                    "passed": JUDGE[i],
                    "output": f"answer {i}",
                    "evaluators": {"judge": 1.0 if JUDGE[i] else 0.0, "length": 3.0},
                }
            ],
        }
        for i in range(ITEMS)
    ]


def _ref(run_id: str, i: int, **changes: Any) -> dict[str, Any]:
    return {"runId": run_id, "cohortIndex": 0, "datasetItemId": f"i{i:02d}", "trialIndex": 0} | (
        changes
    )


async def _imported(backend: Backend, token: str, path: Path, *args: str) -> str:
    done = await import_file(backend, token, path, *args)
    assert done.code == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


async def test_labels_and_agreement_on_an_imported_run(backend: Backend, tmp_path: Path) -> None:
    ws = await make_workspace(backend.sessionmaker)
    member = ws.tokens[Role.MEMBER]
    path = write_lines(tmp_path / "judged.jsonl", _items())
    run_id = await _imported(backend, member, path, "--judge-evaluator", "judge")
    labelled = list(range(0, ITEMS, 2))  # every other item: 20 labels
    for i in labelled:
        given = await label(backend, member, _ref(run_id, i), TRUTH[i])
        assert given["trial"] == _ref(run_id, i) | {"comparisonId": None}
        assert given["judgePassed"] is JUDGE[i]

    run = (await backend.gql(RUN, {"id": run_id}, token=ws.tokens[Role.VIEWER])).ok()["run"]
    assert run["judgeEvaluator"] == "judge"
    (found,) = run["judgeAgreement"]
    judge = np.array([JUDGE[i] for i in labelled])
    human = np.array([TRUTH[i] for i in labelled])
    table = np.array(
        [
            [np.sum(human & judge), np.sum(human & ~judge)],
            [np.sum(~human & judge), np.sum(~human & ~judge)],
        ]
    )
    expected = cohens_kappa(table)
    assert (found["checkKey"], found["labels"]) == ("judge", 20)
    assert found["agreement"] == pytest.approx(np.mean(judge == human))
    assert (found["kappa"], found["kappaLow"], found["kappaHigh"]) == pytest.approx(
        (expected.kappa, expected.kappa_low, expected.kappa_upp), abs=1e-9
    )
    sens = proportion_confint(table[0, 0], table[0].sum(), alpha=0.05, method="wilson")
    spec = proportion_confint(table[1, 1], table[1].sum(), alpha=0.05, method="wilson")
    assert (found["sensitivityLow"], found["sensitivityHigh"]) == pytest.approx(sens, abs=1e-9)
    assert (found["specificityLow"], found["specificityHigh"]) == pytest.approx(spec, abs=1e-9)

    trials = {e["node"]["datasetItemId"]: e["node"]["trials"][0] for e in run["items"]["edges"]}
    assert trials["i00"]["labels"][0]["passed"] is TRUTH[0]
    assert trials["i00"]["labels"][0]["judgePassed"] is JUDGE[0]
    assert trials["i00"]["labels"][0]["trial"] == _ref(run_id, 0)
    assert trials["i01"]["labels"] == []


async def test_run_labels_are_scoped_and_a_run_without_a_judge_has_no_agreement(
    backend: Backend, tmp_path: Path
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    member = ws.tokens[Role.MEMBER]
    path = write_lines(tmp_path / "plain.jsonl", _items())
    run_id = await _imported(backend, member, path)
    run = (await backend.gql(RUN, {"id": run_id}, token=member)).ok()["run"]
    assert (run["judgeEvaluator"], run["judgeAgreement"]) == (None, [])
    given = await label(backend, member, _ref(run_id, 3), True)
    assert given["judgePassed"] is None  # no judge named at import
    for missing in (
        _ref(run_id, 3, cohortIndex=1),
        _ref(run_id, 3, trialIndex=1),
        _ref(run_id, 99),
    ):
        refused = await backend.gql(LABEL, {"trial": missing, "passed": True}, token=member)
        assert refused.codes == ["NOT_FOUND"], missing
    other = await make_workspace(backend.sessionmaker, name="other")
    foreign = await backend.gql(
        LABEL, {"trial": _ref(run_id, 3), "passed": True}, token=other.tokens[Role.OWNER]
    )
    assert foreign.codes == ["NOT_FOUND"]
