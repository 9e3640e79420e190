"""Cost in integer micro-dollars and token estimates (characters ÷ 4)."""

from __future__ import annotations

from typing import Any

import pytest

from server.providers.pricing import (
    Rates,
    call_cost,
    cost_micros,
    estimate_input_tokens,
    estimate_output_tokens,
    estimate_tokens,
)


@pytest.mark.parametrize(
    ("tokens_in", "tokens_out", "price_in", "price_out", "micros"),
    [
        (0, 0, 5_000_000, 15_000_000, 0),
        (1_000_000, 0, 2_500_000, 0, 2_500_000),
        (0, 1_000_000, 0, 10_000_000, 10_000_000),
        (1, 0, 500_000, 0, 1),  # exactly half a micro rounds up
        (1, 0, 499_999, 0, 0),
        (3, 0, 500_000, 0, 2),  # 1.5 → 2
        (1, 1, 250_000, 250_000, 1),  # the halves add up before rounding
        (1234, 567, 150_000, 600_000, 525),  # 185.1 + 340.2 = 525.3
        (10**9, 10**9, 10**12, 10**12, 2 * 10**15),  # big values stay exact
    ],
)
def test_cost_micros(
    tokens_in: int, tokens_out: int, price_in: int, price_out: int, micros: int
) -> None:
    assert cost_micros(tokens_in, tokens_out, price_in, price_out) == micros


@pytest.mark.parametrize(("text", "tokens"), [("", 0), ("a", 1), ("abcd", 1), ("abcde", 2)])
def test_estimate_tokens(text: str, tokens: int) -> None:
    assert estimate_tokens(text) == tokens


@pytest.mark.parametrize(
    ("messages", "tokens"),
    [
        ([], 0),
        ([{"role": "user", "content": "abcd"}, {"role": "system", "content": "e"}], 2),
        ([{"role": "assistant", "content": None}], 0),
        ([{"role": "user", "content": [{"type": "text", "text": "hi"}]}], 8),  # its JSON
    ],
)
def test_estimate_input_tokens(messages: list[dict[str, Any]], tokens: int) -> None:
    assert estimate_input_tokens(messages) == tokens


def test_estimate_output_tokens_counts_tool_calls() -> None:
    assert estimate_output_tokens("abcd", []) == 1
    assert estimate_output_tokens(None, [{"name": "s", "arguments": {}}]) == 8


def test_call_cost_applies_a_connections_prices() -> None:
    rates = Rates(input_micros_per_million_tokens=2_500_000, output_micros_per_million_tokens=10)
    assert call_cost(rates, input_tokens=1_000, output_tokens=3) == cost_micros(
        1_000, 3, 2_500_000, 10
    )
