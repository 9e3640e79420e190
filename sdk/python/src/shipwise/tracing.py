"""Each trial's spans, recorded by a span processor of the SDK's own (`pip install
"shipwise-client[otel]"`): no collector to run.

`shipwise.evaluate` runs each task call inside `trial()`; every span started in that call's
context (by any instrumentation: the GenAI conventions, OpenInference, OpenLLMetry) is kept
when it ends, and the call's trial is sent with them as its trajectory
(`shipwise.span_steps`), unless the task answered a trajectory itself. Without
OpenTelemetry installed, `trial()` records nothing and costs nothing.

The processor is added once to the global tracer provider (an SDK `TracerProvider`, made
and set when the process has none yet); `install(provider)` adds it to another.
"""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from shipwise.span_steps import step_of

MAX_SPANS = 1_000
"""Spans kept per trial (the server's bound on a trajectory's steps)."""

_current: contextvars.ContextVar[Recorder | None] = contextvars.ContextVar(
    "shipwise_trial_spans", default=None
)
_installed: set[int] = set()
_lock = threading.Lock()


class Recorder:
    """One trial's spans, in the order they ended."""

    def __init__(self) -> None:
        self.spans: list[Any] = []
        self.ids: set[int] = set()
        self._lock = threading.Lock()

    def started(self, span_id: int) -> None:
        with self._lock:
            self.ids.add(span_id)

    def ended(self, span: Any) -> None:
        with self._lock:
            if len(self.spans) < MAX_SPANS:
                self.spans.append(span)

    def steps(self) -> list[dict[str, Any]]:
        """The spans as steps, in start order."""
        with self._lock:
            spans = sorted(self.spans, key=lambda s: s.start_time or 0)
            ids = set(self.ids)
        return [step_of(span, ids) for span in spans]


_by_span: dict[int, Recorder] = {}
"""The recorder of each span started inside a trial and not yet ended."""


class TrialSpanProcessor:
    """An OpenTelemetry span processor: a span started inside a trial is kept by it."""

    def on_start(self, span: Any, parent_context: Any = None) -> None:  # noqa: ARG002
        recorder = _current.get()
        if recorder is not None:
            span_id = span.context.span_id
            recorder.started(span_id)
            with _lock:
                _by_span[span_id] = recorder

    def on_end(self, span: Any) -> None:
        with _lock:
            recorder = _by_span.pop(span.context.span_id, None)
        if recorder is not None:
            recorder.ended(span)

    def shutdown(self) -> None:
        return None

    def force_flush(self, timeout_millis: int = 30_000) -> bool:  # noqa: ARG002
        return True

    def _on_ending(self, span: Any) -> None:  # noqa: ARG002 (the SDK's newer hook)
        return None


def available() -> bool:
    try:
        import opentelemetry.sdk.trace  # noqa: F401
    except ImportError:
        return False
    return True


def install(provider: Any = None) -> bool:
    """Add the processor to `provider` (default: the global one, made if there is none);
    False when OpenTelemetry's SDK is not installed or the provider takes no processors."""
    if not available():
        return False
    from opentelemetry import trace
    from opentelemetry.sdk.trace import TracerProvider

    with _lock:
        if provider is None:
            provider = trace.get_tracer_provider()
            if not isinstance(provider, TracerProvider):
                provider = TracerProvider()
                trace.set_tracer_provider(provider)
                provider = trace.get_tracer_provider()
        if not hasattr(provider, "add_span_processor"):
            return False
        if id(provider) not in _installed:
            provider.add_span_processor(TrialSpanProcessor())
            _installed.add(id(provider))
    return True


@contextmanager
def trial() -> Iterator[Recorder]:
    """Record the spans started in this context (and contexts copied from it) until the end."""
    recorder = Recorder()
    token = _current.set(recorder)
    try:
        yield recorder
    finally:
        _current.reset(token)
