"""Every GraphQL error leaves with `extensions.code`; unexpected ones are masked and logged."""

from __future__ import annotations

import logging
import traceback

from graphql.error import GraphQLError
from strawberry.extensions import MaskErrors

from server.db_retry import database_unavailable
from server.errors import ErrorCode, ShipwiseError
from server.metrics import GRAPHQL_ERRORS

logger = logging.getLogger("shipwise.graphql")

INTERNAL_MESSAGE = "Internal error."
UNAVAILABLE_MESSAGE = "The database is unavailable; try again shortly."


def _coded(error: GraphQLError, message: str, code: ErrorCode, **extra: object) -> GraphQLError:
    GRAPHQL_ERRORS.labels(code=code.value).inc()
    return GraphQLError(
        message=message,
        nodes=error.nodes,
        source=error.source,
        positions=error.positions,
        path=error.path,
        original_error=None,
        extensions={"code": code.value, **extra},
    )


def _log_unexpected(error: GraphQLError) -> None:
    """Log where it happened and the exception class, never its text (it may hold secrets)."""
    original = error.original_error
    frames = traceback.extract_tb(original.__traceback__) if original else []
    logger.error(
        "unexpected error in resolver",
        extra={
            "path": list(error.path or []),
            "error_type": type(original).__name__,
            "frames": [f"{f.filename}:{f.lineno}:{f.name}" for f in frames[-8:]],
        },
    )


def to_coded_error(error: GraphQLError) -> GraphQLError:
    """Our errors keep their message; errors before execution are the request's fault."""
    original = error.original_error
    if isinstance(original, ShipwiseError):
        return _coded(error, original.message, original.code, **original.extensions)
    if error.path is None and isinstance(original, GraphQLError | None):
        # Parse, validation and variable-coercion errors (graphql-core wraps a coercion's
        # cause in a GraphQLError): about the document, safe to show. Any other exception
        # without a path was raised by our code, as a subscription's stream raises a
        # database error mid-stream: its text is not for the caller.
        return _coded(error, error.message, ErrorCode.VALIDATION_FAILED)
    if original is not None and database_unavailable(original):
        logger.warning("database unavailable", extra={"error_type": type(original).__name__})
        return _coded(error, UNAVAILABLE_MESSAGE, ErrorCode.UNAVAILABLE)
    _log_unexpected(error)
    return _coded(error, INTERNAL_MESSAGE, ErrorCode.INTERNAL)


class CodedErrors(MaskErrors):
    """MaskErrors (which also covers subscriptions) that codes instead of blanking errors."""

    def __init__(self) -> None:
        super().__init__(should_mask_error=lambda _error: True)

    def anonymise_error(self, error: GraphQLError) -> GraphQLError:
        return to_coded_error(error)

    def _process_result(self, result: object) -> None:
        """MaskErrors' own test is an `isinstance` against a runtime-checkable Protocol: a
        tenth of the CPU of a subscription event. Any result with errors has them coded."""
        errors = getattr(result, "errors", None)
        if errors:
            result.errors = self._process_errors(errors)  # type: ignore[attr-defined]
