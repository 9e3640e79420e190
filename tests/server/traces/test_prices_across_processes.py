"""Each API process keeps the workspaces' model prices it read (server/traces/price_book.py)
and checks, in the transaction that stores an export, that they are still the committed
ones: prices set through another process price the very next export here, small or large
(prepared on the loop or in a worker process), and an export is never priced with prices
from before the last `setModelPrices` that committed before it was stored."""

from __future__ import annotations

import json

from bench.kit.factories import WorkspaceFixture, make_workspace
from bench.kit.harness import Backend, start_backend
from server.traces.preparer import INLINE_BYTES
from server.workspaces.roles import Role
from tests.server.traces.otlp_bodies import SpanSpec, export, new_trace_id, post, read_trace

PRICES = "mutation($p: [ModelPriceInput!]!) { setModelPrices(prices: $p) { model } }"
PADDING = "order A-7 shipped on Monday; " * 10_000
"""~290 KB: an export with it is prepared in a worker process."""


async def set_price(backend: Backend, ws: WorkspaceFixture, cents_in: float) -> None:
    price = {
        "model": "gpt-a",
        "inputCentsPerMillionTokens": cents_in,
        "outputCentsPerMillionTokens": 1_000_000.0,
    }
    (await backend.gql(PRICES, {"p": [price]}, token=ws.tokens[Role.ADMIN])).ok()


async def cost_of_new_trace(
    backend: Backend, ws: WorkspaceFixture, *, large: bool = False
) -> float | None:
    """A one-call trace (10 tokens in, 4 out) posted here; its step's cost as stored."""
    trace_id = new_trace_id()
    attributes: dict[str, object] = {
        "gen_ai.operation.name": "chat",
        "gen_ai.request.model": "gpt-a",
        "gen_ai.usage.input_tokens": 10,
        "gen_ai.usage.output_tokens": 4,
        "gen_ai.input.messages": json.dumps(
            [{"role": "user", "parts": [{"type": "text", "content": "hi"}]}]
        ),
    }
    if large:
        attributes["padding"] = PADDING
    body = export([SpanSpec(trace_id, "chat", attributes=attributes)]).SerializeToString()
    assert (len(body) > INLINE_BYTES) == large
    posted = await post(backend, body, token=ws.tokens[Role.MEMBER])
    assert posted.status == 200, (posted.status, posted.body[:300])
    trace = await read_trace(backend, trace_id, token=ws.owner)
    cost: float | None = trace["steps"][0]["costCents"]
    assert trace["costCents"] == (cost or 0.0)
    return cost


async def test_prices_set_in_another_process_price_the_next_export(
    postgres_backend: Backend,
) -> None:
    here = postgres_backend
    ws = await make_workspace(here.sessionmaker)
    async with start_backend("postgres-other", here.settings) as there:
        # both processes have read the workspace's prices (none) and keep them
        assert await cost_of_new_trace(here, ws) is None
        assert await cost_of_new_trace(there, ws, large=True) is None

        await set_price(there, ws, 250_000.0)  # 0.25 ¢ a token in, 1 ¢ out
        assert await cost_of_new_trace(here, ws) == 6.5  # 10 × 0.25 + 4 × 1
        assert await cost_of_new_trace(here, ws, large=True) == 6.5

        await set_price(here, ws, 50_000.0)  # 0.05 ¢ a token in
        assert await cost_of_new_trace(there, ws, large=True) == 4.5  # 10 × 0.05 + 4 × 1
        assert await cost_of_new_trace(there, ws) == 4.5
        assert await cost_of_new_trace(here, ws) == 4.5
