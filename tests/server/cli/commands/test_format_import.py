"""Other tools' results through `shipwise run import`, `runDiff`, `gate` and `compare`.

Each fixture was written by the tool itself (tests/fixtures/imports/README.md); what the
diff must show is computed from the tool's own records (`tool_records`), not by our reader.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.server.cli.commands import tool_records as tr
from tests.server.cli.commands.test_runs_cli import client_env, import_file
from tests.server.cli.invoke import shipwise
from tests.server.runs.api import RUN

SUMMARY = """query($c: ID!, $b: ID!) { runDiff(candidateRunId: $c, baselineRunId: $b) {
  summary { baselinePassRate candidatePassRate regressedCount improvedCount addedCount
            removedCount significant passRateDelta pairing } } }"""
LM_A = tr.LM_EVAL / "model-a" / "samples_arith_2026-12-01T17-30-00.000001.jsonl"
LM_B = tr.LM_EVAL / "model-b" / "samples_arith_2026-12-01T17-30-00.000001.jsonl"


@dataclass(frozen=True)
class Case:
    baseline: Path
    candidate: Path
    recorded: Callable[[Path], dict[str, tr.Recorded]]
    source: tuple[str, str | None, str, str]
    """The candidate's metadata.source: tool, version, model, task."""
    regression_is_significant: bool | None
    """None: a small overlap, so the gate just has to agree with the diff's verdict."""


CASES = {
    "inspect-eval-zstd": Case(
        tr.INSPECT / "sums-fake-good.eval", tr.INSPECT / "sums-fake-bad.eval",
        tr.recorded_inspect, ("inspect", "0.3.285", "openai/fake-bad", "sums"), True,
    ),
    "inspect-json-vs-deflate-eval": Case(
        tr.INSPECT / "sums-fake-good-limit4.json", tr.INSPECT / "sums-fake-bad-deflate.eval",
        tr.recorded_inspect, ("inspect", "0.3.160", "openai/fake-bad", "sums"), None,
    ),
    "lm-eval": Case(
        LM_A, LM_B, tr.recorded_lm_eval, ("lm-eval", "0.4.9", "model-b", "arith"), True
    ),
    "openai-evals": Case(
        tr.OPENAI_EVALS / "output_items_a.jsonl", tr.OPENAI_EVALS / "output_items_b.jsonl",
        tr.recorded_openai_evals, ("openai-evals", None, "gpt-fake-b", "eval_arith"), True,
    ),
}  # fmt: skip


def last_line(text: str) -> str:
    return text.strip().splitlines()[-1]


async def summary(backend: Backend, token: str, candidate: str, baseline: str) -> dict[str, Any]:
    answer = await backend.gql(SUMMARY, {"c": candidate, "b": baseline}, token=token)
    result: dict[str, Any] = answer.ok()["runDiff"]["summary"]
    return result


def assert_matches(found: dict[str, Any], expected: dict[str, Any]) -> None:
    shown = {key: found[key] for key in expected}
    for key in ("baselinePassRate", "candidatePassRate"):
        shown[key] = round(shown[key], 9)
    assert shown == expected


async def gate_and_compare(
    backend: Backend, token: str, runs: tuple[str, str], files: tuple[Path, Path],
    significant: bool, extra: tuple[str, ...] = (), reverse_extra: tuple[str, ...] = (),
) -> None:  # fmt: skip
    """gate and compare: exit 1 on the regression (when significant), 0 the other way."""
    env = client_env(backend, token)
    base, cand = runs
    gate = await shipwise("gate", "--candidate", cand, "--baseline", base, env=env)
    assert gate.code == (1 if significant else 0), gate.stdout + gate.stderr
    back = await shipwise("gate", "--candidate", base, "--baseline", cand, env=env)
    assert back.code == 0 and "gate: PASS" in back.stdout, back.stderr
    compare = await shipwise(
        "compare", "--baseline", str(files[0]), "--treatment", str(files[1]),
        "--fail-on-regression", *extra,
    )  # fmt: skip
    assert compare.code == (1 if significant else 0), compare.stdout + compare.stderr
    reverse = await shipwise(
        "compare", "--baseline", str(files[1]), "--treatment", str(files[0]),
        "--fail-on-regression", *reverse_extra,
    )  # fmt: skip
    assert reverse.code == 0, reverse.stdout + reverse.stderr
    for done in (gate, back, compare, reverse):
        assert "Traceback" not in done.stderr


