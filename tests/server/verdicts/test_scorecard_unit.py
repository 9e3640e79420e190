"""The scorecard computation on hand-made trial rows (no I/O): judge-score rows, and the
usable cases of three cohorts. Expected figures by numpy/scipy here, never `stats/`."""

from __future__ import annotations

import numpy as np
import pytest

from server.db import utcnow
from server.verdicts import records, scorecard, tensors
from server.verdicts.inputs import CaseInfo, CohortInfo, FinalizeInput, TrialInfo
from tests.server.verdicts import reference as ref

RUBRIC = "ver_rubric"
CHECKS = [
    {"kind": "CONTAINS"},
    {"kind": "JUDGE_RUBRIC", "rubricVersionId": RUBRIC, "judgeModelConfigVersionId": "ver_j"},
]


def _trial(
    case: int, cohort: int, index: int, passed: bool | None, judge: float | None
) -> TrialInfo:
    completed = passed is not None
    return TrialInfo(
        case_ordinal=case,
        cohort_index=cohort,
        trial_index=index,
        completed=completed,
        passed=passed,
        score=None if not completed else (float(bool(passed)) + (judge or 0.0)) / 2,
        check_passed=(passed, passed) if completed else (None, None),
        check_scores=(float(bool(passed)), judge) if completed else (None, None),
        output="x" if completed else None,
        tool_calls=0,
        input_tokens=5,
        output_tokens=1 if completed else 0,
        cost_micros=10 if completed else 0,
        latency_ms=100 + cohort,
        error_code=None if completed else "provider_timeout",
    )


def _input(cohorts: int, cases: int, per_case: int) -> FinalizeInput:
    return FinalizeInput(
        comparison_id="cmp_unit",
        workspace_id="ws",
        experiment_id="exp",
        dataset_version_id="ver_data",
        split="DEV",
        stop_reason="COMPLETED",
        trials_per_case=per_case,
        checks=CHECKS,
        score_rubrics=frozenset({RUBRIC}),
        epsilon_points=1.0,
        target_effect_points=5.0,
        started_by_member_id=None,
        cohorts=[CohortInfo(c, f"c{c}", f"rel_{c}") for c in range(cohorts)],
        cases=[CaseInfo(i, i, f"q-{i}", {"i": i}) for i in range(cases)],
    )


def test_a_score_rubric_gets_a_judge_score_row_that_votes() -> None:
    rng = np.random.default_rng(3)
    judge = rng.integers(0, 11, size=(2, 30, 2)) / 10  # fifths… tenths: a grid
    judge[0] = np.minimum(1.0, judge[0] + 0.3)  # the candidate's judge scores are higher
    trials = [
        _trial(i, c, k, True, float(judge[c, i, k]))
        for i in range(30)
        for c in range(2)
        for k in range(2)
    ]
    data = _input(cohorts=2, cases=30, per_case=2)
    scored = scorecard.score(data, tensors.build(data, trials))
    row = next(m for m in scored.document["metrics"] if m["name"] == f"judge_score.{RUBRIC}")
    per_case = judge.mean(axis=2)
    assert row["direction"] == "HIGHER_IS_BETTER"
    assert [v["value"] for v in row["values"]] == pytest.approx(list(per_case.mean(axis=1)))
    steps = np.rint((per_case[0] - per_case[1]) * 20).astype(np.int64)
    p_value = ref.sign_flip_exact(steps)
    assert row["winners"] == ([0] if p_value < 0.05 else [0, 1])
    names = [m["name"] for m in scored.document["metrics"]]
    assert names[:4] == ["pass_rate", "pass_rate.CONTAINS", "pass_rate.JUDGE_RUBRIC",
                         f"judge_score.{RUBRIC}"]  # fmt: skip
    # Every trial passes: the pass-rate rows tie; only the judge row can cast a vote.
    overall = scored.document["overallWinner"]
    assert overall["votes"] == ([1, 0] if p_value < 0.05 else [0, 0])


def test_three_cohorts_use_only_the_cases_every_cohort_completed() -> None:
    trials = []
    for i in range(24):
        for c in range(3):
            for k in range(2):
                passed: bool | None = (i + c + k) % 3 != 0
                if c == 2 and i < 4:  # cohort 2 errored on every trial of cases 0–3
                    passed = None
                trials.append(_trial(i, c, k, passed, 0.5))
    data = _input(cohorts=3, cases=24, per_case=2)
    counts = tensors.build(data, trials)
    scored = scorecard.score(data, counts)
    doc = scored.document
    assert (doc["usableCases"], doc["ranCases"], doc["casesNotRun"]) == (20, 24, 0)
    usable = np.arange(24) >= 4
    passes = np.array(
        [[sum((i + c + k) % 3 != 0 for k in range(2)) for i in range(24)] for c in range(3)]
    )
    rates = (passes[:, usable] / 2).mean(axis=1)
    pass_rate = doc["metrics"][0]
    assert [v["value"] for v in pass_rate["values"]] == pytest.approx(list(rates), abs=1e-12)
    # Candidate vs baseline 1 over the 20 usable cases only, though both completed all 24.
    verdict = doc["verdicts"][0]
    assert verdict["n"] == 20
    assert verdict["passRateDeltaPoints"] == pytest.approx((rates[0] - rates[1]) * 100)
    # Missing rates stay over every case that ran: cohort 2 lost 8 of its 48 trials.
    assert doc["verdicts"][1]["baselineMissingRate"] == pytest.approx(8 / 48)
    assert doc["verdicts"][1]["outcome"] == "NO_VERDICT"
    assert doc["verdicts"][1]["reason"] == "MISSING_DATA"
    assert [t["failedOrMissingTrials"] for t in doc["trials"]] == [0, 0, 8]
    # The unusable cases are INCOMPLETE case rows, with no relation to any baseline.
    rows = records.case_rows(data, counts, scored)
    assert [r["classification"] for r in rows[:4]] == ["INCOMPLETE"] * 4
    assert all(r["worse_mask"] == r["better_mask"] == 0 for r in rows[:4])
    runs = records.run_rows(data, utcnow())
    assert [(r["status"], r["item_count"]) for r in runs] == [("RUNNING", 0)] * 3
    ran = frozenset(int(i) for i in np.flatnonzero(counts.ran))
    run_ids = {r["cohort_index"]: r["id"] for r in runs}
    built = records.hosted_items(data, data.cases, trials, ran, run_ids)
    assert [sum(i["run_id"] == r["id"] for i in built.items) for r in runs] == [24, 24, 24]
    assert built.items[2 * 24]["trials"][0]["evaluators"] == {}  # cohort 2, case 0: errored


def test_a_run_stopped_before_any_case_completed_still_has_a_defined_scorecard() -> None:
    data = _input(cohorts=2, cases=3, per_case=1)
    scored = scorecard.score(data, tensors.build(data, [_trial(0, 0, 0, True, 0.5)]))
    doc = scored.document
    assert (doc["usableCases"], doc["casesNotRun"]) == (0, 3)
    assert doc["verdicts"][0]["outcome"] == "NO_VERDICT"
    assert doc["overallWinner"] == {"cohortIndex": None, "reason": "NO_VOTES", "votes": [0, 0]}
    assert all(v["value"] is None for m in doc["metrics"] for v in m["values"])
