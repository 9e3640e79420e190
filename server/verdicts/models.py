"""Verdicts: a comparison's finalization state, its stored scorecard and its case rows.

Finalization computes everything once; reads never recompute. `comparison_verdict.scorecard`
is the whole `Scorecard` document (camelCase, as GraphQL shows it, so reports can freeze
it as is); `verdict_case` holds one row per case that ran, for the keyset-paginated
case-debug view and per-baseline follow-ups.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import Enum, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from server.db import Base, PortableJSON, UTCDateTime, utcnow


class VerdictState(StrEnum):
    NOT_FINALIZED = "NOT_FINALIZED"
    FINALIZED = "FINALIZED"


class SignOffVerdict(StrEnum):
    """The sign-off's decision on the comparison (set by sign-off, never by finalization)."""

    PROMOTE = "PROMOTE"
    HOLD = "HOLD"
    INCONCLUSIVE = "INCONCLUSIVE"


class VerdictError(StrEnum):
    """Bounded `verdictErrorCode`s (docs/errors.md)."""

    FINALIZE_INTERNAL = "verdict_finalize_internal"
    """Finalization hit an unexpected error; details are in the server's logs only."""
    CASES_ERASED = "verdict_cases_erased"
    """Not finalized within 30 days of ending: the case rows were erased."""


class CaseClass(StrEnum):
    """The failure analysis class of a case (seed 000), on majority outcomes."""

    IMPROVED = "IMPROVED"
    REGRESSED = "REGRESSED"
    BOTH_WRONG = "BOTH_WRONG"
    AGREE = "AGREE"
    INCOMPLETE = "INCOMPLETE"
    """Not usable: some cohort has no completed trial of it."""


def _enum(enum: type[StrEnum], name: str) -> Enum:
    return Enum(enum, name=name, native_enum=False, length=16)


class ComparisonVerdict(Base):
    """One row per comparison that finalization touched (or the eraser erased)."""

    __tablename__ = "comparison_verdict"

    comparison_id: Mapped[str] = mapped_column(
        ForeignKey("comparison.id", ondelete="CASCADE"), primary_key=True
    )
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspace.id", ondelete="CASCADE"))
    state: Mapped[VerdictState] = mapped_column(
        _enum(VerdictState, "verdict_state"), default=VerdictState.NOT_FINALIZED
    )
    error_code: Mapped[str | None] = mapped_column(String(64))
    scorecard: Mapped[dict[str, Any] | None] = mapped_column(PortableJSON)
    verdict: Mapped[SignOffVerdict | None] = mapped_column(
        _enum(SignOffVerdict, "sign_off_verdict"), comment="set by sign-off"
    )
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    finalized_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    cases_erased_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class VerdictCase(Base):
    """A case that ran, with each cohort's counts and its relation to every baseline.

    `worse_mask`/`better_mask` have bit b set when the candidate's pass fraction is below /
    above baseline b's (docs/statistics.md), so a baseline's worse cases are one SQL filter.
    """

    __tablename__ = "verdict_case"

    comparison_id: Mapped[str] = mapped_column(
        ForeignKey("comparison.id", ondelete="CASCADE"), primary_key=True
    )
    ordinal: Mapped[int] = mapped_column(Integer, primary_key=True)
    dataset_case_id: Mapped[int] = mapped_column(Integer)
    dataset_item_id: Mapped[str] = mapped_column(String(200))
    classification: Mapped[CaseClass] = mapped_column(_enum(CaseClass, "case_class"))
    worse_mask: Mapped[int] = mapped_column(Integer, default=0)
    better_mask: Mapped[int] = mapped_column(Integer, default=0)
    cohorts: Mapped[list[dict[str, Any]]] = mapped_column(
        PortableJSON,
        comment="per cohort: cohortIndex, trials, completed, passed, passFraction, score, "
        "latencyMs, costMicros, outputTokens (means over completed trials)",
    )
