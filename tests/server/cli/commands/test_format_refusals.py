"""Bad files from other tools: refused naming the line or zip member and the field, exit 2
(1 for the offline compare), no traceback, and never a run but a FAILED one."""

from __future__ import annotations

import copy
import json
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.server.cli.commands import tool_records as tr
from tests.server.cli.commands.test_runs_cli import import_file
from tests.server.cli.invoke import shipwise
from tests.server.runs.api import RUN, diff

GOOD_EVAL = tr.INSPECT / "sums-fake-good.eval"


def eval_log(folder: Path, change: Callable[[list[dict[str, Any]]], list[Any]]) -> Path:
    """A Deflate `.eval` of the real fixture's header and samples, the samples changed."""
    header, samples = tr.inspect_samples(GOOD_EVAL)
    ordered = sorted(samples, key=lambda s: (s["id"], s["epoch"]))[:6]
    path = folder / "changed.eval"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("header.json", json.dumps(header))
        for sample in change(copy.deepcopy(ordered)):
            name, body = sample if isinstance(sample, tuple) else (None, sample)
            name = name or f"samples/{body['id']}_epoch_{body['epoch']}.json"
            archive.writestr(name, body if isinstance(body, bytes) else json.dumps(body))
    return path


def not_json(samples: list[dict[str, Any]]) -> list[Any]:
    return [*samples[:2], ("samples/sum-02_epoch_1.json", b'{"id": "sum-02", ')]


def without_id(samples: list[dict[str, Any]]) -> list[Any]:
    del samples[3]["id"]
    return [*samples[:3], ("samples/sum-02_epoch_1.json", samples[3])]


def odd_score(samples: list[dict[str, Any]]) -> list[Any]:
    samples[4]["scores"]["match"]["value"] = {"correct": 1}
    return samples


def long_scorer(samples: list[dict[str, Any]]) -> list[Any]:
    samples[3]["scores"]["s" * 201] = {"value": "C"}  # the server's check refuses it
    return samples


def truncated(folder: Path) -> Path:
    path = folder / "truncated.eval"
    data = GOOD_EVAL.read_bytes()
    path.write_bytes(data[: len(data) * 2 // 3])
    return path


def promptfoo_v2(folder: Path) -> Path:
    document = json.loads(tr.promptfoo_results(folder).read_text())
    document["results"]["version"] = 2
    path = folder / "old.json"
    path.write_text(json.dumps(document))
    return path


def output_item_without_id(folder: Path) -> Path:
    lines = (tr.OPENAI_EVALS / "output_items_a.jsonl").read_text().splitlines()
    third = json.loads(lines[2])
    del third["datasource_item_id"], third["object"]
    path = folder / "items.jsonl"
    path.write_text("\n".join([*lines[:2], json.dumps(third), *lines[3:]]) + "\n")
    return path


def no_format(folder: Path) -> Path:
    path = folder / "results.csv"
    path.write_text("id,passed\n1,true\n")
    return path


CASES: dict[str, tuple[Callable[[Path], Path], str, bool]] = {
    # name: (the file, what the refusal says, whether a run had started and is FAILED)
    "no format": (no_format, "results.csv: matches no format", False),
    "truncated zip": (truncated, "truncated.eval: not a complete zip archive", False),
    "member not JSON": (
        lambda f: eval_log(f, not_json),
        "zip member samples/sum-02_epoch_1.json: not valid JSON", True,
    ),
    "sample without id": (
        lambda f: eval_log(f, without_id),
        "zip member samples/sum-02_epoch_1.json: `id`: a sample needs an id", True,
    ),
    "score of unknown shape": (
        lambda f: eval_log(f, odd_score),
        "`scores.match.value`: a score of an unknown shape (dict;", True,
    ),
    "scorer name the server refuses": (
        lambda f: eval_log(f, long_scorer),
        "zip member samples/sum-02_epoch_1.json: `trials[0].evaluators`: an evaluator name", True,
    ),
    "promptfoo results version 2": (
        promptfoo_v2, "old.json: `results.version`: results version 2; only version 3", False,
    ),
    "output item without id": (
        output_item_without_id, "items.jsonl: line 3: `datasource_item_id`", True,
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", list(CASES))
async def test_a_bad_file_is_refused_by_name_and_leaves_no_usable_run(
    backend: Backend, tmp_path: Path, name: str
) -> None:
    build, message, started = CASES[name]
    path = build(tmp_path)
    ws = await make_workspace(backend.sessionmaker)
    done = await import_file(backend, ws.tokens[Role.MEMBER], path)
    assert done.code == 2, done.stdout + done.stderr
    assert message in done.stderr and "Traceback" not in done.stderr
    listing = await backend.gql(
        "{ runs { edges { node { id status errorCode } } } }", token=ws.owner
    )
    runs = [edge["node"] for edge in listing.ok()["runs"]["edges"]]
    assert [(r["status"], r["errorCode"]) for r in runs] == (
        [("FAILED", "bad_line")] if started else []
    )
    if started:
        refused = await diff(backend, ws.owner, runs[0]["id"], runs[0]["id"])
        assert refused.errors[0]["extensions"]["reason"] == "RUN_NOT_COMPLETED"

    compare = await shipwise("compare", "--baseline", str(path), "--treatment", str(GOOD_EVAL))
    assert compare.code == 1 and message in compare.stderr, compare.stderr
    assert "Traceback" not in compare.stderr


def errored(samples: list[dict[str, Any]]) -> list[Any]:
    samples[1]["error"] = {"message": "boom", "traceback": "", "traceback_ansi": ""}
    samples[1]["scores"] = {}
    return samples


async def test_errors_are_failed_trials_and_options_choose_the_grade(
    backend: Backend, tmp_path: Path
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    member = ws.tokens[Role.MEMBER]
    path = eval_log(tmp_path, errored)
    done = await import_file(backend, member, path)
    assert done.code == 0, done.stderr
    run = (await backend.gql(RUN, {"id": done.stdout.split()[-1]}, token=member)).ok()["run"]
    first = run["items"]["edges"][0]["node"]
    assert first["datasetItemId"] == "sum-01"
    assert [t["passed"] for t in first["trials"]] == [True, False, True]
    assert [t["metrics"]["errors"] for t in first["trials"]] == [0, 1, 0]

    lm = tr.LM_EVAL / "model-a" / "samples_arith_2026-12-01T17-30-00.000001.jsonl"
    strict = await import_file(backend, member, lm, "--pass-threshold", "2")
    assert strict.code == 0, strict.stderr
    run = (await backend.gql(RUN, {"id": strict.stdout.split()[-1]}, token=member)).ok()["run"]
    assert {e["node"]["passedCount"] for e in run["items"]["edges"]} == {0}
    flexible = await import_file(backend, member, lm, "--filter", "flexible-extract")
    run = (await backend.gql(RUN, {"id": flexible.stdout.split()[-1]}, token=member)).ok()["run"]
    assert run["itemCount"] == 30
    assert {e["node"]["passedCount"] for e in run["items"]["edges"]} == {1}

    unknown = await import_file(backend, member, GOOD_EVAL, "--scorer", "nope")
    assert unknown.code == 2 and "`scores`: no scorer 'nope' (scorers: match, includes)" in (
        unknown.stderr
    )
    bad = tr.INSPECT / "sums-fake-bad.eval"
    compare = await shipwise(
        "compare", "--baseline", str(GOOD_EVAL), "--treatment", str(bad), "--scorer", "includes",
    )  # fmt: skip
    assert compare.code == 0 and "Traceback" not in compare.stderr, compare.stderr
