"""`shipwise dataset export ID`: a version's cases streamed as CSV or JSONL, run as a user runs
it against a served backend; untrusted text never becomes a spreadsheet formula."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from bench.kit.factories import make_workspace
from bench.kit.harness import Backend
from server.workspaces.roles import Role
from tests.server.cli.invoke import Done, shipwise
from tests.server.datasets.api import sealed_dataset
from tests.server.datasets.traces_api import cases_of, create, post_chats

FORMULA = '=HYPERLINK("http://evil.example","click")'


async def export(backend: Backend, token: str, *args: str) -> Done:
    return await shipwise("dataset", "export", *args, "--url", backend.base_url, "--token", token)


async def test_a_version_made_from_traces_exports_as_csv_and_jsonl(
    backend: Backend, tmp_path: Path
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.MEMBER]
    await post_chats(backend, token, ["@SUM(A1:A9)", "plain"], extra={"shipwise.expected": FORMULA})
    made = (
        await create(backend, token, name="prod", sample={"size": 5}, expectedFrom="ATTRIBUTE")
    ).ok()["createDatasetFromTraces"]
    stored = await cases_of(backend, token, made["version"]["id"])

    done = await export(backend, token, made["dataset"]["id"])  # csv to stdout by default
    assert done.code == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    assert list(rows[0]) == ["datasetItemId", "input", "expected", "split", "tags", "metadata"]
    assert [r["datasetItemId"] for r in rows] == [c["datasetItemId"] for c in stored]
    for row, case in zip(rows, stored, strict=True):
        assert row["expected"] == "'" + FORMULA  # neutralised: text, not a formula
        assert json.loads(row["input"]) == case["input"]
        assert json.loads(row["metadata"]) == {"sourceTraceId": case["datasetItemId"]}

    out = tmp_path / "prod.jsonl"
    done = await export(
        backend, token, made["version"]["id"], "--format", "jsonl", "--out", str(out)
    )
    assert done.code == 0, done.stderr
    assert done.stdout == ""
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert lines == stored
    assert lines[0]["expected"] == FORMULA  # JSONL keeps the text as it is

    # The JSONL imports back as the same content (metadata is kept, not hashed).
    imported = await shipwise(
        "dataset", "import", str(out), "--name", "again", "--url", backend.base_url,
        "--token", token,
    )  # fmt: skip
    assert imported.code == 0, imported.stderr
    assert made["version"]["contentHash"] in imported.stdout
    assert await cases_of(backend, token, imported.stdout.strip().splitlines()[-1]) == stored


async def test_string_inputs_starting_a_formula_are_neutralised(backend: Backend) -> None:
    ws = await make_workspace(backend.sessionmaker)
    token = ws.tokens[Role.VIEWER]
    cases = [
        {"datasetItemId": f"c{n}", "input": text, "expected": text}
        for n, text in enumerate(["=1+1", "+1", "-1", "@x", "safe"])
    ]
    dataset_id, _ = await sealed_dataset(backend, ws.tokens[Role.MEMBER], cases)
    done = await export(backend, token, dataset_id, "--format", "csv")
    assert done.code == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    assert [r["input"] for r in rows] == ["'=1+1", "'+1", "'-1", "'@x", "safe"]
    assert [r["expected"] for r in rows] == ["'=1+1", "'+1", "'-1", "'@x", "safe"]


async def test_unknown_and_foreign_ids_exit_2_without_a_traceback(backend: Backend) -> None:
    mine = await make_workspace(backend.sessionmaker, name="mine")
    theirs = await make_workspace(backend.sessionmaker, name="theirs")
    their_id, _ = await sealed_dataset(
        backend, theirs.tokens[Role.MEMBER], [{"datasetItemId": "a", "input": "secret"}]
    )
    for target in (their_id, "ds_unknown", "dsv_unknown"):
        done = await export(backend, mine.tokens[Role.MEMBER], target)
        assert done.code == 2, (target, done)
        assert "NOT_FOUND" in done.stderr and "Traceback" not in done.stderr
        assert "secret" not in done.stdout
