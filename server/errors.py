"""The error hierarchy, each class mapped once to its `extensions.code`."""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class ErrorCode(StrEnum):
    UNAUTHENTICATED = "UNAUTHENTICATED"
    FORBIDDEN = "FORBIDDEN"
    NOT_FOUND = "NOT_FOUND"
    CONFLICT = "CONFLICT"
    VALIDATION_FAILED = "VALIDATION_FAILED"
    QUOTA_EXCEEDED = "QUOTA_EXCEEDED"
    RATE_LIMITED = "RATE_LIMITED"
    UNAVAILABLE = "UNAVAILABLE"
    INTERNAL = "INTERNAL"


class ShipwiseError(Exception):
    """An error whose message is safe to show to the caller."""

    code: ErrorCode = ErrorCode.INTERNAL

    def __init__(self, message: str, **extensions: Any) -> None:
        super().__init__(message)
        self.message = message
        self.extensions = extensions


class Unauthenticated(ShipwiseError):
    code = ErrorCode.UNAUTHENTICATED


class Forbidden(ShipwiseError):
    code = ErrorCode.FORBIDDEN


class NotFound(ShipwiseError):
    code = ErrorCode.NOT_FOUND


class Conflict(ShipwiseError):
    code = ErrorCode.CONFLICT


class ValidationFailed(ShipwiseError):
    code = ErrorCode.VALIDATION_FAILED


class QuotaExceeded(ShipwiseError):
    code = ErrorCode.QUOTA_EXCEEDED


class RateLimited(ShipwiseError):
    code = ErrorCode.RATE_LIMITED
