"""What the decision takes from human labels: the queue-corrected Δ of a judge biased toward
the candidate, against a reference computed here, and the judge's calibration."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import norm
from statsmodels.stats.inter_rater import cohens_kappa

from bench.kit.harness import Backend
from bench.kit.openai_server import FakeOpenAI
from server.comparisons.models import Comparison
from server.decisions import judge_gate
from server.labels import evidence as label_evidence
from server.labels.judge_checks import judge_checks
from server.workspaces.roles import Role
from tests.server.labels.api import QUEUE, label
from tests.server.labels.judged import judged_comparison

ALPHA = 0.05


async def test_the_corrected_delta_matches_the_prediction_powered_reference(
    backend: Backend, fake_openai: FakeOpenAI
) -> None:
    cases = 60
    j = await judged_comparison(backend, fake_openai, cases=cases)
    items = (await j.gql(QUEUE, {"id": j.comparison_id, "first": 50})).ok()["reviewQueue"]
    rectifiers: dict[int, list[float]] = {0: [], 1: []}
    pairs = []
    for item in items:
        trial = item["trial"]
        cohort, case = trial["cohortIndex"], int(trial["datasetItemId"].removeprefix("q-"))
        right = j.truth[cohort][case]
        await label(backend, j.ws.tokens[Role.MEMBER], trial, right)
        rectifiers[cohort].append(float(j.judged[cohort][case]) - float(right))
        pairs.append((j.judged[cohort][case], right))

    async with backend.sessionmaker() as session:
        comparison = await session.get(Comparison, j.comparison_id)
        assert comparison is not None
        evidence = await label_evidence.judge_evidence(
            session=session, comparison=comparison, min_labels=30, min_kappa=0.6
        )
        differences = await label_evidence.judged_differences(session, j.comparison_id, 2)

    # The reference: Angelopoulos et al. (2023), computed here from the scripted truths.
    judged = np.array(j.judged, dtype=float)
    expected_differences = judged[0] - judged[1]
    assert differences[1] == pytest.approx(expected_differences)
    r_c, r_b = np.array(rectifiers[0]), np.array(rectifiers[1])
    estimate = expected_differences.mean() - (r_c.mean() - r_b.mean())
    variance = (
        expected_differences.var(ddof=1) / cases
        + r_c.var(ddof=1) / len(r_c)
        + r_b.var(ddof=1) / len(r_b)
    )
    half = norm.ppf(1 - ALPHA) * math.sqrt(variance)
    corrected = evidence.corrected(differences[1], 1, confidence=1 - 2 * ALPHA)
    assert corrected is not None
    assert corrected.estimate == pytest.approx(estimate, abs=1e-12)
    assert (corrected.low, corrected.high) == pytest.approx(
        (estimate - half, estimate + half), abs=1e-12
    )
    assert evidence.labels_used == 50
    truth = np.array(j.truth, dtype=float)
    true_delta = truth[0].mean() - truth[1].mean()
    judged_delta = expected_differences.mean()
    assert judged_delta > true_delta  # the judge favours the candidate's phrasing
    assert abs(corrected.estimate - true_delta) < abs(judged_delta - true_delta)

    # Calibration: 50 labels ≥ 30; calibrated iff statsmodels' κ low end ≥ 0.6.
    judge = np.array([p[0] for p in pairs])
    human = np.array([p[1] for p in pairs])
    table = np.array(
        [
            [np.sum(human & judge), np.sum(human & ~judge)],
            [np.sum(~human & judge), np.sum(~human & ~judge)],
        ]
    )
    kappa = cohens_kappa(table)
    (check,) = evidence.checks
    assert check.check_key == j.check_key
    assert check.calibration.calibrated is bool(kappa.kappa_low >= 0.6)
    if not check.calibration.calibrated:
        assert evidence.uncalibrated == (check,)
        sentence = judge_gate.judge_sentence(evidence, corrected=True)
        assert sentence is not None and f"Judge {j.check_key} is not calibrated" in sentence
        assert sentence.endswith("Quality corrected with 50 labels for the judge's errors.")


async def test_no_labels_leave_a_judge_uncalibrated_needing_the_floor(
    backend: Backend, fake_openai: FakeOpenAI
) -> None:
    j = await judged_comparison(backend, fake_openai, cases=20)
    async with backend.sessionmaker() as session:
        comparison = await session.get(Comparison, j.comparison_id)
        assert comparison is not None
        evidence = await label_evidence.judge_evidence(
            session=session, comparison=comparison, min_labels=30, min_kappa=0.6
        )
    assert evidence.judged and evidence.more_labels == 30
    keys = [key for _, key in judge_checks(comparison.checks)]
    assert judge_gate.unlabelled(keys, min_labels=30, min_kappa=0.6) == evidence
    plain_keys = [key for _, key in judge_checks([{"kind": "CONTAINS"}])]
    plain = judge_gate.unlabelled(plain_keys, min_labels=30, min_kappa=0.6)
    assert not plain.judged and judge_gate.judge_sentence(plain, corrected=False) is None
    assert evidence.corrected(np.zeros(20), 1, confidence=0.9) is None
    assert judge_gate.judge_sentence(evidence, corrected=False) == (
        f"Judge {j.check_key} is not calibrated: 30 more labels needed (at least 30 and "
        "κ's 95% low end at least 0.6; now 0 labels)."
    )
