"""What bench/soak.py asserts once its load is over: each one a list of failures (empty when
it holds) besides the figures it prints."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

import httpx
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import func, select

from bench.harness import emit
from server.comparisons.models import Comparison, ComparisonStatus, StopReason, Trial, TrialState
from server.verdicts.models import ComparisonVerdict, VerdictState

AMBIGUOUS = "outcome_ambiguous"
"""The trial error code of a call admitted but never recorded (docs/domain.md, "Dispatch"):
the one a worker killed mid-call explains."""
READ_P99_MS = 250.0
RSS_GROWTH_MB = 50.0


@dataclass(frozen=True)
class Window:
    """A fault: from it to a grace past its repair (`time.time()`); the comparisons running
    when it struck."""

    name: str
    start: float
    end: float
    running: tuple[str, ...]

    def holds(self, at: float, until: float | None = None) -> bool:
        return at <= self.end and (until if until is not None else at) >= self.start


def _inside(windows: list[Window], at: float, until: float | None = None) -> str | None:
    return next((w.name for w in windows if w.holds(at, until)), None)


async def _finalized(maker: Any, ids: list[str], seconds: float) -> set[str]:
    deadline = time.monotonic() + seconds
    while True:
        async with maker() as session:
            done = set(
                await session.scalars(
                    select(ComparisonVerdict.comparison_id).where(
                        ComparisonVerdict.comparison_id.in_(ids),
                        ComparisonVerdict.state == VerdictState.FINALIZED,
                    )
                )
            )
        if len(done) == len(ids) or time.monotonic() > deadline:
            return done
        await asyncio.sleep(0.5)


async def check_comparisons(
    maker: Any, ids: list[str], *, fake_root: str, windows: list[Window], drain_seconds: float
) -> list[str]:
    """DONE and FINALIZED; rows = planned = done calls; the fake's log agrees; trial error
    codes only those the worker kill explains."""
    failures = []
    finalized = await _finalized(maker, ids, drain_seconds)
    killed = {i for w in windows if w.name == "worker kill" for i in w.running}
    codes: Counter[str] = Counter()
    async with httpx.AsyncClient(base_url=fake_root, timeout=120) as fake:
        for comparison_id in ids:
            async with maker() as session:
                row = await session.get(Comparison, comparison_id)
                assert row is not None
                states = dict(
                    (await session.execute(
                        select(Trial.state, func.count())
                        .where(Trial.comparison_id == comparison_id).group_by(Trial.state)
                    )).tuples().all()
                )  # fmt: skip
                errors = dict(
                    (await session.execute(
                        select(Trial.error_code, func.count())
                        .where(Trial.comparison_id == comparison_id, Trial.error_code.is_not(None))
                        .group_by(Trial.error_code)
                    )).tuples().all()
                )  # fmt: skip
            log = (await fake.get("/log", params={"comparison": comparison_id + "/"})).json()
            rows = sum(states.values())
            ambiguous = errors.get(AMBIGUOUS, 0)
            codes.update({str(k): v for k, v in errors.items()})
            what = f"{comparison_id}:"
            if (row.status, row.stop_reason) != (ComparisonStatus.DONE, StopReason.COMPLETED):
                failures.append(f"{what} ended {row.status.value} {row.stop_reason}")
            if comparison_id not in finalized:
                failures.append(f"{what} verdict not FINALIZED")
            if TrialState.ADMITTED in states or not rows == row.total_calls == row.done_calls:
                failures.append(
                    f"{what} rows {rows} {dict(states)}, planned {row.total_calls}, "
                    f"done {row.done_calls}"
                )
            if row.failed_calls != states.get(TrialState.ERRORED, 0):
                failures.append(f"{what} failed {row.failed_calls}, rows ERRORED {states}")
            if log["answered_twice"]:
                failures.append(f"{what} {log['answered_twice']} trials answered twice")
            if not rows - ambiguous <= log["calls"] <= rows:
                failures.append(f"{what} the fake saw {log['calls']} calls for {rows} rows")
            unexplained = {
                k: n for k, n in errors.items() if k != AMBIGUOUS or comparison_id not in killed
            }
            if unexplained:
                failures.append(f"{what} trial error codes {unexplained}")
    emit(
        f"{len(ids)} comparisons: {len(finalized)} FINALIZED; trial error codes "
        f"{dict(codes) or 'none'}; {len(failures)} failures"
    )
    return failures


def _p99(values: list[float]) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def read_figures(
    reads: list[list[Any]],
    subs: dict[str, Any],
    starter_errors: list[tuple[float, str]],
    windows: list[Window],
    *,
    judge_p99: bool = True,
) -> tuple[dict[str, Any], list[str]]:
    """The readers' p99 outside and inside the windows, and every error code by where it
    fell; failures: p99 over the target outside (unless not `judge_p99`: a smoke run's
    figures measure nothing), or any code outside."""
    failures = []
    outside = [ms for at, ms, _, _ in reads if _inside(windows, at, at + ms / 1000) is None]
    inside = [ms for at, ms, _, _ in reads if _inside(windows, at, at + ms / 1000) is not None]
    p99 = _p99(outside)
    emit(
        f"readers: {len(reads):,} reads; p99 outside the fault windows {p99:.0f} ms over "
        f"{len(outside):,} (target ≤ {READ_P99_MS:.0f}), inside {_p99(inside):.0f} ms over "
        f"{len(inside):,}"
    )
    for name in sorted({name for *_, name in reads}):
        mine = [
            ms for at, ms, _, n in reads
            if n == name and _inside(windows, at, at + ms / 1000) is None
        ]  # fmt: skip
        emit(f"  {name}: p99 {_p99(mine):.0f} ms over {len(mine):,} outside the windows")
    for window in windows:
        emit(f"  window {window.name}: {window.end - window.start:.0f} s")
    if judge_p99 and p99 > READ_P99_MS:
        failures.append(f"read p99 outside the fault windows {p99:.0f} ms")
    events = [(at, code, "reader") for at, _, code, _ in reads if code is not None]
    events += [(at, code, "subscriber") for at, code in subs["errors"]]
    events += [(at, code, "starter") for at, code in starter_errors]
    where: Counter[tuple[str, str, str]] = Counter(
        (_inside(windows, at) or "outside", who, code) for at, code, who in events
    )
    for (place, who, code), n in sorted(where.items()):
        emit(f"  error code {code} × {n} ({who}, {place})")
        if place == "outside":
            failures.append(f"{n} × {code} ({who}) outside the fault windows")
    emit(
        f"subscribers: {subs['messages']:,} messages, {subs['followed']:,} comparisons "
        f"followed to their end, {len(subs['errors'])} errors"
    )
    figures = {
        "read_p99_ms": round(p99, 1),
        "read_p99_in_windows_ms": round(_p99(inside), 1),
        "reads": len(reads),
        "error_codes_outside": sum(n for (w, _, _), n in where.items() if w == "outside"),
        "subscriber_messages": subs["messages"],
    }
    return figures, failures


def rss_growth(
    rss: dict[str, list[tuple[float, float]]], started: dict[str, float]
) -> tuple[dict[str, float], list[str]]:
    """Per process: its largest RSS after its first minute less its RSS at that minute. A
    failure names the samples it was read from (the reference, the lowest and the largest
    later, seconds after the process started), so a dip in the reference shows as one."""
    growth, failures = {}, []
    for label, samples in rss.items():
        later = [(at - started[label], mb) for at, mb in samples if at >= started[label] + 60]
        if not later:
            continue
        growth[label] = max(mb for _, mb in later) - later[0][1]
        if growth[label] > RSS_GROWTH_MB:
            low, high = min(later, key=lambda s: s[1]), max(later, key=lambda s: s[1])
            failures.append(
                f"{label} grew {growth[label]:.0f} MB after its first minute "
                f"({later[0][1]:.0f} MB at {later[0][0]:.0f} s, lowest {low[1]:.0f} MB at "
                f"{low[0]:.0f} s, largest {high[1]:.0f} MB at {high[0]:.0f} s)"
            )
    return growth, failures


Buckets = dict[float, float]
"""A duration histogram's cumulative counts by upper bound in seconds (`le`)."""


def graphql_buckets(metrics_text: str) -> Buckets:
    """`/graphql`'s request-duration buckets from the API's `/metrics` text."""
    return {
        float(sample.labels["le"]): sample.value
        for family in text_string_to_metric_families(metrics_text)
        if family.name == "shipwise_http_request_seconds"
        for sample in family.samples
        if sample.name.endswith("_bucket") and sample.labels.get("path") == "/graphql"
    }


def server_read_p99(scrapes: list[tuple[float, Buckets]], windows: list[Window]) -> float | None:
    """The API's own `/graphql` p99 outside the fault windows, in seconds: the upper bound of
    the histogram bucket that holds it, over the requests between consecutive scrapes of
    `/metrics` when no window touches that interval (None when there are none). The readers'
    p99 adds their client's time on the shared cores to it."""
    outside: Counter[float] = Counter()
    for (at, before), (until, after) in zip(scrapes, scrapes[1:], strict=False):
        if _inside(windows, at, until) is None:
            outside.update({le: after.get(le, 0.0) - before.get(le, 0.0) for le in after})
    total = outside.get(float("inf"), 0.0)
    if total <= 0:
        return None
    return next(le for le in sorted(outside) if outside[le] >= 0.99 * total)
