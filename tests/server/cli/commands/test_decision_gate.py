"""`shipwise comparison gate`, `start --wait --gate` and `shipwise gate` with a policy, run
as a CI job runs them: the exit code is the decision (0 SHIP, 1 other, 2 operational)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from bench.kit.scenarios import CREATE, run_comparison, scripted_setup, wait_finalized
from server.workspaces.roles import Role
from tests.server.cli.commands.test_dataset_import import write_lines
from tests.server.cli.commands.test_runs_cli import client_env, import_file
from tests.server.cli.invoke import shipwise
from tests.server.comparisons.documents import CANCEL

RAW_ENUM = re.compile(r"\b[A-Z]{2,}(?:_[A-Z]+)*\b")
"""An enum value as the API names it (DONT_SHIP, PASS_RATE, VIOLATED, DEV)."""

LABELS = "query($id: ID!) { comparison(id: $id) { cohorts { cohortIndex label } } }"
SAME = ["PP", "PF", "FF", "PP"] * 6
WORSE = ["FF"] * 6 + ["PP"] * 18


async def comparison_of(backend: Backend, tensor: list[list[str]]) -> tuple[str, str]:
    """A finalized two-cohort comparison (2 trials per case); (member token, its id)."""
    ws = await make_workspace(backend.sessionmaker)
    setup = await scripted_setup(backend.sessionmaker, ws, tensor)
    member = ws.tokens[Role.MEMBER]
    comparison_id = await run_comparison(backend, member, setup.input(trialsPerCase=2))
    state = await wait_finalized(backend, member, comparison_id)
    assert state["verdictState"] == "FINALIZED"
    return member, comparison_id


async def test_comparison_gate_exits_0_on_ship_and_1_otherwise(backend: Backend) -> None:
    member, shipped = await comparison_of(backend, [SAME, SAME])
    passed = await shipwise("comparison", "gate", shipped, env=client_env(backend, member))
    assert passed.code == 0, passed.stderr
    assert passed.stdout.startswith("decision: Ship ")
    # Each baseline by its label, as the portal names it (issue 51, 8).
    label = (await backend.gql(LABELS, {"id": shipped}, token=member)).ok()
    baseline = label["comparison"]["cohorts"][1]["label"]
    assert f"[Met] quality (pass rate) vs {baseline}: at most 2 points worse" in passed.stdout
    assert "baseline 1" not in passed.stdout

    member, held = await comparison_of(backend, [WORSE, SAME[:6] + ["PP"] * 18])
    failed = await shipwise("comparison", "gate", held, env=client_env(backend, member))
    assert failed.code == 1, failed.stderr
    assert failed.stdout.startswith("decision: Don't ship ")
    status = await shipwise("comparison", "status", held, env=client_env(backend, member))
    assert status.code == 0
    assert "decision: Don't ship " in status.stdout
    # Enum values in words, cohorts numbered from 1, as the portal says them (issue 34, 7).
    assert "cohort 1 (candidate)" in status.stdout and "(Dev split)" in status.stdout
    for said in (passed.stdout, failed.stdout, status.stdout):
        assert RAW_ENUM.findall(said) == [], said


async def test_start_wait_gate_runs_and_exits_by_the_decision(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await scripted_setup(backend.sessionmaker, ws, [WORSE, ["PP"] * 24])
    member = ws.tokens[Role.MEMBER]
    created = await backend.gql(CREATE, {"input": setup.input(trialsPerCase=2)}, token=member)
    comparison_id = created.ok()["createComparison"]["id"]
    env = client_env(backend, member)
    done = await shipwise("comparison", "start", comparison_id, "--wait", "--gate", env=env)
    assert done.code == 1, (done.stdout, done.stderr)
    assert f"comparison {comparison_id}: Done\n" in done.stdout
    assert "decision: Don't ship " in done.stdout
    alone = await shipwise("comparison", "start", comparison_id, "--gate", env=env)
    assert alone.code == 2 and "--gate needs --wait" in alone.stderr


async def test_comparison_gate_operational_errors_and_no_decision(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    setup = await scripted_setup(backend.sessionmaker, ws, [SAME, SAME])
    member = ws.tokens[Role.MEMBER]
    env = client_env(backend, member)
    created = (await backend.gql(CREATE, {"input": setup.input()}, token=member)).ok()
    comparison_id = created["createComparison"]["id"]
    waiting = await shipwise("comparison", "gate", comparison_id, env=env)
    assert waiting.code == 2 and "has not started" in waiting.stderr
    missing = await shipwise("comparison", "gate", "cmp_nope", env=env)
    assert missing.code == 2 and "NOT_FOUND" in missing.stderr
    (await backend.gql(CANCEL, {"id": comparison_id}, token=member)).ok()
    cancelled = await shipwise("comparison", "gate", comparison_id, env=env)
    assert cancelled.code == 1, cancelled.stderr
    assert "decision: No decision for " in cancelled.stdout
    assert "did not reach its end" in cancelled.stdout


def priced_items(costs: list[float], passes: list[bool]) -> list[dict[str, Any]]:
    return [
        {
            "datasetItemId": f"q{i}",
            "input": f"question {i}",
            "trials": [{"passed": ok, "metrics": {"costUsd": cost, "wallMs": 100 + i}}],
        }
        for i, (cost, ok) in enumerate(zip(costs, passes, strict=True))
    ]


async def test_gate_with_a_policy_decides_by_it(backend: Backend, tmp_path: Path) -> None:
    ws = await make_workspace(backend.sessionmaker)
    member = ws.tokens[Role.MEMBER]
    passes = [i % 4 != 0 for i in range(40)]
    base_costs = [0.001 * (1 + i % 5) for i in range(40)]
    cheap = [0.5 * c for c in base_costs]
    dear = [1.5 * c for c in base_costs]
    runs = {}
    for name, costs in (("base", base_costs), ("cheap", cheap), ("dear", dear)):
        path = write_lines(tmp_path / f"{name}.jsonl", priced_items(costs, passes))
        done = await import_file(backend, member, path)
        assert done.code == 0, done.stderr
        runs[name] = done.stdout.strip().splitlines()[-1]
    env = client_env(backend, ws.tokens[Role.VIEWER])
    flags = ["--guardrail", "cost_per_case=+10%", "--guardrail", "failed_or_missing=+5"]

    shipped = await shipwise(
        "gate", "--candidate", runs["cheap"], "--baseline", runs["base"], *flags,
        "--require-gain", "cost", "--margin-points", "1", env=env,
    )  # fmt: skip
    assert shipped.code == 0, (shipped.stdout, shipped.stderr)
    assert "decision: Ship run " in shipped.stdout
    assert "[Met] baseline 1, gain (cost per case): 50% cheaper per case" in shipped.stdout

    held = await shipwise(
        "gate", "--candidate", runs["dear"], "--baseline", runs["base"], *flags, env=env
    )
    assert held.code == 1, (held.stdout, held.stderr)
    assert "[Violated] baseline 1, guardrail (cost per case)" in held.stdout

    # Without a policy it keeps docs/statistics.md's rule: the same pass rates pass.
    plain = await shipwise("gate", "--candidate", runs["dear"], "--baseline", runs["base"], env=env)
    assert plain.code == 0 and "gate: PASS" in plain.stdout

    for bad, said in (
        (["--guardrail", "failed_or_missing=+5%"], "not a percent"),
        (["--guardrail", "speed=+5%"], "the metric is one of"),
        (["--require-gain", "fame"], "--require-gain"),
    ):
        refused = await shipwise(
            "gate", "--candidate", runs["dear"], "--baseline", runs["base"], *bad, env=env
        )
        assert refused.code == 2 and said in refused.stderr, refused.stderr
    negative = await shipwise(
        "gate", "--candidate", runs["dear"], "--baseline", runs["base"],
        "--margin-points", "-1", env=env,
    )  # fmt: skip
    assert negative.code == 2 and "VALIDATION_FAILED" in negative.stderr


RUN_DECISION = """
query($c: ID!, $b: ID!, $policy: ShipPolicyInput) {
  runDiff(candidateRunId: $c, baselineRunId: $b, policy: $policy) {
    decision { outcome reason criteria { kind metric status reason estimate } } } }
