"""Sequential stopping as a comparison's option (docs/statistics.md): the input,
its checking, what a comparison stores, the seeded case order and the preview's note.

With `ANYTIME_VALID` the frozen cases are stored in a random order drawn from
`case_order_seed`, so dispatch (case-major, by ordinal, in ranges) visits them in that
order; the looks themselves are in `server.dispatch.looks`.
"""

from __future__ import annotations

import math
import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final, TypeVar

from server.errors import ValidationFailed

MAX_ALPHA: Final = 0.2
MIN_CASES_FLOOR: Final = 20
MAX_SEED: Final = 2**31 - 1


class StoppingRule(StrEnum):
    NONE = "NONE"
    ANYTIME_VALID = "ANYTIME_VALID"


@dataclass(frozen=True, slots=True)
class StoppingSpec:
    """`stopping` of a comparison's input; defaults are docs/statistics.md's."""

    rule: StoppingRule = StoppingRule.NONE
    alpha: float = 0.05
    min_cases: int = 100
    look_every_cases: int = 50
    case_order_seed: int | None = None
    """Given, it fixes the case order (reproducible runs); else one is drawn."""

    @property
    def sequential(self) -> bool:
        return self.rule == StoppingRule.ANYTIME_VALID


def check(spec: StoppingSpec | None) -> None:
    """VALIDATION_FAILED for alpha outside (0, 0.2], minCases < 20, lookEveryCases < 1."""
    if spec is None:
        return
    if not math.isfinite(spec.alpha) or not 0.0 < spec.alpha <= MAX_ALPHA:
        raise ValidationFailed(
            f"`stopping.alpha` must be more than 0 and at most {MAX_ALPHA}", field="stopping.alpha"
        )
    if spec.min_cases < MIN_CASES_FLOOR:
        raise ValidationFailed(
            f"`stopping.minCases` must be at least {MIN_CASES_FLOOR}", field="stopping.minCases"
        )
    if spec.look_every_cases < 1:
        raise ValidationFailed(
            "`stopping.lookEveryCases` must be at least 1", field="stopping.lookEveryCases"
        )
    seed = spec.case_order_seed
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise ValidationFailed(
            f"`stopping.caseOrderSeed` must be 0 to {MAX_SEED}", field="stopping.caseOrderSeed"
        )


def stored(spec: StoppingSpec | None) -> tuple[dict[str, Any] | None, int | None]:
    """(the `stopping` column, the case order seed) a new comparison stores; (None, None)
    for NONE."""
    if spec is None or not spec.sequential:
        return None, None
    seed = spec.case_order_seed
    if seed is None:
        seed = secrets.randbelow(MAX_SEED + 1)
    document = {
        "rule": spec.rule.value,
        "alpha": float(spec.alpha),
        "minCases": int(spec.min_cases),
        "lookEveryCases": int(spec.look_every_cases),
    }
    return document, seed


def from_stored(document: dict[str, Any] | None, seed: int | None) -> StoppingSpec | None:
    """The stored option back as a spec (None: no sequential stopping)."""
    if not document:
        return None
    return StoppingSpec(
        rule=StoppingRule(document["rule"]),
        alpha=float(document["alpha"]),
        min_cases=int(document["minCases"]),
        look_every_cases=int(document["lookEveryCases"]),
        case_order_seed=seed,
    )


T = TypeVar("T")


def case_order(items: Sequence[T], seed: int | None) -> list[T]:
    """The dispatch order of the frozen cases: as given, or shuffled by `seed`."""
    ordered = list(items)
    if seed is not None:
        random.Random(seed).shuffle(ordered)
    return ordered


def preview_note(spec: StoppingSpec, *, baselines: int, total_calls: int, bound: str) -> str:
    """The preview's sentence: the run may stop early, and the most it can cost."""
    level = spec.alpha / max(1, baselines)
    return (
        "This run may stop early: once every baseline is decided by its anytime-valid "
        f"confidence sequence (α {spec.alpha:g}, {level:.3g} per baseline), looking every "
        f"{spec.look_every_cases:,} cases from {spec.min_cases:,} on, no new call is made. "
        f"At most {total_calls:,} calls and {bound}."
    )
