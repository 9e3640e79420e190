"""Money at the API edge: cents as floats outside, integer micro-dollars inside (docs/domain.md)."""

from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal

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


TENTH = Decimal("0.1")


def dollars(cents: float) -> str:
    """Money as people read it, one rule wherever shipwise shows money (the CLI, the report and
    diff pages, the preview's sentences; the portal's `dollars` in web/src/lib/format.ts, both
    checked against web/src/lib/money.examples.json): dollars, two decimals from $0.10 up
    ("$1,234.56"), below that two significant digits ("$0.016", "$0.0000054"), so an amount
    that is not zero never reads "$0.00". Halves round up, on the float's exact value.
    """
    value = abs(Decimal(cents / 100))  # the same double the portal divides to
    sign = "−" if cents < 0 and value else ""
    if value == 0:
        return "$0.00"
    if value < TENTH:
        mantissa = value.scaleb(-value.adjusted()).quantize(TENTH, ROUND_HALF_UP)
        exponent = value.adjusted() + (1 if mantissa >= 10 else 0)
        shown = value.quantize(Decimal(1).scaleb(exponent - 1), ROUND_HALF_UP)
        if shown < TENTH:
            return f"{sign}${shown:f}"
    return f"{sign}${value.quantize(Decimal('0.01'), ROUND_HALF_UP):,f}"


def micros_dollars(micros: int) -> str:
    """`dollars` of an amount in micro-dollars."""
    return dollars(micros / MICROS_PER_CENT)
