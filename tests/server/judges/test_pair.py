"""The judge client and pair judging against the fake judge: orders, retries, backoff."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest

from server.judges.client import JudgeClient
from server.judges.pair import PairInput, PairJudge
from server.judges.pair_prompt import render_input
from tests.fakes.judge_server import FakeJudge, responses


@pytest.fixture(scope="module")
def fake() -> Iterator[FakeJudge]:
    with FakeJudge(prefer_a=True, slow_seconds=0.5) as judge:
        yield judge


@pytest.fixture
async def client(fake: FakeJudge) -> AsyncIterator[JudgeClient]:
    fake.reset()
    judge = JudgeClient(base_url=fake.base_url, model="judge-1", timeout_seconds=0.2)
    try:
        yield judge
    finally:
        await judge.aclose()


class Sleeps:
    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)


def _judge(client: JudgeClient, sleeps: Sleeps) -> PairJudge:
    return PairJudge(complete=client.complete, model="judge-1", rubric="r", sleep=sleeps)


async def test_both_orders_with_swapped_positions(fake: FakeJudge, client: JudgeClient) -> None:
    judged = await _judge(client, Sleeps()).judge(
        PairInput("task", "quality=1 base", "quality=3 treat")
    )
    assert (judged.forward, judged.reverse, judged.failure) == (1.0, 1.0, None)
    shown = sorted(responses(r.body) for r in fake.requests)
    assert shown == [("quality=1 base", "quality=3 treat"), ("quality=3 treat", "quality=1 base")]


async def test_position_bias_on_equal_outputs_is_an_order_disagreement(
    client: JudgeClient,
) -> None:
    judged = await _judge(client, Sleeps()).judge(PairInput("task", "quality=2", "quality=2"))
    assert (judged.forward, judged.reverse) == (-0.4, 0.4)


@pytest.mark.parametrize(
    ("marker", "error_class", "retryable", "attempts", "delays"),
    [
        ("[judge:429]", "rate_limited", True, 3, [0.5, 0.5, 1.0, 1.0]),
        ("[judge:slow]", "timeout", True, 3, [0.5, 0.5, 1.0, 1.0]),
        ("[judge:500]", "http_error", False, 1, []),
        ("[judge:404]", "http_error", False, 1, []),
        ("[judge:garbage]", "bad_reply", False, 1, []),
    ],
)
async def test_failures_retry_only_when_retryable(
    fake: FakeJudge,
    client: JudgeClient,
    marker: str,
    error_class: str,
    retryable: bool,
    attempts: int,
    delays: list[float],
) -> None:
    sleeps = Sleeps()
    judged = await _judge(client, sleeps).judge(
        PairInput("task", "quality=1", f"quality=2 {marker}")
    )
    assert judged.failure is not None and (judged.forward, judged.reverse) == (None, None)
    failure = judged.failure
    assert (failure.error_class, failure.retryable, failure.attempts) == (
        error_class,
        retryable,
        attempts,
    )
    assert failure.other_messages == ()  # both orders failed alike
    assert sorted(sleeps.delays) == delays  # 0.5 s, then 1 s, in each order
    assert len(fake.requests) == 2 * attempts


async def test_a_retry_that_recovers_leaves_no_trace(fake: FakeJudge, client: JudgeClient) -> None:
    sleeps = Sleeps()
    judged = await _judge(client, sleeps).judge(
        PairInput("task", "quality=1", "quality=2 [judge:429-once]")
    )
    assert (judged.forward, judged.reverse, judged.failure) == (0.4, 0.4, None)
    assert sleeps.delays == [0.5, 0.5] and len(fake.requests) == 4


async def test_judge_all_keeps_input_order(client: JudgeClient) -> None:
    pairs = [PairInput(f"t{i}", "quality=2", f"quality={q}") for i, q in enumerate([4, 0, 3, 2])]
    judged = await _judge(client, Sleeps()).judge_all(pairs, concurrency=2)
    assert [j.forward for j in judged] == [1.0, -1.0, 0.4, -0.4]


def test_a_conversation_is_rendered_whole() -> None:
    turns = [
        {"role": "user", "content": "I am Ada."},
        {"role": "assistant", "content": "Hi Ada."},
        {"role": "user", "content": {"text": "Who am I?"}},
    ]
    for value in (turns, {"messages": turns}, {"turns": turns}):
        text = render_input(value)
        assert text.startswith("A conversation of 3 turns, in full:")
        assert (
            '[1] user: I am Ada.\n[2] assistant: Hi Ada.\n[3] user: {"text": "Who am I?"}' in text
        )
    assert render_input({"question": "x"}) == '{"question": "x"}'
