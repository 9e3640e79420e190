"""Money at the API edge: cents as floats outside, integer micro-dollars inside (docs/domain.md)."""

from __future__ import annotations

import math

from server.errors import ValidationFailed

MICROS_PER_CENT = 10_000
MAX_CENTS = 1_000_000_000.0
"""Ten million dollars: far above any real price or cap, far below BigInteger's range."""


def cents_to_micros(cents: float, *, field: str, maximum: float = MAX_CENTS) -> int:
    """Validated cents (finite, 0 … `maximum`) as micro-dollars, rounded to the nearest."""
    if not math.isfinite(cents) or not 0 <= cents <= maximum:
        raise ValidationFailed(f"`{field}` must be between 0 and {maximum:g}", field=field)
    return round(cents * MICROS_PER_CENT)


def optional_cents_to_micros(cents: float | None, *, field: str) -> int | None:
    """Like `cents_to_micros`, passing `None` (no cap, no budget) through."""
    return None if cents is None else cents_to_micros(cents, field=field)


def micros_to_cents(micros: int) -> float:
    """Micro-dollars shown as cents, so a call costing 0.01 ¢ still shows."""
    return micros / MICROS_PER_CENT


def optional_micros_to_cents(micros: int | None) -> float | None:
    return None if micros is None else micros_to_cents(micros)
