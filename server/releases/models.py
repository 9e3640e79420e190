"""Releases: a named set of bindings role → asset version."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from sqlalchemy import Enum, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from server.db import Base, UTCDateTime, utcnow


class BindingRole(StrEnum):
    PROMPT_TEMPLATE = "prompt_template"
    MODEL_CONFIG = "model_config"
    RUBRIC = "rubric"
    TOOLS = "tools"


class Release(Base):
    __tablename__ = "release"
    __table_args__ = (
        UniqueConstraint("workspace_id", "name", name="uq_release_workspace_id_name"),
        Index("ix_release_workspace_id_id", "workspace_id", "id"),
    )

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    workspace_id: Mapped[str] = mapped_column(ForeignKey("workspace.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(200))
    description: Mapped[str | None] = mapped_column(String(2000))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    created_by_member_id: Mapped[str | None] = mapped_column(String(40))


class ReleaseBinding(Base):
    __tablename__ = "release_binding"

    release_id: Mapped[str] = mapped_column(
        ForeignKey("release.id", ondelete="CASCADE"), primary_key=True
    )
    role: Mapped[BindingRole] = mapped_column(
        Enum(BindingRole, name="binding_role", native_enum=False, length=24), primary_key=True
    )
    asset_version_id: Mapped[str] = mapped_column(ForeignKey("asset_version.id"))
