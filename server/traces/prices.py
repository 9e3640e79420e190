"""The workspace's model prices, which traces' LLM steps are priced with (`setModelPrices`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from server.audit import service as audit
from server.db import utcnow
from server.errors import ValidationFailed
from server.money import cents_to_micros
from server.traces.models import ModelPrice
from server.validation import clean_name
from server.workspaces.roles import Actor, Role

MAX_PRICES = 1_000


@dataclass(frozen=True, slots=True)
class PriceInput:
    model: str
    input_cents_per_million_tokens: float
    output_cents_per_million_tokens: float


async def get_all(*, session: AsyncSession, workspace_id: str) -> list[ModelPrice]:
    rows = await session.execute(
        select(ModelPrice).where(ModelPrice.workspace_id == workspace_id).order_by(ModelPrice.model)
    )
    return list(rows.scalars())


async def set_prices(
    *, session: AsyncSession, actor: Actor, prices: Sequence[PriceInput]
) -> list[ModelPrice]:
    """Set each model's price (ADMIN); models not named keep theirs."""
    actor.require(Role.ADMIN)
    if len(prices) > MAX_PRICES:
        raise ValidationFailed(f"at most {MAX_PRICES} prices at once", field="prices")
    cleaned = {}
    for index, price in enumerate(prices):
        where = f"prices[{index}]"
        model = clean_name(price.model, field=f"{where}.model")
        cleaned[model] = (
            cents_to_micros(
                price.input_cents_per_million_tokens, field=f"{where}.inputCentsPerMillionTokens"
            ),
            cents_to_micros(
                price.output_cents_per_million_tokens,
                field=f"{where}.outputCentsPerMillionTokens",
            ),
        )
    if cleaned:
        await session.execute(
            delete(ModelPrice).where(
                ModelPrice.workspace_id == actor.workspace_id,
                ModelPrice.model.in_(list(cleaned)),
            )
        )
        now = utcnow()
        session.add_all(
            ModelPrice(
                workspace_id=actor.workspace_id,
                model=model,
                input_micros_per_million_tokens=inp,
                output_micros_per_million_tokens=out,
                updated_at=now,
            )
            for model, (inp, out) in cleaned.items()
        )
        await session.flush()
    await audit.record(
        session=session,
        actor=actor,
        action="model_prices.set",
        target_type="workspace",
        target_id=actor.workspace_id,
        details={"models": sorted(cleaned)},
    )
    return await get_all(session=session, workspace_id=actor.workspace_id)
