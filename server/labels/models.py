"""Human labels on trials (of finalized comparisons and imported runs) and review queues.

A label names its trial the way the API does (`TrialRef`): the comparison or run, the
cohort (0 for a run), the dataset item and the trial index; `position` is the case
ordinal (comparisons) or the item position (runs) the item id resolved to, so reads join
the trial rows on integers. One label per trial and labeller: labelling again replaces it.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import (
    BigInteger,
    Boolean,
    Enum,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from server.db import AutoIncrementBigInt, Base, UTCDateTime, utcnow


class LabelTarget(StrEnum):
    COMPARISON = "COMPARISON"
    RUN = "RUN"


class TrialLabel(Base):
    __tablename__ = "trial_label"
    __table_args__ = (
        UniqueConstraint(
            "target_id",
            "cohort_index",
            "position",
            "trial_index",
            "labeller_member_id",
            name="uq_trial_label_trial_labeller",
        ),
        Index("ix_trial_label_workspace_id_target_id", "workspace_id", "target_id"),
    )

    id: Mapped[int] = mapped_column(AutoIncrementBigInt, primary_key=True, autoincrement=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspace.id", ondelete="CASCADE"))
    target: Mapped[LabelTarget] = mapped_column(
        Enum(LabelTarget, name="label_target", native_enum=False, length=16)
    )
    target_id: Mapped[str] = mapped_column(String(40), comment="the comparison's or run's id")
    cohort_index: Mapped[int] = mapped_column(Integer)
    position: Mapped[int] = mapped_column(
        Integer, comment="the case ordinal (comparison) or item position (run)"
    )
    dataset_item_id: Mapped[str] = mapped_column(String(200))
    trial_index: Mapped[int] = mapped_column(Integer)
    labeller_member_id: Mapped[str] = mapped_column(String(40))
    passed: Mapped[bool] = mapped_column(Boolean)
    note: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(
        UTCDateTime, default=utcnow, comment="when this labeller last labelled the trial"
    )


class ReviewQueue(Base):
    """A comparison's review order, fixed at the first `reviewQueue` call (docs/labels.md).

    The order is a permutation of the graded trials drawn from `seed`; `issued_through`
    is the furthest queue position handed out, so the labelled trials at or before it
    are a simple random sample of the graded trials (those a reviewer skipped aside).
    """

    __tablename__ = "review_queue"

    comparison_id: Mapped[str] = mapped_column(
        ForeignKey("comparison.id", ondelete="CASCADE"), primary_key=True
    )
    seed: Mapped[int] = mapped_column(BigInteger)
    issued_through: Mapped[int] = mapped_column(
        Integer, default=-1, comment="the furthest queue position handed out; -1: none"
    )
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
