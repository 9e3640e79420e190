"""What dispatch asks of a model provider, and the one bounded enum of dispatch error codes."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol


class DispatchError(StrEnum):
    """Every error a trial or a comparison can record: never provider text (docs/errors.md)."""

    PROVIDER_TIMEOUT = "provider_timeout"
    PROVIDER_RATE_LIMITED = "provider_rate_limited"
    PROVIDER_SERVER_ERROR = "provider_server_error"
    PROVIDER_CLIENT_ERROR = "provider_client_error"
    PROVIDER_UNREACHABLE = "provider_unreachable"
    PROVIDER_MALFORMED_RESPONSE = "provider_malformed_response"
    TEMPLATE_RENDER_FAILED = "template_render_failed"
    SIMULATED_ERROR = "simulated_error"
    JUDGE_GRADE_UNPARSEABLE = "judge_grade_unparseable"
    CONNECTION_NOT_READY = "connection_not_ready"
    TRIAL_OUTCOME_AMBIGUOUS = "outcome_ambiguous"
    """A trial's call was admitted but its outcome never committed (a crash): never re-sent,
    closed as failed-or-missing under `ambiguousOutcomes: COUNT_AS_MISSING`."""
    OUTCOME_AMBIGUOUS = "comparison_dispatch_outcome_ambiguous"
    """A call was admitted but its outcome never committed (a crash): never re-sent; the
    comparison's code under `ambiguousOutcomes: FAIL_RUN`."""
    DISPATCH_INTERNAL = "comparison_dispatch_internal"


@dataclass(frozen=True, slots=True)
class ModelCall:
    """One provider request, fully rendered; headers identify the trial and the delivery."""

    messages: list[dict[str, Any]]
    model: str
    max_output_tokens: int
    temperature: float | None = None
    tools: list[dict[str, Any]] | None = None
    params: dict[str, Any] = field(default_factory=dict)
    trial_header: str = ""
    """`X-Shipwise-Trial: <comparison>/<cohort>/<case>/<trial>`."""
    delivery_header: str = ""
    """`X-Shipwise-Delivery`: the dispatch delivery that admitted the call."""
    case_key: str = ""
    """The dataset item id: a SIMULATED connection's per-case script is keyed by it."""
    expected: Any = None
    """The case's expected answer: a SIMULATED connection answers it when it 'passes'."""


@dataclass(frozen=True, slots=True)
class CallResult:
    """The outcome of a call after retries; `error` set means failed-or-missing."""

    output: str | None
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    input_tokens: int = 0
    output_tokens: int = 0
    latency_ms: int = 0
    attempts: int = 1
    error: DispatchError | None = None


class Provider(Protocol):
    """A connection's client; `call` retries inside and never raises for provider faults."""

    async def call(self, request: ModelCall) -> CallResult: ...

    async def aclose(self) -> None: ...
