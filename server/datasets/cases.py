"""The shape of a dataset case (docs/domain.md), checked without I/O by the API and by the importer.

A case is `{datasetItemId, input, expected?, split?, tags?, metadata?}` (`metadata`: an object
saying where the case came from, e.g. `{sourceTraceId}`; kept beside the case, not hashed).
Checking turns it into the column values of one `dataset_case` row. Only the standard library
and `server.errors` are imported, so the command-line importer starts quickly.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any, TypedDict

from server.errors import ValidationFailed

MAX_CASES_PER_CHUNK = 5_000
MAX_ITEM_ID_LENGTH = 200
MAX_TAGS = 50
MAX_TAG_LENGTH = 100
MAX_JSON_DEPTH = 32
SPLITS = ("DEV", "HOLDOUT")
FIELDS = frozenset({"datasetItemId", "input", "expected", "split", "tags", "metadata"})
_INPUT_SHAPE = "`input` must be a string, an object or a list of turns ({role, content})"


class CaseRow(TypedDict):
    """A checked case as the column values of its `dataset_case` row."""

    dataset_item_id: str
    input: Any
    expected: Any
    split: str
    tags: list[str]
    meta: dict[str, Any] | None


class CaseError(ValueError):
    """Why one case is not valid; `field` names the offending key."""

    def __init__(self, reason: str, field: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.field = field


def check_case(raw: object) -> CaseRow:
    """The row of one case, or CaseError naming the first problem."""
    if not isinstance(raw, dict):
        raise CaseError("a case must be a JSON object", "")
    unknown = raw.keys() - FIELDS
    if unknown:
        name = sorted(unknown)[0]
        raise CaseError(f"unknown field `{name}` (allowed: {', '.join(sorted(FIELDS))})", name)
    item_id = raw.get("datasetItemId")
    if not isinstance(item_id, str) or not 1 <= len(item_id) <= MAX_ITEM_ID_LENGTH:
        raise CaseError(
            f"`datasetItemId` must be a string of 1 to {MAX_ITEM_ID_LENGTH} characters",
            "datasetItemId",
        )
    check_json(item_id, "datasetItemId", 0)
    if "input" not in raw:
        raise CaseError("`input` is required", "input")
    value = raw["input"]
    _check_input(value)
    expected = raw.get("expected")
    check_json(expected, "expected", 0)
    split = raw.get("split", "DEV")
    if split not in SPLITS:
        raise CaseError("`split` must be DEV or HOLDOUT", "split")
    tags = raw.get("tags")
    meta = raw.get("metadata")
    if meta is not None and not isinstance(meta, dict):
        raise CaseError("`metadata` must be an object", "metadata")
    check_json(meta, "metadata", 0)
    return {
        "dataset_item_id": item_id,
        "input": value,
        "expected": expected,
        "split": split,
        "tags": [] if tags is None else _check_tags(tags),
        "meta": meta,
    }


def check_chunk(raw: object, *, limit: int = MAX_CASES_PER_CHUNK) -> list[CaseRow]:
    """The rows of a chunk of cases; VALIDATION_FAILED names the case's index (and item id)."""
    if not isinstance(raw, list):
        raise ValidationFailed("`cases` must be a list of cases", field="cases")
    if not raw:
        raise ValidationFailed("`cases` must not be empty", field="cases")
    if len(raw) > limit:
        raise ValidationFailed(
            f"`cases` holds {len(raw)} cases; at most {limit} per call", field="cases"
        )
    rows: list[CaseRow] = []
    seen: set[str] = set()
    for index, item in enumerate(raw):
        try:
            row = check_case(item)
        except CaseError as error:
            raise chunk_error(index, error.reason, error.field) from None
        item_id = row["dataset_item_id"]
        if item_id in seen:
            reason = f"`datasetItemId` {item_id!r} appears more than once"
            raise chunk_error(index, reason, "datasetItemId", datasetItemId=item_id)
        seen.add(item_id)
        rows.append(row)
    return rows


