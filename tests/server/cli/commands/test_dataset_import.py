"""`shipwise dataset import`, run as a user runs it, against a served backend."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bench.kit.factories import dataset_cases, make_workspace
from bench.kit.harness import Backend
from server.cli.client import ApiClient, ApiError
from server.cli.commands.chunk_upload import BadLine, Chunk
from server.cli.commands.dataset_import import append_all
from server.workspaces.roles import Role
from tests.server.cli.invoke import Done, shipwise, shipwise_process
from tests.server.datasets.api import CASES, dataset
from tests.server.datasets.test_lifecycle import expected_hash


async def run_import(backend: Backend, token: str, path: Path, *args: str) -> Done:
    return await shipwise(
        "dataset", "import", str(path), "--url", backend.base_url, "--token", token, *args
    )


def write_lines(path: Path, lines: list[Any]) -> Path:
    """One JSON value per line; a str is written as the line itself."""
    text = [line if isinstance(line, str) else json.dumps(line) for line in lines]
    path.write_text("\n".join(text) + "\n")
    return path


async def dataset_names(backend: Backend, token: str) -> list[str]:
    listing = await backend.gql("{ datasets(first: 100) { edges { node { name } } } }", token=token)
    return [e["node"]["name"] for e in listing.ok()["datasets"]["edges"]]


async def dataset_named(backend: Backend, token: str, name: str) -> dict[str, Any]:
    listing = await backend.gql(
        "{ datasets(first: 100) { edges { node { id name } } } }", token=token
    )
    ids = [e["node"]["id"] for e in listing.ok()["datasets"]["edges"] if e["node"]["name"] == name]
    assert len(ids) == 1
    return await dataset(backend, token, ids[0])


async def test_three_thousand_cases_in_small_chunks_import_and_hash_stably(
    backend: Backend, tmp_path: Path
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    cases = dataset_cases(2400, holdout=600)
    path = write_lines(tmp_path / "cases.jsonl", cases)
    first = await run_import(
        backend, ws.tokens[Role.MEMBER], path, "--name", "big", "--chunk-size", "250"
    )
    assert first.code == 0, first.stderr
    version_id = first.stdout.strip().splitlines()[-1]
    assert "3000 cases (dev 2400, holdout 600)" in first.stdout
    found = await dataset_named(backend, ws.owner, "big")
    version = found["versions"][0]
    assert version["id"] == version_id and version["state"] == "SEALED"
    assert version["caseCount"] == 3000
    assert version["contentHash"] == expected_hash(cases)

    again = await run_import(backend, ws.owner, path, "--name", "big-again", "--in-flight", "1")
    assert again.code == 0, again.stderr
    repeat = (await dataset_named(backend, ws.owner, "big-again"))["versions"][0]
    assert repeat["contentHash"] == version["contentHash"]


async def test_a_bad_line_is_reported_and_its_version_discarded(
    backend: Backend, tmp_path: Path
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    lines: list[Any] = list(dataset_cases(10))
    lines[6] = '{"datasetItemId": "broken", "input": '
    path = write_lines(tmp_path / "bad.jsonl", lines)
    done = await run_import(backend, ws.owner, path, "--name", "bad", "--chunk-size", "3")
    assert done.code == 1
    assert "line 7: not valid JSON" in done.stderr and "Traceback" not in done.stderr
    assert await dataset_names(backend, ws.owner) == []  # issue 34 (f): nothing left behind


async def test_a_failed_import_into_an_existing_dataset_keeps_it(
    backend: Backend, tmp_path: Path
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    good = write_lines(tmp_path / "good.jsonl", dataset_cases(3))
    first = await run_import(backend, ws.owner, good, "--name", "bad set")
    assert first.code == 0, first.stderr
    found = await dataset_named(backend, ws.owner, "bad set")
    bad = write_lines(tmp_path / "bad.jsonl", [*dataset_cases(2), {"datasetItemId": "x"}])
    done = await run_import(backend, ws.owner, bad, "--dataset-id", found["id"])
    assert done.code == 1 and "line 3" in done.stderr
    again = await dataset_named(backend, ws.owner, "bad set")
    assert [(v["state"], v["caseCount"]) for v in again["versions"]] == [
        ("DISCARDED", 0),
        ("SEALED", 3),
    ]
    assert await dataset_names(backend, ws.owner) == ["bad set"]


async def test_a_retry_with_the_same_name_after_a_failed_import_works(
    backend: Backend, tmp_path: Path
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    lines: list[Any] = list(dataset_cases(6))
    lines[4] = {"datasetItemId": "no-input"}
    bad = write_lines(tmp_path / "bad.jsonl", lines)
    assert (await run_import(backend, ws.owner, bad, "--name", "retry")).code == 1
    good = write_lines(tmp_path / "good.jsonl", dataset_cases(6))
    retried = await run_import(backend, ws.owner, good, "--name", "retry")
    assert retried.code == 0, retried.stderr
    found = await dataset_named(backend, ws.owner, "retry")  # one dataset of that name
    assert [(v["state"], v["caseCount"]) for v in found["versions"]] == [("SEALED", 6)]
    assert found["latestVersion"]["id"] == retried.stdout.strip().splitlines()[-1]

    again = await run_import(backend, ws.owner, good, "--name", "retry")
    assert again.code == 2
    assert f"run again with --dataset-id {found['id']}" in again.stderr
    assert "Traceback" not in again.stderr
    assert len((await dataset(backend, ws.owner, found["id"]))["versions"]) == 1


async def test_invalid_and_duplicate_cases_are_reported_by_line(
    backend: Backend, tmp_path: Path
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    cases: list[Any] = list(dataset_cases(12))
    cases[6] = {"datasetItemId": "no-input"}
    blank_and_bad = ["", *cases]  # a blank line is skipped but still counted
    path = write_lines(tmp_path / "invalid.jsonl", blank_and_bad)
    done = await run_import(backend, ws.owner, path, "--name", "invalid", "--chunk-size", "4")
    assert done.code == 1
    assert "line 8: `input` is required" in done.stderr

    duplicated = dataset_cases(12)
    duplicated[9]["datasetItemId"] = duplicated[2]["datasetItemId"]
    path = write_lines(tmp_path / "dup.jsonl", duplicated)
    done = await run_import(backend, ws.owner, path, "--name", "dup", "--chunk-size", "4")
    assert done.code == 1
    assert "line 10: `datasetItemId` 'case-0002' repeats line 3" in done.stderr
    lines: list[Any] = list(dataset_cases(5))
    lines[3] = '{"datasetItemId": "nan", "input": {"x": NaN}}'
    path = write_lines(tmp_path / "nan.jsonl", lines)
    done = await run_import(backend, ws.owner, path, "--name", "nan")
    assert done.code == 1 and "line 4: `input` contains a number that is not finite" in done.stderr
    assert await dataset_names(backend, ws.owner) == []  # each failed import left nothing


async def test_a_new_version_of_an_existing_dataset(backend: Backend, tmp_path: Path) -> None:
    ws = await make_workspace(backend.sessionmaker)
    path = write_lines(tmp_path / "v.jsonl", dataset_cases(5))
    assert (await run_import(backend, ws.owner, path, "--name", "versions")).code == 0
    dataset_id = (await dataset_named(backend, ws.owner, "versions"))["id"]
    path = write_lines(tmp_path / "v2.jsonl", dataset_cases(7))
    done = await run_import(backend, ws.owner, path, "--dataset-id", dataset_id)
    assert done.code == 0, done.stderr
    found = await dataset(backend, ws.owner, dataset_id)
    assert [(v["number"], v["caseCount"]) for v in found["versions"]] == [(2, 7), (1, 5)]


async def test_operational_failures_exit_two_without_a_traceback(
    backend: Backend, tmp_path: Path
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    path = write_lines(tmp_path / "ok.jsonl", dataset_cases(2))
    unreachable = await shipwise(
        "dataset",
        "import",
        str(path),
        "--name",
        "x",
        "--url",
        "http://127.0.0.1:9",
        "--token",
        ws.owner,
    )
    assert unreachable.code == 2 and "cannot reach" in unreachable.stderr
    refused = await run_import(backend, "sw_not-a-token", path, "--name", "x")
    assert refused.code == 2 and "token" in refused.stderr
    viewer = await run_import(backend, ws.tokens[Role.VIEWER], path, "--name", "x")
    assert viewer.code == 2 and "FORBIDDEN" in viewer.stderr
    neither = await run_import(backend, ws.owner, path)
    assert neither.code == 2 and "--name" in neither.stderr
    missing = await run_import(backend, ws.owner, tmp_path / "nope.jsonl", "--name", "x")
    assert missing.code == 2 and "nope.jsonl" in missing.stderr
    for done in (unreachable, refused, viewer, neither, missing):
        assert "Traceback" not in done.stderr
    listing = await backend.gql("{ datasets { totalCount } }", token=ws.owner)
    assert listing.ok()["datasets"]["totalCount"] == 0


async def test_a_file_without_cases_fails_and_leaves_no_open_version(
    backend: Backend, tmp_path: Path
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    path = tmp_path / "blank.jsonl"
    path.write_text("\n  \n\n")
    done = await run_import(backend, ws.owner, path, "--name", "blank")
    assert done.code == 1 and f"{path} is empty" in done.stderr
    assert await dataset_names(backend, ws.owner) == []


CAPITALS_CSV = (
    "datasetItemId,question,expected,split,tags\r\n"
    'q1,"Capital of France, please?",Paris,holdout,geo; easy\r\n'
    "q2,Capital of Peru?,Lima,,\r\n"
    "\r\n"
    "q3,Capital of Japan?,Tokyo,dev,\r\n"
)
"""A CSV as the portal's upload takes it (web/src/pages/datasets/caseFile.ts)."""


