"""What a call costs, in integer micro-dollars, and token estimates without a tokenizer.

Prices are micro-dollars per million tokens (docs/domain.md). Where a bound is needed, or a
provider reports no usage, tokens are estimated as characters ÷ 4, rounded up.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

CHARS_PER_TOKEN = 4
TOKENS_PER_PRICE_UNIT = 1_000_000


def cost_micros(
    input_tokens: int,
    output_tokens: int,
    input_micros_per_million: int,
    output_micros_per_million: int,
) -> int:
    """Micro-dollars for a call: tokens × price ÷ 1,000,000, rounded half up, integers only."""
    scaled = input_tokens * input_micros_per_million + output_tokens * output_micros_per_million
    # Integer floor division after adding half the divisor rounds half up without floats.
    return (scaled + TOKENS_PER_PRICE_UNIT // 2) // TOKENS_PER_PRICE_UNIT


class Prices(Protocol):
    """A connection's prices, micro-dollars per million tokens (`ModelConnection`)."""

    @property
    def input_micros_per_million_tokens(self) -> int: ...

    @property
    def output_micros_per_million_tokens(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Rates:
    """Prices copied off a connection row, for a meter that outlives its session."""

    input_micros_per_million_tokens: int
    output_micros_per_million_tokens: int


def call_cost(prices: Prices, *, input_tokens: int, output_tokens: int) -> int:
    """What one call at `prices` costs: the one price computation (trials, judges, bounds)."""
    return cost_micros(
        input_tokens,
        output_tokens,
        prices.input_micros_per_million_tokens,
        prices.output_micros_per_million_tokens,
    )


def estimate_tokens(text: str) -> int:
    """Characters ÷ 4, rounded up (0 for an empty text)."""
    return -(-len(text) // CHARS_PER_TOKEN)


def _content_text(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    # Content parts, a list of turns or an object: count what would travel as JSON.
    return json.dumps(content, ensure_ascii=False, default=str)


def estimate_input_tokens(messages: Iterable[Mapping[str, Any]]) -> int:
    """The characters of every message's content ÷ 4, rounded up."""
    return estimate_tokens("".join(_content_text(m.get("content")) for m in messages))


def estimate_output_tokens(output: str | None, tool_calls: Iterable[Mapping[str, Any]]) -> int:
    """The characters of the answer and its tool calls ÷ 4, rounded up."""
    calls = list(tool_calls)
    text = (output or "") + (json.dumps(calls, ensure_ascii=False, default=str) if calls else "")
    return estimate_tokens(text)
