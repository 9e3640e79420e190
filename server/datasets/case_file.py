"""Reading a dataset file: the one rule `shipwise dataset import` reads by and the portal's
upload follows (web/src/pages/datasets/caseFile.ts; both checked against
web/src/pages/datasets/caseFile.examples.json).

Two formats. JSONL: one case per line, blank lines skipped. CSV: a header row, then a case
per row; `datasetItemId`, `expected`, `split` and `tags` (separated by `;`) are the case's
own fields, an `input` column is the input text, and without one every other column makes
the input an object (`question` → `input.question`). The name decides: `.csv` is CSV,
`.jsonl`, `.ndjson` and `.json` JSONL; any other name is JSONL when its first character is
`{`, else CSV. A file that is neither is named by its first bytes ("an Excel workbook: save
it as CSV"), and an empty file says so, before anything is sent.

Cases come out as they are written (checked by `server.datasets.cases`). Only the standard
library is imported, so the command-line importer starts quickly.
"""

from __future__ import annotations

import codecs
import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

HEAD_BYTES: Final = 4096
"""How much of a file is read to tell what it is."""
CASE_FIELDS: Final = ("datasetItemId", "input", "expected", "split", "tags")
CSV_ENDINGS: Final = (".csv",)
JSONL_ENDINGS: Final = (".jsonl", ".ndjson", ".json")
_UTF8_BOM: Final = codecs.BOM_UTF8

_SIGNATURES: Final = (
    (
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1",
        "an Excel 97–2003 workbook (or another Office file): save it as CSV",
    ),
    (b"%PDF-", "a PDF document: export the cases as CSV or JSONL"),
    (b"\x1f\x8b", "compressed with gzip: decompress it first"),
    (b"PAR1", "a Parquet file: export it as CSV or JSONL"),
    (b"SQLite format 3\x00", "a SQLite database: export the cases as CSV or JSONL"),
    (codecs.BOM_UTF16_LE, "UTF-16 text: save it as UTF-8"),
    (codecs.BOM_UTF16_BE, "UTF-16 text: save it as UTF-8"),
)
_ZIP: Final = b"PK\x03\x04"
EMPTY: Final = "empty"
HEADER_ONLY: Final = "a CSV header with no cases below it"


class CaseFileError(ValueError):
    """Why the file, or one of its lines, cannot be read as cases. `line` is None when the
    whole file is the problem: then `reason` completes "The file is …"."""

    def __init__(self, reason: str, line: int | None = None) -> None:
        super().__init__(reason if line is None else f"line {line}: {reason}")
        self.reason = reason
        self.line = line


def what_file(head: bytes) -> str | None:
    """What a file that is not a dataset is, from its first `HEAD_BYTES` bytes (all of a shorter
    file); None for text."""
    if head.startswith(_ZIP):
        if b"xl/" in head:
            return "an Excel workbook: save it as CSV"
        if b"word/" in head:
            return "a Word document: a dataset is a CSV or JSONL file"
        if b"content.xml" in head or b"opendocument" in head:
            return "an OpenDocument file: save it as CSV"
        return "a ZIP archive: unzip it and import the CSV or JSONL inside"
    for signature, said in _SIGNATURES:
        if head.startswith(signature):
            return said
    if b"\x00" in head:
        return "not text: a dataset is a CSV or JSONL file"
    text = head.removeprefix(_UTF8_BOM)
    if not text.strip() and len(head) < HEAD_BYTES:  # the whole file, and nothing in it
        return EMPTY
    try:
        text.decode()
    except UnicodeDecodeError as exc:
        if exc.start < len(text) - 3:  # not merely a character cut at the head's end
            return "not UTF-8 text: save it as UTF-8"
    return None


def is_csv(name: str, head: bytes) -> bool:
    """Whether the file is read as CSV: by its name's ending, else by its first character."""
    lowered = name.lower()
    if lowered.endswith(CSV_ENDINGS):
        return True
    if lowered.endswith(JSONL_ENDINGS):
        return False
    return not head.removeprefix(_UTF8_BOM).lstrip().startswith(b"{")


def read_cases(path: Path) -> Iterator[tuple[int, Any, int]]:
    """(line, case, bytes) of every case in the file, in order; CaseFileError at the first
    problem. A case is as written, not yet checked (`server.datasets.cases.check_case`)."""
    with path.open("rb") as file:
        head = file.read(HEAD_BYTES)
    problem = what_file(head)
    if problem is not None:
        raise CaseFileError(problem)
    if is_csv(path.name, head):
        return _csv_cases(path)
    return _jsonl_cases(path)


def _jsonl_cases(path: Path) -> Iterator[tuple[int, Any, int]]:
    with path.open("rb") as lines:
        for number, raw in enumerate(lines, start=1):
            if raw.strip():
                yield number, json_line(number, raw.removeprefix(_UTF8_BOM)), len(raw)


def json_line(number: int, raw: bytes) -> Any:
    """The JSON value on line `number`, or CaseFileError saying why it is not JSON text."""
    try:
        return json.loads(raw.decode())
    except UnicodeDecodeError:
        raise CaseFileError("not UTF-8 text", number) from None
    except json.JSONDecodeError as exc:
        raise CaseFileError(f"not valid JSON ({exc.msg} at column {exc.colno})", number) from None


def _csv_cases(path: Path) -> Iterator[tuple[int, Any, int]]:
    with path.open("rb") as raw:
        text = io.TextIOWrapper(raw, encoding="utf-8-sig", newline="")
        yield from csv_cases(text)


def csv_cases(text: io.TextIOBase) -> Iterator[tuple[int, Any, int]]:
    """The cases of CSV text (a header row first); a row's line is where it starts."""
    reader = csv.reader(text)
    try:
        header = next(reader, None)
        if header is None:
            raise CaseFileError(EMPTY)
        columns = _columns(header)
        found = 0
        while True:
            line = reader.line_num + 1
            row = next(reader, None)
            if row is None:
                break
            if not any(cell.strip() for cell in row):
                continue
            if len(row) != len(header):
                raise CaseFileError("the row does not match the header's columns", line)
            case = csv_case(dict(zip(header, row, strict=True)), columns)
            found += 1
            yield line, case, len(json.dumps(case))
    except UnicodeDecodeError:
        raise CaseFileError("not UTF-8 text", reader.line_num + 1) from None
    except csv.Error as exc:
        raise CaseFileError(f"not valid CSV ({exc})", reader.line_num) from None
    if found == 0:
        raise CaseFileError(HEADER_ONLY)


def _columns(header: list[str]) -> list[str]:
    """The input's columns: `input` alone, or every column that is not a case field."""
    if "datasetItemId" not in header:
        raise CaseFileError("the header has no datasetItemId column", 1)
    if "input" in header:
        return ["input"]
    variables = [name for name in header if name not in CASE_FIELDS]
    if not variables:
        raise CaseFileError("the header has no input column (input, or a column per variable)", 1)
    return variables


def csv_case(row: dict[str, str], columns: list[str]) -> dict[str, Any]:
    """One row as a case: `input` as text, or the variables' columns as an object."""
    case: dict[str, Any] = {"datasetItemId": row["datasetItemId"]}
    case["input"] = row["input"] if columns == ["input"] else {c: row[c] for c in columns}
    if row.get("expected"):
        case["expected"] = row["expected"]
    if row.get("split"):
        case["split"] = row["split"].strip().upper()
    if row.get("tags"):
        case["tags"] = [tag.strip() for tag in row["tags"].split(";") if tag.strip()]
    return case
