"""Streaming a file of cases (JSONL or CSV, read by `server.datasets.case_file`, the rule the
portal's upload follows too) into a new dataset version, chunk by chunk.

The file is read case by case; a few chunks are in flight at once, each sent with its
position, so reading, the server's checks and the database's writes overlap while the
version keeps the file's order. Memory holds only the chunks in flight. A file that is not
cases (a workbook, an empty file, a bad first line) is refused before anything is created.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from server.cli.client import ApiClient, ApiError
from server.cli.commands.chunk_upload import (
    DEFAULT_IN_FLIGHT,
    MAX_CHUNK_BYTES,
    BadLine,
    Chunk,
    EmptyFile,
    chunked,
    refused_line,
    send_all,
    undo,
)
from server.datasets.case_file import CaseFileError, read_cases
from server.datasets.cases import MAX_CASES_PER_CHUNK, CaseError, check_case

CREATE = "mutation($input: CreateDatasetInput!) { createDataset(input: $input) { id } }"
OPEN = "mutation($id: ID!) { openDatasetVersion(datasetId: $id) { id number } }"
APPEND = (
    "mutation($id: ID!, $cases: JSON!, $position: Int) "
    "{ appendDatasetCases(versionId: $id, cases: $cases, position: $position) { caseCount } }"
)
SEAL = (
    "mutation($id: ID!) { sealDatasetVersion(versionId: $id) "
    "{ id datasetId number caseCount caseCounts { dev holdout } contentHash } }"
)
LATEST = "query($id: ID!) { dataset(id: $id) { id latestVersion { id } } }"
DISCARD = "mutation($id: ID!) { discardDatasetVersion(versionId: $id) { state } }"


@dataclass(frozen=True)
class Imported:
    """The sealed version, as the server reported it."""

    dataset_id: str
    version_id: str
    number: int
    case_count: int
    dev_case_count: int
    holdout_case_count: int
    content_hash: str


def read_chunks(
    path: Path, *, chunk_size: int, max_bytes: int = MAX_CHUNK_BYTES
) -> Iterator[Chunk]:
    """Checked cases in chunks of at most `chunk_size` cases and about `max_bytes` of JSON.

    Repeated `datasetItemId`s are caught here, naming both lines: with chunks in flight
    side by side, the server could otherwise report either occurrence.
    """
    return chunked(_checked_cases(path), chunk_size=chunk_size, max_bytes=max_bytes)


def _checked_cases(path: Path) -> Iterator[tuple[int, Any, int]]:
    first_line: dict[str, int] = {}
    for number, case, size in _cases(path):
        check(number, case)
        item_id = case["datasetItemId"]
        seen = first_line.setdefault(item_id, number)
        if seen != number:
            raise BadLine(number, f"`datasetItemId` {item_id!r} repeats line {seen}")
        yield number, case, size


def _cases(path: Path) -> Iterator[tuple[int, Any, int]]:
    """The file's cases as written; its problems as the importer reports them."""
    try:
        yield from read_cases(path)
    except CaseFileError as exc:
        if exc.line is None:
            raise EmptyFile(f"{path} is {exc.reason}") from None
        raise BadLine(exc.line, exc.reason) from None


def check(number: int, case: Any) -> None:
    """BadLine when the case on line `number` is not valid.

    Checked here as the server will check it, so a bad line is reported before it is sent
    (and NaN or an unpaired surrogate never reaches the JSON encoder of the request).
    """
    try:
        check_case(case)
    except CaseError as exc:
        raise BadLine(number, exc.reason) from None


def preflight(path: Path) -> None:
    """Refuse a file that is not cases, or whose first case is bad, before creating anything."""
    next(_checked_cases(path), None)


def import_file(
    client: ApiClient,
    path: Path,
    *,
    name: str | None,
    dataset_id: str | None,
    description: str | None = None,
    chunk_size: int = MAX_CASES_PER_CHUNK,
    in_flight: int = DEFAULT_IN_FLIGHT,
) -> Imported:
    """Create the dataset if needed, open a version, append every chunk and seal it.

    On any failure after the version is opened, the version is discarded before the error
    propagates, so no half-written version is left OPEN.
    """
    preflight(path)
    if dataset_id is None:
        dataset_id = create_or_resume(client, name=name or "", description=description)
    version_id = client.execute(OPEN, {"id": dataset_id})["openDatasetVersion"]["id"]
    try:
        chunks = read_chunks(path, chunk_size=chunk_size)
        if append_all(client, version_id, chunks, in_flight) == 0:
            raise EmptyFile(f"{path} holds no cases")
        sealed = client.execute(SEAL, {"id": version_id})["sealDatasetVersion"]
    except BaseException as exc:
        problem = discard(client, version_id)
        if problem is not None:
            exc.add_note(f"version {version_id} is still OPEN; discarding it failed: {problem}")
        raise
    return Imported(
        dataset_id=sealed["datasetId"],
        version_id=sealed["id"],
        number=sealed["number"],
        case_count=sealed["caseCount"],
        dev_case_count=sealed["caseCounts"]["dev"],
        holdout_case_count=sealed["caseCounts"]["holdout"],
        content_hash=sealed["contentHash"],
    )


def create_or_resume(client: ApiClient, *, name: str, description: str | None) -> str:
    """A new dataset named `name`, or the one an earlier failed import left without versions.

    A dataset with a sealed version is not touched: the CONFLICT says how to add a version.
    """
    try:
        created = client.execute(CREATE, {"input": {"name": name, "description": description}})
    except ApiError as exc:
        existing = exc.extensions.get("datasetId")
        if exc.code != "CONFLICT" or not isinstance(existing, str):
            raise
        found = client.execute(LATEST, {"id": existing})["dataset"]
        if found["latestVersion"] is None:
            return existing  # left empty by a failed import: go on with it
        raise ApiError(
            "CONFLICT",
            f"a dataset named {name!r} already exists ({existing}); "
            f"to add a version to it, run again with --dataset-id {existing}",
            exc.extensions,
        ) from None
    dataset_id: str = created["createDataset"]["id"]
    return dataset_id


def append_all(client: ApiClient, version_id: str, chunks: Iterator[Chunk], in_flight: int) -> int:
    """Send the chunks, up to `in_flight` at a time, each with its position; the cases sent."""
    return send_all(
        chunks, lambda chunk, position: _append(client, version_id, chunk, position), in_flight
    )


def _append(client: ApiClient, version_id: str, chunk: Chunk, position: int) -> None:
    variables = {"id": version_id, "cases": chunk.cases, "position": position}
    try:
        client.execute(APPEND, variables)
    except ApiError as exc:
        bad = refused_line(exc, chunk)
        if bad is not None:
            raise bad from None
        if exc.code == "VALIDATION_FAILED":
            lines = f"{chunk.lines[0]}-{chunk.lines[-1]}"
            raise BadLine(chunk.lines[0], f"(chunk of lines {lines}) {exc.message}") from None
        raise


def discard(client: ApiClient, version_id: str) -> ApiError | None:
    """Discard the open version; the error, if that failed too."""
    return undo(client, DISCARD, {"id": version_id})
