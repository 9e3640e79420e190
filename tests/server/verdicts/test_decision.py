"""The ship decision through the API (docs/decision.md): scenarios whose truth is known before they
start — scripted outcomes per trial, connections priced and timed per cohort — decided at
finalization; the numbers checked against what the test computes from the script."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from scipy import stats as scipy_stats

from bench.kit.factories import WorkspaceFixture, make_workspace
from bench.kit.harness import Backend
from bench.kit.scenarios import (
    CREATE,
    finalized,
    run_comparison,
    scorecard_of,
    scripted_setup,
    wait_finalized,
)
from server.workspaces.roles import Role
from tests.server.comparisons.test_sequential import STOPPING, regression_tensor, sequence_inputs
from tests.stats.betting_reference import reference_betting_cs

PREVIEW = """
query($input: CreateComparisonInput!) { comparisonPreview(input: $input) {
  shipPolicy { qualityMarginPoints alpha requireGain registeredAt sentence
    guardrails { metric maxIncreasePercent maxIncreasePoints } } } }
"""
SHIP_POLICY = """
query($id: ID!) { comparison(id: $id) { shipPolicy { qualityMarginPoints alpha requireGain
  registeredAt guardrails { metric maxIncreasePercent maxIncreasePoints } } } }
"""
RERUN = "mutation($id: ID!) { rerunComparison(id: $id) { id } }"
SETTINGS = """
mutation($policy: ShipPolicyInput!) { updateWorkspaceSettings(input: {defaultShipPolicy: $policy})
  { settings { defaultShipPolicy { qualityMarginPoints requireGain registeredAt
    guardrails { metric maxIncreasePercent } } } } }
