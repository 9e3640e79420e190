"""GraphQL types of model connections; the provider key is never a field, only `hasApiKey`."""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypeAlias, cast

import strawberry
from strawberry.scalars import JSON

from server.api.context import Context
from server.connections.checks import status_message
from server.connections.models import ConnectionKind as ConnectionKindEnum
from server.connections.models import ConnectionStatus as ConnectionStatusEnum
from server.connections.models import ModelConnection as ModelConnectionRow
from server.connections.service import Simulation as SimulationValue
from server.money import micros_to_cents, optional_micros_to_cents

strawberry.enum(ConnectionKindEnum, name="ConnectionKind")
ConnectionKind: TypeAlias = ConnectionKindEnum
strawberry.enum(ConnectionStatusEnum, name="ConnectionStatus")
ConnectionStatus: TypeAlias = ConnectionStatusEnum


@strawberry.type(description="How a SIMULATED connection answers; deterministic by `seed`.")
class Simulation:
    seed: int
    accuracy: float = strawberry.field(description="Share of cases answered correctly, 0–1.")
    latency_ms: int
    error_rate: float = strawberry.field(description="Share of calls that fail, 0–1.")
    script: JSON | None = strawberry.field(
        description="Scripted outputs keyed by datasetItemId, if any."
    )

    @classmethod
    def from_stored(cls, stored: dict[str, Any]) -> Simulation:
        return cls(
            seed=int(stored["seed"]),
            accuracy=float(stored["accuracy"]),
            latency_ms=int(stored["latencyMs"]),
            error_rate=float(stored["errorRate"]),
            script=cast(JSON, stored.get("script")),
        )


@strawberry.type
class ModelConnection:
    id: strawberry.ID
    name: str
    kind: ConnectionKind
    base_url: str | None
    has_api_key: bool = strawberry.field(description="The key itself is write-only.")
    header_names: list[str] = strawberry.field(
        description="The extra request headers' names; their values are write-only."
    )
    simulated: bool = strawberry.field(description="True for a SIMULATED connection.")
    input_cents_per_million_tokens: float
    output_cents_per_million_tokens: float
    monthly_cap_cents: float | None
    max_concurrency: int
    status: ConnectionStatus
    status_message: str = strawberry.field(
        description="The status and why, in words (never the provider's text)."
    )
    checked_at: datetime | None
    simulation: Simulation | None
    created_at: datetime

    @strawberry.field(description="Spend this calendar month (UTC), derived from model calls.")
    async def month_to_date_spent_cents(self, info: strawberry.Info[Context]) -> float:
        micros = await info.context.loaders.connection_spend.load(str(self.id))
        return micros_to_cents(micros)

    @classmethod
    def from_row(cls, row: ModelConnectionRow) -> ModelConnection:
        return cls(
            id=strawberry.ID(row.id),
            name=row.name,
            kind=row.kind,
            base_url=row.base_url,
            has_api_key=row.api_key_encrypted is not None,
            header_names=list(row.header_names or []),
            simulated=row.kind == ConnectionKindEnum.SIMULATED,
            input_cents_per_million_tokens=micros_to_cents(row.input_micros_per_million_tokens),
            output_cents_per_million_tokens=micros_to_cents(row.output_micros_per_million_tokens),
            monthly_cap_cents=optional_micros_to_cents(row.monthly_cap_micros),
            max_concurrency=row.max_concurrency,
            status=row.status,
            status_message=status_message(row.status, row.check_reason, row.check_http_status),
            checked_at=row.checked_at,
            simulation=Simulation.from_stored(row.simulation) if row.simulation else None,
            created_at=row.created_at,
        )


@strawberry.input(description="A SIMULATED connection's behaviour; every field has a default.")
class SimulationInput:
    seed: int = 0
    accuracy: float = 0.8
    latency_ms: int = 0
    error_rate: float = 0.0
    script: JSON | None = strawberry.field(
        default=None, description="Per-case scripted outputs keyed by datasetItemId."
    )

    def to_value(self) -> SimulationValue:
        return SimulationValue(
            seed=self.seed,
            accuracy=self.accuracy,
            latency_ms=self.latency_ms,
            error_rate=self.error_rate,
            script=self.script,
        )


@strawberry.input(description="An extra request header; the value is write-only.")
class HeaderInput:
    name: str
    value: str


@strawberry.input
class CreateModelConnectionInput:
    name: str
    kind: ConnectionKind
    base_url: str | None = strawberry.field(
        default=None,
        description="OPENAI_COMPATIBLE: the URL that `/models` and `/chat/completions` hang "
        "off, e.g. `https://api.openai.com/v1`. ANTHROPIC: the Messages API's, "
        "`https://api.anthropic.com` when omitted.",
    )
    api_key: str | None = strawberry.field(
        default=None,
        description="Not SIMULATED: sent as `Authorization: Bearer` (OPENAI_COMPATIBLE) or "
        "`x-api-key` (ANTHROPIC); stored encrypted, never returned.",
    )
    headers: list[HeaderInput] | None = strawberry.field(
        default=None,
        description="Not SIMULATED: extra headers on every request (Azure's `api-key`, "
        "`anthropic-beta`); values stored encrypted, never returned.",
    )
    input_cents_per_million_tokens: float = 0.0
    output_cents_per_million_tokens: float = 0.0
    monthly_cap_cents: float | None = None
    max_concurrency: int = strawberry.field(default=8, description="1–256 calls at once.")
    simulation: SimulationInput | None = strawberry.field(
        default=None, description="SIMULATED only; defaults when omitted."
    )
