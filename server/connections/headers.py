"""A connection's extra request headers (Azure's `api-key`, a gateway's own): validated here,
stored encrypted as one JSON object, their values never shown, logged or echoed in errors."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence

from server.connections.models import ConnectionKind, ModelConnection
from server.errors import ValidationFailed
from server.security import SecretBox

MAX_HEADERS = 20
MAX_NAME_LENGTH = 100
MAX_VALUE_LENGTH = 4096
_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
"""RFC 9110's `token`: what a header name may be made of."""

RESERVED = frozenset(
    {
        "host",
        "content-length",
        "content-type",
        "transfer-encoding",
        "connection",
        "x-shipwise-trial",
        "x-shipwise-delivery",
    }
)
"""Set by the HTTP client or by shipwise on every request."""
KEY_HEADERS = {
    ConnectionKind.OPENAI_COMPATIBLE: "authorization",
    ConnectionKind.ANTHROPIC: "x-api-key",
}
"""The header `apiKey` travels in: a connection with a key cannot also set it."""


def _clean_value(value: str, field: str) -> str:
    if len(value) > MAX_VALUE_LENGTH:
        raise ValidationFailed(
            f"`{field}` must be at most {MAX_VALUE_LENGTH} characters", field=field
        )
    if not all(" " <= ch <= "~" or ch == "\t" for ch in value):
        # The value is not echoed: it may be a credential.
        raise ValidationFailed(f"`{field}` must be printable ASCII (no line breaks)", field=field)
    return value.strip(" \t")


def clean_headers(
    kind: ConnectionKind, headers: Sequence[tuple[str, str]] | None, *, has_api_key: bool
) -> dict[str, str]:
    """`{name: value}` in the order given; names are kept as written, unique ignoring case."""
    if not headers:
        return {}
    if kind == ConnectionKind.SIMULATED:
        raise ValidationFailed("a SIMULATED connection takes no `headers`", field="headers")
    if len(headers) > MAX_HEADERS:
        raise ValidationFailed(f"at most {MAX_HEADERS} `headers`", field="headers")
    cleaned: dict[str, str] = {}
    seen: set[str] = set()
    for index, (name, value) in enumerate(headers):
        field = f"headers[{index}]"
        if not 1 <= len(name) <= MAX_NAME_LENGTH or not _TOKEN.fullmatch(name):
            raise ValidationFailed(
                f"`{field}.name` must be 1 to {MAX_NAME_LENGTH} characters of a header name "
                "(letters, digits, -)",
                field=f"{field}.name",
            )
        lowered = name.lower()
        if lowered in RESERVED:
            raise ValidationFailed(
                f"`{field}.name`: {name} is set by shipwise", field=f"{field}.name"
            )
        if has_api_key and lowered == KEY_HEADERS.get(kind):
            raise ValidationFailed(
                f"`{field}.name`: {name} carries `apiKey`; give one or the other",
                field=f"{field}.name",
            )
        if lowered in seen:
            raise ValidationFailed(f"`{field}.name`: {name} is given twice", field=f"{field}.name")
        seen.add(lowered)
        cleaned[name] = _clean_value(value, f"{field}.value")
    return cleaned


def encrypt_headers(headers: Mapping[str, str], secret_box: SecretBox) -> str:
    """The Fernet token stored in `headers_encrypted`."""
    return secret_box.encrypt(json.dumps(dict(headers)))


def decrypt_headers(row: ModelConnection, secret_box: SecretBox) -> dict[str, str]:
    """The extra headers to send; raises `InvalidToken` when sealed with another key."""
    if row.headers_encrypted is None:
        return {}
    stored = json.loads(secret_box.decrypt(row.headers_encrypted))
    return {str(k): str(v) for k, v in stored.items()}
