"""Which asset kind each binding role takes, and which roles a release must bind."""

from __future__ import annotations

from collections.abc import Mapping

from server.assets.models import AssetKind
from server.releases.models import BindingRole

KIND_OF_ROLE: Mapping[BindingRole, AssetKind] = {
    BindingRole.PROMPT_TEMPLATE: AssetKind.PROMPT_TEMPLATE,
    BindingRole.MODEL_CONFIG: AssetKind.MODEL_CONFIG,
    BindingRole.RUBRIC: AssetKind.RUBRIC,
    BindingRole.TOOLS: AssetKind.TOOL_SCHEMA,
}

REQUIRED_ROLES: tuple[BindingRole, ...] = (BindingRole.PROMPT_TEMPLATE, BindingRole.MODEL_CONFIG)
