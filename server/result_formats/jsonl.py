"""JSON Lines read one record at a time, each with its line number."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from server.result_formats.reading import Refused


def records(path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """(`line N`, object) for every non-blank line; Refused for a line that is not an object."""
    with path.open("rb") as lines:
        for number, raw in enumerate(lines, start=1):
            if not raw.strip():
                continue
            where = f"line {number}"
            try:
                value = json.loads(raw)
            except UnicodeDecodeError:
                raise Refused(where, "not UTF-8 text") from None
            except ValueError as exc:
                raise Refused(where, f"not valid JSON ({exc})") from None
            if not isinstance(value, dict):
                raise Refused(where, "a record must be a JSON object")
            yield where, value


def first_record(path: Path) -> dict[str, Any] | None:
    """The first non-blank line as an object, or None if it is not one (or there is none)."""
    with path.open("rb") as lines:
        for raw in lines:
            if raw.strip():
                try:
                    value = json.loads(raw)
                except ValueError:
                    return None
                return value if isinstance(value, dict) else None
    return None
