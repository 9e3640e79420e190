"""Judging one pair in both orders, with retries, into a score or failure diagnostics.

Forward: the baseline's output is A, the treatment's B; reverse: swapped. Both scores
are the treatment's (docs/statistics.md combines them). A retryable failure (timeout, 429,
connection) is retried up to 2 times with exponential backoff, 3 attempts in all, the
dispatch policy; any other failure is terminal. A direction that recovered on a retry is
indistinguishable from a clean one: attempts are kept only for failures.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from tenacity import AsyncRetrying, RetryCallState, retry_if_exception, stop_after_attempt

from server.judges.client import BAD_REPLY, JudgeError
from server.judges.pair_prompt import pairwise_messages, parse_verdict
from server.providers.openai_compatible import backoff_delay

MAX_ATTEMPTS: Final = 3
DEFAULT_CONCURRENCY: Final = 8
"""Pairs judged at once; each has its two orders in flight (the client pools 16)."""

Complete = Callable[[list[dict[str, str]]], Awaitable[str]]
Sleep = Callable[[float], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class PairInput:
    """What the judge sees of one pair: the task and the two outputs."""

    case_input: Any
    baseline_output: Any
    treatment_output: Any
    baseline_trajectory: str | None = None
    """The baseline trial's trajectory as evidence (`pair_evidence.render_trajectory`)."""
    treatment_trajectory: str | None = None


@dataclass(frozen=True, slots=True)
class DirectionFailure:
    """Why one order could not be judged, after `attempts` attempts."""

    error_class: str
    retryable: bool
    attempts: int
    message: str


@dataclass(frozen=True, slots=True)
class PairFailure:
    """A failed pair: the representative direction's error, and the sibling's if different.

    The pair is retryable only when every failed direction was retryable (seed 004).
    """

    error_class: str
    retryable: bool
    attempts: int
    message: str
    model: str
    other_messages: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        """The `failure` field of a pair in the `--output` records."""
        record: dict[str, Any] = {
            "errorClass": self.error_class,
            "retryable": self.retryable,
            "attempts": self.attempts,
            "message": self.message,
            "model": self.model,
        }
        if self.other_messages:
            record["otherMessages"] = list(self.other_messages)
        return record


@dataclass(frozen=True, slots=True)
class PairJudgment:
    """The treatment's score in each order, or the failure (then both scores are None)."""

    forward: float | None
    reverse: float | None
    failure: PairFailure | None = None


@dataclass(frozen=True, slots=True)
class PairJudge:
    """Judges pairs with one judge: `complete` sends one chat completion (one attempt)."""

    complete: Complete
    model: str
    rubric: str
    max_attempts: int = MAX_ATTEMPTS
    sleep: Sleep = asyncio.sleep

    async def judge(self, pair: PairInput) -> PairJudgment:
        """Both orders, concurrently; a failure in either fails the pair."""
        baseline = (pair.baseline_output, pair.baseline_trajectory)
        treatment = (pair.treatment_output, pair.treatment_trajectory)
        forward, reverse = await asyncio.gather(
            self._direction(pair.case_input, baseline, treatment),
            self._direction(pair.case_input, treatment, baseline),
        )
        failures = [f for f in (forward, reverse) if isinstance(f, DirectionFailure)]
        if not failures:
            assert isinstance(forward, float) and isinstance(reverse, float)
            # Forward has the treatment as B: its score is minus A's.
            return PairJudgment(forward=-forward + 0.0, reverse=reverse)
        return PairJudgment(None, None, self._failure(failures))

    async def judge_all(
        self, pairs: Sequence[PairInput], *, concurrency: int = DEFAULT_CONCURRENCY
    ) -> list[PairJudgment]:
        """Every pair, at most `concurrency` pairs at once, in input order."""
        gate = asyncio.Semaphore(max(1, concurrency))

        async def one(pair: PairInput) -> PairJudgment:
            async with gate:
                return await self.judge(pair)

        return list(await asyncio.gather(*(one(pair) for pair in pairs)))

    async def _direction(
        self, case_input: Any, a: tuple[Any, str | None], b: tuple[Any, str | None]
    ) -> float | DirectionFailure:
        """Response A's score in this order (each side: its output and its trajectory's
        evidence), or why it could not be had."""
        messages = pairwise_messages(
            rubric=self.rubric,
            case_input=case_input,
            a=a[0],
            b=b[0],
            a_trajectory=a[1],
            b_trajectory=b[1],
        )
        made = 0

        async def attempt() -> float:
            nonlocal made
            made += 1
            score = parse_verdict(await self.complete(messages))
            if score is None:
                raise JudgeError(BAD_REPLY, "the judge's reply names no verdict", retryable=False)
            return score

        def wait(state: RetryCallState) -> float:
            failed = state.outcome.exception() if state.outcome is not None else None
            asked = failed.retry_after if isinstance(failed, JudgeError) else None
            return backoff_delay(state.attempt_number - 1, asked)

        try:
            return float(
                await AsyncRetrying(  # the service's one retry policy (server.retrying)
                    stop=stop_after_attempt(self.max_attempts),
                    retry=retry_if_exception(lambda e: isinstance(e, JudgeError) and e.retryable),
                    wait=wait,
                    sleep=self.sleep,
                    reraise=True,
                )(attempt)
            )
        except JudgeError as exc:
            return DirectionFailure(exc.error_class, exc.retryable, made, exc.message)

    def _failure(self, failures: list[DirectionFailure]) -> PairFailure:
        first = failures[0]
        others = tuple(dict.fromkeys(f.message for f in failures[1:] if f.message != first.message))
        return PairFailure(
            error_class=first.error_class,
            retryable=all(f.retryable for f in failures),
            attempts=first.attempts,
            message=first.message,
            model=self.model,
            other_messages=others,
        )
