"""The media type of a GraphQL-over-HTTP answer, from the request's `Accept`, and its status.

`application/json` is what existing clients get, as before: 200 for every well-formed
request, its errors in the body (`data: null` when nothing ran). A client that accepts
`application/graphql-response+json` gets the status the GraphQL-over-HTTP spec asks of that
type: a request error (a document that does not parse or validate, variables that do not
coerce: nothing was executed) answers 400 without `data`; once execution began, 200, field
errors or not.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

JSON = "application/json"
GRAPHQL_RESPONSE = "application/graphql-response+json"
SUPPORTED = (JSON, GRAPHQL_RESPONSE)
"""In order of preference when `Accept` ranks them alike (`*/*`, `application/*`)."""

CONTENT_TYPES = {JSON: JSON, GRAPHQL_RESPONSE: f"{GRAPHQL_RESPONSE}; charset=utf-8"}
"""`Content-Type` of an answer: `application/json` as it always was."""


@lru_cache(maxsize=256)
def negotiate(accept: str | None) -> str | None:
    """The supported media type that `accept` ranks highest; JSON when there is no `Accept`;
    None when it accepts neither (the view answers 406).

    Each supported type takes the quality of the most specific range matching it (RFC 9110
    §12.5.1), so `application/json, */*;q=0.1` ranks JSON first; between equal qualities
    the more specific range wins, then the one listed first. Kept per `Accept` value (a
    client sends the same one on every request; each is asked of it three times).
    """
    if accept is None or not accept.strip():
        return JSON
    ranges = _ranges(accept)
    best: tuple[float, int, int] | None = None
    chosen: str | None = None
    for media_type in SUPPORTED:
        rank = _rank(media_type, ranges)
        if rank is not None and rank[0] > 0 and (best is None or rank > best):
            best, chosen = rank, media_type
    return chosen


def answer_status(body: Mapping[str, Any]) -> int:
    """The status of an `application/graphql-response+json` answer: 400 for a request error
    (no `data`, and no error with a `path`: no field was executed), 500 when such an error is
    INTERNAL, 503 when it is UNAVAILABLE, else 200."""
    if body.get("data") is not None:
        return 200
    errors: Sequence[Mapping[str, Any]] = body.get("errors") or ()
    if not errors or any("path" in error for error in errors):
        return 200  # execution began: a field error nulled the data
    codes = {(error.get("extensions") or {}).get("code") for error in errors}
    if "INTERNAL" in codes:
        return 500
    return 503 if "UNAVAILABLE" in codes else 400


def _ranges(accept: str) -> list[tuple[str, float]]:
    """`(range, quality)` for each media range of an `Accept` value, as listed."""
    ranges = []
    for part in accept.split(","):
        name, *params = (piece.strip() for piece in part.split(";"))
        name = "*/*" if name == "*" else name.lower()
        if "/" not in name:
            continue
        quality = 1.0
        for param in params:
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = min(max(float(value), 0.0), 1.0)
                except ValueError:
                    quality = 0.0
        ranges.append((name, quality))
    return ranges


def _rank(media_type: str, ranges: list[tuple[str, float]]) -> tuple[float, int, int] | None:
    """`(quality, specificity, -position)` of the most specific range matching `media_type`."""
    major = media_type.split("/", 1)[0]
    specificity = {media_type: 2, f"{major}/*": 1, "*/*": 0}
    matches = [
        (specificity[name], -position, quality)
        for position, (name, quality) in enumerate(ranges)
        if name in specificity
    ]
    if not matches:
        return None
    most_specific, position, quality = max(matches)
    return quality, most_specific, position
