"""Choosing traces for a dataset: a seeded order, de-duplication on the normalized input, and
a sample stratified by a key with at least one trace a stratum (docs/traces.md). Pure: no I/O.

The order is each trace id's blake2b hash under the seed, so the same seed over the same
traces gives the same cases, and a trace arriving later does not reshuffle the others.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple


class Candidate(NamedTuple):
    """A matched trace (a tuple: 100,000 of them are made per request)."""

    trace_id: str
    stratum: str | None
    input: str | None
    """The text de-duplication compares (the trace's first user message)."""


@dataclass(frozen=True, slots=True)
class Stratum:
    key: str | None
    matched: int
    taken: int


@dataclass(frozen=True, slots=True)
class Sample:
    trace_ids: list[str]
    """The chosen traces in the seeded order."""
    matched: int
    duplicates: int
    without_input: int
    strata: list[Stratum]


def normalized(text: str) -> str:
    """Case folded, runs of whitespace as one space, trimmed; digits and punctuation kept."""
    return " ".join(text.casefold().split())


def order_key(seed: int, trace_id: str) -> bytes:
    return hashlib.blake2b(f"{seed}:{trace_id}".encode(), digest_size=8).digest()


def allocate(sizes: dict[str | None, int], size: int) -> dict[str | None, int]:
    """How many to take from each stratum: proportional to its size (largest remainders), at
    least one from each, `size` in all when there are no more strata than that."""
    total = sum(sizes.values())
    if size >= total:
        return dict(sizes)
    keys = sorted(sizes, key=lambda k: (k is None, k or ""))
    exact = {k: size * sizes[k] / total for k in keys}
    taken = {k: int(exact[k]) for k in keys}
    left = size - sum(taken.values())
    for k in sorted(keys, key=lambda k: -(exact[k] - taken[k]))[:left]:
        taken[k] += 1
    for k in keys:
        taken[k] = max(taken[k], 1)
    while sum(taken.values()) > size:
        reducible = [k for k in keys if taken[k] > 1]
        if not reducible:
            break
        taken[max(reducible, key=lambda k: (taken[k] - exact[k], taken[k]))] -= 1
    return taken


def choose(candidates: Sequence[Candidate], *, size: int, seed: int, dedupe: bool) -> Sample:
    """Up to `size` traces (more only when there are more strata than that: one each)."""
    ordered = sorted(candidates, key=lambda c: order_key(seed, c.trace_id))
    seen: set[str] = set()
    kept: dict[str | None, list[str]] = {}
    matched: dict[str | None, int] = {}
    duplicates = without_input = 0
    for candidate in ordered:
        matched[candidate.stratum] = matched.get(candidate.stratum, 0) + 1
        if not candidate.input or not candidate.input.strip():
            without_input += 1
            continue
        if dedupe:
            key = normalized(candidate.input)
            if key in seen:
                duplicates += 1
                continue
            seen.add(key)
        kept.setdefault(candidate.stratum, []).append(candidate.trace_id)
    quotas = allocate({k: len(v) for k, v in kept.items()}, size)
    chosen = {trace_id for k, ids in kept.items() for trace_id in ids[: quotas[k]]}
    strata = [
        Stratum(key=k, matched=n, taken=quotas.get(k, 0))
        for k, n in sorted(matched.items(), key=lambda item: (-item[1], item[0] or ""))
    ]
    return Sample(
        trace_ids=[c.trace_id for c in ordered if c.trace_id in chosen],
        matched=len(ordered),
        duplicates=duplicates,
        without_input=without_input,
        strata=strata,
    )