async def test_the_csv_the_portal_uploads_imports_as_the_same_cases(
    backend: Backend, tmp_path: Path
) -> None:
    """`shipwise dataset import cases.csv`, in its own process: the portal's CSV rules, read by
    the one reader (server/datasets/case_file.py)."""
    ws = await make_workspace(backend.sessionmaker)
    path = tmp_path / "capitals.csv"
    path.write_bytes(CAPITALS_CSV.encode())
    env = {"SHIPWISE_URL": backend.base_url, "SHIPWISE_TOKEN": ws.tokens[Role.MEMBER]}
    done = await shipwise_process("dataset", "import", str(path), "--name", "capitals", env=env)
    assert done.code == 0, done.stderr
    assert "3 cases (dev 2, holdout 1)" in done.stdout
    found = await dataset_named(backend, ws.owner, "capitals")
    cases = (await backend.gql(CASES, {"id": found["id"], "first": 10}, token=ws.owner)).ok()
    (version,) = cases["dataset"]["versions"]
    assert [e["node"] for e in version["cases"]["edges"]] == [
        {"datasetItemId": "q1", "input": {"question": "Capital of France, please?"},
         "expected": "Paris", "split": "HOLDOUT", "tags": ["geo", "easy"]},
        {"datasetItemId": "q2", "input": {"question": "Capital of Peru?"}, "expected": "Lima",
         "split": "DEV", "tags": []},
        {"datasetItemId": "q3", "input": {"question": "Capital of Japan?"}, "expected": "Tokyo",
         "split": "DEV", "tags": []},
    ]  # fmt: skip


