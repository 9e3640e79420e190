"""The ranges one delivery holds: which range each admitted trial belongs to, and when a
range has every outcome (then its record gives it up as finished). Its admissions and
records (`Books`) are the steps that change them: each one unit of work, the holdings
changed once it commits."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from server import db_retry
from server.dispatch import store
from server.dispatch.looks import Looks
from server.dispatch.outcomes import TrialOutcome
from server.dispatch.pipeline import Stop
from server.dispatch.plan import DispatchPlan, WorkItem
from server.dispatch.publisher import Publisher
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

    def admitting(self, items: Sequence[WorkItem]) -> tuple[list[Claim], list[int]]:
        """(the claims `items` belong to, each item's fencing token: its range's)."""
        claims = self.of(items)
        tokens = []
        for item in items:
            claim = next((c for c in claims if c.holds(item.case_ordinal)), None)
            if claim is None:
                raise ValueError(f"case {item.case_ordinal} is in no claimed range")
            tokens.append(claim.token)
        return claims, tokens

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

    def clear(self) -> None:
        self._held.clear()


class Books:
    """One delivery's admissions and records (the pipeline's `admit` and `record`). After
    each record: its snapshot published, then the sequential looks (a decision is the
    pending stop, seen at the next admission)."""

    def __init__(
        self,
        *,
        sessionmaker: async_sessionmaker[AsyncSession],
        plan: DispatchPlan,
        delivery_id: str,
        held: Holdings,
        publisher: Publisher,
    ) -> None:
        self.sessionmaker = sessionmaker
        self.plan = plan
        self.delivery_id = delivery_id
        self.held: Holdings = held
        self.publisher: Publisher = publisher
        self.looks = Looks(sessionmaker, plan.comparison, cohorts=len(plan.cohorts))
        self.fresh_cohorts: set[int] = set()
        """Cohorts admitted to since the last record: that record shows them RUNNING."""

    async def admit(self, batch: list[WorkItem]) -> tuple[list[int], Stop | None]:
        claims, tokens = self.held.admitting(batch)
        ids, stop = await db_retry.unit(
            self.sessionmaker,
            lambda session: store.admit(
                session,
                plan=self.plan,
                items=batch,
                claims=claims,
                tokens=tokens,
                delivery_id=self.delivery_id,
            ),
            what="an admission",
        )
        if stop is None:
            self.held.admitted(batch, ids)
            self.fresh_cohorts.update(item.cohort_index for item in batch)
        return ids, stop

    async def record(self, outcomes: list[TrialOutcome]) -> None:
        fresh, self.fresh_cohorts = self.fresh_cohorts, set()
        claims, finished = self.held.recording(outcomes)
        snapshot = await db_retry.unit(
            self.sessionmaker,
            lambda session: store.record(
                session,
                comparison_id=self.plan.comparison.id,
                plan=self.plan,
                outcomes=outcomes,
                claims=claims,
                finished=finished,
                admitted_cohorts=fresh,
            ),
            what="a record",
        )
        self.held.recorded(outcomes, finished)
        await self.publisher.publish(snapshot)
        await self.looks.after_record(done_calls=snapshot.done_calls)
