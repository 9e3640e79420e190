"""`shipwise.aevaluate` against a served shipwise: what the task returned is what is stored."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import shipwise

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

KNOWN = {"France": "Paris", "Germany": "Berlin", "Italy": "Rome", "Spain": "Madrid"}


def correct(_input: Any, output: Any, expected: Any) -> bool:
    return str(expected).lower() in str(output).lower()


def length(_input: Any, output: Any, _expected: Any) -> float:
    return float(len(str(output)))


async def test_a_sync_then_an_async_task_are_stored_diffed_and_linked(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    await sealed_dataset(backend, ws, "Capital cities", capital_cases(30))
    client = shipwise.Client(url=backend.base_url, token=token)

    def v1(case: dict[str, str]) -> str:
        return f"The capital is {KNOWN.get(case['country'], 'unknown')}."

    async def v2(case: dict[str, str]) -> dict[str, Any]:
        await asyncio.sleep(0)
        city = "Lyon" if case["country"] == "France" else KNOWN.get(case["country"], "?")
        return {"output": city, "metrics": {"tokens": 7}, "toolCalls": [{"name": "lookup"}]}

    first = await client.aevaluate(
        v1, "Capital cities", "capitals", scorers={"correct": correct, "length": length},
        baseline=None, progress=False,
    )  # fmt: skip
    assert (first.item_count, first.task_calls, first.failed_trials) == (30, 30, 0)
    assert first.diff is None and first.baseline_run_id is None
    assert first.url == f"{backend.base_url}/experiments/{first.experiment_id}"
    run, items = await run_items(backend, token, first.run_id)
    assert (run["status"], run["itemCount"], run["experiment"]["name"]) == (
        "COMPLETED",
        30,
        "capitals",
    )
    assert run["metadata"]["dataset"]["number"] == 1 and run["metadata"]["trials"] == 1
    cases = capital_cases(30)
    for position, (item, case) in enumerate(zip(items, cases, strict=True)):
        assert (item["position"], item["datasetItemId"], item["input"]) == (
            position, case["datasetItemId"], case["input"],
        )  # fmt: skip
        (stored,) = item["trials"]
        said = f"The capital is {KNOWN.get(case['input']['country'], 'unknown')}."
        assert stored["output"] == said
        assert stored["passed"] is (case["input"]["country"] in KNOWN)
        scores = {e["name"]: e["score"] for e in stored["evaluators"]}
        assert scores == {"correct": float(stored["passed"]), "length": float(len(said))}
        assert stored["metrics"]["wallMs"] >= 0 and stored["metrics"]["errors"] == 0

    second = await client.aevaluate(
        v2, "Capital cities", "capitals", trials=2, scorers={"correct": correct}, progress=False
    )
    assert second.baseline_run_id == first.run_id
    assert second.task_calls == 60 and second.trial_count == 60
    assert second.url == (
        f"{backend.base_url}/experiments/{second.experiment_id}/diff"
        f"?candidate={second.run_id}&baseline={first.run_id}"
    )
    assert second.diff is not None
    summary = second.diff["summary"]
    assert (summary["baselinePassRate"], summary["candidatePassRate"]) == (4 / 30, 3 / 30)
    assert summary["regressedCount"] == 1 and summary["pairedCount"] == 30
    if await server_decides(backend, token):  # 30 cases, one worse: not enough to ship
        assert second.decision is not None and second.decision.criteria
        assert second.decision.outcome in ("MORE_DATA", "DONT_SHIP", "SHIP", "NO_DECISION")
        assert second.decision.sentence
    else:
        assert second.decision is None
    (worst,) = [edge["node"] for edge in second.diff["cases"]["edges"]]
    assert worst["datasetItemId"] == "capital-00" and worst["status"] == "REGRESSED"
    _, items = await run_items(backend, token, second.run_id)
    assert [t["output"] for t in items[0]["trials"]] == ["Lyon", "Lyon"]
    assert items[0]["trials"][0]["metrics"]["tokens"] == 7
    assert items[0]["trials"][0]["metrics"]["toolCalls"] == 1
    assert [r["id"] for r in await experiment_runs(backend, token, "capitals")] == [
        second.run_id, first.run_id,
    ]  # fmt: skip


async def test_calls_stay_within_the_concurrency_bound(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    client = shipwise.Client(url=backend.base_url, token=ws.tokens[Role.MEMBER])
    await sealed_dataset(backend, ws, "bound", capital_cases(24))
    in_flight = 0
    most = 0
    full = asyncio.Event()

    async def slow(case: dict[str, str]) -> str:
        nonlocal in_flight, most
        in_flight += 1
        most = max(most, in_flight)
        if in_flight == 3:
            full.set()
        await asyncio.wait_for(full.wait(), 30)  # the first three wait for each other
        await asyncio.sleep(0)
        in_flight -= 1
        return case["country"]

    result = await client.aevaluate(slow, "bound", "bound", concurrency=3, progress=False)
    assert most == 3 and result.task_calls == 24

    lock = threading.Lock()
    threads_in = 0
    threads_most = 0
    started = 0
    first_wave = threading.Barrier(4, timeout=30)  # the first four calls meet: 4 at once

    def blocking(case: dict[str, str]) -> str:
        nonlocal threads_in, threads_most, started
        with lock:
            threads_in += 1
            started += 1
            threads_most = max(threads_most, threads_in)
            waits = started <= 4
        if waits:
            first_wave.wait()
        with lock:
            threads_in -= 1
        return case["country"]

    result = await client.aevaluate(blocking, "bound", "bound-sync", concurrency=4, progress=False)
    assert (threads_most, result.task_calls, result.failed_trials) == (4, 24, 0)


async def test_a_failed_call_is_a_failed_trial_with_a_bounded_error(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    client = shipwise.Client(url=backend.base_url, token=token)
    await sealed_dataset(backend, ws, "flaky", capital_cases(6))

    def flaky(case: dict[str, str]) -> str:
        if case["country"] in ("Germany", "Spain"):
            raise TimeoutError("provider slow " + "x" * 5000)
        return case["country"]

    result = await client.aevaluate(flaky, "flaky", "flaky", trials=2, progress=False)
    assert (result.failed_trials, result.task_calls, result.item_count) == (4, 12, 6)
    _, items = await run_items(backend, token, result.run_id)
    for item in items:
        for stored in item["trials"]:
            if item["input"]["country"] in ("Germany", "Spain"):
                assert stored["passed"] is False and stored["metrics"]["errors"] == 1
                error = stored["output"]["error"]
                assert error.startswith("TimeoutError: provider slow xxx") and len(error) == 500
                assert "Traceback" not in error
            else:
                assert stored["output"] == item["input"]["country"]
                assert stored["metrics"]["errors"] == 0


async def test_each_call_is_timed_and_a_sample_is_the_same_cases_every_time(
    backend: Backend,
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    client = shipwise.Client(url=backend.base_url, token=token)
    version = await sealed_dataset(backend, ws, "timed", capital_cases(30))

    async def slow(case: dict[str, str]) -> str:
        await asyncio.sleep(0.05 if case["country"] == "France" else 0)
        return case["country"]

    first = await client.aevaluate(slow, "timed", "timed", sample=8, progress=False)
    again = await client.aevaluate(slow, "timed", "timed", sample=8, progress=False)
    _, items = await run_items(backend, token, first.run_id)
    _, repeat = await run_items(backend, token, again.run_id)
    chosen = [item["datasetItemId"] for item in items]
    assert len(chosen) == 8 and chosen == [item["datasetItemId"] for item in repeat]
    assert chosen == sorted(chosen)  # in the version's order, at positions 0…7
    assert [item["position"] for item in items] == list(range(8))
    other = await client.aevaluate(slow, "timed", "timed", sample=8, sample_seed=1, progress=False)
    _, others = await run_items(backend, token, other.run_id)
    assert [item["datasetItemId"] for item in others] != chosen

    everything = await client.aevaluate(slow, version.asset_id, "timed-all", progress=False)
    by_version = await client.aevaluate(
        slow, "ignored when a version is given", "timed-all", version=version.id, progress=False
    )
    assert (everything.item_count, by_version.item_count) == (30, 30)
    _, items = await run_items(backend, token, everything.run_id)
    walls = {item["input"]["country"]: item["trials"][0]["metrics"]["wallMs"] for item in items}
    assert walls["France"] >= 50  # the call's own time, measured around it
    assert all(0 <= ms < walls["France"] for country, ms in walls.items() if country != "France")


async def test_the_decision_under_a_policy_is_the_known_truth(backend: Backend) -> None:
    """Against the previous run: the same answers ship within the margin; a candidate wrong on
    every case that the baseline got right does not."""
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    cases = capital_cases(40)
    await sealed_dataset(backend, ws, "Capitals", cases)
    client = shipwise.Client(url=backend.base_url, token=token)
    truth = {c["input"]["country"]: c["expected"] for c in cases}
    policy = shipwise.ShipPolicy(quality_margin_points=5, guardrails=())

    def right(case: dict[str, str]) -> str:
        return str(truth[case["country"]])

    def wrong(_case: dict[str, str]) -> str:
        return "Atlantis"

    async def evaluate(task: Any, experiment: str) -> shipwise.EvaluationResult:
        return await client.aevaluate(
            task, "Capitals", experiment, scorers={"correct": correct}, policy=policy,
            progress=False,
        )  # fmt: skip

    first = await evaluate(right, "same")
    assert first.decision is None, "no baseline: nothing to decide"
    same = await evaluate(right, "same")
    assert same.baseline_run_id == first.run_id
    assert same.decision is not None and same.decision.outcome == "SHIP", same.decision
    (quality,) = [c for c in same.decision.criteria if c["kind"] == "QUALITY"]
    assert quality["status"] == "MET" and quality["estimate"] == 0

    await evaluate(right, "worse")
    worse = await evaluate(wrong, "worse")
    assert worse.decision is not None and worse.decision.outcome == "DONT_SHIP", worse.decision
    (quality,) = [c for c in worse.decision.criteria if c["kind"] == "QUALITY"]
    assert quality["status"] == "VIOLATED" and quality["estimate"] == -100