def chunk_error(index: int, reason: str, field: str, **extra: Any) -> ValidationFailed:
    """VALIDATION_FAILED about case `index` of a chunk; `reason` alone is in extensions."""
    path = f"cases[{index}].{field}" if field else f"cases[{index}]"
    return ValidationFailed(f"{path}: {reason}", field=path, index=index, reason=reason, **extra)


def _check_input(value: object) -> None:
    if isinstance(value, str | dict):
        check_json(value, "input", 0)
        return
    if not isinstance(value, list) or not value:
        raise CaseError(_INPUT_SHAPE, "input")
    for turn in value:
        if (
            not isinstance(turn, dict)
            or not isinstance(turn.get("role"), str)
            or not turn["role"]
            or not isinstance(turn.get("content", 0), str | list | None)
        ):
            raise CaseError(_INPUT_SHAPE, "input")
    check_json(value, "input", 0)


def _check_tags(tags: object) -> list[str]:
    if not isinstance(tags, list) or len(tags) > MAX_TAGS:
        raise CaseError(f"`tags` must be a list of at most {MAX_TAGS} strings", "tags")
    for tag in tags:
        if not isinstance(tag, str) or not 1 <= len(tag) <= MAX_TAG_LENGTH or bad_text(tag):
            raise CaseError(
                f"each tag must be a string of 1 to {MAX_TAG_LENGTH} characters", "tags"
            )
    return tags


def check_json(value: object, field: str, depth: int) -> None:
    """Reject what PostgreSQL's JSONB cannot hold or JSON cannot say: NUL, NaN, deep nesting.

    Exact type tests first: this runs for every value of up to 5,000 cases per request.
    """
    if type(value) is str:
        if bad_text(value):
            raise CaseError(_bad_text_reason(field), field)
    elif type(value) is dict:
        _check_depth(field, depth)
        for key in value:
            if type(key) is not str or bad_text(key):
                raise CaseError(f"`{field}` has a key that is not a valid string", field)
        _check_items(value.values(), field, depth)
    elif type(value) is list:
        _check_depth(field, depth)
        _check_items(value, field, depth)
    elif type(value) is float:
        if not math.isfinite(value):
            raise CaseError(f"`{field}` contains a number that is not finite", field)
    elif not (value is None or type(value) is int or type(value) is bool):
        _check_other(value, field, depth)


def _check_items(items: Iterable[object], field: str, depth: int) -> None:
    for item in items:
        if type(item) is str:  # the common leaf, checked without a further call
            if bad_text(item):
                raise CaseError(_bad_text_reason(field), field)
        else:
            check_json(item, field, depth + 1)


def bad_text(text: str) -> bool:
    """A NUL (PostgreSQL cannot store it) or a lone surrogate (not UTF-8) in the text."""
    if "\x00" in text:
        return True
    if text.isascii():
        return False
    try:
        text.encode()
    except UnicodeEncodeError:
        return True
    return False


def _bad_text_reason(field: str) -> str:
    return f"`{field}` contains a NUL character or an unpaired surrogate"


def _check_depth(field: str, depth: int) -> None:
    if depth >= MAX_JSON_DEPTH:
        raise CaseError(f"`{field}` is nested deeper than {MAX_JSON_DEPTH} levels", field)


def _check_other(value: object, field: str, depth: int) -> None:
    """Subclasses of JSON types (from Python callers) are checked as their base type."""
    exact: object
    if isinstance(value, str):
        exact = str.__str__(value)
    elif isinstance(value, float):
        exact = float(value)
    elif isinstance(value, int):
        return
    elif isinstance(value, dict):
        exact = dict(value)
    elif isinstance(value, list):
        exact = list(value)
    else:
        raise CaseError(f"`{field}` is not a JSON value", field)
    check_json(exact, field, depth)
