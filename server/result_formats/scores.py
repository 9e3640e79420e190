"""Inspect AI score values as numbers and as a pass (docs/domain.md, Imports: Inspect)."""

from __future__ import annotations

from server.result_formats.reading import Refused, number

LETTERS = {"C": 1.0, "P": 0.5, "I": 0.0, "N": 0.0}
"""Inspect's CORRECT, PARTIAL, INCORRECT and NOANSWER."""


def score_number(value: object, where: str, field: str) -> float:
    """A score value as a number: C 1, P 0.5, I and N 0, booleans 1/0, numbers as they are."""
    if isinstance(value, bool):
        return 1.0 if value else 0.0
    if isinstance(value, str) and value in LETTERS:
        return LETTERS[value]
    found = number(value)
    if found is None:
        shown = repr(value) if isinstance(value, str) else type(value).__name__
        raise Refused(
            where,
            f"a score of an unknown shape ({shown}; expected C, I, P, N, a boolean or a number)",
            field,
        )
    return found


def score_passed(value: object, threshold: float) -> bool:
    """C passes, I and N fail, booleans are themselves, P and numbers pass at `threshold`."""
    if isinstance(value, bool):
        return value
    if value == "C":
        return True
    if value in ("I", "N"):
        return False
    found = LETTERS["P"] if value == "P" else number(value)
    return found is not None and found >= threshold
