"""The SDK's exceptions: a server's GraphQL error keeps its `extensions.code`.

Codes are the server's (its docs/errors.md): `NOT_FOUND`, `VALIDATION_FAILED`,
`CONFLICT`, `FORBIDDEN`, `UNAUTHENTICATED`, `RATE_LIMITED`, `QUOTA_EXCEEDED`, `UNAVAILABLE`,
`INTERNAL`;
the SDK adds `UNREACHABLE` (no answer from the server) and `UNSUPPORTED` (the server is
too old for what was asked).
"""

from __future__ import annotations

from typing import Any


class ShipwiseError(Exception):
    """An error with a bounded `code`, a `message` and the server's `extensions`."""

    code: str = "INTERNAL"

    def __init__(
        self, message: str, *, code: str | None = None, extensions: dict[str, Any] | None = None
    ) -> None:
        self.code = code or type(self).code
        self.message = message
        self.extensions: dict[str, Any] = dict(extensions or {})
        super().__init__(f"{self.code}: {message}")


class NotFoundError(ShipwiseError):
    """No such dataset, version, experiment or run in the token's workspace."""

    code = "NOT_FOUND"


class ValidationError(ShipwiseError, ValueError):
    """Bad input, refused before (or by) the server; `extensions["field"]` names it."""

    code = "VALIDATION_FAILED"


class ConflictError(ShipwiseError):
    """The object is not in a state that allows this (`extensions["reason"]` says why)."""

    code = "CONFLICT"


class AuthError(ShipwiseError):
    """The token is missing, unknown or revoked (UNAUTHENTICATED), or its role too low."""

    code = "UNAUTHENTICATED"


class UnreachableError(ShipwiseError):
    """The server did not answer (refused, timed out, not a GraphQL answer)."""

    code = "UNREACHABLE"


class UnsupportedError(ShipwiseError):
    """The server's API lacks what was asked (an older shipwise)."""

    code = "UNSUPPORTED"


class TaskOutputError(ValidationError, TypeError):
    """The task returned something that is neither a string nor an output object."""


_BY_CODE: dict[str, type[ShipwiseError]] = {
    "NOT_FOUND": NotFoundError,
    "VALIDATION_FAILED": ValidationError,
    "CONFLICT": ConflictError,
    "UNAUTHENTICATED": AuthError,
    "FORBIDDEN": AuthError,
}


def from_graphql(error: dict[str, Any]) -> ShipwiseError:
    """The typed exception for one GraphQL error object."""
    extensions = error.get("extensions")
    extensions = extensions if isinstance(extensions, dict) else {}
    code = str(extensions.get("code") or "INTERNAL")
    cls = _BY_CODE.get(code, ShipwiseError)
    return cls(str(error.get("message") or code), code=code, extensions=extensions)
