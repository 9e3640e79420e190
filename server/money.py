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


TEN_CENTS = Decimal(10)


def dollars(cents: float) -> str:
    """Money as people read it, one rule wherever shipwise shows money (the CLI, the report and
    diff pages, the preview's sentences; the portal's `dollars` in web/src/lib/format.ts, both
    checked against web/src/lib/money.examples.json; docs/portal.md): from $0.10 up, dollars
    with two decimals ("$1,234.56"); below that, cents with two significant digits and no
    trailing zeros ("1.6 ¢", "0.5 ¢", "0.00054 ¢"), so an amount that is not zero never reads
    "$0.00" nor hides behind a row of zeros. Halves round up, on the float's exact value.
    """
    sign = "−" if cents < 0 else ""
    small = abs(Decimal(cents))  # the double itself, as the portal rounds it
    if small == 0:
        return "$0.00"
    if small < TEN_CENTS:
        shown = small.quantize(Decimal(1).scaleb(small.adjusted() - 1), ROUND_HALF_UP)
        if shown < TEN_CENTS:
            return f"{sign}{_without_trailing_zeros(shown)} ¢"
    value = abs(Decimal(cents / 100))  # the same double the portal divides to
    return f"{sign}${value.quantize(Decimal('0.01'), ROUND_HALF_UP):,f}"


def _without_trailing_zeros(amount: Decimal) -> str:
    text = f"{amount:f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def micros_dollars(micros: int) -> str:
    """`dollars` of an amount in micro-dollars."""
    return dollars(micros / MICROS_PER_CENT)
