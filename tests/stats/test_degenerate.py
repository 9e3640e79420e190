"""Every public result on degenerate input: defined, plain Python values, no NaN, a reason."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable

import numpy as np
import pytest

import stats
from stats import reasons

EMPTY = stats.CohortTrials.of([], [], 3)
ALL_PASS = stats.CohortTrials.of([3] * 25, [3] * 25, 3)
ALL_FAIL = stats.CohortTrials.of([0] * 25, [3] * 25, 3)
ONE_CASE = stats.CohortTrials.of([2], [3], 3)
NOTHING_COMPLETED = stats.CohortTrials.of([0] * 25, [0] * 25, 3)


def _assert_plain_and_finite(value: object) -> None:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        if isinstance(value, stats.CohortTrials):
            return
        for field in dataclasses.fields(value):
            _assert_plain_and_finite(getattr(value, field.name))
    elif isinstance(value, tuple):
        for item in value:
            _assert_plain_and_finite(item)
    else:
        assert value is None or type(value) in (bool, int, float, str), type(value)
        if isinstance(value, float):
            assert math.isfinite(value)


CASES: dict[str, tuple[Callable[[], object], str | None]] = {
    "wilson n=0": (lambda: stats.wilson_interval(0, 0), reasons.NO_CASES),
    "wilson all pass": (lambda: stats.wilson_interval(9, 9), reasons.ALL_PASS),
    "wilson all fail": (lambda: stats.wilson_interval(0, 9), reasons.ALL_FAIL),
    "cr1 n=0": (lambda: stats.clustered_interval([]), reasons.NO_CASES),
    "cr1 one case": (lambda: stats.clustered_interval([0.5]), reasons.ONE_CASE),
    "cr1 all pass": (lambda: stats.clustered_interval([1.0] * 9), reasons.ALL_PASS),
    "cr1 all fail": (lambda: stats.clustered_interval([0.0] * 9), reasons.ALL_FAIL),
    "t n=0": (lambda: stats.t_interval([]), reasons.NO_CASES),
    "t one case": (lambda: stats.t_interval([1.0]), reasons.ONE_CASE),
    "t ties": (lambda: stats.t_interval([0.2, 0.2]), reasons.ZERO_VARIANCE),
    "bootstrap n=0": (lambda: stats.bootstrap_mean_interval([]), reasons.NO_CASES),
    "bootstrap ties": (
        lambda: stats.bootstrap_mean_interval([0.4] * 30),
        reasons.ZERO_VARIANCE,
    ),
    "z n=0": (lambda: stats.two_proportion_ztest(0, 0, 0, 0), reasons.NO_CASES),
    "z all pass": (lambda: stats.two_proportion_ztest(5, 5, 7, 7), reasons.ALL_PASS),
    "z all fail": (lambda: stats.two_proportion_ztest(0, 5, 0, 7), reasons.ALL_FAIL),
    "mcnemar n=0": (lambda: stats.mcnemar_test([], []), reasons.NO_CASES),
    "mcnemar no discordant": (
        lambda: stats.mcnemar_test([True, False], [True, False]),
        reasons.NO_DISCORDANT_PAIRS,
    ),
    "sign flip n=0": (lambda: stats.sign_flip_test([]), reasons.NO_CASES),
    "sign flip zeros": (lambda: stats.sign_flip_test([0.0] * 30), reasons.ALL_ZERO_DIFFERENCES),
    "sign flip one case": (lambda: stats.sign_flip_test([0.2]), reasons.ONE_CASE),
    "paired mde n=0": (lambda: stats.paired_mde([]), reasons.NO_CASES),
    "paired mde ties": (lambda: stats.paired_mde([0.0] * 30), reasons.ZERO_VARIANCE),
    "unpaired mde n=0": (lambda: stats.unpaired_mde(0.0, 0), reasons.NO_CASES),
    "trials n=0": (lambda: stats.trial_summary(EMPTY), reasons.NO_CASES),
    "confidence n=0": (lambda: stats.cohort_confidence(EMPTY), reasons.NO_CASES),
    "confidence all pass": (lambda: stats.cohort_confidence(ALL_PASS), reasons.ALL_PASS),
    "gate n=0": (lambda: stats.gate(EMPTY, [EMPTY]), None),
    "gate all pass": (lambda: stats.gate(ALL_PASS, [ALL_PASS]), None),
    "gate all fail": (lambda: stats.gate(ALL_FAIL, [ALL_FAIL]), None),
    "gate one case": (lambda: stats.gate(ONE_CASE, [ONE_CASE]), None),
    "gate nothing completed": (lambda: stats.gate(NOTHING_COMPLETED, [ALL_PASS]), None),
    "gate no baselines": (lambda: stats.gate(ALL_PASS, []), None),
    "failure analysis n=0": (lambda: stats.failure_analysis(EMPTY, [EMPTY]), None),
    "winners n=0": (
        lambda: stats.metric_winners(np.zeros((0, 2)), higher_is_better=True),
        reasons.NO_CASES,
    ),
    "winners ties": (lambda: stats.pass_rate_winners([ALL_PASS, ALL_PASS]), None),
    "overall no rows": (lambda: stats.overall_winner([], 3), reasons.NO_VOTES),
    "pairwise n=0": (lambda: stats.pairwise_summary([], [], []), reasons.NO_JUDGED_PAIRS),
    "pairwise ties": (
        lambda: stats.pairwise_summary([0, 1, 2], [0.0] * 3, [0.0] * 3),
        reasons.ZERO_VARIANCE,
    ),
    "metric delta n=0": (lambda: stats.metric_delta([], []), reasons.NO_CASES),
    "metric delta one case": (lambda: stats.metric_delta([3.0], [1.0]), reasons.ONE_CASE),
    "holm empty": (lambda: stats.holm([]), None),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_defined_result_with_reason(name: str) -> None:
    produce, reason = CASES[name]
    result = produce()
    _assert_plain_and_finite(result)
    if reason is not None:
        assert getattr(result, "reason", None) == reason


@pytest.mark.parametrize(
    ("candidate", "baseline"),
    [(EMPTY, EMPTY), (ONE_CASE, ONE_CASE), (ALL_PASS, ALL_FAIL), (NOTHING_COMPLETED, ALL_PASS)],
)
def test_gate_degenerate_inputs_give_no_verdict_for_insufficient_cases(
    candidate: stats.CohortTrials, baseline: stats.CohortTrials
) -> None:
    (verdict,) = stats.gate(candidate, [baseline])
    if verdict.n < 20:
        assert (verdict.outcome, verdict.reason) == (reasons.NO_VERDICT, reasons.INSUFFICIENT_CASES)
    else:
        assert verdict.outcome in (reasons.REGRESSED, reasons.IMPROVED, reasons.NO_CHANGE)


NAN, INF = float("nan"), float("inf")
SPREAD = [0.1, 0.4, 0.2, 0.9, 0.5]

# Each: the call, and the answer it must give (the no-case answer), as literals.
NON_FINITE: dict[str, tuple[Callable[[], object], dict[str, object]]] = {
    "wilson nan successes": (
        lambda: stats.wilson_interval(NAN, 10),
        {"estimate": 0.0, "low": 0.0, "high": 1.0, "n": 0},
    ),
    "wilson inf n": (
        lambda: stats.wilson_interval(3, INF),  # type: ignore[arg-type]
        {"estimate": 0.0, "low": 0.0, "high": 1.0, "n": 0},
    ),
    "wilson inf both": (
        lambda: stats.wilson_interval(INF, INF),  # type: ignore[arg-type]
        {"low": 0.0, "high": 1.0},
    ),
    "z nan": (lambda: stats.two_proportion_ztest(NAN, 10, 3, 10), {"p_value": 1.0, "z": 0.0}),  # type: ignore[arg-type]
    "z inf n": (
        lambda: stats.two_proportion_ztest(3, 10, 3, INF),  # type: ignore[arg-type]
        {"p_value": 1.0, "delta": 0.0},
    ),
    "cr1 nan": (
        lambda: stats.clustered_interval([0.5, NAN, 1.0]),
        {"estimate": 0.0, "low": 0.0, "high": 1.0, "n": 0},
    ),
    "cr1 inf": (lambda: stats.clustered_interval([0.5, INF]), {"low": 0.0, "high": 1.0}),
    "t nan": (
        lambda: stats.t_interval([*SPREAD, NAN]),
        {"estimate": 0.0, "low": 0.0, "high": 0.0, "n": 0},
    ),
    "t -inf bounded": (
        lambda: stats.t_interval([*SPREAD, -INF], bounds=(-1.0, 1.0)),
        {"estimate": 0.0, "low": -1.0, "high": 1.0},
    ),
    "bootstrap nan": (
        lambda: stats.bootstrap_mean_interval(SPREAD * 6 + [NAN]),
        {"estimate": 0.0, "low": 0.0, "high": 0.0, "n": 0},
    ),
    "bootstrap inf": (lambda: stats.bootstrap_mean_interval([INF, 1.0]), {"n": 0}),
    "delta nan small": (lambda: stats.delta_interval([*SPREAD, NAN]), {"low": 0.0, "high": 0.0}),
    "delta inf large": (
        lambda: stats.delta_interval(SPREAD * 6 + [INF], bounds=(-1.0, 1.0)),
        {"estimate": 0.0, "low": -1.0, "high": 1.0},
    ),
    "delta nan very large": (
        lambda: stats.delta_interval([*np.linspace(0.0, 1.0, 10_000), NAN]),
        {"low": 0.0, "high": 0.0},
    ),
    "paired mde nan": (lambda: stats.paired_mde([*SPREAD, NAN]), {"value": 1.0}),
    "paired mde inf": (lambda: stats.paired_mde([INF, -INF]), {"value": 1.0}),
    "unpaired mde nan": (lambda: stats.unpaired_mde(NAN, 30), {"value": 1.0}),
    "sign flip nan": (lambda: stats.sign_flip_test([*SPREAD, NAN]), {"p_value": 1.0}),
    "sign flip inf": (lambda: stats.sign_flip_test([INF] * 30), {"p_value": 1.0}),
    "mcnemar counts nan": (
        lambda: stats.mcnemar_from_counts(NAN, 1, 10),  # type: ignore[arg-type]
        {"p_value": 1.0, "exact_p_value": 1.0, "n": 0},
    ),
}


@pytest.mark.parametrize("name", sorted(NON_FINITE))
def test_non_finite_input_gives_the_no_case_answer_with_a_reason(name: str) -> None:
    produce, expected = NON_FINITE[name]
    result = produce()
    _assert_plain_and_finite(result)
    assert getattr(result, "reason", None) == reasons.NON_FINITE_INPUT
    assert {field: getattr(result, field) for field in expected} == expected


@pytest.mark.parametrize(
    "produce",
    [
        lambda: stats.t_interval([[0.1, NAN]]),
        lambda: stats.clustered_interval([[0.5, NAN]]),
        lambda: stats.bootstrap_mean_interval([[0.1, INF]]),
        lambda: stats.delta_interval([[0.1, NAN]]),
        lambda: stats.paired_mde([[NAN]]),
        lambda: stats.sign_flip_test([[NAN, 0.2]]),
    ],
    ids=["t", "cr1", "bootstrap", "delta", "paired mde", "sign flip"],
)
def test_malformed_shapes_stay_a_value_error(produce: Callable[[], object]) -> None:
    with pytest.raises(ValueError, match="one-dimensional"):
        produce()
