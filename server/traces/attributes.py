"""Attribute values as stored: secret-named keys redacted, long values cut and marked."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import orjson

Attributes = dict[str, object]

REDACTED = "[redacted]"
MAX_VALUE_BYTES = 64 * 1024
"""An attribute value longer than this (UTF-8) is cut to it and marked (docs/traces.md)."""

_SECRET_WORDS = frozenset({"authorization", "password", "secret", "token"})
_SECRET_ENDINGS = ("api_key", "api-key", "apikey", "x-api-key")
_WORD = re.compile(r"[_\-]")


@lru_cache(maxsize=4096)  # exporters repeat a handful of keys on every span
def names_a_secret(key: str) -> bool:
    """Whether a key names a secret: its last segment is, or ends in the word, `token`,
    `password`, `secret`, `authorization`, or ends in `api_key`/`api-key`. `input_tokens`
    and `token_count` name counts, not secrets."""
    last = key.rsplit(".", 1)[-1].lower()
    if last.endswith(_SECRET_ENDINGS):
        return True
    return _WORD.split(last)[-1] in _SECRET_WORDS


def cut_text(text: str, limit: int = MAX_VALUE_BYTES) -> str:
    """`text` itself when it fits in `limit` UTF-8 bytes, else its head and a marker."""
    if len(text) * 4 <= limit:
        return text
    encoded = text.encode("utf-8", "replace")
    if len(encoded) <= limit:
        return text
    head = encoded[:limit].decode("utf-8", "ignore")
    return f"{head}…[cut: {len(encoded)} bytes, {limit} kept]"


def clean_text(text: str) -> str:
    """Text PostgreSQL can store: NUL (which no text or JSONB column takes) as U+FFFD."""
    return text.replace("\x00", "\ufffd") if "\x00" in text else text


def clean_value(key: str, value: object) -> object:
    """The value as stored under `key`."""
    if names_a_secret(key):
        return REDACTED
    if isinstance(value, str):
        return cut_text(clean_text(value))
    if isinstance(value, list):
        return [clean_value(key, item) for item in value]
    if isinstance(value, dict):
        return {clean_text(str(k)): clean_value(str(k), v) for k, v in value.items()}
    if isinstance(value, float) and not math.isfinite(value):  # NaN and ±inf are not JSON
        return None
    return value


# Values as the conventions write them ------------------------------------------------


def first_value(attrs: Mapping[str, Any], *keys: str) -> Any:
    for key in keys:
        value = attrs.get(key)
        if value is not None and value != "":
            return value
    return None


def text_value(value: object) -> str | None:
    if value is None:
        return None
    return value if isinstance(value, str) else as_text(value)


def as_text(value: object) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, default=str)


def int_value(value: object) -> int | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value
    try:
        return int(float(str(value)))
    except ValueError:
        return None


def json_value(value: object) -> Any:
    """JSON text parsed; anything else (or text that is not JSON) as it is. `orjson` first
    (several times faster on the messages every model call carries), `json` for what only it
    reads (NaN, integers past 64 bits, lone surrogates)."""
    if isinstance(value, str):
        try:
            return orjson.loads(value)
        except ValueError:
            pass
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value
