"""Reading span attribute values (pure): indexed keys (`prefix.N.rest`), the first present
of several keys, text, whole numbers and JSON text parsed — shared by the step readers
(`server/traces/steps.py`) and the message readers (`server/traces/messages.py`)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any


def indexed(attrs: Mapping[str, Any], prefix: str) -> list[dict[str, Any]]:
    """`prefix.N.rest = v` pairs as one dict of `rest → v` per N, in N's order."""
    found: dict[int, dict[str, Any]] = {}
    for key, value in attrs.items():
        if not key.startswith(prefix):
            continue
        index, _, rest = key[len(prefix) :].partition(".")
        if index.isdigit() and rest:
            found.setdefault(int(index), {})[rest] = value
    return [found[i] for i in sorted(found)]


def first(attrs: Mapping[str, Any], *keys: str) -> Any:
    for key in keys:
        value = attrs.get(key)
        if value is not None and value != "":
            return value
    return None


def text_of(value: object) -> str | None:
    if value is None:
        return None
    return value if isinstance(value, str) else as_text(value)


def as_text(value: object) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, default=str)


def int_of(value: object) -> int | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value
    try:
        return int(float(str(value)))
    except ValueError:
        return None


def json_value(value: object) -> Any:
    """JSON text parsed; anything else (or text that is not JSON) as it is."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def parsed_list(value: object) -> list[Any] | None:
    parsed = json_value(value)
    return parsed if isinstance(parsed, list) else None


def as_mapping(value: object) -> Mapping[str, Any] | None:
    parsed = json_value(value)
    return parsed if isinstance(parsed, Mapping) else None


def parts_text(parts: list[Any]) -> str:
    return "".join(
        as_text(p.get("content")) for p in parts if isinstance(p, Mapping) and p.get("content")
    )
