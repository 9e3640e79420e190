"""What a sequential comparison keeps of its looks (`Comparison.looks`) and how it is
shown: each baseline's sequence at the last look, and the stop (docs/statistics.md, "Sequential
stopping"). The looks themselves are taken during dispatch (`server.dispatch.looks`)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class BaselineLook:
    """One baseline's sequence at a look (rate units)."""

    baseline_cohort_index: int
    outcome: str | None
    low: float
    high: float
    n: int
    """Usable cases in the sequence at the look."""
    p_value: float
    """Anytime-valid p for "no difference": min(1, 1 / max K±(0)) over the sequence."""


@dataclass(frozen=True, slots=True)
class LookState:
    """What the comparison row keeps of its looks (`Comparison.looks`)."""

    looks: int = 0
    last_look_cases: int = 0
    decided: bool = False
    stopped_at_cases: int | None = None
    baselines: tuple[BaselineLook, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        document = asdict(self)
        document["baselines"] = [asdict(b) for b in self.baselines]
        return document

    @classmethod
    def from_json(cls, document: dict[str, Any] | None) -> LookState:
        if not document:
            return cls()
        return cls(
            looks=int(document["looks"]),
            last_look_cases=int(document["last_look_cases"]),
            decided=bool(document["decided"]),
            stopped_at_cases=document.get("stopped_at_cases"),
            baselines=tuple(BaselineLook(**b) for b in document.get("baselines", [])),
        )


def stopping_document(
    stopping: dict[str, Any],
    *,
    seed: int,
    state: LookState,
    case_count: int,
    decided: bool,
    ended: bool,
) -> dict[str, Any]:
    """What a comparison and its scorecard show of its sequential stopping (camelCase)."""
    if decided and state.stopped_at_cases is not None:
        note = f"Decided early at {state.stopped_at_cases:,} of {case_count:,} cases."
    elif ended:
        note = (
            f"Ran to the end: no look decided every baseline ({state.looks} "
            f"{'look' if state.looks == 1 else 'looks'})."
        )
    else:
        note = f"{state.looks} {'look' if state.looks == 1 else 'looks'} so far, undecided."
    return {
        **stopping,
        "caseOrderSeed": seed,
        "looks": state.looks,
        "decidedEarly": decided,
        "stoppedAtCases": state.stopped_at_cases if decided else None,
        "caseCount": case_count,
        "note": note,
    }