@pytest.mark.parametrize("name", list(CASES))
async def test_a_tools_two_runs_diff_gate_and_compare_as_the_tool_recorded(
    backend: Backend, name: str
) -> None:
    case = CASES[name]
    ws = await make_workspace(backend.sessionmaker)
    member = ws.tokens[Role.MEMBER]
    base = await import_file(backend, member, case.baseline)
    cand = await import_file(backend, member, case.candidate)
    assert base.code == 0 and cand.code == 0, base.stderr + cand.stderr
    baseline, candidate = last_line(base.stdout), last_line(cand.stdout)
    again = await import_file(backend, member, case.candidate)
    assert again.code == 0 and last_line(again.stdout) == candidate  # the same import: a no-op
    run = (await backend.gql(RUN, {"id": candidate}, token=member)).ok()["run"]
    source = run["metadata"]["source"]
    assert (source["tool"], source["version"], source["model"], source["task"]) == case.source
    assert run["status"] == "COMPLETED" and run["source"] == "IMPORTED"

    found = await summary(backend, member, candidate, baseline)
    expected = tr.expected_diff(case.recorded(case.candidate), case.recorded(case.baseline))
    assert_matches(found, expected)
    assert found["pairing"] == "DATASET_ITEM_ID" and expected["regressedCount"] > 0
    significant = case.regression_is_significant
    if significant is None:
        significant = bool(found["significant"] and found["passRateDelta"] < 0)
    else:
        assert found["significant"] is significant
    files = (case.baseline, case.candidate)
    await gate_and_compare(backend, member, (baseline, candidate), files, significant)


async def test_promptfoo_pairs_become_runs_and_variant_picks_one(
    backend: Backend, tmp_path: Path
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    member = ws.tokens[Role.MEMBER]
    results = tr.promptfoo_results(tmp_path)
    both = await import_file(backend, member, results)
    assert both.code == 0, both.stderr
    lines = both.stdout.strip().splitlines()
    pairs = {label: run for run, label in (line.split("\t") for line in lines if "\t" in line)}
    assert set(pairs) == {"plain / good", "plain / bad"}
    assert lines[-1] == pairs["plain / good"]  # the first pair in results.prompts
    good, bad = pairs["plain / good"], pairs["plain / bad"]
    run = (await backend.gql(RUN, {"id": bad}, token=member)).ok()["run"]
    source = run["metadata"]["source"]
    assert (source["tool"], source["version"], source["model"]) == (
        "promptfoo", "0.121.20", "openai:chat:fake-bad",
    )  # fmt: skip
    assert run["itemCount"] == 20 and len(run["items"]["edges"][0]["node"]["trials"]) == 3

    found = await summary(backend, member, bad, good)
    assert_matches(
        found,
        tr.expected_diff(
            tr.recorded_promptfoo(results, "bad"), tr.recorded_promptfoo(results, "good")
        ),
    )
    assert found["significant"] is True
    await gate_and_compare(
        backend, member, (good, bad), (results, results), True,
        extra=("--variant", "good", "--variant", "bad"),
        reverse_extra=("--variant", "bad", "--variant", "good"),
    )  # fmt: skip

    one = await import_file(backend, member, results, "--variant", "openai:chat:fake-bad")
    assert one.code == 0 and "\t" not in one.stdout, one.stderr
    picked = (await backend.gql(RUN, {"id": last_line(one.stdout)}, token=member)).ok()["run"]
    assert picked["metadata"]["source"]["variant"] == "plain / bad"
    vague = await import_file(backend, member, results, "--variant", "plain")
    assert vague.code == 2 and "matches 2 pairs (pairs: plain / good; plain / bad)" in vague.stderr
