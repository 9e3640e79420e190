"""`shipwise run import`, `shipwise diff` and `shipwise gate`, run as a CI job runs them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.server.cli.commands.test_dataset_import import write_lines
from tests.server.cli.invoke import Done, shipwise
from tests.server.runs.api import RUN, diff, item
from tests.server.runs.test_diff import single_trial_runs


def client_env(backend: Backend, token: str) -> dict[str, str]:
    return {"SHIPWISE_URL": backend.base_url, "SHIPWISE_TOKEN": token}


async def import_file(backend: Backend, token: str, path: Path, *args: str) -> Done:
    return await shipwise(
        "run", "import", str(path), "--experiment", "ci", *args, env=client_env(backend, token)
    )


async def test_import_twice_then_gate_and_diff(backend: Backend, tmp_path: Path) -> None:
    ws = await make_workspace(backend.sessionmaker)
    member = ws.tokens[Role.MEMBER]
    candidate_items, baseline_items = single_trial_runs()
    base_file = write_lines(tmp_path / "baseline.jsonl", ["", *baseline_items])
    cand_file = write_lines(tmp_path / "candidate.jsonl", candidate_items)
    base = await import_file(backend, member, base_file, "--chunk-size", "7")
    assert base.code == 0, base.stderr
    baseline = base.stdout.strip().splitlines()[-1]
    assert "40 items, completed" in base.stdout
    cand = await import_file(backend, member, cand_file, "--metadata", '{"commit": "abc"}')
    assert cand.code == 0, cand.stderr
    candidate = cand.stdout.strip().splitlines()[-1]
    again = await import_file(backend, member, cand_file, "--metadata", '{"commit": "abc"}')
    assert again.code == 0 and again.stdout.strip().splitlines()[-1] == candidate
    run = (await backend.gql(RUN, {"id": candidate}, token=member)).ok()["run"]
    assert (run["status"], run["itemCount"], run["metadata"]) == (
        "COMPLETED",
        40,
        {"commit": "abc"},
    )

    viewer = client_env(backend, ws.tokens[Role.VIEWER])
    gate = await shipwise("gate", "--candidate", candidate, "--baseline", baseline, env=viewer)
    assert gate.code == 1, gate.stderr
    lines = gate.stdout.splitlines()
    assert lines[0].split() == ["METRIC", "BASELINE", "CANDIDATE", "DELTA", "P", "SIGNIFICANT"]
    assert lines[1].split()[:5] == ["pass_rate", "0.750", "0.575", "-0.175", "0.02148"]
    assert "gate: FAIL" in gate.stdout
    reverse = await shipwise("gate", "--candidate", baseline, "--baseline", candidate, env=viewer)
    assert reverse.code == 0 and "gate: PASS" in reverse.stdout

    shown = await shipwise(
        "diff", "--candidate", candidate, "--baseline", baseline, "--status", "regressed",
        env=viewer,
    )  # fmt: skip
    assert shown.code == 0, shown.stderr
    assert "8 regressed · 1 improved · 31 no change" in shown.stdout
    rows = [line.split() for line in shown.stdout.splitlines() if line.startswith("REGRESSED")]
    assert [row[2] for row in rows] == ["i01", "i02", "i03", "i05", "i06", "i07", "i09", "i10"]
    assert all(row[3] == "yes" and "judge" in row for row in rows)
    raw = await shipwise(
        "diff", "--candidate", candidate, "--baseline", baseline, "--json", "--limit", "3",
        "--url", backend.base_url, "--token", ws.tokens[Role.VIEWER],
    )  # fmt: skip
    parsed = json.loads(raw.stdout)
    assert parsed["totalCount"] == 40 and len(parsed["cases"]) == 3
    assert parsed["summary"]["regressedCount"] == 8


async def test_a_bad_line_is_reported_and_leaves_the_run_failed(
    backend: Backend, tmp_path: Path
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    lines: list[Any] = [item(True, item_id=f"i{n}") for n in range(12)]
    lines[8] = '{"input": "q", "trials": [{"passed": '
    path = write_lines(tmp_path / "bad.jsonl", lines)
    done = await import_file(backend, ws.owner, path, "--chunk-size", "3")
    assert done.code == 1
    assert "line 9: not valid JSON" in done.stderr and "Traceback" not in done.stderr
    listing = await backend.gql(
        "{ runs { edges { node { id status errorCode itemCount } } } }", token=ws.owner
    )
    (node,) = [edge["node"] for edge in listing.ok()["runs"]["edges"]]
    assert (node["status"], node["errorCode"]) == ("FAILED", "bad_line")
    refused = await diff(backend, ws.owner, node["id"], node["id"])
    assert refused.errors[0]["extensions"]["reason"] == "RUN_NOT_COMPLETED"
    gate = await shipwise(
        "gate", "--candidate", node["id"], "--baseline", node["id"],
        env=client_env(backend, ws.owner),
    )  # fmt: skip
    assert gate.code == 2 and "RUN_NOT_COMPLETED" in gate.stderr

    wrong: list[Any] = [item(True, item_id=f"i{n}") for n in range(4)]
    wrong[2] = {"input": "q", "trials": [{"passed": "yes"}]}
    done = await import_file(backend, ws.owner, write_lines(tmp_path / "w.jsonl", wrong))
    assert done.code == 1 and "line 3: `trials[0].passed`" in done.stderr
    repeated = [item(True, item_id="same"), item(False, item_id="same")]
    repeats = write_lines(tmp_path / "r.jsonl", [item(True, item_id="x"), *repeated])
    done = await import_file(backend, ws.owner, repeats)
    assert done.code == 1 and "line 3: `datasetItemId` 'same' appears more than once" in done.stderr
    done = await import_file(backend, ws.owner, repeats, "--chunk-size", "1")
    assert done.code == 1 and "line 3: `datasetItemId` 'same' repeats line 2" in done.stderr
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n")
    done = await import_file(backend, ws.owner, empty)
    assert done.code == 1 and "holds no items" in done.stderr


async def test_operational_errors_exit_two(backend: Backend, tmp_path: Path) -> None:
    ws = await make_workspace(backend.sessionmaker)
    path = write_lines(tmp_path / "ok.jsonl", [item(True)])
    unreachable = await shipwise(
        "gate", "--candidate", "run_x", "--baseline", "run_y",
        env={"SHIPWISE_URL": "http://127.0.0.1:9", "SHIPWISE_TOKEN": ws.owner},
    )  # fmt: skip
    assert unreachable.code == 2 and "cannot reach" in unreachable.stderr
    unknown = await shipwise(
        "gate", "--candidate", "run_x", "--baseline", "run_y", env=client_env(backend, ws.owner)
    )
    assert unknown.code == 2 and "NOT_FOUND" in unknown.stderr
    viewer = await import_file(backend, ws.tokens[Role.VIEWER], path)
    assert viewer.code == 2 and "FORBIDDEN" in viewer.stderr
    refused = await import_file(backend, "sw_nope", path)
    assert refused.code == 2 and "token" in refused.stderr
    for done in (unreachable, unknown, viewer, refused):
        assert "Traceback" not in done.stderr


async def test_run_import_and_compare_accept_and_refuse_the_same_files(
    backend: Backend, tmp_path: Path
) -> None:
    """One reader of the results format (issue 34 h): items without `position` take their
    place in the file for both commands; a line one refuses, the other refuses too."""
    ws = await make_workspace(backend.sessionmaker)
    member = ws.tokens[Role.MEMBER]
    lines = [
        {"datasetItemId": f"q{i}", "input": {"q": i}, "trials": [{"passed": i % 3 != 0}]}
        for i in range(6)
    ]
    path = write_lines(tmp_path / "results.jsonl", [json.dumps(line) for line in lines])
    imported = await import_file(backend, member, path)
    assert imported.code == 0, imported.stderr
    assert "6 items, completed" in imported.stdout
    run_id = imported.stdout.strip().splitlines()[-1]
    run = (await backend.gql(RUN, {"id": run_id}, token=member)).ok()["run"]
    assert run["itemCount"] == 6
    compared = await shipwise("compare", "--baseline", str(path), "--treatment", str(path))
    assert compared.code == 0, compared.stderr
    assert "6 matched pairs in 6 items (paired by datasetItemId)" in compared.stdout

    refused = {
        "extra": {"input": 1, "trials": [{}], "note": "x"},
        "no_trials": {"input": 1, "trials": []},
        "metric": {"input": 1, "trials": [{"metrics": {"tokens": -1}}]},
    }
    for name, bad in refused.items():
        bad_path = write_lines(tmp_path / f"{name}.jsonl", [json.dumps(lines[0]), json.dumps(bad)])
        by_import = await import_file(backend, member, bad_path, "--idempotency-key", name)
        by_compare = await shipwise(
            "compare", "--baseline", str(path), "--treatment", str(bad_path)
        )
        assert (by_import.code, by_compare.code) == (1, 1), (name, by_import, by_compare)
        reason = by_import.stderr.strip().splitlines()[-1].split("line 2: ", 1)[1]
        assert f"line 2: {reason}" in by_compare.stderr, (name, by_import.stderr, by_compare)
