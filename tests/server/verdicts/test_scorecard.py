"""Finalization end to end: every scorecard number of scripted comparisons, through GraphQL,
against literals or scipy/statsmodels computed here (never `stats/`)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from scipy.stats import bootstrap

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.scenarios import finalized, scripted_setup
from tests.server.verdicts import reference as ref

CLOSE = 1e-9
RESAMPLED = 0.015
"""Bootstrap bounds: 9,999 seeded resamples here and there agree within Monte-Carlo error."""

# Three cohorts × 40 cases × 3 trials. The candidate loses to baseline 1 on the last 12
# cases and beats baseline 2 on 10 while losing on 10 (see the literals below).
CANDIDATE = ["PPP"] * 28 + ["PPF"] * 6 + ["FFF"] * 6
BASELINE_1 = ["PPP"] * 40
BASELINE_2 = ["PPP"] * 20 + ["FFF"] * 10 + ["PPP"] * 10
ONE_CENT_PER_OUTPUT_TOKEN = 1_000_000.0


def _row(card: dict[str, Any], name: str) -> dict[str, Any]:
    return next(m for m in card["metrics"] if m["name"] == name)


def _values(row: dict[str, Any]) -> list[float]:
    return [v["value"] for v in row["values"]]


def _per_case_tokens(tensor: list[list[str]], expected: list[str]) -> np.ndarray[Any, Any]:
    """Output tokens per trial: the expected answer (1 token here) or "I am not sure." (4)."""
    cost = np.zeros((len(tensor), len(tensor[0])))
    for c, outcomes in enumerate(tensor):
        for i, letters in enumerate(outcomes):
            tokens = [-(-len(expected[i]) // 4) if ch == "P" else 4 for ch in letters]
            cost[c, i] = sum(tokens) / len(tokens)
    return cost


def _winners(per_case: np.ndarray[Any, Any], lower_is_better: bool) -> list[int]:
    """Best mean plus those the exact sign-flip test (Holm) cannot separate from it."""
    means = per_case.mean(axis=1)
    best = int(np.argmin(means) if lower_is_better else np.argmax(means))
    others = [c for c in range(len(means)) if c != best]
    p_values = []
    for other in others:
        steps = np.rint((per_case[best] - per_case[other]) * 3).astype(np.int64)
        p_values.append(ref.sign_flip_exact(steps) if np.any(steps) else 1.0)
    adjusted = ref.holm(p_values)
    return sorted([best] + [o for o, p in zip(others, adjusted, strict=True) if p >= 0.05])


async def test_three_cohorts_forty_cases_three_trials(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    tensor = [CANDIDATE, BASELINE_1, BASELINE_2]
    setup = await scripted_setup(
        backend.sessionmaker,
        ws,
        tensor,
        output_cents_per_million_tokens=ONE_CENT_PER_OUTPUT_TOKEN,
        latency_ms=[10, 20, 30],
    )
    _, comparison = await finalized(backend, setup, trialsPerCase=3)
    card = comparison["scorecard"]
    cand, base1, base2 = ref.cohorts(tensor)
    assert (card["usableCases"], card["casesNotRun"], card["staleness"]) == (40, 0, None)

    # Rates: literals, and equal to each cohort's passRate.
    rates = [32 / 40, 1.0, 30 / 40]
    pass_rate = _row(card, "pass_rate")
    assert pass_rate["direction"] == "HIGHER_IS_BETTER"
    assert _values(pass_rate) == pytest.approx(rates, abs=CLOSE)
    assert [c["passRate"] for c in comparison["cohorts"]] == pytest.approx(rates, abs=CLOSE)
    assert [m["name"] for m in card["metrics"]] == [
        "pass_rate",
        "cost_per_case_cents",
        "latency_p50_ms",
        "latency_p95_ms",
        "output_tokens_mean",
        "failed_or_missing_rate",
    ]

    # The paired test per baseline: exact sign-flip by convolution, Holm across baselines.
    steps = [cand.passed - base.passed for base in (base1, base2)]
    paired = [ref.sign_flip_exact(s) for s in steps]
    z = [ref.z_test_p(cand, base) for base in (base1, base2)]
    paired_adj, z_adj = ref.holm(paired), ref.holm(z)
    rows = card["significance"]
    assert [(r["baselineCohortIndex"], r["method"], r["decides"]) for r in rows] == [
        (1, "Z_TEST", False),
        (1, "SIGN_FLIP_PERMUTATION", True),
        (2, "Z_TEST", False),
        (2, "SIGN_FLIP_PERMUTATION", True),
    ]
    for b in range(2):
        z_row, paired_row = rows[2 * b], rows[2 * b + 1]
        assert z_row["pValue"] == pytest.approx(z[b], abs=CLOSE)
        assert z_row["adjustedPValue"] == pytest.approx(z_adj[b], abs=CLOSE)
        assert z_row["exactPValue"] is None
        assert paired_row["pValue"] == pytest.approx(paired[b], rel=1e-9, abs=1e-15)
        assert paired_row["exactPValue"] == pytest.approx(paired[b], rel=1e-9, abs=1e-15)
        assert paired_row["adjustedPValue"] == pytest.approx(paired_adj[b], rel=1e-9, abs=1e-15)
        assert paired_row["significant"] == (paired_adj[b] < 0.05)

    # Verdicts: Δ, its bootstrap interval, counts, paired MDE, the rule.
    verdicts = card["verdicts"]
    expected_counts = [(12, 0, 28), (10, 10, 20)]
    for b, base in enumerate((base1, base2)):
        verdict = verdicts[b]
        differences = cand.fractions - base.fractions
        delta = float(differences.mean())
        assert verdict["baselineCohortIndex"] == b + 1
        assert verdict["passRateDeltaPoints"] == pytest.approx(
            (rates[0] - rates[b + 1]) * 100, abs=CLOSE
        )
        assert verdict["passRateDeltaPoints"] == pytest.approx(delta * 100, abs=CLOSE)
        ci = bootstrap(
            (differences,), np.mean, n_resamples=9_999, method="BCa", random_state=7
        ).confidence_interval
        assert verdict["deltaLow"] / 100 == pytest.approx(ci.low, abs=RESAMPLED)
        assert verdict["deltaHigh"] / 100 == pytest.approx(ci.high, abs=RESAMPLED)
        worse, better, same = expected_counts[b]
        assert (verdict["worseCount"], verdict["betterCount"], verdict["sameCount"]) == (
            worse,
            better,
            same,
        )
        assert verdict["mde"] == pytest.approx(ref.paired_mde(differences) * 100, abs=CLOSE)
        assert verdict["sensitivityDeltaPoints"] == pytest.approx(delta * 100, abs=CLOSE)
        outside = abs(delta) > 0.01 and paired_adj[b] < 0.05
        assert verdict["outsideNoise"] == outside
        if outside:
            expected = (
                ("REGRESSED", "SIGNIFICANT_REGRESSION")
                if delta < 0
                else (
                    "IMPROVED",
                    "SIGNIFICANT_IMPROVEMENT",
                )
            )
        elif -5 <= verdict["deltaLow"] and verdict["deltaHigh"] <= 5:
            expected = ("NO_CHANGE", "WITHIN_TARGET_EFFECT")
        else:
            expected = ("NO_VERDICT", "UNDERPOWERED")
        assert (verdict["outcome"], verdict["reason"]) == expected
        assert verdict["pairwise"] is None
    assert verdicts[0]["outcome"] == "REGRESSED"
    assert verdicts[0]["summary"].startswith("Regressed vs ")
    assert verdicts[0]["summary"].endswith(": −20.0 points, outside the noise")

    # Confidence: CR1 on per-case fractions; unpaired MDE solved with statsmodels' power.
    for c, cohort in enumerate((cand, base1, base2)):
        row = card["confidence"][c]
        assert row["cohortIndex"] == c and row["n"] == 40
        assert row["passRate"] == pytest.approx(rates[c], abs=CLOSE)
        assert row["mde"] == pytest.approx(ref.unpaired_mde(rates[c], 40), abs=1e-6)
        if np.ptp(cohort.fractions) > 0:
            assert row["intervalMethod"] == "CLUSTERED_CR1"
            assert (row["low"], row["high"]) == pytest.approx(
                ref.cr1_interval(cohort.fractions), abs=CLOSE
            )
        else:  # all cases equal: Wilson on n cases
            assert row["intervalMethod"] == "WILSON_EFFECTIVE_N"
            assert (row["low"], row["high"]) == pytest.approx(
                ref.wilson(int(rates[c] * 40), 40), abs=CLOSE
            )
        assert row["adequacy"] == ("UNDERPOWERED" if row["mde"] > 0.05 else "ADEQUATE")

    # Trials: pass^3, pass@3, flips, failed or missing.
    for c, cohort in enumerate((cand, base1, base2)):
        row = card["trials"][c]
        assert (row["k"], row["failedOrMissingTrials"]) == (3, 0)
        assert row["passHatK"] == pytest.approx(ref.pass_hat_k(cohort, 3), abs=CLOSE)
        assert row["passAtK"] == pytest.approx(ref.pass_at_k(cohort, 3), abs=CLOSE)
    assert [row["flips"] for row in card["trials"]] == [6, 0, 0]

    # Failure analysis over both baselines (literals worked out from the tensor).
    assert card["failureAnalysis"] == {"improved": 10, "regressed": 6, "bothWrong": 0, "agree": 24}

    # Winners: pass rate by the paired tests (Holm), the other rows by the sign-flip test.
    best_vs = [ref.sign_flip_exact(base1.passed - other.passed) for other in (cand, base2)]
    expected_rate_winners = sorted(
        [1] + [c for c, p in zip((0, 2), ref.holm(best_vs), strict=True) if p >= 0.05]
    )
    assert pass_rate["winners"] == expected_rate_winners
    tokens = _per_case_tokens(tensor, [str(2 * i) for i in range(40)])
    token_row = _row(card, "output_tokens_mean")
    assert _values(token_row) == pytest.approx(list(tokens.mean(axis=1)), abs=CLOSE)
    assert token_row["winners"] == _winners(tokens, lower_is_better=True)
    cost_row = _row(card, "cost_per_case_cents")  # one cent per output token
    assert _values(cost_row) == pytest.approx(list(tokens.mean(axis=1)), abs=CLOSE)
    assert cost_row["winners"] == token_row["winners"]
    for name in ("latency_p50_ms", "latency_p95_ms"):
        assert _values(_row(card, name)) == [10.0, 20.0, 30.0]
        assert _row(card, name)["winners"] == [0]
    missing = _row(card, "failed_or_missing_rate")
    assert (_values(missing), missing["winners"]) == ([0.0, 0.0, 0.0], [0, 1, 2])
    # Only the quality rows vote: the pass-rate row alone here.
    votes = [0, 0, 0]
    if len(expected_rate_winners) == 1:
        votes[expected_rate_winners[0]] = 1
    assert card["overallWinner"]["votes"] == votes
    assert card["overallWinner"]["cohortIndex"] == (
        expected_rate_winners[0] if len(expected_rate_winners) == 1 else None
    )


async def test_two_cohorts_eighty_cases_one_trial(backend: Backend) -> None:
    """One trial per case: Wilson intervals, McNemar mid-p with the exact p beside it."""
    ws = await make_workspace(backend.sessionmaker)
    candidate = ["P"] * 60 + ["F"] * 20
    baseline = ["P"] * 50 + ["F"] * 10 + ["P"] * 20
    setup = await scripted_setup(backend.sessionmaker, ws, [candidate, baseline])
    _, comparison = await finalized(backend, setup, trialsPerCase=1)
    card = comparison["scorecard"]
    assert card["usableCases"] == 80
    assert _values(_row(card, "pass_rate")) == [60 / 80, 70 / 80]
    for c, successes in ((0, 60), (1, 70)):
        row = card["confidence"][c]
        assert row["intervalMethod"] == "WILSON"
        assert (row["low"], row["high"]) == pytest.approx(ref.wilson(successes, 80), abs=CLOSE)
    mid_p, exact_p = ref.mcnemar_mid_p(10, 20)
    z_row, paired_row = card["significance"]
    assert paired_row["method"] == "MCNEMAR_MID_P" and paired_row["decides"]
    assert paired_row["pValue"] == pytest.approx(mid_p, abs=CLOSE)
    assert paired_row["exactPValue"] == pytest.approx(exact_p, abs=CLOSE)
    assert paired_row["adjustedPValue"] == pytest.approx(mid_p, abs=CLOSE)  # one baseline
    cand, base = ref.cohorts([candidate, baseline])
    assert z_row["pValue"] == pytest.approx(ref.z_test_p(cand, base), abs=CLOSE)
    (verdict,) = card["verdicts"]
    assert verdict["passRateDeltaPoints"] == pytest.approx(-12.5, abs=CLOSE)
    assert (verdict["worseCount"], verdict["betterCount"], verdict["sameCount"]) == (20, 10, 50)
    assert verdict["outcome"] == ("REGRESSED" if mid_p < 0.05 else "NO_VERDICT")
    assert card["failureAnalysis"] == {"improved": 10, "regressed": 20, "bothWrong": 0, "agree": 50}
    trials = card["trials"]
    assert [t["passHatK"] for t in trials] == pytest.approx([0.75, 0.875], abs=CLOSE)
    assert [t["flips"] for t in trials] == [0, 0]
