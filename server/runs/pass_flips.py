"""The pass-flip count, worded once for every surface that shows it (docs/decision.md "Numbers that
agree"): items (cases) graded on both sides whose majority outcome flipped. A run diff's
`passFlipsToFail` / `passFlipsToPass`, its cases' `passFlip`, and `shipwise compare`'s
McNemar discordant pairs count the same thing."""

from __future__ import annotations


def line(to_fail: int, to_pass: int) -> str:
    """E.g. "pass flips 16 pass → fail · 3 fail → pass (majority outcome per item)"."""
    return f"pass flips {to_fail} pass → fail · {to_pass} fail → pass (majority outcome per item)"
