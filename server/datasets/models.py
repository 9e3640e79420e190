"""Dataset cases: one row per case of a dataset version (100,000 cases per version work)."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from sqlalchemy import Enum, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from server.db import AutoIncrementBigInt, Base, PortableJSON


class Split(StrEnum):
    DEV = "DEV"
    HOLDOUT = "HOLDOUT"


class DatasetCase(Base):
    __tablename__ = "dataset_case"
    __table_args__ = (
        UniqueConstraint(
            "dataset_version_id", "dataset_item_id", name="uq_dataset_case_version_item"
        ),
        UniqueConstraint("dataset_version_id", "ordinal", name="uq_dataset_case_version_ordinal"),
        Index("ix_dataset_case_version_split_ordinal", "dataset_version_id", "split", "ordinal"),
    )

    id: Mapped[int] = mapped_column(AutoIncrementBigInt, primary_key=True, autoincrement=True)
    dataset_version_id: Mapped[str] = mapped_column(
        ForeignKey("asset_version.id", ondelete="CASCADE")
    )
    ordinal: Mapped[int] = mapped_column(Integer, comment="0-based position in the version")
    dataset_item_id: Mapped[str] = mapped_column(String(200))
    input: Mapped[Any] = mapped_column(
        PortableJSON, comment="a string, an object or a list of turns"
    )
    expected: Mapped[Any | None] = mapped_column(PortableJSON)
    split: Mapped[Split] = mapped_column(Enum(Split, name="split", native_enum=False, length=8))
    tags: Mapped[list[str]] = mapped_column(PortableJSON, default=list)
    meta: Mapped[dict[str, Any] | None] = mapped_column(
        PortableJSON, comment="where the case came from, e.g. {sourceTraceId}; not in the hash"
    )
