"""Job: one delivery of a RUNNING comparison's dispatch (`server.dispatch`)."""

from __future__ import annotations

from typing import Any

from server.dispatch.dispatcher import deliver


async def dispatch_comparison(
    ctx: dict[str, Any], comparison_id: str, join: int | None = None
) -> str:
    """arq job: one delivery of a comparison's dispatch (`join`: it came as a join job)."""
    return await deliver(
        comparison_id=comparison_id,
        sessionmaker=ctx["sessionmaker"],
        settings=ctx["settings"],
        queue=ctx["queue"],
        events=ctx["events"],
        providers=ctx["providers"],
        slots=ctx.get("slots"),
        stopping=ctx.get("stopping"),
        registry=ctx.get("dispatching"),
        join=join,
    )
