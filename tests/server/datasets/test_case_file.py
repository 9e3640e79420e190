"""The one reading of a dataset file (server/datasets/case_file.py), checked on the table the
portal's upload is checked on too (web/src/pages/datasets/caseFile.examples.json)."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from typing import Any

import pytest

from server.datasets.case_file import CaseFileError, read_cases

WEB = Path(__file__).resolve().parents[3] / "web" / "src"
EXAMPLES: list[dict[str, Any]] = json.loads(
    (WEB / "pages" / "datasets" / "caseFile.examples.json").read_text(encoding="utf-8")
)


def _content(example: dict[str, Any]) -> bytes:
    if "base64" in example:
        return base64.b64decode(example["base64"])
    text: str = example["text"]
    return text.encode()


def _read(path: Path) -> tuple[list[dict[str, Any]], CaseFileError | None]:
    """The cases read before the first problem, and the problem."""
    read: list[dict[str, Any]] = []
    try:
        for line, case, size in read_cases(path):
            assert size > 0
            read.append({"line": line, "case": case})
    except CaseFileError as exc:
        return read, exc
    return read, None


@pytest.mark.parametrize("example", EXAMPLES, ids=[e["about"] for e in EXAMPLES])
def test_a_file_reads_as_the_portal_reads_it(example: dict[str, Any], tmp_path: Path) -> None:
    path = tmp_path / example["name"]
    path.write_bytes(_content(example))
    read, error = _read(path)
    assert read == example.get("cases", [])
    if "problem" in example:
        assert error is not None and (error.line, error.reason) == (None, example["problem"])
    elif "bad" in example:
        bad = example["bad"]
        assert error is not None and error.line == bad["line"], error
        assert error.reason.startswith(bad["reason"]), error.reason
    else:
        assert error is None
