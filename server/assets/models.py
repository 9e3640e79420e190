"""Governed assets and their immutable, numbered, content-hashed versions.

A dataset is an asset of kind EVALUATION_SUITE; its versions hold cases in
`dataset_case` rows and move OPEN → SEALED (or DISCARDED). Every other kind's version is
SEALED when it is created.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import Enum, ForeignKey, Index, Integer, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from server.db import Base, PortableJSON, UTCDateTime, utcnow


class AssetKind(StrEnum):
    PROMPT_TEMPLATE = "PROMPT_TEMPLATE"
    MODEL_CONFIG = "MODEL_CONFIG"
    EVALUATION_SUITE = "EVALUATION_SUITE"
    RUBRIC = "RUBRIC"
    TOOL_SCHEMA = "TOOL_SCHEMA"


class VersionState(StrEnum):
    OPEN = "OPEN"
    SEALED = "SEALED"
    DISCARDED = "DISCARDED"


class Asset(Base):
    __tablename__ = "asset"
    __table_args__ = (
        UniqueConstraint("workspace_id", "kind", "name", name="uq_asset_workspace_kind_name"),
        Index("ix_asset_workspace_id_kind_id", "workspace_id", "kind", "id"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str | None] = mapped_column(
        ForeignKey("workspace.id", ondelete="CASCADE"), comment="NULL for a built-in"
    )
    kind: Mapped[AssetKind] = mapped_column(
        Enum(AssetKind, name="asset_kind", native_enum=False, length=24)
    )
    name: Mapped[str] = mapped_column(String(200))
    description: Mapped[str | None] = mapped_column(String(2000))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    created_by_member_id: Mapped[str | None] = mapped_column(String(40))
    gate_settings: Mapped[dict[str, Any] | None] = mapped_column(
        PortableJSON,
        comment="a prompt's gate settings: {datasetId, split, trialsPerCase, checks, shipPolicy}",
    )


class AssetVersion(Base):
    __tablename__ = "asset_version"
    __table_args__ = (
        UniqueConstraint("asset_id", "number", name="uq_asset_version_asset_id_number"),
        Index("ix_asset_version_workspace_id_id", "workspace_id", "id"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    asset_id: Mapped[str] = mapped_column(ForeignKey("asset.id", ondelete="CASCADE"))
    workspace_id: Mapped[str | None] = mapped_column(
        ForeignKey("workspace.id", ondelete="CASCADE"), comment="the asset's; NULL for built-ins"
    )
    kind: Mapped[AssetKind] = mapped_column(
        Enum(AssetKind, name="asset_kind", native_enum=False, length=24)
    )
    number: Mapped[int] = mapped_column(Integer)
    state: Mapped[VersionState] = mapped_column(
        Enum(VersionState, name="version_state", native_enum=False, length=16)
    )
    content: Mapped[dict[str, Any]] = mapped_column(
        PortableJSON, default=dict, comment="the kind's shape; {} for a dataset version"
    )
    content_hash: Mapped[str | None] = mapped_column(
        String(64),
        comment="sha256 of canonical content (of the cases for a dataset); set when sealed",
    )
    variables: Mapped[list[str]] = mapped_column(
        PortableJSON, default=list, comment="a prompt template's variables, found by parsing"
    )
    case_count: Mapped[int] = mapped_column(Integer, default=0)
    dev_case_count: Mapped[int] = mapped_column(Integer, default=0)
    holdout_case_count: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    sealed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_by_member_id: Mapped[str | None] = mapped_column(String(40))
