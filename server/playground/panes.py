"""A Playground pane resolved against the workspace: its messages (a saved prompt version's
or a draft's, checked as a version would be), its connection (READY), its model and
parameters; each refusal said in words at the pane's field."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from server.assets import service as assets
from server.assets.content import MAX_OUTPUT_TOKENS, check_content
from server.assets.models import Asset, AssetKind, AssetVersion
from server.connections import service as connections
from server.connections.models import ConnectionStatus, ModelConnection
from server.errors import NotFound, ValidationFailed

MAX_MODEL_CHARS = 200


@dataclass(frozen=True, slots=True)
class PaneSpec:
    """What a pane asks for: a saved version, or a draft's messages (of a prompt, or none)."""

    connection_id: str
    model: str
    max_tokens: int = 512
    temperature: float | None = None
    prompt_version_id: str | None = None
    asset_id: str | None = None
    messages: Any = None


@dataclass(frozen=True, slots=True)
class Pane:
    index: int
    template_key: str
    """What the template cache knows the messages by: the version id, or the draft's hash."""
    messages: list[dict[str, Any]]
    variables: list[str]
    connection: ModelConnection
    model: str
    max_tokens: int
    temperature: float | None
    asset: Asset | None
    """The prompt the pane belongs to (its gate settings grade "Run on 5 cases")."""


def _where(index: int, name: str) -> str:
    return f"panes[{index}].{name}"


def _pane_name(index: int) -> str:
    return f"Pane {index + 1}"


async def _saved(
    session: AsyncSession, workspace_id: str, index: int, version_id: str
) -> tuple[AssetVersion, Asset]:
    found = await assets.get_versions(
        session=session, workspace_id=workspace_id, version_ids=[version_id]
    )
    version = found[0] if found else None
    if version is None or version.kind != AssetKind.PROMPT_TEMPLATE:
        raise ValidationFailed(
            f"{_pane_name(index)}: that prompt version is not one of this workspace's.",
            field=_where(index, "promptVersionId"),
        )
    asset = await assets.get(session=session, workspace_id=workspace_id, asset_id=version.asset_id)
    return version, asset


def _draft(index: int, messages: Any) -> tuple[list[dict[str, Any]], list[str]]:
    try:
        checked = check_content(AssetKind.PROMPT_TEMPLATE, {"messages": messages})
    except ValidationFailed as exc:
        path = str(exc.extensions.get("field", "content.messages"))
        where = _where(index, path.removeprefix("content."))
        raise ValidationFailed(f"{_pane_name(index)}: {exc.message}", field=where) from None
    return list(checked.content["messages"]), checked.variables


async def _connection(
    session: AsyncSession, workspace_id: str, index: int, connection_id: str
) -> ModelConnection:
    try:
        row = await connections.get(
            session=session, workspace_id=workspace_id, connection_id=connection_id
        )
    except NotFound:
        raise ValidationFailed(
            f"{_pane_name(index)}: that model connection is not one of this workspace's.",
            field=_where(index, "connectionId"),
        ) from None
    if row.status != ConnectionStatus.READY:
        raise ValidationFailed(
            f"{_pane_name(index)}: model connection {row.name!r} is {row.status.value}, not "
            "READY. An owner or admin can check it again in Settings, Model connections.",
            field=_where(index, "connectionId"),
        )
    return row


def _parameters(index: int, spec: PaneSpec) -> None:
    if not spec.model.strip() or len(spec.model) > MAX_MODEL_CHARS:
        raise ValidationFailed(
            f"{_pane_name(index)}: name a model (at most {MAX_MODEL_CHARS} characters).",
            field=_where(index, "model"),
        )
    if not 1 <= spec.max_tokens <= MAX_OUTPUT_TOKENS:
        raise ValidationFailed(
            f"{_pane_name(index)}: max tokens must be from 1 to {MAX_OUTPUT_TOKENS:,}.",
            field=_where(index, "maxTokens"),
        )
    if spec.temperature is not None and not 0.0 <= spec.temperature <= 2.0:
        raise ValidationFailed(
            f"{_pane_name(index)}: temperature must be from 0 to 2.",
            field=_where(index, "temperature"),
        )


async def resolve_pane(
    session: AsyncSession, workspace_id: str, index: int, spec: PaneSpec
) -> Pane:
    """The pane ready to call; `ValidationFailed` naming the pane and the field otherwise."""
    _parameters(index, spec)
    asset: Asset | None = None
    if spec.prompt_version_id is not None:
        version, asset = await _saved(session, workspace_id, index, spec.prompt_version_id)
        messages = list(version.content["messages"])
        variables = list(version.variables)
        key = version.id
    else:
        if spec.messages is None:
            raise ValidationFailed(
                f"{_pane_name(index)}: choose a prompt version or write the messages.",
                field=_where(index, "messages"),
            )
        messages, variables = _draft(index, spec.messages)
        canonical = json.dumps(messages, sort_keys=True, ensure_ascii=False)
        key = "draft:" + hashlib.sha256(canonical.encode()).hexdigest()
        if spec.asset_id is not None:
            try:
                asset = await assets.get(
                    session=session, workspace_id=workspace_id, asset_id=spec.asset_id
                )
            except NotFound:
                asset = None
            if asset is None or asset.kind != AssetKind.PROMPT_TEMPLATE:
                raise ValidationFailed(
                    f"{_pane_name(index)}: that prompt is not one of this workspace's.",
                    field=_where(index, "assetId"),
                )
    connection = await _connection(session, workspace_id, index, spec.connection_id)
    return Pane(
        index=index,
        template_key=key,
        messages=messages,
        variables=variables,
        connection=connection,
        model=spec.model.strip(),
        max_tokens=spec.max_tokens,
        temperature=spec.temperature,
        asset=asset,
    )