XLSX_HEAD = (
    b"PK\x03\x04\x14\x00\x06\x00\x08\x00\x00\x00!\x00\x13\x00\x00\x00[Content_Types].xml"
    + b"\x00" * 16
    + b"PK\x03\x04\x14\x00\x06\x00xl/workbook.xml"
)
"""The first bytes of an .xlsx file: a ZIP archive whose parts are under xl/."""


async def test_a_file_that_is_not_cases_says_what_it_is_and_creates_nothing(
    backend: Backend, tmp_path: Path
) -> None:
    ws = await make_workspace(backend.sessionmaker)
    files = {
        "capitals.xlsx": (XLSX_HEAD, "is an Excel workbook: save it as CSV"),
        "workbook.csv": (XLSX_HEAD, "is an Excel workbook: save it as CSV"),
        "empty.csv": (b"", "is empty"),
        "header.csv": (b"datasetItemId,question\n", "is a CSV header with no cases below it"),
        "ids.csv": (b"id,input\n1,a\n", "line 1: the header has no datasetItemId column"),
    }
    for name, (content, said) in files.items():
        path = tmp_path / name
        path.write_bytes(content)
        done = await run_import(backend, ws.owner, path, "--name", name)
        assert done.code == 1, (name, done.stdout)
        assert said in done.stderr, (name, done.stderr)
        assert "not valid JSON" not in done.stderr and "Traceback" not in done.stderr
    assert await dataset_names(backend, ws.owner) == []

    alone = tmp_path / "book.xlsx"
    alone.write_bytes(XLSX_HEAD)
    env = {"SHIPWISE_URL": backend.base_url, "SHIPWISE_TOKEN": ws.owner}
    done = await shipwise_process("dataset", "import", str(alone), "--name", "book", env=env)
    assert done.code == 1
    assert done.stderr == f"error: {alone} is an Excel workbook: save it as CSV\n"


class RefusingClient(ApiClient):
    """Answers every append with the given error, as the server would."""

    def __init__(self, error: ApiError) -> None:
        super().__init__("http://127.0.0.1:9", "sw_unused")
        self.error = error

    def execute(
        self,
        document: str,  # noqa: ARG002 - ApiClient's signature
        variables: dict[str, Any] | None = None,  # noqa: ARG002
    ) -> dict[str, Any]:
        raise self.error


def test_a_case_the_server_refuses_is_reported_by_its_line() -> None:
    chunk = Chunk(cases=[{}, {}, {}], lines=[5, 7, 8])
    refused = ApiError("VALIDATION_FAILED", "cases[1]: why", {"index": 1, "reason": "why"})
    with RefusingClient(refused) as client:
        try:
            append_all(client, "dsv_x", iter([chunk]), in_flight=2)
        except BadLine as error:
            assert (error.line, error.reason) == (7, "why")
        else:
            raise AssertionError("no BadLine")
    other = ApiError("CONFLICT", "version 1 is SEALED, not OPEN")
    with RefusingClient(other) as client:
        try:
            append_all(client, "dsv_x", iter([chunk]), in_flight=2)
        except ApiError as error:
            assert error is other
        else:
            raise AssertionError("no ApiError")
