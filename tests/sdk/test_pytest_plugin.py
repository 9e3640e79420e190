"""The SDK's pytest plugin, run by pytester in a pytest of its own against a served shipwise."""

from __future__ import annotations

import asyncio

import pytest

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.sdk.helpers import (
    capital_cases,
    experiment_runs,
    run_items,
    sealed_dataset,
    server_decides,
)

pytest_plugins = ["pytester"]

AGENT_TESTS = """
import pytest

KNOWN = {KNOWN}


@pytest.mark.shipwise(dataset="plugin cases", experiment="pytest-capitals", trials={TRIALS})
def test_capital(shipwise_case):
    country = shipwise_case.input["country"]
    if country == "Greece":
        raise RuntimeError("the agent crashed on " + country)
    if country == "Sweden":
        shipwise_case.record({{"not": {{"json"}}}})  # a set: refused, the test fails
    answer = KNOWN.get(country, "no idea")
    shipwise_case.record(answer, metrics={{"tokens": 3}})
    assert answer == shipwise_case.expected


def test_unrelated():
    assert True
"""


def agent_tests(known: dict[str, str], trials: int = 1) -> str:
    return AGENT_TESTS.format(KNOWN=repr(known), TRIALS=trials)


async def run_session(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    """A pytest of its own (a subprocess: the backend's event loop goes on serving), without
    this suite's own plugins a user's project need not have: xdist, and Hypothesis, whose
    import was 0.9 of a bare session's 1.6 s of CPU."""
    return await asyncio.to_thread(
        pytester.runpytest_subprocess,
        *("-p", "no:xdist", "-p", "no:hypothesispytest", "-p", "no:cacheprovider", *args),
    )


async def test_a_marked_test_runs_per_case_and_uploads_one_run(
    backend: Backend, pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    cases = capital_cases(24)
    await sealed_dataset(backend, ws, "plugin cases", cases)
    monkeypatch.setenv("SHIPWISE_URL", backend.base_url)
    monkeypatch.setenv("SHIPWISE_TOKEN", token)
    known = {"France": "Paris", "Germany": "Berlin", "Italy": "Rome", "Greece": "Athens"}
    pytester.makepyfile(test_agent=agent_tests(known, trials=2))

    result = await run_session(pytester, "-v")
    result.assert_outcomes(passed=2 * 3 + 1, failed=2 * 21)
    result.stdout.fnmatch_lines(  # a test per case and trial, named by its datasetItemId
        ["*test_capital?capital-00-t0? PASSED*", "*test_capital?capital-23-t1? FAILED*"]
    )
    (run,) = await experiment_runs(backend, token, "pytest-capitals")
    assert (run["status"], run["itemCount"]) == ("COMPLETED", 24)
    assert f"run {run['id']}: 24 items, 4 failed trials" in result.stdout.str()
    _, items = await run_items(backend, token, run["id"])
    for item, case in zip(items, cases, strict=True):
        country = case["input"]["country"]
        assert item["datasetItemId"] == case["datasetItemId"] and len(item["trials"]) == 2
        for stored in item["trials"]:
            if country in ("Greece", "Sweden"):  # raised before recording: a failed trial
                assert stored["passed"] is False and stored["metrics"]["errors"] == 1
                error = stored["output"]["error"]
                assert "the agent crashed on Greece" in error or "is not JSON" in error
                assert len(stored["output"]["error"]) <= 500
                continue
            assert stored["output"] == known.get(country, "no idea")
            assert stored["passed"] is (country in known)
            assert stored["metrics"]["tokens"] == 3 and stored["metrics"]["wallMs"] >= 0


async def test_the_gate_fails_the_session_unless_the_decision_is_ship(
    backend: Backend, pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    await sealed_dataset(backend, ws, "plugin cases", capital_cases(24))
    monkeypatch.setenv("SHIPWISE_URL", backend.base_url)
    monkeypatch.setenv("SHIPWISE_TOKEN", token)
    everything = {c["input"]["country"]: c["expected"] for c in capital_cases(24)}
    pytester.makepyfile(test_agent=agent_tests(everything))
    baseline = await run_session(pytester)
    assert baseline.ret == 1  # Greece crashes
    assert "decision: none (no baseline run to compare with)" in baseline.stdout.str()

    worse = dict(list(everything.items())[:4])
    pytester.makepyfile(test_agent=agent_tests(worse))
    gated = await run_session(pytester, "--shipwise-gate")
    out = gated.stdout.str()
    runs = await experiment_runs(backend, token, "pytest-capitals")
    assert len(runs) == 2 and all(r["status"] == "COMPLETED" for r in runs)
    assert gated.ret == pytest.ExitCode.TESTS_FAILED
    assert "shipwise gate: FAIL (the decision is not SHIP)" in out
    assert f"/diff?candidate={runs[0]['id']}&baseline={runs[1]['id']}" in out
    assert "decision: SHIP" not in out
    if await server_decides(backend, token):  # 4 of 24 right against 23 of 24: don't ship
        assert "decision: DONT_SHIP: " in out
    else:
        assert "decision: none (the server gives no decision on run diffs)" in out


async def test_the_plugin_is_inert_without_a_marked_test(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SHIPWISE_URL", "http://127.0.0.1:9")  # nothing listens there
    monkeypatch.delenv("SHIPWISE_TOKEN", raising=False)
    pytester.makepyfile(test_plain="def test_one():\n    assert 1 + 1 == 2\n")
    result = await run_session(pytester, "--shipwise-gate")
    result.assert_outcomes(passed=1)
    assert result.ret == 0
    assert not any(line.strip("= ") == "shipwise" for line in result.outlines)  # no section

    pytester.makepyfile(test_plain="def test_one(shipwise_case):\n    pass\n")
    misused = await run_session(pytester)
    misused.assert_outcomes(errors=1)
    assert "shipwise_case is for tests marked @pytest.mark.shipwise" in misused.stdout.str()


SHIPPING_TESTS = """
import pytest
import shipwise

KNOWN = {KNOWN}
POLICY = shipwise.ShipPolicy(quality_margin_points=5, guardrails=())


@pytest.mark.shipwise(dataset="plugin cases", experiment="pytest-ship", policy=POLICY)
def test_capital(shipwise_case):
    answer = KNOWN[shipwise_case.input["country"]]
    shipwise_case.record(answer)
    assert answer == shipwise_case.expected
"""


async def test_the_gate_passes_the_session_when_the_decision_is_ship(
    backend: Backend, pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    cases = capital_cases(24)
    await sealed_dataset(backend, ws, "plugin cases", cases)
    if not await server_decides(backend, token):
        pytest.skip("this server gives no decision on run diffs")
    monkeypatch.setenv("SHIPWISE_URL", backend.base_url)
    monkeypatch.setenv("SHIPWISE_TOKEN", token)
    everything = {c["input"]["country"]: c["expected"] for c in cases}
    pytester.makepyfile(test_agent=SHIPPING_TESTS.format(KNOWN=repr(everything)))
    baseline = await run_session(pytester, "--shipwise-gate")  # no baseline: no decision
    assert baseline.ret == pytest.ExitCode.TESTS_FAILED, "the gate holds without a decision"
    shipped = await run_session(pytester, "--shipwise-gate")  # the same answers again
    out = shipped.stdout.str()
    shipped.assert_outcomes(passed=24)
    assert "decision: SHIP" in out and "shipwise gate: PASS (SHIP)" in out
    assert shipped.ret == pytest.ExitCode.OK
    runs = await experiment_runs(backend, token, "pytest-ship")
    assert [r["status"] for r in runs] == ["COMPLETED", "COMPLETED"]