"""


async def test_run_diff_decision_names_a_metric_the_runs_lack(
    backend: Backend, tmp_path: Path
) -> None:
    """Trials without `outputTokens`: a guardrail on it is UNCERTAIN, NOT_MEASURED."""
    ws = await make_workspace(backend.sessionmaker)
    member = ws.tokens[Role.MEMBER]
    passes = [True] * 30
    runs = []
    for name in ("base", "cand"):
        path = write_lines(tmp_path / f"{name}.jsonl", priced_items([0.001] * 30, passes))
        done = await import_file(backend, member, path)
        assert done.code == 0, done.stderr
        runs.append(done.stdout.strip().splitlines()[-1])
    policy = {"guardrails": [{"metric": "OUTPUT_TOKENS", "maxIncreasePercent": 5}]}
    found = await backend.gql(
        RUN_DECISION, {"c": runs[1], "b": runs[0], "policy": policy}, token=member
    )
    decision = found.ok()["runDiff"]["decision"]
    rows = [(c["kind"], c["metric"], c["status"], c["reason"]) for c in decision["criteria"]]
    assert rows == [
        ("QUALITY", "PASS_RATE", "MET", None),
        ("GUARDRAIL", "OUTPUT_TOKENS", "UNCERTAIN", "NOT_MEASURED"),
    ]
    assert decision["outcome"] == "MORE_DATA"
    bad = {"guardrails": [{"metric": "COST_PER_CASE"}]}
    refused = await backend.gql(
        RUN_DECISION, {"c": runs[1], "b": runs[0], "policy": bad}, token=member
    )
    assert refused.codes == ["VALIDATION_FAILED"]
    assert refused.errors[0]["extensions"]["field"] == "policy.guardrails[0].maxIncreasePercent"
