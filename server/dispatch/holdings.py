"""The ranges one delivery holds: which range each admitted trial belongs to, and when a
range has every outcome (then its record gives it up as finished)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from server.dispatch.outcomes import TrialOutcome
from server.dispatch.plan import WorkItem
from server.dispatch.ranges import Claim


@dataclass
class _Held:
    claim: Claim
    remaining: int
    """Trials of the range not yet recorded as sent."""
    unsent: bool = False
    """A trial came back unsent: the range is not finished by this delivery."""


class Holdings:
    def __init__(self) -> None:
        self._held: dict[int, _Held] = {}
        self._range_of: dict[int, int] = {}
        """Admitted trial id → range index, until recorded."""
        self.claimed = 0
        """Ranges claimed so far (given up ones included)."""

    def add(self, claim: Claim, items: int) -> None:
        self._held[claim.index] = _Held(claim, items)

    @property
    def claims(self) -> list[Claim]:
        return [held.claim for held in self._held.values()]

    def of(self, items: Iterable[WorkItem]) -> list[Claim]:
        """The claims `items` belong to, by index."""
        ordinals = {item.case_ordinal for item in items}
        return sorted(
            (h.claim for h in self._held.values() if any(h.claim.holds(o) for o in ordinals)),
            key=lambda claim: claim.index,
        )

    def admitted(self, items: Sequence[WorkItem], ids: Sequence[int]) -> None:
        for claim in self.of(items):
            for item, trial_id in zip(items, ids, strict=True):
                if claim.holds(item.case_ordinal):
                    self._range_of[trial_id] = claim.index

    def recording(self, outcomes: Sequence[TrialOutcome]) -> tuple[list[Claim], list[Claim]]:
        """(the claims the outcomes belong to, those of them finished once they commit)."""
        touched: dict[int, _Held] = {}
        for outcome in outcomes:
            held = self._held[self._range_of[outcome.trial_id]]
            touched[held.claim.index] = held
        for outcome in outcomes:
            held = touched[self._range_of[outcome.trial_id]]
            if outcome.sent:
                held.remaining -= 1
            else:
                held.unsent = True
        ordered = sorted(touched.values(), key=lambda held: held.claim.index)
        finished = [h.claim for h in ordered if h.remaining <= 0 and not h.unsent]
        return [h.claim for h in ordered], finished

    def recorded(self, outcomes: Sequence[TrialOutcome], finished: Sequence[Claim]) -> None:
        """The batch committed: forget its trials and the ranges it finished."""
        for outcome in outcomes:
            self._range_of.pop(outcome.trial_id, None)
        for claim in finished:
            self._held.pop(claim.index, None)

    def drop(self, claim: Claim) -> None:
        self._held.pop(claim.index, None)

    def clear(self) -> None:
        self._held.clear()
