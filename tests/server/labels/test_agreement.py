"""`comparison.judgeAgreement` over labels a reviewer enters from the queue, against
statsmodels on the judge's known grades."""

from __future__ import annotations

import json

import numpy as np
import pytest
from statsmodels.stats.inter_rater import cohens_kappa
from statsmodels.stats.proportion import proportion_confint

from bench.kit.harness import Backend
from bench.kit.openai_server import FakeOpenAI
from server.workspaces.roles import Role
from tests.server.labels.api import AGREEMENT, QUEUE, label
from tests.server.labels.judged import judged_comparison
from tests.server.reports.api import GENERATE


async def test_agreement_of_a_biased_judge_matches_statsmodels(
    backend: Backend, fake_openai: FakeOpenAI
) -> None:
    j = await judged_comparison(backend, fake_openai, cases=40)
    before = (await j.gql(AGREEMENT, {"id": j.comparison_id})).ok()["comparison"]
    assert before["reviewProgress"] == {"labelled": 0, "graded": 80}
    (empty,) = before["judgeAgreement"]
    assert (empty["checkKey"], empty["labels"], empty["kappa"]) == (j.check_key, 0, None)

    items = (await j.gql(QUEUE, {"id": j.comparison_id, "first": 50})).ok()["reviewQueue"]
    pairs = []
    for item in items:
        trial = item["trial"]
        cohort, case = trial["cohortIndex"], int(trial["datasetItemId"].removeprefix("q-"))
        right = j.truth[cohort][case]
        given = await label(backend, j.ws.tokens[Role.MEMBER], trial, right)
        assert given["judgePassed"] is j.judged[cohort][case]  # shown once answered
        pairs.append((j.judged[cohort][case], right))

    data = (await j.gql(AGREEMENT, {"id": j.comparison_id})).ok()["comparison"]
    assert data["reviewProgress"] == {"labelled": 50, "graded": 80}
    (found,) = data["judgeAgreement"]
    judge = np.array([p[0] for p in pairs])
    human = np.array([p[1] for p in pairs])
    table = np.array(
        [
            [np.sum(human & judge), np.sum(human & ~judge)],
            [np.sum(~human & judge), np.sum(~human & ~judge)],
        ]
    )
    assert table.min() > 0, "the scenario should leave every cell filled"
    expected = cohens_kappa(table)
    assert found["labels"] == 50
    assert found["agreement"] == pytest.approx(np.mean(judge == human), abs=1e-12)
    assert found["kappa"] == pytest.approx(expected.kappa, abs=1e-9)
    assert found["kappaLow"] == pytest.approx(expected.kappa_low, abs=1e-9)
    assert found["kappaHigh"] == pytest.approx(expected.kappa_upp, abs=1e-9)
    sens = proportion_confint(table[0, 0], table[0].sum(), alpha=0.05, method="wilson")
    spec = proportion_confint(table[1, 1], table[1].sum(), alpha=0.05, method="wilson")
    assert found["sensitivity"] == pytest.approx(table[0, 0] / table[0].sum(), abs=1e-12)
    assert (found["sensitivityLow"], found["sensitivityHigh"]) == pytest.approx(sens, abs=1e-9)
    assert found["specificity"] == pytest.approx(table[1, 1] / table[1].sum(), abs=1e-12)
    assert (found["specificityLow"], found["specificityHigh"]) == pytest.approx(spec, abs=1e-9)


async def test_the_report_freezes_the_agreement(backend: Backend, fake_openai: FakeOpenAI) -> None:
    j = await judged_comparison(backend, fake_openai, cases=20)
    items = (await j.gql(QUEUE, {"id": j.comparison_id, "first": 12})).ok()["reviewQueue"]
    for item in items:
        trial = item["trial"]
        case = int(trial["datasetItemId"].removeprefix("q-"))
        await label(backend, j.ws.tokens[Role.MEMBER], trial, j.truth[trial["cohortIndex"]][case])
    shown = (await j.gql(AGREEMENT, {"id": j.comparison_id})).ok()["comparison"]
    report = (await j.gql(GENERATE, {"id": j.comparison_id})).ok()["generateReport"]
    document = json.loads(report["document"])
    assert document["judges"] == shown["judgeAgreement"]
    assert document["judges"][0]["labels"] == 12
    # A later label changes what the API shows, not the frozen version.
    more = (await j.gql(QUEUE, {"id": j.comparison_id, "first": 1})).ok()["reviewQueue"]
    await label(backend, j.ws.tokens[Role.MEMBER], more[0]["trial"], True)
    page = await backend.client.get(
        report["pagePath"], headers={"Authorization": f"Bearer {j.ws.tokens[Role.VIEWER]}"}
    )
    assert page.status_code == 200
    section = page.text.split('<section id="judges" aria-label="Judges">', 1)[1].split(
        "</section>", 1
    )[0]
    assert j.check_key in section
    assert '<td class="num">12</td>' in section