"""
Z = scipy_stats.norm.ppf(0.95) + scipy_stats.norm.ppf(0.8)


def _criterion(decision: dict[str, Any], kind: str, metric: str) -> dict[str, Any]:
    found: list[dict[str, Any]] = [
        c for c in decision["criteria"] if (c["kind"], c["metric"]) == (kind, metric)
    ]
    assert len(found) == 1, found
    return found[0]


async def _decided(
    backend: Backend, ws: WorkspaceFixture, tensor: list[list[str]], **options: Any
) -> dict[str, Any]:
    setup_options = {
        k: options.pop(k)
        for k in ("input_cents_per_million_tokens", "output_cents_per_million_tokens", "latency_ms")
        if k in options
    }
    setup = await scripted_setup(backend.sessionmaker, ws, tensor, **setup_options)
    _, comparison = await finalized(backend, setup, **options)
    return comparison


async def test_a_cheaper_candidate_within_the_margin_ships(backend: Backend) -> None:
    """The same answers on both sides; the candidate's connection costs 0.6 × the baseline's
    per token (prices in whole dollars per million tokens, so no call's cost is rounded),
    so every case costs 0.6 × as much: the paired ratio is 0.6."""
    ws = await make_workspace(backend.sessionmaker)
    outcomes = ["PPP", "PPF", "PFF", "PPP", "FFF"] * 8
    policy = {
        "guardrails": [
            {"metric": "COST_PER_CASE", "maxIncreasePercent": 0},
            {"metric": "FAILED_OR_MISSING", "maxIncreasePoints": 5},
        ],
        "requireGain": "COST",
    }
    comparison = await _decided(
        backend,
        ws,
        [outcomes, outcomes],
        input_cents_per_million_tokens=[300.0, 500.0],
        output_cents_per_million_tokens=[3000.0, 5000.0],
        trialsPerCase=3,
        shipPolicy=policy,
    )
    decision = comparison["decision"]
    assert decision["outcome"] == "SHIP", decision["sentence"]
    assert {c["status"] for c in decision["criteria"]} == {"MET"}
    cost = _criterion(decision, "GUARDRAIL", "COST_PER_CASE")
    assert cost["low"] - 1e-9 <= 0.6 <= cost["high"] + 1e-9
    assert cost["estimate"] == pytest.approx(0.6, rel=1e-9)
    gain = _criterion(decision, "GAIN", "COST_PER_CASE")
    assert gain["high"] < 1 and gain["threshold"] == 1.0
    quality = _criterion(decision, "QUALITY", "PASS_RATE")
    assert (quality["estimate"], quality["threshold"]) == (0.0, -2.0)
    # The ratio is the scorecard's cost row, candidate ÷ baseline.
    [row] = [m for m in comparison["scorecard"]["metrics"] if m["name"] == "cost_per_case_cents"]
    values = {v["cohortIndex"]: v["value"] for v in row["values"]}
    assert cost["estimate"] == pytest.approx(values[0] / values[1], rel=1e-9)
    assert decision["sentence"].startswith("Ship ")
    assert "40% cheaper per case" in decision["sentence"]
    policy_shown = comparison["shipPolicy"]
    assert policy_shown["requireGain"] == "COST" and policy_shown["registeredAt"]


async def test_a_candidate_twelve_points_worse_is_dont_ship(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    baseline = ["P"] * 50
    candidate = ["F"] * 6 + ["P"] * 44
    comparison = await _decided(backend, ws, [candidate, baseline], trialsPerCase=1)
    decision = comparison["decision"]
    quality = _criterion(decision, "QUALITY", "PASS_RATE")
    assert quality["estimate"] == pytest.approx(-12.0)
    assert quality["high"] < -2 and quality["status"] == "VIOLATED"
    # The criterion's interval is the scorecard's BCa at 90%: scipy's on the same cases.
    differences = np.array([-1.0] * 6 + [0.0] * 44)
    reference = scipy_stats.bootstrap(
        (differences,), np.mean, method="BCa", confidence_level=0.9, n_resamples=9_999,
        rng=np.random.default_rng(1),
    )  # fmt: skip
    se = float(reference.standard_error) * 100
    assert abs(quality["low"] - reference.confidence_interval.low * 100) < 0.2 * se
    assert abs(quality["high"] - reference.confidence_interval.high * 100) < 0.2 * se
    assert (decision["outcome"], decision["casesNeeded"]) == ("DONT_SHIP", None)
    assert decision["sentence"].startswith("Don't ship ")


async def test_a_one_point_drop_on_sixty_cases_asks_for_more_data(backend: Backend) -> None:
    """60 cases × 5 trials: the candidate loses a trial on 8 cases and wins one on 5, so
    Δ = −3/300 = −1 point, inside a 90% interval wider than the 2-point margin."""
    ws = await make_workspace(backend.sessionmaker)
    baseline = ["PPPPF"] * 60
    candidate = ["PPPFF"] * 8 + ["PPPPP"] * 5 + ["PPPPF"] * 47
    comparison = await _decided(backend, ws, [candidate, baseline], trialsPerCase=5)
    decision = comparison["decision"]
    quality = _criterion(decision, "QUALITY", "PASS_RATE")
    assert quality["estimate"] == pytest.approx(-1.0)
    assert quality["status"] == "UNCERTAIN"
    assert decision["outcome"] == "MORE_DATA"
    differences = np.array([-0.2] * 8 + [0.2] * 5 + [0.0] * 47)
    expected = math.ceil((Z * differences.std(ddof=1) / (differences.mean() + 0.02)) ** 2)
    assert decision["casesNeeded"] == expected
    assert f"About {expected:,} usable cases" in decision["sentence"]


async def test_a_slow_candidate_breaks_the_latency_guardrail(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    outcomes = ["P", "F", "P", "P"] * 10
    comparison = await _decided(
        backend,
        ws,
        [outcomes, outcomes],
        latency_ms=[50, 20],
        trialsPerCase=1,
        shipPolicy={"guardrails": [{"metric": "LATENCY_P95", "maxIncreasePercent": 20}]},
    )
    decision = comparison["decision"]
    latency = _criterion(decision, "GUARDRAIL", "LATENCY_P95")
    assert latency["estimate"] == pytest.approx(2.5)
    assert latency["low"] > 1.2 and latency["threshold"] == pytest.approx(1.2)
    assert latency["status"] == "VIOLATED"
    assert _criterion(decision, "QUALITY", "PASS_RATE")["status"] == "MET"
    assert decision["outcome"] == "DONT_SHIP"
    assert "p95 latency over the +20% allowed" in decision["sentence"]


async def test_twelve_cases_are_no_decision(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    comparison = await _decided(backend, ws, [["P"] * 12, ["P"] * 12], trialsPerCase=1)
    decision = comparison["decision"]
    assert (decision["outcome"], decision["reason"], decision["usableCases"]) == (
        "NO_DECISION",
        "INSUFFICIENT_CASES",
        12,
    )
    assert "at least 20 usable cases, and this run has 12" in decision["sentence"]


async def test_a_sequential_stop_decides_from_its_sequence(backend: Backend) -> None:
    """A 15-point regression stops early once its sequence lies below −ε (1 point); with a
    margin of half a point the sequence at the stop violates it."""
    ws = await make_workspace(backend.sessionmaker)
    setup = await scripted_setup(backend.sessionmaker, ws, regression_tensor(300))
    member = ws.tokens[Role.MEMBER]
    spec = setup.input(trialsPerCase=1, stopping=STOPPING, shipPolicy={"qualityMarginPoints": 0.5})
    comparison_id = await run_comparison(backend, member, spec, background=True)
    await wait_finalized(backend, member, comparison_id, timeout=120)
    comparison = await scorecard_of(backend, member, comparison_id)
    assert comparison["stopReason"] == "DECIDED_EARLY"
    decision = comparison["decision"]
    quality = _criterion(decision, "QUALITY", "PASS_RATE")
    [verdict] = comparison["scorecard"]["verdicts"]
    assert verdict["outcome"] == "REGRESSED"
    # The sequence at the stop, recomputed by an independent implementation.
    stopped_at = int(comparison["scorecard"]["stopping"]["stoppedAtCases"])
    x = await sequence_inputs(backend, comparison_id, stopped_at)
    low, high = reference_betting_cs(x, 0.05)
    assert quality["low"] == pytest.approx(low[-1] * 100, abs=1e-9)
    assert quality["high"] == pytest.approx(high[-1] * 100, abs=1e-9)
    assert (quality["low"], quality["high"]) == (verdict["deltaLow"], verdict["deltaHigh"])
    assert quality["high"] < -0.5 and quality["status"] == "VIOLATED"
    assert decision["outcome"] == "DONT_SHIP"


@pytest.mark.parametrize(
    ("policy", "field"),
    [
        ({"qualityMarginPoints": -1}, "shipPolicy.qualityMarginPoints"),
        ({"alpha": 0.5}, "shipPolicy.alpha"),
        ({"alpha": 0}, "shipPolicy.alpha"),
        (
            {"guardrails": [{"metric": "OUTPUT_TOKENS", "maxIncreasePercent": 5}] * 9},
            "shipPolicy.guardrails",
        ),
        (
            {"guardrails": [{"metric": "FAILED_OR_MISSING", "maxIncreasePercent": 5}]},
            "shipPolicy.guardrails[0].maxIncreasePercent",
        ),
        (
            {"guardrails": [{"metric": "COST_PER_CASE", "maxIncreasePoints": 5}]},
            "shipPolicy.guardrails[0].maxIncreasePoints",
        ),
    ],
)
async def test_a_bad_policy_is_refused_naming_the_field_and_creates_nothing(
    backend: Backend, policy: dict[str, Any], field: str
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await scripted_setup(backend.sessionmaker, ws, [["P"] * 20, ["P"] * 20])
    member = ws.tokens[Role.MEMBER]
    for query in (CREATE, PREVIEW):
        result = await backend.gql(query, {"input": setup.input(shipPolicy=policy)}, token=member)
        assert result.codes == ["VALIDATION_FAILED"], result.errors
        assert result.errors[0]["extensions"]["field"] == field
    listing = await backend.gql("{ comparisons(first: 5) { edges { node { id } } } }", token=member)
    assert listing.ok()["comparisons"]["edges"] == []


async def test_the_policy_is_frozen_at_creation_from_the_workspace_default_and_copied_by_rerun(
    backend: Backend,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await scripted_setup(backend.sessionmaker, ws, [["P"] * 20, ["P"] * 20])
    member, admin = ws.tokens[Role.MEMBER], ws.tokens[Role.ADMIN]
    default = {
        "qualityMarginPoints": 1.5,
        "guardrails": [{"metric": "LATENCY_P50", "maxIncreasePercent": 10}],
        "requireGain": "LATENCY",
    }
    shown = (await backend.gql(SETTINGS, {"policy": default}, token=admin)).ok()
    settings = shown["updateWorkspaceSettings"]["settings"]["defaultShipPolicy"]
    assert settings["qualityMarginPoints"] == 1.5 and settings["registeredAt"] is None
    preview = (await backend.gql(PREVIEW, {"input": setup.input()}, token=member)).ok()
    assert preview["comparisonPreview"]["shipPolicy"]["requireGain"] == "LATENCY"
    created = (await backend.gql(CREATE, {"input": setup.input()}, token=member)).ok()
    comparison_id = created["createComparison"]["id"]
    # A later change of the default leaves the comparison's policy as it was registered.
    await backend.gql(SETTINGS, {"policy": {"qualityMarginPoints": 4}}, token=admin)
    frozen = (await backend.gql(SHIP_POLICY, {"id": comparison_id}, token=member)).ok()
    policy = frozen["comparison"]["shipPolicy"]
    assert (policy["qualityMarginPoints"], policy["requireGain"]) == (1.5, "LATENCY")
    assert policy["guardrails"] == [
        {"metric": "LATENCY_P50", "maxIncreasePercent": 10.0, "maxIncreasePoints": None}
    ]
    assert policy["registeredAt"]
    rerun = (await backend.gql(RERUN, {"id": comparison_id}, token=member)).ok()
    copied = (
        await backend.gql(SHIP_POLICY, {"id": rerun["rerunComparison"]["id"]}, token=member)
    ).ok()["comparison"]["shipPolicy"]
    assert {k: v for k, v in copied.items() if k != "registeredAt"} == {
        k: v for k, v in policy.items() if k != "registeredAt"
    }
    # A bad default names its field.
    refused = await backend.gql(SETTINGS, {"policy": {"alpha": 0.7}}, token=admin)
    assert refused.codes == ["VALIDATION_FAILED"]
    assert refused.errors[0]["extensions"]["field"] == "defaultShipPolicy.alpha"
